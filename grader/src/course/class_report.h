/* class_report.h - OUT/report.html, the instructor's view of a class.
 *
 * Written after every batch from the results on disk: score distribution,
 * pass rate per test, speedups against the baseline, the most common
 * failure messages with the students they hit, build failures, late
 * hand-ins, pairs of similar hand-ins (similarity.h) with the matching
 * passages side by side, and each student's answers.md.  One self-contained
 * file: inline CSS, plots as inline SVG written here, no script, no network
 * asset - it opens offline and prints.  Every text from a submission is
 * HTML-escaped.
 */
#ifndef GRADER_CLASS_REPORT_H
#define GRADER_CLASS_REPORT_H
#include <stddef.h>
#include "grading/engine.h"

typedef struct {
    const char *name;   /* student (folder or login) */
    const char *src;    /* the folder graded ("" when none) */
    const char *result; /* its results.json */
} class_member;

int class_report_write(const engine *e, const char *out_dir, const class_member *m, int n, double sim_threshold,
                       char *err, size_t errlen);

#endif
