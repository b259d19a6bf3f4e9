/* profile.h - why a kernel is slow: Nsight Compute after the performance test.
 *
 * With --profile (make labNN PROFILE=1, kitgrade check/grade/batch
 * --profile), once a performance test has timed the student's code, one
 * more run of its case (the lab's profile.ini may name another) goes
 * through `ncu` in the same sandbox as every run of the student's code -
 * the sandbox user, never more privilege - with the GPU to itself: one
 * report with the metrics of the checks the lab declares (profile_ini.h,
 * profile_checks.h) and, where a check names source lines, the Source
 * Counters section.  The report's raw and source pages (`ncu --import`,
 * also in the sandbox: the report is the student's run's output) become
 * a few lines under the test, each in the handout's words, and named
 * figures in the test's result (results.json, the class report).
 *
 * Never a grade: the test's status and score are what the timing gave,
 * and a profile that cannot run (no ncu, counters restricted to
 * administrators, a crash or a hang under the profiler) says so in one
 * line.
 */
#ifndef GRADER_PROFILE_H
#define GRADER_PROFILE_H
#include "grading/engine_int.h"

/* After performance test t graded into tr: the profile's lines appended to
 * tr->output and its figures to tr->figures (nothing unless e->profile). */
void profile_test(grading *g, const rubric_test *t, test_result *tr);

#endif
