/* submission.h - taking a submission's files, and nothing else.
 *
 * Only the files the lab's manifest names are copied, each checked to be a
 * regular file (symbolic links are refused, never followed), no larger than
 * SUBMISSION_MAX_BYTES.  A digest of what was taken identifies the
 * submission's content (a resumed batch regrades a submission that changed).
 */
#ifndef GRADER_SUBMISSION_H
#define GRADER_SUBMISSION_H
#include <stddef.h>
#include "model/model.h"
#include "util/strbuf.h"

#define SUBMISSION_MAX_BYTES (1u << 20)

/* Copies the manifest's student files from src_dir into dst_dir (NULL: only
 * computes the digest).  Problems
 * (missing file, symlink, too large, unreadable) are described in `problems`,
 * one line each; returns the number of files taken.  hash gets a 64-hex
 * digest of names and contents (FNV-1a based; an identity, not security). */
int submission_take(const manifest *m, const char *src_dir, const char *dst_dir, strbuf *problems, char hash[65]);

/* Recursively removes a folder (not following symlinks).  0 on success. */
int rm_rf(const char *path);
/* mkdir -p */
int mkdirs(const char *path, int mode);
/* mkdirs, and when it fails one line on stderr, "WHO: cannot create the
 * folder PATH: reason" (a full disk or a read-only place said, not a later
 * puzzle).  0, or -1. */
int mkdirs_said(const char *path, int mode, const char *who);
/* The names in a folder, "." files left out, sorted (strcmp): a NULL-ended
 * array for dir_names_free(), *n of them; NULL when unreadable. */
char **dir_names(const char *dir, size_t *n);
void dir_names_free(char **names);
/* Copies a regular file (kit files). 0 on success. */
int copy_file(const char *from, const char *to, int mode);

#endif
