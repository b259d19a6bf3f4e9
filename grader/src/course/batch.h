/* batch.h - grading a folder of submissions: one subfolder per student, or
 * one archive per student (layout.h says which layouts are known).
 *
 * OUT/results/<student>.json (Gradescope format), OUT/feedback/<student>.txt,
 * OUT/gradebook.csv, OUT/report.html (class_report.h).  SUBMISSIONS may be
 * a lab folder of a course spool (spool.h): then each login's last hand-in
 * before the cut-off is graded, with the late policy applied.  Student folder names are kept as they are inside the
 * files; file names are percent-encoded where needed.
 */
#ifndef GRADER_BATCH_H
#define GRADER_BATCH_H
#include <stddef.h>
#include <stdio.h>
#include "grading/engine.h"

typedef struct {
    int jobs;              /* submissions in flight (builds run in parallel) */
    int force;             /* regrade finished ones */
    int per_gpu;           /* submissions in their test phase per GPU (timing runs still exclusive); 0: jobs / GPUs */
    const char *only;      /* grade just this student folder */
    int tty;               /* progress line rewritten in place */
    const char *work_root; /* scratch (NULL: OUT/work) */
    double similarity_threshold; /* class report: pairs at or above this percentage (0: the default) */
    /* Slurm (slurm.c): an array task grades the submissions `want` accepts
     * (its shard) beside other tasks writing to the same OUT, so it leaves the
     * gradebook and the stale temporary files to the merge.  A merge grades
     * nothing: it writes the gradebook from the results present and lists, in
     * `missing`, the safe names of the submissions without a finished result
     * for their current files. */
    int (*want)(const char *safe_name, void *arg);
    void *want_arg;
    int merge;
    FILE *missing;
} batch_opts;

/* Returns 0 when the batch ran (whatever the submissions did), KITGRADE_EXIT_USAGE
 * (exit_codes.h) when the folder is in no known layout or an archive was
 * refused, KITGRADE_EXIT_INTERNAL when the output folders or a result could
 * not be written (each said on stderr). */
int batch_run(engine *e, const char *subs_dir, const char *out_dir, const batch_opts *o);

#endif
