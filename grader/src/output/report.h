/* report.h - everything the grader writes about a result.
 *
 *  - the terminal report (xv6 `make grade` style: one line per test with
 *    OK/FAIL, seconds and points, details indented under failures, a total);
 *  - Gradescope results.json (written with cJSON, atomically);
 *  - the batch gradebook CSV (one row per student, a column per test group,
 *    the total) and a plain-text feedback file per student.
 * The kit's own fields go under "extra_data" in results.json, so a result can
 * be read back (resume, gradebook) without losing anything.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H
#include <stdio.h>
#include "model/model.h"

typedef struct {
    int color;        /* ANSI colour (only when writing to a TTY) */
    int student_mode; /* "estimated score; hidden tests may differ" */
    int hidden_not_run; /* number of hidden tests skipped in student mode */
    const char *repro; /* e.g. "make lab03" - how to rerun one test, shown after failures */
    int feedback;      /* the student's feedback file: hidden tests' details only where the rubric allows */
} report_opts;

void report_terminal(FILE *f, const grade_result *g, const report_opts *o);
/* Test line on its own (used while grading, as each test finishes).
 * max_score < 0: no points column (e.g. the build line). */
void report_test_line(FILE *f, const test_result *t, const report_opts *o);
/* What report_terminal prints after the test lines: the score line (with
 * the student-mode caveat) and how to reproduce a failure. */
void report_summary(FILE *f, const grade_result *g, const report_opts *o);

/* Writes path atomically (temp file in the same folder, fsync, rename).
 * Returns 0, or -1 with a reason. */
int report_write_json(const grade_result *g, const char *path, char *err, size_t errlen);
/* Reads back a results.json written by report_write_json. */
int report_read_json(const char *path, grade_result *g, char *err, size_t errlen);
/* Writes the student's feedback file into path, atomically: a header
 * (student, lab, date, seed, GPU, kit version), then the plain terminal
 * report, where a hidden test shows its title and points but its details
 * only when its rubric says show_details = yes. */
int report_write_feedback(const grade_result *g, const char *path, char *err, size_t errlen);
/* Gradebook: header "student,<group1>,...,total,max,status"; groups in rubric
 * order; status is grade_result_status's, and a result that is not graded
 * (no GPU, a spool entry not graded) has empty point cells, never zeros;
 * RFC 4180 quoting; a student name starting with = + - @ gets a leading '
 * (no spreadsheet formulas from folder names); atomic write. */
int report_write_csv(const char *path, grade_result *const *results, int n, const rubric *r, char *err,
                     size_t errlen);
/* Appends one CSV field (RFC 4180 quoting, sanitized). */
void report_csv_field(strbuf *b, const char *s);
/* Writes `len` bytes to path atomically (helper shared by the writers). */
int write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

#endif
