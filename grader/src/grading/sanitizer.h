/* sanitizer.h - reducing compute-sanitizer output to what a student needs.
 *
 * compute-sanitizer prints one block per hazard/error, often thousands of
 * near-identical ones.  The parser groups them by (kind, file, line) and
 * counts them, keeping the function name and, for races, both sides of the
 * hazard.  It understands memcheck, racecheck (default "analysis" report and
 * "--racecheck-report hazard"), synccheck and initcheck output, the
 * "ERROR SUMMARY"/"RACECHECK SUMMARY" lines, and tool failures ("Device not
 * supported", "Target application returned an error", errors from the tool
 * itself).  Lines not starting with "========= " (the program's own output)
 * are ignored, but for the kit's barrier check (kit/barrier_check.cuh: lines
 * "kit barrier check: FILE:LINE: WHAT: WHY" that the barrier-checked runner
 * prints): those are errors too.  A program that prints such a line itself
 * only fails its own test.
 */
#ifndef GRADER_SANITIZER_H
#define GRADER_SANITIZER_H
#include <stddef.h>

typedef struct {
    char kind[96];      /* "Race (Read after Write)", "Invalid __global__ write of size 4 bytes", ... */
    char file[256];     /* as printed (may be a path); "" when unknown */
    int line;           /* 0 when unknown */
    char func[128];     /* kernel, without the "+0x..." offset */
    char other_file[256]; /* races: the other access */
    int other_line;
    long count;         /* how many reports were merged (hazard counts summed for races) */
    int warning;        /* racecheck warnings (e.g. warp-level programming) vs errors */
    char note[320];     /* what it means, for the student ("" for the tool's own findings) */
} san_finding;

typedef struct {
    san_finding *items;
    int n, cap;
    long summary_errors;  /* from "ERROR SUMMARY: N errors" / racecheck summary; -1 if absent */
    int app_error;        /* "Target application returned an error" */
    int tool_failed;      /* the tool could not run (unsupported device, internal error) */
    char tool_message[256];
} san_report;

void san_report_init(san_report *r);
void san_report_free(san_report *r);
/* Parses text (not necessarily NUL-terminated). Returns 0. */
int sanitizer_parse(const char *text, size_t len, san_report *r);
/* Number of error findings (warnings not counted). */
int san_error_count(const san_report *r);
/* Basename of a finding's file for display ("dot.cu"). */
const char *san_basename(const char *path);

#endif
