/* buildlog.h - the compiler's messages as the student should read them.
 *
 * nvcc built for several architectures (-gencode ...) repeats every
 * front-end warning once per architecture; the build runs in a sandbox
 * folder whose path means nothing to the student.  The tidy log keeps each
 * message once (a message = the lines up to a blank line) and names the
 * student's files as the student knows them (dot.cu ->
 * labs/lab03-dot/student/dot.cu, the sandbox's src/ folder -> the submission's).
 */
#ifndef GRADER_BUILDLOG_H
#define GRADER_BUILDLOG_H
#include "model/model.h"
#include "util/strbuf.h"

/* Appends the tidy form of `raw` (already sanitized text) to out.
 * files: the names the compiler was given (the manifest's student files and
 * interface header), n of them; shown_dir: the folder as the user named it
 * ("labs/lab03-dot/student"), or "" for the bare names (dot.cu(66): what a student
 * reads in feedback from a grading, not the instructor's folders);
 * build_dir: the sandbox folder the compiler ran in. */
void buildlog_tidy(const char *raw, const char *const *files, int n, const char *shown_dir, const char *build_dir,
                   strbuf *out);

/* 1 when the log holds a compiler warning (for the report under an OK build). */
int buildlog_has_warning(const char *log);

#endif
