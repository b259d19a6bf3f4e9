/* archive.h - one student's archive (.zip, .tar, .tar.gz ... as LMS exports
 * give them), unpacked safely or refused with the reason.
 *
 * libarchive's bsdtar does the work (Debian: libarchive-tools).  First its
 * listing is checked: only regular files and folders (no symbolic or hard
 * links, devices, FIFOs), at most ARCHIVE_MAX_FILES entries and
 * ARCHIVE_MAX_BYTES in all.  Then it extracts in the sandbox (only the
 * destination writable, the archive read-only, an unprivileged uid when the
 * grader is root) under limits on time, file size and the folder's size;
 * bsdtar itself refuses absolute paths and "..".  Afterwards the tree is
 * walked again (nothing but files and folders) and handed to the grader
 * (owned by root, read-only to others) so no later sandboxed process can
 * change it.
 */
#ifndef GRADER_ARCHIVE_H
#define GRADER_ARCHIVE_H
#include <stddef.h>
#include "process/sandbox.h"

#define ARCHIVE_MAX_FILES 1000
#define ARCHIVE_MAX_BYTES (64LL << 20)

/* Is `name` an archive we unpack?  Returns the length of the name without
 * the extension (alice.tar.gz -> 5), 0 when not an archive. */
size_t archive_stem(const char *name);

/* Unpacks `archive` into `dest` (created; must not exist).  `scratch` is a
 * folder of the grader's for a private copy of the archive.  0, or -1 with
 * one line in why. */
int archive_unpack(sandbox *sb, const char *archive, const char *dest, const char *scratch, char *why, size_t len);

#endif
