/* labdir.h - where a lab's files are in the kit.
 *
 * A lab is one folder, KIT/labs/<name>/ (docs/anatomy.md):
 *   student/    what a student edits and hands in: the starter, the
 *               interface header (the kit's, not to be changed), answers.md
 *   solution/   the reference (and solution/stretch/, where the lab has one)
 *   kit/        the grader's files: manifest.ini, rubric.ini, the harness,
 *               dataset, checker, baseline, provided.sha256
 *   tests/      known-bad and known-good submissions, each with expect.ini
 *   handout.md, bench.cu
 * A lab exists when its kit/manifest.ini does.  Every path to a lab's
 * folder is made here, so the layout is written down once in the grader.
 */
#ifndef GRADER_LABDIR_H
#define GRADER_LABDIR_H
#include <stddef.h>

/* Every lab's manifest, as a glob(3) pattern under the kit's root. */
#define LABDIR_MANIFESTS "labs/*/kit/manifest.ini"

/* KIT/labs/<name>/<part> ("kit", "student", "solution"; "" for the lab's
 * folder itself); kit_root "" gives the path relative to the kit's root
 * ("labs/lab03-dot/student").  Returns 0, or -1 when it does not fit in len. */
int labdir_path(char *out, size_t len, const char *kit_root, const char *name, const char *part);

/* The lab's folder name from its manifest's path:
 * ".../labs/lab03-dot/kit/manifest.ini" -> "lab03-dot". */
void labdir_name_of_manifest(const char *manifest_path, char *out, size_t len);

/* The lab's id from its manifest's path: ".../labs/lab03-dot/kit/manifest.ini" -> "lab03". */
void labdir_id_of_manifest(const char *manifest_path, char *out, size_t len);

#endif
