/* timing_rule.h - the decisions of the grader's timing loop, kit_time_pair
 * (timing.cu: the student's function against the baseline; make bench's
 * rows are timed by it too), kept apart from CUDA so that they are tested
 * on the CPU: which call comes first in a round, and when the warm-up is
 * over.
 */
#ifndef KIT_TIMING_RULE_H
#define KIT_TIMING_RULE_H
#ifdef __cplusplus
extern "C" {
#endif

/* The row timed j-th in round `round` of n rows: each round starts one row
 * later, so that no row always follows the same one (for two rows: A B, B A,
 * ...: both see the clock and cache state the other leaves). */
static inline int kit_rotated(int round, int j, int n) { return (j + round) % n; }

/* Times of the probe kept for kit_warm_done's settled rule (a ring). */
#define KIT_STABLE_WINDOW 8
#define KIT_PROBE_RING (2 * KIT_STABLE_WINDOW)

/* When a warm-up of sweeps (one call of each row) ends. */
typedef struct {
    int min_calls;  /* at least this many sweeps, whatever the clock says */
    double min_ms;  /* and at least this long */
    double max_s;   /* at most this long (slow calls: their own duration warms the GPU) */
    /* > 0: a probe call this slow (ms) ends the warm-up after slow_s. */
    double slow_ms, slow_s;
} kit_warm_rule;

/* 1 when the warm-up ends after `sweeps` sweeps that took elapsed_s, and
 * (between min_ms and max_s) once the probe row's last KIT_STABLE_WINDOW
 * times have the median of the window before within 2% (the GPU's clocks
 * settled); probe: its times, sweep i's at [i % KIT_PROBE_RING], last_ms the
 * latest of them. */
int kit_warm_done(const kit_warm_rule *w, int sweeps, double elapsed_s, const double *probe, double last_ms);

#ifdef __cplusplus
}
#endif
#endif
