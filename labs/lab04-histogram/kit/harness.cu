/* harness.cu - lab04's declaration (kit/lab.cuh): the values on the GPU,
 * histogram_shared handed a poisoned histogram, what it left there recorded
 * ("bins"); bench mode times it against the kit's global-atomics baseline.
 *
 * Over 100 lines: the show-mode summary (totals, the hot bin) and its time=1
 * timing.
 */
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "histogram.h"
#include "kit/lab.cuh"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab04_data d;
    int *d_in;
    unsigned int *d_bins;     /* the student's histogram */
    unsigned int *d_bins_kit; /* the baseline's, when timing */
    const char *dist;
} inputs;

static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)
{
    ((inputs *)s)->dist = kit_params_get(p, "dist", "uniform");
    return lab04_generate(p, seed, &((inputs *)s)->d, err, len);
}

static void release(kit_run_ctx *, void *s) { lab04_free(&((inputs *)s)->d); }

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    size_t bin_bytes = (size_t)in->d.bins * sizeof(unsigned int);
    if (stage == KIT_LAB_TIMING) {
        b[0] = kit_lab_buf{(void **)&in->d_bins_kit, bin_bytes, NULL, 0, 0};
        return 1;
    }
    size_t in_bytes = (size_t)(in->d.n ? in->d.n : 1) * sizeof(int);
    b[0] = kit_lab_buf{(void **)&in->d_in, in_bytes, in->d.in, (size_t)in->d.n * sizeof(int), 0};
    b[1] = kit_lab_buf{(void **)&in->d_bins, bin_bytes, NULL, 0, 0};
    return 2;
}

static void histogram(void *s)
{
    inputs *in = (inputs *)s;
    histogram_shared(in->d_in, in->d.n, in->d_bins, in->d.bins);
}

/* One call on a poisoned histogram: every bin must be set by the student;
 * all-zero bins (n = 0) need no kernel. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    kit_lab_out bins = {LAB04_OUT_BINS, KIT_T_U32, in->d_bins, 0, (uint64_t)in->d.bins, 0, 0, KIT_POISON(0xFF)};
    return k > 0 ? 0 : kit_lab_one_call(c, "histogram_shared", in->d.n == 0, histogram, bins);
}

/* show mode: a few numbers a student can compare with what they expect. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    const unsigned int *bins = (const unsigned int *)host[0];
    if (!ctx->show)
        return 0;
    unsigned long long total = 0;
    int nonzero = 0;
    for (int b = 0; b < in->d.bins; b++) {
        total += bins[b];
        nonzero += bins[b] != 0;
    }
    printf("histogram_shared(n=%d, bins=%d, dist=%s): counts add up to %llu, %d non-empty bins\n", in->d.n,
           in->d.bins, in->dist, total, nonzero);
    if (!strcmp(in->dist, "skewed") || !strcmp(in->dist, "equal"))
        printf("  hot bin %d: %u\n", in->d.hot, bins[in->d.hot]);
    printf("  bins[0..%d]:", in->d.bins < 8 ? in->d.bins - 1 : 7);
    for (int b = 0; b < in->d.bins && b < 8; b++)
        printf(" %u", bins[b]);
    printf("\n");
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    return stage == KIT_LAB_BENCH_AFTER && ((const inputs *)s)->d.n < 1 ? "the benchmark needs n >= 1" : NULL;
}

/* The timed calls of histogram_shared (fresh.cuh).  A histogram does not
 * change when its input is permuted, so before each call every value v
 * becomes (v + offset) % bins (offset random in [1, bins) when bins > 1: the
 * histogram rotates; recorded as the shift) and the histogram is poisoned, in
 * buffers of their own; the whole histogram of a few calls is recorded for
 * the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    sw->invoke = histogram, sw->in[0] = (void **)&in->d_in, sw->out = (void **)&in->d_bins;
    tc->name = "histogram_shared";
    tc->how = KIT_FRESH_OFFSET, tc->modulus = in->d.bins;
    tc->shift_lo = in->d.bins > 1 ? 1 : 0, tc->shift_hi = in->d.bins - 1;
    tc->in[0].orig = in->d_in, tc->in[0].count = in->d.n, tc->n_in = 1;
    tc->out_count = in->d.bins, tc->poison = 0xFF;
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    return kit_histogram_global(in->d_in, in->d.n, in->d_bins_kit, in->d.bins);
}

static double rate(const void *s, double ms) { return (double)((const inputs *)s)->d.n / (ms / 1e3) / 1e9; }

/* `make run-lab04 P="... time=1"`: both versions timed, for exercises 7 and 8. */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (!kit_params_ll(ctx->params, "time", 0, NULL) || in->d.n < 1)
        return 0;
    return kit_lab_show_speedup(ctx, in, 3, 10, "histogram_shared", "global atomics (the baseline)");
}

const kit_lab KIT_LAB = {
    .tag = "lab04", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"histogram_shared (G elements/s)", rate}, {"global atomics (G elements/s)", rate, 1}},
    .show_time = show_time,
};
