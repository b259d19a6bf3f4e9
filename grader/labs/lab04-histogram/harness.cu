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
#include "kit/rng.h"
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

static void time_student(void *arg)
{
    inputs *in = (inputs *)arg;
    histogram_shared(in->d_in, in->d.n, in->d_bins, in->d.bins);
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    if (kit_histogram_global(in->d_in, in->d.n, in->d_bins_kit, in->d.bins) != 0)
        in->baseline_failed = 1;
}

/* `make run-lab04 P="... time=1"`: both versions timed, for exercises 7 and 8. */
static int show_timing(kit_run_ctx *ctx, inputs *in)
{
    if (!kit_params_ll(ctx->params, "time", 0, NULL))
        return 0;
    KIT_HCHECK(cudaMalloc(&in->d_bins_kit, (size_t)in->d.bins * sizeof(unsigned int)));
    kit_timing ts, tb;
    if (kit_time_interleaved(time_student, in, time_baseline, in, 3, 10, &ts, &tb) != 0 || in->baseline_failed)
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

/* Timed calls of the benchmark get fresh contents: a histogram does not
 * change when its input is permuted, so before call k every value v becomes
 * (v + offset_k) % bins (offset_k random in [1, bins) when bins > 1: the
 * histogram rotates) and the output is poisoned, in buffers of their own.
 * The histograms of a few calls - chosen at random as they happen, and the
 * last - are recorded with their offsets; the checker recomputes them. */
typedef struct {
    kit_timed rec; /* first: kit_timed_after is the after hook; cur.shift: the offset */
    inputs *in;
    int *d_inw;
    unsigned int *d_binsw;
} timed;

__global__ void kit_offset_values(const int *in, int *out, int n, int offset, int bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = (in[i] + offset) % bins;
}

static void prepare_student(void *arg, int k)
{
    (void)k;
    timed *t = (timed *)arg;
    const lab04_data *d = &t->in->d;
    t->rec.cur.shift = d->bins > 1 ? kit_rng_range(&t->rec.rng, 1, d->bins - 1) : 0; /* the offset */
    t->rec.cur.scale = 1;
    if (d->n > 0)
        kit_offset_values<<<1024, 256>>>(t->in->d_in, t->d_inw, d->n, (int)t->rec.cur.shift, d->bins);
    cudaMemsetAsync(t->d_binsw, 0xFF, (size_t)d->bins * sizeof(unsigned int));
}

static void time_student_fresh(void *arg)
{
    timed *t = (timed *)arg;
    histogram_shared(t->d_inw, t->in->d.n, t->d_binsw, t->in->d.bins);
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in;
    memset(&in, 0, sizeof in);
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    if (rc == 0 && cudaMalloc(&in.d_bins_kit, (size_t)in.d.bins * sizeof(unsigned int)) != cudaSuccess) {
        fprintf(stderr, "lab04: out of device memory for the baseline\n");
        rc = -1;
    }
    timed *t = rc == 0 ? (timed *)calloc(1, sizeof *t) : NULL;
    if (rc == 0 && (in.d.n < 1 || !t || cudaMalloc(&t->d_inw, (size_t)in.d.n * sizeof(int)) != cudaSuccess ||
                    cudaMalloc(&t->d_binsw, (size_t)in.d.bins * sizeof(unsigned int)) != cudaSuccess)) {
        fprintf(stderr, "lab04: the benchmark needs n >= 1 and memory for the timed calls' input and histogram\n");
        rc = -1;
    }
    if (rc == 0 && kit_timed_init(&t->rec, t->d_binsw, (int64_t)in.d.bins, 0) != 0)
        rc = -1;
    kit_timing ts, tb;
    if (rc == 0) {
        t->in = &in;
        kit_time_pair_spec s = {};
        s.a = time_student_fresh, s.arg_a = t, s.b = time_baseline, s.arg_b = &in;
        s.warmup = ctx->warmup, s.reps = ctx->reps, s.a_name = "histogram_shared";
        s.prepare = prepare_student, s.after = kit_timed_after;
        rc = kit_time_pair(&s, &ts, &tb) == 0 ? 0 : -1;
    }
    /* d_binsw still holds the last timed call's histogram (the baseline writes its own). */
    if (rc == 0 && kit_timed_finish(&t->rec, ctx) != 0)
        rc = -1;
    if (t) {
        cudaFree(t->d_inw);
        cudaFree(t->d_binsw);
        kit_timed_free(&t->rec);
        free(t);
    }
    if (rc == 0 && in.baseline_failed) {
        fprintf(stderr, "lab04: the baseline failed\n");
        rc = -1;
    }
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
