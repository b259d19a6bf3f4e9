/* timing.cu - CUDA-event timing, time-based warm-up, interleaving,
 * min-of-medians, and the checks that every timed call did its work (see timing.cuh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/timing.cuh"
#include "kit/timing_rule.h"
#include "kit_trace.h"
#include "kit/util.h"

#define TCHECK(call)                                                                                  \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "%s:%d: CUDA error while timing (%s): %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(e_));                                                          \
            return -1.0;                                                                              \
        }                                                                                             \
    } while (0)

#define MAX_WARMUP_CALLS 5000
#define MAX_WARMUP_S 2.0
/* Further rounds only while the timed calls so far took less than this:
 * a lab whose call takes 100 ms is not timed for a minute. */
#define ROUNDS_BUDGET_S 1.0
#define ROUND_MIN_S 0.1
#define MAX_ROUND_CALLS 2000

/* What a timed call left running when it returned (pending.cu), for
 * call_a's note; NULL: not wanted. */
typedef struct {
    double late_ms;   /* its work ended this long after the legacy stream's stop event */
    char what[200];   /* the stream and its last kernel */
    int lost;         /* work the kit could not follow */
} left_work;

/* One call between events.  The timed region ends when everything the call
 * started has finished: the stop event on the legacy default stream waits for
 * that stream and every blocking one, and the events pending.cu records on
 * the streams that still had work when the call returned (non-blocking
 * streams, the per-thread one, streams destroyed in the call) end with their
 * work.  A call that returned while its work went on is timed until that work
 * ended: its real time, which the kit can tell (device timestamps), so it
 * gets neither a free speed-up nor a penalty beyond the time its work took
 * (plus at most the microseconds pending.cu's queries take when the work ends
 * while they run).  No credit is withheld for it: the time is right, and the
 * checker's note says what a caller would have got.  Only work the kit could
 * not follow (left->lost) has no known time; the checker refuses that. */
static double time_once(kit_timed_fn fn, void *arg, left_work *left)
{
    /* One pair of events for the process: creating them per call is host
     * work that would land next to the timed region. */
    static cudaEvent_t start, stop;
    static int have;
    if (!have) {
        TCHECK(cudaEventCreate(&start));
        TCHECK(cudaEventCreate(&stop));
        have = 1;
    }
    TCHECK(cudaDeviceSynchronize());
    kit_pending_begin(); /* before the start event: its host work is not timed */
    TCHECK(cudaEventRecord(start, 0));
    fn(arg);
    cudaError_t e = cudaEventRecord(stop, 0);
    kit_pending_set p;
    kit_pending_end(&p); /* after the stop event: its queries are not timed */
    if (e == cudaSuccess)
        e = cudaEventSynchronize(stop);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    float ms = 0;
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, start, stop);
    int which = -1;
    double late = e == cudaSuccess ? kit_pending_late_ms(&p, stop, &which) : 0;
    if (late > 0 && left) {
        left->late_ms = late;
        snprintf(left->what, sizeof left->what, "%s", p.what[which]);
    }
    if (p.lost && left)
        left->lost = p.lost;
    kit_pending_release(&p);
    TCHECK(e);
    if (late < 0) {
        fprintf(stderr, "%s:%d: CUDA error while timing: the events on the call's streams failed\n", __FILE__,
                __LINE__);
        return -1.0;
    }
    return ms + late;
}

double kit_time_once(kit_timed_fn fn, void *arg) { return time_once(fn, arg, NULL); }

/* What the timed calls of the student's function left running (kit_time_left). */
static struct {
    char what[200];
    int calls, lost;
    double max_late_ms;
} left_note;

const char *kit_time_left(int *calls, double *max_late_ms, int *lost)
{
    *calls = left_note.calls, *max_late_ms = left_note.max_late_ms, *lost = left_note.lost;
    return left_note.calls || left_note.lost ? left_note.what : NULL;
}

static int refused, no_kernel_ok;
int kit_time_refused(void) { return refused; }
void kit_time_allow_no_kernel(int allow) { no_kernel_ok = allow; }

/* The GPU to this process alone while it times (kit_time_set_gate); nested
 * timing loops ask once. */
static void (*gate_fn)(int alone);
static int gate_depth;
void kit_time_set_gate(void (*fn)(int alone)) { gate_fn = fn; }

static void gate(int alone)
{
    if (gate_fn && (alone ? gate_depth++ == 0 : --gate_depth == 0))
        gate_fn(alone);
}

void kit_time_hold(int alone) { gate(alone); }

typedef struct {
    const kit_time_pair_spec *s;
    int k; /* calls of a so far */
} pair_state;

/* One call of the student's function with its hooks; ms, or < 0 (rc in *rc). */
static double call_a(pair_state *p, int *rc)
{
    const kit_time_pair_spec *s = p->s;
    if (s->prepare)
        s->prepare(s->arg_a, p->k);
    long l0 = kit_launch_count();
    left_work left = {};
    double ms = time_once(s->a, s->arg_a, &left);
    long l1 = kit_launch_count();
    if (ms >= 0 && (left.late_ms > 0 || left.lost)) {
        /* said once per timing loop, on stderr (a `make run` shows it) and
         * in the record (fresh.cu), where the checker words it for the report */
        const char *name = s->a_name ? s->a_name : "the student's function";
        if (!left_note.calls && !left_note.lost && left.late_ms > 0)
            fprintf(stderr,
                    "timed call %d of %s returned while %s was still running (it ended %.3f ms later): the call was "
                    "timed until all its work had finished\n",
                    p->k + 1, name, left.what, left.late_ms);
        else if (!left_note.calls && !left_note.lost)
            fprintf(stderr, "timed call %d of %s left work running on more streams than the kit can follow (%d): "
                            "its time is not known\n", p->k + 1, name, KIT_PENDING_MAX);
        if (left.late_ms > 0 && !left_note.calls)
            snprintf(left_note.what, sizeof left_note.what, "%s", left.what);
        left_note.calls += left.late_ms > 0;
        left_note.lost += left.lost;
        if (left.late_ms > left_note.max_late_ms)
            left_note.max_late_ms = left.late_ms;
    }
    if (ms < 0) {
        *rc = -1;
        return ms;
    }
    if (l0 >= 0 && l1 == l0 && !s->kernel_optional && !no_kernel_ok) {
        fprintf(stderr,
                "timed call %d of %s launched no kernel: every timed call must do its work on the GPU "
                "(a result remembered from an earlier call, or computed on the host, is not timed)\n",
                p->k + 1, s->a_name ? s->a_name : "the student's function");
        *rc = KIT_TIME_NO_KERNEL;
        refused = 1;
        return -1;
    }
    if (s->after && s->after(s->arg_a, p->k) != 0) {
        *rc = -1;
        return -1;
    }
    p->k++;
    return ms;
}

static void summarise(double *v, int n, kit_timing *t)
{
    t->reps = n;
    t->min_ms = t->max_ms = n ? v[0] : 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < t->min_ms)
            t->min_ms = v[i];
        if (v[i] > t->max_ms)
            t->max_ms = v[i];
    }
    t->median_ms = kit_median(v, (size_t)n);
    t->decided = KIT_DECIDED_NOT;
}

/* Folds one round's samples into the running min-of-medians. */
static void fold_round(double *v, int n, int round, kit_timing *t, double *worst_median)
{
    kit_timing r;
    summarise(v, n, &r);
    if (round == 0) {
        *t = r;
        *worst_median = r.median_ms;
    } else {
        t->reps += r.reps;
        if (r.median_ms < t->median_ms)
            t->median_ms = r.median_ms;
        if (r.median_ms > *worst_median)
            *worst_median = r.median_ms;
        if (r.min_ms < t->min_ms)
            t->min_ms = r.min_ms;
        if (r.max_ms > t->max_ms)
            t->max_ms = r.max_ms;
    }
    t->round_spread = t->median_ms > 0 ? (*worst_median - t->median_ms) / t->median_ms : 0;
}

/* Warm-up until the GPU's clocks have settled: the baseline (kit code, the
 * same work every call) is the probe; warm until the median of its last
 * KIT_STABLE_WINDOW times is within 2% of the median of the window before
 * (at least KIT_WARMUP_MS, at most MAX_WARMUP_S: kit_warm_done decides,
 * timing_rule.c).  An idle H200 runs at 840 MHz and takes a while to boost:
 * a short warm-up timed the first calls at whatever clock the previous idle
 * second left.
 *
 * Slow probes (KIT_SLOW_PROBE_MS a call or more: lab09's kit_lu_step takes
 * 278 ms on an H100) never fill two windows within MAX_WARMUP_S, so they
 * used to warm for the whole 2 s.  With the score's bounds given (the
 * grader's performance test) their warm-up ends after KIT_SLOW_WARMUP_S
 * instead: by then the GPU has run the calls' kernels with hardly a pause
 * for half a second.  What the warm-up guards against is short calls timed
 * at the clock an idle spell left; a call of 50 ms or more keeps the GPU
 * busy long enough to leave that clock behind (MAX_WARMUP_S's own cut-off
 * already counts on this), and the few such calls of the warm-up come
 * before any timed one.  Fast calls keep the settled-window rule: theirs is
 * what needs it.  0, or what call_a said (or -1). */
static int warm_up(const kit_time_pair_spec *s, pair_state *p)
{
    int rc = 0;
    double t0 = kit_now(), probe[KIT_PROBE_RING];
    const kit_warm_rule rule = {s->warmup, KIT_WARMUP_MS, MAX_WARMUP_S, s->decided.given ? KIT_SLOW_PROBE_MS : 0,
                                KIT_SLOW_WARMUP_S};
    for (int i = 0; i < MAX_WARMUP_CALLS; i++) {
        double y;
        if (call_a(p, &rc) < 0 || (y = kit_time_once(s->b, s->arg_b)) < 0)
            return rc ? rc : -1;
        probe[i % KIT_PROBE_RING] = y;
        if (kit_warm_done(&rule, i + 1, kit_now() - t0, probe, y))
            break;
    }
    return 0;
}

/* Room for twice as many samples in both *va and *vb (*cap of each); 0, or
 * -1 when either could not grow (what did grow is kept, to be freed). */
static int grow_samples(double **va, double **vb, int *cap)
{
    *cap *= 2;
    double *na = (double *)realloc(*va, (size_t)*cap * sizeof **va),
           *nb = (double *)realloc(*vb, (size_t)*cap * sizeof **vb);
    if (na)
        *va = na;
    if (nb)
        *vb = nb;
    return na && nb ? 0 : -1;
}

/* Rounds of at least `reps` pairs and at least ROUND_MIN_S each: a round of
 * lab03's 0.2 ms calls would otherwise last 10 ms, and all three could fall
 * inside one disturbance.  Each round's samples (in *va, *vb, grown as
 * needed) fold into ta and tb.
 *
 * With the score's bounds (s->decided) the first round stops as soon as it
 * has lasted ROUND_MIN_S and its pairs decide the score (timing_decided.h),
 * and no other round follows: ta->decided and tb->decided say which way.
 * ROUND_MIN_S for the reason any round lasts that long: pairs that all fell
 * inside one disturbance decide nothing.  lab09's 280 ms pairs stop after
 * KIT_DECIDED_MIN_PAIRS, lab03's pairs of under a millisecond after 0.1 s
 * (about a hundred of them: a median as good as a full round's).  Every
 * pair must agree: from the first pair that does not, the timing goes on
 * exactly as without bounds.  (The check reads the pairs so far after each
 * one: microseconds of host work, outside the timed region.)  0, or what
 * call_a said (or -1). */
static int time_rounds(const kit_time_pair_spec *s, pair_state *p, int reps, double **va, double **vb, int *cap,
                       kit_timing *ta, kit_timing *tb)
{
    int rc = 0, decided = KIT_DECIDED_NOT, agreed = KIT_DECIDED_NOT, open = s->decided.given;
    double worst_a = 0, worst_b = 0;
    double t0 = kit_now();
    for (int round = 0; round < KIT_TIME_ROUNDS && !decided && (round == 0 || kit_now() - t0 < ROUNDS_BUDGET_S);
         round++) {
        double r0 = kit_now();
        int n = 0;
        for (int i = 0; !decided && (i < reps || (kit_now() - r0 < ROUND_MIN_S && i < MAX_ROUND_CALLS)); i++) {
            if (n == *cap && grow_samples(va, vb, cap) != 0)
                return -1;
            /* A B, B A, ...: neither always follows the other. */
            int a_first = kit_rotated(i, 0, 2) == 0;
            double x, y;
            if (a_first) {
                x = call_a(p, &rc);
                y = x < 0 ? -1 : kit_time_once(s->b, s->arg_b);
            } else {
                y = kit_time_once(s->b, s->arg_b);
                x = y < 0 ? -1 : call_a(p, &rc);
            }
            if (x < 0 || y < 0)
                return rc ? rc : -1;
            (*va)[n] = x, (*vb)[n] = y, n++;
            if (open && n >= KIT_DECIDED_MIN_PAIRS) {
                agreed = kit_timing_decided(&s->decided, *va, *vb, n);
                open = agreed != KIT_DECIDED_NOT;
                if (agreed && kit_now() - r0 >= ROUND_MIN_S)
                    decided = agreed;
            }
        }
        fold_round(*va, n, round, ta, &worst_a);
        fold_round(*vb, n, round, tb, &worst_b);
        if (open && agreed) /* the round ended as it would have, every pair beyond the bound */
            decided = agreed;
        open = 0; /* only the first round decides */
    }
    ta->decided = tb->decided = decided;
    return 0;
}

int kit_time_pair(const kit_time_pair_spec *s, kit_timing *ta, kit_timing *tb)
{
    int reps = s->reps < 1 ? 1 : s->reps, cap = reps < 64 ? 64 : reps;
    double *va = (double *)calloc((size_t)cap, sizeof *va), *vb = (double *)calloc((size_t)cap, sizeof *vb);
    int rc = -1;
    pair_state p = {s, 0};
    memset(&left_note, 0, sizeof left_note);
    if (!va || !vb)
        goto out;
    gate(1);
    kit_trace_records(0);
    rc = warm_up(s, &p);
    if (rc == 0)
        rc = time_rounds(s, &p, reps, &va, &vb, &cap, ta, tb);
out:
    /* the gate and the trace's records back as they were, on every path that took them */
    if (va && vb) {
        kit_trace_records(1);
        gate(0);
    }
    free(va);
    free(vb);
    return rc;
}

int kit_time_interleaved(kit_timed_fn a, void *arg_a, kit_timed_fn b, void *arg_b, int warmup, int reps,
                         kit_timing *ta, kit_timing *tb)
{
    kit_time_pair_spec s = {};
    s.a = a, s.b = b, s.arg_a = arg_a, s.arg_b = arg_b, s.warmup = warmup, s.reps = reps;
    return kit_time_pair(&s, ta, tb);
}

int kit_time_median(kit_timed_fn fn, void *arg, int warmup, int reps, kit_timing *t)
{
    double *v = (double *)calloc((size_t)reps, sizeof *v);
    if (!v)
        return -1;
    int rc = 0;
    gate(1);
    for (int i = 0; i < warmup + reps && rc == 0; i++) {
        double ms = kit_time_once(fn, arg);
        if (ms < 0)
            rc = -1;
        else if (i >= warmup)
            v[i - warmup] = ms;
    }
    gate(0);
    if (rc == 0) {
        summarise(v, reps, t);
        t->round_spread = 0;
    }
    free(v);
    return rc;
}

/* ---- what the device can do (the plausibility check, plausible.h) ---- */

/* `half` bytes from src to dst, device to device, on the legacy stream; an
 * error is left for the timing's cudaGetLastError. */
typedef struct {
    void *src, *dst;
    size_t half;
} copy_arg;

static void copy_half(void *arg)
{
    const copy_arg *c = (const copy_arg *)arg;
    cudaMemcpyAsync(c->dst, c->src, c->half, cudaMemcpyDeviceToDevice, 0);
}

#define COPY_ROOF_MAX_BYTES (2.0 * (1 << 30))

double kit_copy_roof_gbs(double bytes)
{
    if (bytes > COPY_ROOF_MAX_BYTES)
        bytes = COPY_ROOF_MAX_BYTES; /* the bandwidth no longer changes with size there */
    copy_arg c = {NULL, NULL, (size_t)(bytes / 2)};
    double gbs = 0;
    kit_timing t;
    if (c.half >= 4 && cudaMalloc(&c.src, c.half) == cudaSuccess && cudaMalloc(&c.dst, c.half) == cudaSuccess &&
        cudaMemset(c.src, 0, c.half) == cudaSuccess && kit_time_median(copy_half, &c, 2, 7, &t) == 0 &&
        t.min_ms > 0)
        gbs = 2.0 * c.half / (t.min_ms / 1e3) / 1e9; /* the best of them: a limit */
    cudaFree(c.src);
    cudaFree(c.dst);
    cudaGetLastError(); /* out of memory: unknown, not an error of the run */
    return gbs;
}

/* FP32 lanes per SM by compute capability; newer ones than listed: 128. */
static int fp32_lanes(int major, int minor)
{
    if (major <= 5)
        return 128;
    if (major == 6)
        return minor == 0 ? 64 : 128;
    if (major == 7 || (major == 8 && minor == 0))
        return 64;
    return 128;
}

void kit_device_limits(double *dram_gbs, double *peak_gflops)
{
    int dev = 0, mem_khz = 0, bus = 0, sms = 0, khz = 0, major = 0, minor = 0;
    *dram_gbs = *peak_gflops = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
        *dram_gbs = 2.0 * mem_khz * 1e3 * (bus / 8) / 1e9; /* DDR: two transfers per clock */
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess)
        *peak_gflops = (double)sms * fp32_lanes(major, minor) * 2.0 * khz / 1e6; /* a fused multiply-add is 2 */
    cudaGetLastError();
}
