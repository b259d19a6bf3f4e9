/* fsutil.h - files and folders: made, removed, listed, copied, named.
 *
 * Nothing here knows a lab or a submission (grading/submission.h takes a
 * submission's files with copy_fd).
 */
#ifndef GRADER_FSUTIL_H
#define GRADER_FSUTIL_H
#include <stddef.h>
#include <stdint.h>

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

/* Copies the open file in to the new file `to` (to == NULL: only reads),
 * at most max bytes (0: no limit; more: -1 with errno EFBIG); folds every
 * byte into the FNV-1a state *h when h is not NULL; *copied (when not NULL)
 * gets the count.  0 on success. */
int copy_fd(int in, const char *to, int mode, uint64_t *h, size_t max, size_t *copied);
/* File-name-safe form of a name (a student folder's, a login): percent-encoded,
 * at most about 200 bytes, unique. */
void safe_file_name(const char *name, char *out, size_t len);

#endif
