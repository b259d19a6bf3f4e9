/* submission.h - taking a submission's files, and nothing else (files and
 * folders in general: util/fsutil.h).
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

#endif
