/* build.h - a grading's work folder and the build of its runner (build.c),
 * the first step of engine_grade (engine.c): the manifest's files taken from
 * the submission, the kit's files copied beside them, nvcc in the sandbox
 * or the same build from the cache (buildcache.h), the compiler's messages
 * as the student should read them (output/buildlog.h) with a plain word on
 * the linker's most common ones. */
#ifndef GRADER_BUILD_H
#define GRADER_BUILD_H
#include "grading/engine_int.h"

/* Sets w's paths under work_dir and makes its folders afresh (an earlier
 * grading's files are removed first), the runner's and the runs' owned by
 * the sandbox uid: 0, or -1 (errno says why). */
int prepare_dirs(engine *e, const char *work_dir, workdirs *w);
/* Takes the student's files and builds the runner into gr->w.runner (1
 * built or reused); g gets the source digest, the build's messages, its
 * seconds and whether it was a hand-in problem.  with_barriers: the
 * synccheck test's barrier-checked runner too, at the same time (its
 * result in gr->barriers, gr->barrier_runner, gr->barrier_log). */
int build_runner(grading *gr, const char *sub_dir, grade_result *g, int with_barriers);
/* The tests that run the barrier-checked runner: synccheck. */
int uses_barrier_runner(const rubric_test *t);

#endif
