/* timing.cuh - timing GPU work the way the kit grades it.
 *
 * CUDA events around each call, warm-up calls first (module load, caches,
 * clocks), then `reps` timed calls of A and B interleaved (A B A B ...), so
 * that both see the same clock and thermal state, and the median of each.
 * The functions time what they are given, including any host work and
 * synchronisation inside them.
 */
#ifndef KIT_TIMING_CUH
#define KIT_TIMING_CUH
#include <cuda_runtime.h>

typedef void (*kit_timed_fn)(void *arg);

typedef struct {
    double median_ms, min_ms, max_ms;
    int reps;
} kit_timing;

/* Times one call of fn with events on the default stream; returns ms (< 0 on a CUDA error). */
double kit_time_once(kit_timed_fn fn, void *arg);
/* warmup calls of each, then reps interleaved timed calls.  Returns 0, or -1
 * on a CUDA error (reported on stderr with file:line). */
int kit_time_interleaved(kit_timed_fn a, void *arg_a, kit_timed_fn b, void *arg_b, int warmup, int reps,
                         kit_timing *ta, kit_timing *tb);
/* Median of warmup+reps timed calls of one function. */
int kit_time_median(kit_timed_fn fn, void *arg, int warmup, int reps, kit_timing *t);

#endif
