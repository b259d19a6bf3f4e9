/* harness.cu - lab04 harness: copies the generated values to the GPU, hands
 * the student's histogram_shared a poisoned histogram, records what it left
 * there; in bench mode times it against the kit's global-atomics baseline.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "histogram.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"

typedef struct {
    lab04_data d;
    int *d_in;
    unsigned int *d_bins;      /* the student's histogram */
    unsigned int *d_bins_kit;  /* the baseline's, in bench mode */
    int baseline_failed;
} inputs;

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab04_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab04: %s\n", err);
        return -1;
    }
    size_t in_bytes = (size_t)(in->d.n ? in->d.n : 1) * sizeof(int);
    size_t bin_bytes = (size_t)in->d.bins * sizeof(unsigned int);
    KIT_HCHECK(cudaMalloc(&in->d_in, in_bytes));
    KIT_HCHECK(cudaMalloc(&in->d_bins, bin_bytes));
    KIT_HCHECK(cudaMemcpy(in->d_in, in->d.in, (size_t)in->d.n * sizeof(int), cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->d_in);
    cudaFree(in->d_bins);
    cudaFree(in->d_bins_kit);
    lab04_free(&in->d);
}

/* A few numbers a student can compare with what they expect. */
static void show_result(const inputs *in, const unsigned int *bins, const char *dist)
{
    unsigned long long total = 0;
    int nonzero = 0;
    for (int b = 0; b < in->d.bins; b++) {
        total += bins[b];
        nonzero += bins[b] != 0;
    }
    printf("histogram_shared(n=%d, bins=%d, dist=%s): counts add up to %llu, %d non-empty bins\n", in->d.n,
           in->d.bins, dist, total, nonzero);
    if (!strcmp(dist, "skewed") || !strcmp(dist, "equal"))
        printf("  hot bin %d: %u\n", in->d.hot, bins[in->d.hot]);
    printf("  bins[0..%d]:", in->d.bins < 8 ? in->d.bins - 1 : 7);
    for (int b = 0; b < in->d.bins && b < 8; b++)
        printf(" %u", bins[b]);
    printf("\n");
}

/* One traced call of the student's function on a poisoned histogram; records it. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    size_t bin_bytes = (size_t)in->d.bins * sizeof(unsigned int);
    KIT_HCHECK(cudaMemset(in->d_bins, 0xFF, bin_bytes)); /* every bin must be set by the student */
    ctx->kernel_optional = in->d.n == 0; /* all-zero bins need no kernel */
    kit_student_begin(ctx, "histogram_shared");
    histogram_shared(in->d_in, in->d.n, in->d_bins, in->d.bins);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    unsigned int *bins = (unsigned int *)malloc(bin_bytes);
    if (!bins) {
        fprintf(stderr, "lab04: out of host memory\n");
        return -1;
    }
    cudaError_t e = cudaMemcpy(bins, in->d_bins, bin_bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(bins);
        KIT_HCHECK(e);
    }
    kit_out(ctx, "bins", KIT_T_U32, bins, (uint64_t)in->d.bins);
    if (ctx->show)
        show_result(in, bins, kit_params_get(ctx->params, "dist", "uniform"));
    free(bins);
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    if (kit_histogram_global(in->d_in, in->d.n, in->d_bins_kit, in->d.bins) != 0)
        in->baseline_failed = 1;
}

/* The timed calls of histogram_shared (fresh.cuh).  A histogram does not
 * change when its input is permuted, so before each call every value v
 * becomes (v + offset) % bins (offset random in [1, bins) when bins > 1: the
 * histogram rotates; recorded as the shift) and the histogram is poisoned, in
 * buffers of their own; the whole histogram of a few calls is recorded for
 * the checker. */
static void timed_histogram(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    histogram_shared((const int *)tc->in[0].work, in->d.n, (unsigned int *)tc->out, in->d.bins);
}

static int time_histogram(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    KIT_HCHECK(cudaMalloc(&in->d_bins_kit, (size_t)in->d.bins * sizeof(unsigned int)));
    kit_timed_calls tc = {};
    tc.name = "histogram_shared", tc.call = timed_histogram, tc.lab = in;
    tc.how = KIT_FRESH_OFFSET, tc.modulus = in->d.bins;
    tc.shift_lo = in->d.bins > 1 ? 1 : 0, tc.shift_hi = in->d.bins - 1;
    tc.in[0].orig = in->d_in, tc.in[0].count = in->d.n, tc.n_in = 1;
    tc.out_count = in->d.bins, tc.poison = 0xFF;
    int rc = kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
    if (rc == 0 && in->baseline_failed) {
        fprintf(stderr, "lab04: the baseline failed\n");
        rc = -1;
    }
    return rc;
}

/* `make run-lab04 P="... time=1"`: both versions timed, for exercises 7 and 8. */
static int show_timing(kit_run_ctx *ctx, inputs *in)
{
    if (!kit_params_ll(ctx->params, "time", 0, NULL) || in->d.n < 1)
        return 0;
    kit_timing ts, tb;
    if (time_histogram(ctx, in, 3, 10, &ts, &tb) != 0)
        return -1;
    printf("  medians of 10: histogram_shared %.4f ms, global atomics (the baseline) %.4f ms: speedup %.2fx\n",
           ts.median_ms, tb.median_ms, tb.median_ms / ts.median_ms);
    return 0;
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in;
    memset(&in, 0, sizeof in);
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in);
    if (rc == 0 && ctx->show)
        rc = show_timing(ctx, &in);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in;
    memset(&in, 0, sizeof in);
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    if (rc == 0 && in.d.n < 1) {
        fprintf(stderr, "lab04: the benchmark needs n >= 1\n");
        rc = -1;
    }
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_histogram(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        double elements = (double)in.d.n;
        kit_out_f64(ctx, "metric.histogram_shared (G elements/s)", elements / (ts.median_ms / 1e3) / 1e9);
        kit_out_f64(ctx, "metric.global atomics (G elements/s)", elements / (tb.median_ms / 1e3) / 1e9);
    }
    teardown(&in);
    return rc;
}
