/* profile_ini.h - labs/<lab>/kit/profile.ini: what a profile of the lab looks at.
 *
 *   ; beside rubric.ini: what `make labNN PROFILE=1` measures of the student's kernels
 *   [profile]
 *   look = coalescing load-reuse dram    ; 1 to 6 checks (profile_checks.h), one line each
 *   test = performance                   ; the performance test whose case is profiled (default: performance)
 *   case = n=2^24 mask=21                ; optional: other parameters than the test's first case
 *   launches = 4                         ; kernel launches profiled, 1 to 16 (default 4)
 *   timeout = 120                        ; seconds for the profiled run, 10 to 1800 (default 120)
 *
 * A file of its own rather than a section of rubric.ini: an instructor's
 * private rubric (--rubric) replaces rubric.ini, and what a profile looks at
 * belongs to the lab, not to one rubric.  A lab without the file declares
 * nothing to profile.  `kitgrade validate` checks it (one line per problem,
 * as for rubric.ini), and so does every --profile run before it grades.
 */
#ifndef GRADER_PROFILE_INI_H
#define GRADER_PROFILE_INI_H
#include <stddef.h>
#include "grading/engine.h"
#include "grading/profile_checks.h"

#define PROFILE_MAX_LOOKS 6

typedef struct {
    char path[1100];
    const profile_check *look[PROFILE_MAX_LOOKS];
    int n_look;
    char test[NAME_LEN];
    int test_line;
    char params[256]; /* "" : the test's first case */
    int params_line;
    int launches;
    double timeout_s;
} profile_decl;

/* Reads a profile.ini: 0, or -1 with "PATH:LINE: reason" in err. */
int profile_ini_load(const char *path, profile_decl *d, char *err, size_t errlen);

/* The lab's profile.ini (e->lab_dir), checked against e's rubric (test
 * names a performance test) and the lab's parameter rules (case): 1 when
 * declared and good, 0 when the lab has no profile.ini, -1 with one line in
 * err (bad input). */
int profile_ini_for_lab(const engine *e, profile_decl *d, char *err, size_t errlen);

#endif
