/* profile_checks.h - what a profile looks at, and the line each check prints.
 *
 * A lab's profile.ini (profile_ini.h) names a few checks (`look =`); each
 * asks Nsight Compute for a handful of metrics of the raw page and, where it
 * names a source line, the Source Counters section, and turns them into one
 * line in the handout's words:
 *
 *   coalescing   global loads (and stores): sectors per request against
 *                the ideal of their width (4 for 4-byte words); the line
 *                with the most excess sectors
 *   load-reuse   bytes loaded from global memory per byte read from DRAM
 *                (a tile with its halo loads each input about once)
 *   shared-banks shared-memory bank conflicts (n-way), the line with the
 *                most excess wavefronts
 *   divergence   branch efficiency, the line with the most divergent branches
 *   atomics      atomic updates to global memory and to shared memory
 *                (privatisation), the line with the most
 *   reuse        FMAs per global load and per shared load (tiling, register tiling)
 *   occupancy    achieved and theoretical occupancy and what limits it
 *   dram         achieved DRAM bandwidth against this GPU's peak
 *   flops        FP32 GFLOP/s against this GPU's peak
 *   hotspot      the source line holding most of the sampled warp stalls
 *
 * Pure: from parsed pages (ncu_csv.h) to text and figures, so the unit
 * tests hold each line to recorded pages.
 */
#ifndef GRADER_PROFILE_CHECKS_H
#define GRADER_PROFILE_CHECKS_H
#include "model/model.h"
#include "grading/ncu_csv.h"
#include "util/strbuf.h"

#define PROFILE_MAX_METRICS 16
/* Every profile asks for each launch's time: the weight of its figures. */
#define PROFILE_TIME_METRIC "gpu__time_duration.sum"

typedef struct profile_view profile_view;

typedef struct {
    const char *name;                          /* as profile.ini's `look` names it */
    const char *metrics[PROFILE_MAX_METRICS];  /* raw-page metrics it reads */
    int needs_source;                          /* it names source lines (the Source Counters section) */
    void (*report)(const profile_view *v, strbuf *line, result_figure *figs, int *n_figs);
} profile_check;

/* The check called `name`, or NULL. */
const profile_check *profile_check_find(const char *name);
/* "atomics, coalescing, ..." (every check's name) into out. */
void profile_check_names(char *out, size_t len);

/* What the checks read: the launches of the student's kernels (the raw
 * page's rows, kit_* kernels left out), the source lines of the student's
 * files (basenames: lines elsewhere are never named). */
struct profile_view {
    const ncu_raw *raw;
    const ncu_source *src;  /* NULL: no line information */
    const char *const *files;
    int n_files;
    int rows[64];           /* the raw page's rows that are the student's kernels */
    int n_rows;
};

/* Fills v's rows from raw (src, files: may be NULL/0). */
void profile_view_init(profile_view *v, const ncu_raw *raw, const ncu_source *src, const char *const *files,
                       int n_files);
/* "conv1d_tiled 0.84 ms" (several: "a 1.20 ms, b 0.01 ms", at most three names) into b. */
void profile_kernels_line(const profile_view *v, strbuf *b);

/* Runs check c on v: its line (with a newline) appended to out, its figures
 * to figs (at most MAX_FIGURES in all). */
void profile_check_run(const profile_check *c, const profile_view *v, strbuf *out, result_figure *figs,
                       int *n_figs);

/* "1,304" (whole numbers with thousands separators) into buf. */
void profile_thousands(double v, char *buf, size_t len);

#endif
