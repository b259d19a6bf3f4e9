/* timing.cuh - timing GPU work the way the kit grades it.
 *
 * CUDA events around each call.  Warm-up first: at least `warmup` calls of
 * each and at least KIT_WARMUP_MS of wall time, then until the baseline's
 * times have settled (the GPU's clocks have left their idle state: an H200
 * idles at 840 MHz and boosts to 1980 MHz), at most 2 s.  Then
 * KIT_TIME_ROUNDS rounds, each of at least `reps` calls of A and B
 * interleaved (A B B A ...) and at least 0.1 s,
 * so that both see the same clock and thermal state; each side's time is the
 * smallest of its per-round medians (min-of-medians: a round disturbed by a
 * burst of host load elsewhere is outvoted by a quiet one, and a median is
 * never fooled by one lucky call).  The functions time what they are given,
 * including any host work and synchronisation inside them.
 *
 * A is the student's function.  Every timed call of A must do its work:
 * the optional prepare hook gives it fresh input contents before each call
 * (outside the timed region), the optional after hook records or checks what
 * it returned, and a timed call of A that launched no kernel at all is
 * refused (kit_time_pair returns KIT_TIME_NO_KERNEL, with a message on stderr).
 * A timed call ends when all the work it started has finished, on any
 * stream: one that returns while its kernels still run on a stream the
 * legacy default stream does not wait for (cudaStreamNonBlocking) is timed
 * until they end, and kit_time_left says so (see time_once in timing.cu).
 * The kernel trace (CUPTI activity records) is paused while timing: it costs
 * every launch about a microsecond, which would favour the side with fewer
 * launches.
 *
 * Given the bounds of a performance test's score (spec.decided, from the
 * grader's --decided: timing_decided.h), the timing stops as soon as the
 * score cannot change: once the first round has lasted its 0.1 s and timed
 * KIT_DECIDED_MIN_PAIRS pairs or more, every one of them far beyond the same
 * bound (the result is those pairs' medians, kit_timing.decided says which
 * bound; a pair that is not keeps the timing as it was); and a
 * baseline whose calls take KIT_SLOW_PROBE_MS or more warms up for at most
 * KIT_SLOW_WARMUP_S (see warm_up in timing.cu).  Without bounds (make
 * bench, show mode, tools/bench) nothing changes.
 */
#ifndef KIT_TIMING_CUH
#define KIT_TIMING_CUH
#include <cuda_runtime.h>
#include "kit/timing_decided.h"

typedef void (*kit_timed_fn)(void *arg);

typedef struct {
    double median_ms, min_ms, max_ms;
    int reps;                 /* timed calls in all rounds */
    double round_spread;      /* (largest - smallest round median) / smallest */
    int decided;              /* KIT_DECIDED_FULL or _NONE: stopped early, the score decided
                                 (timing_decided.h); KIT_DECIDED_NOT: timed in full */
} kit_timing;

#define KIT_WARMUP_MS 250.0
/* With the bounds given: a baseline call this long ends the warm-up after
 * KIT_SLOW_WARMUP_S (timing.cu, warm_up, says why that is enough). */
#define KIT_SLOW_PROBE_MS 50.0
#define KIT_SLOW_WARMUP_S 0.5
#define KIT_TIME_ROUNDS 3
#define KIT_TIME_NO_KERNEL (-2) /* a timed call of the student's function launched no kernel */

typedef struct {
    kit_timed_fn a, b;        /* a: the student's function; b: the baseline */
    void *arg_a, *arg_b;
    int warmup, reps;
    const char *a_name;       /* for messages: "dot_shared" */
    int kernel_optional;      /* a's job is not a kernel (lab11's copies): no refusal */
    /* Before call `k` (0, 1, ... over warm-up and timed calls) of a, untimed:
     * fresh contents or rotated buffers.  NULL: none. */
    void (*prepare)(void *arg_a, int k);
    /* After call `k` of a, untimed: record or check its output; nonzero
     * stops timing (the hook printed why).  NULL: none. */
    int (*after)(void *arg_a, int k);
    /* The bounds of the test's score: timing stops once they decide it
     * (timing_decided.h).  given = 0: timed in full, as always. */
    kit_decided decided;
} kit_time_pair_spec;

/* Times one call of fn with events, until all its work on any stream ended; returns ms (< 0 on a CUDA error). */
double kit_time_once(kit_timed_fn fn, void *arg);
/* Returns 0, -1 on a CUDA error (reported on stderr with file:line) or a
 * failed after hook, KIT_TIME_NO_KERNEL when a timed call of a launched none. */
/* Set by the runner (runner_main.cu, --gate-fd): called with 1 before a
 * timing loop (kit_time_pair, kit_time_median) and 0 after it, so that the
 * grader gives the GPU to this process alone only while it times - not
 * while it generates inputs or copies results. */
void kit_time_set_gate(void (*fn)(int alone));
/* kit_time_hold(1) ... kit_time_hold(0) around several timing loops: the
 * gate is asked once for all of them (the loops inside nest).  fresh.cu
 * holds it from the timed calls to the device's copy roof measured after
 * them: one wait for the GPU alone instead of two, and in a batch such a
 * wait lasts until every other grading's shared hold has ended, with no new
 * one starting meanwhile (lock.h). */
void kit_time_hold(int alone);
/* make bench's roof row (kit/bench.cuh: lab11's copies alone) is timed
 * though it launches no kernel: a yardstick, not the job the rule is for. */
void kit_time_allow_no_kernel(int allow);
int kit_time_pair(const kit_time_pair_spec *s, kit_timing *ta, kit_timing *tb);
/* kit_time_pair without hooks. */
int kit_time_interleaved(kit_timed_fn a, void *arg_a, kit_timed_fn b, void *arg_b, int warmup, int reps,
                         kit_timing *ta, kit_timing *tb);
/* 1 once a timed call of a student's function launched no kernel (the
 * runner then exits with KIT_EXIT_TIMED_NO_KERNEL, whatever the harness returned). */
int kit_time_refused(void);
/* What the last kit_time_pair's timed calls of the student's function left
 * running when they returned: the first such stream and its kernel ("kernel
 * add_kernel on a non-blocking stream (cudaStreamNonBlocking)"), or NULL when
 * none did; *calls: how many calls did, *max_late_ms: the most their work
 * went on after the legacy stream's stop event (it was timed), *lost: calls
 * whose work the kit could not follow (their time is not known). */
const char *kit_time_left(int *calls, double *max_late_ms, int *lost);
/* Median of warmup+reps timed calls of one function. */
int kit_time_median(kit_timed_fn fn, void *arg, int warmup, int reps, kit_timing *t);

/* What the device can do, for the plausibility check (plausible.h): GB/s of
 * a device-to-device copy moving `bytes` (half read, half written; the best
 * of a few, timed with the GPU to this process alone), 0 when it cannot be
 * measured (no memory for it); the memory's peak GB/s and the FP32 peak
 * GFLOP/s from the device's attributes (0: unknown). */
double kit_copy_roof_gbs(double bytes);
void kit_device_limits(double *dram_gbs, double *peak_gflops);

/* Kernel launches made by this process so far (CUPTI launch callbacks), or
 * -1 when they cannot be counted (no CUPTI, another CUPTI subscriber). */
long kit_launch_count(void);
/* Pauses (0) or resumes (1) the kernel trace's activity records. */
void kit_trace_records(int on);

#endif
