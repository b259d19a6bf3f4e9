/* harness.cu - lab10 harness: copies A and B to the GPU, fills C with NaN,
 * calls the student's matmul_tiled, records C ("c", f32, m*n).  In bench mode
 * (and in show mode, for students) it times matmul_tiled against the kit's
 * naive global-memory kernel.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"
#include "matmul.h"

typedef struct {
    lab10_data d;
    size_t c_count;
    float *da, *db, *dc;
} inputs;

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab10_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab10: %s\n", err);
        return -1;
    }
    size_t a = (size_t)in->d.m * in->d.k, b = (size_t)in->d.k * in->d.n;
    in->c_count = (size_t)in->d.m * in->d.n;
    KIT_HCHECK(cudaMalloc(&in->da, (a ? a : 1) * sizeof(float)));
    KIT_HCHECK(cudaMalloc(&in->db, (b ? b : 1) * sizeof(float)));
    KIT_HCHECK(cudaMalloc(&in->dc, (in->c_count ? in->c_count : 1) * sizeof(float)));
    KIT_HCHECK(cudaMemcpy(in->da, in->d.a, a * sizeof(float), cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->db, in->d.b, b * sizeof(float), cudaMemcpyHostToDevice));
    /* poison: an element of C the student never writes reads back as NaN */
    KIT_HCHECK(cudaMemset(in->dc, 0xFF, (in->c_count ? in->c_count : 1) * sizeof(float)));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->da);
    cudaFree(in->db);
    cudaFree(in->dc);
    lab10_free(&in->d);
}

static void show_result(const inputs *in, const float *c)
{
    int m = in->d.m, n = in->d.n;
    printf("matmul_tiled(m=%d, n=%d, k=%d) computed C (%d x %d)\n", m, n, in->d.k, m, n);
    if (!m || !n)
        return;
    int rows = m < 4 ? m : 4, cols = n < 4 ? n : 4;
    printf("top-left %d x %d of C:\n", rows, cols);
    for (int i = 0; i < rows; i++) {
        printf("  ");
        for (int j = 0; j < cols; j++)
            printf(" %12.6g", c[(size_t)i * n + j]);
        printf("\n");
    }
    printf("C[%d][%d] (bottom-right) = %.9g\n", m - 1, n - 1, c[in->c_count - 1]);
    size_t nan = 0;
    for (size_t t = 0; t < in->c_count; t++)
        nan += c[t] != c[t];
    if (nan)
        printf("%zu elements of C are NaN: never written (the harness fills C with NaN before the call)\n", nan);
}

/* One traced call; records C. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    /* an empty C, or k == 0 (C = 0: a cudaMemset will do), needs no kernel */
    ctx->kernel_optional = in->c_count == 0 || in->d.k == 0;
    kit_student_begin(ctx, "matmul_tiled");
    matmul_tiled(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    float *c = (float *)malloc((in->c_count ? in->c_count : 1) * sizeof(float));
    if (!c) {
        fprintf(stderr, "lab10: out of host memory\n");
        return -1;
    }
    cudaError_t e = cudaMemcpy(c, in->dc, in->c_count * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        kit_out(ctx, "c", KIT_T_F32, c, in->c_count);
        if (ctx->show)
            show_result(in, c);
    }
    free(c);
    KIT_HCHECK(e);
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    kit_matmul_naive(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k);
}

/* The timed calls (fresh.cuh): before each, A is replaced by scale * (A with
 * its rows rotated: the shift is a whole number of rows) and C poisoned
 * (NaN), in buffers of their own; LAB10_TIMED_SAMPLE elements of C of a few
 * calls are recorded for the checker. */
static void timed_matmul(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    matmul_tiled((const float *)tc->in[0].work, in->db, (float *)tc->out, in->d.m, in->d.n, in->d.k);
}

static int time_matmul(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    kit_timed_calls tc = {};
    tc.name = "matmul_tiled", tc.call = timed_matmul, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = in->d.m - 1, tc.shift_step = in->d.k;
    tc.in[0].orig = in->da, tc.in[0].count = (int64_t)in->d.m * in->d.k, tc.n_in = 1;
    tc.out_count = (int64_t)in->c_count, tc.poison = 0xFF, tc.sample = LAB10_TIMED_SAMPLE;
    tc.extra_bytes = 4.0 * in->d.k * in->d.n;           /* B, read by every call too */
    tc.flops = 2.0 * in->d.m * (double)in->d.n * in->d.k; /* one multiply and one add per term */
    return kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
}

static double gflops(const inputs *in, double ms)
{
    return 2.0 * in->d.m * (double)in->d.n * in->d.k / 1e9 / (ms / 1e3);
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in);
    /* show mode: the time against the naive kernel */
    kit_timing ts, tb;
    if (rc == 0 && ctx->show && in.c_count && in.d.k &&
        time_matmul(ctx, &in, 2, 5, &ts, &tb) == 0)
        printf("time: matmul_tiled %.3f ms (%.0f GFLOP/s), the kit's naive kernel %.3f ms (%.0f GFLOP/s), medians of "
               "5: speedup %.2fx\n",
               ts.median_ms, gflops(&in, ts.median_ms), tb.median_ms, gflops(&in, tb.median_ms),
               tb.median_ms / ts.median_ms);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.c_count == 0 || in.d.k == 0)) {
        fprintf(stderr, "lab10: the benchmark needs m, n, k > 0\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_matmul(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        kit_out_f64(ctx, "metric.matmul_tiled GFLOP/s (2mnk flops)", gflops(&in, ts.median_ms));
        kit_out_f64(ctx, "metric.the naive kernel, GFLOP/s", gflops(&in, tb.median_ms));
    }
    teardown(&in);
    return rc;
}
