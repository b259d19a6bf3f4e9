/* harness.cu - lab03 harness: copies the generated inputs to the GPU, calls
 * the student's dot_shared / dot_shared_int, records the results; in bench
 * mode times dot_shared against the kit's global-memory baseline.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "dot.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"
#include "ladder.h"

typedef struct {
    lab03_data d;
    void *da, *db;
} inputs;

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab03_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab03: %s\n", err);
        return -1;
    }
    size_t bytes = (size_t)(in->d.n ? in->d.n : 1) * 4;
    const void *ha = in->d.is_int ? (const void *)in->d.ia : (const void *)in->d.fa;
    const void *hb = in->d.is_int ? (const void *)in->d.ib : (const void *)in->d.fb;
    KIT_HCHECK(cudaMalloc(&in->da, bytes));
    KIT_HCHECK(cudaMalloc(&in->db, bytes));
    KIT_HCHECK(cudaMemcpy(in->da, ha, (size_t)in->d.n * 4, cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->db, hb, (size_t)in->d.n * 4, cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->da);
    cudaFree(in->db);
    lab03_free(&in->d);
}

/* One traced call of the student's function; records its result. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    ctx->kernel_optional = in->d.n == 0;
    if (in->d.is_int) {
        kit_student_begin(ctx, "dot_shared_int");
        int r = dot_shared_int((const int *)in->da, (const int *)in->db, in->d.n);
        if (kit_student_end(ctx) != 0)
            return KIT_RC_STUDENT_CUDA;
        kit_out(ctx, "result_int", KIT_T_I32, &r, 1);
        if (ctx->show)
            printf("dot_shared_int(n=%d) = %d\n", in->d.n, r);
    } else {
        kit_student_begin(ctx, "dot_shared");
        float r = dot_shared((const float *)in->da, (const float *)in->db, in->d.n);
        if (kit_student_end(ctx) != 0)
            return KIT_RC_STUDENT_CUDA;
        kit_out(ctx, "result", KIT_T_F32, &r, 1);
        if (ctx->show)
            printf("dot_shared(n=%d) = %.9g\n", in->d.n, r);
    }
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    volatile float r = kit_dot_global((const float *)in->da, (const float *)in->db, in->d.n);
    (void)r;
}

/* The timed calls of dot_shared (fresh.cuh): before each, b is replaced by
 * scale * (b rotated by shift), in a buffer of its own, and the result slot
 * poisoned (NaN); the result of a few calls is recorded for the checker.
 * The baseline always reads the original b. */
static void timed_dot(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    *(float *)tc->out = dot_shared((const float *)in->da, (const float *)tc->in[0].work, in->d.n);
}

static int time_dot(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    float result;
    kit_timed_calls tc = {};
    tc.name = "dot_shared", tc.call = timed_dot, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = in->d.n - 1;
    tc.in[0].orig = in->db, tc.in[0].count = in->d.n, tc.n_in = 1;
    tc.out = &result, tc.out_host = 1, tc.out_count = 1, tc.poison = 0xFF;
    tc.extra_bytes = 4.0 * in->d.n; /* a, read by every call too */
    return kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
}

/* variant=ladder (show mode): the four block reductions of document 000 side
 * by side, then the student's dot_shared and the baseline on the same n. */
static int show_ladder(kit_run_ctx *ctx, inputs *in)
{
    if (kit_ladder_show(in->d.fa, in->d.n) != 0)
        return -1;
    kit_timing ts, tb;
    if (in->d.n < 1)
        return 0;
    if (time_dot(ctx, in, 2, 9, &ts, &tb) != 0)
        return -1;
    printf("for comparison, a whole dot product of the same n = %d (two arrays, grid-wide):\n", in->d.n);
    printf("  your dot_shared %.4f ms, the kit's global-memory baseline %.4f ms (medians of 9)\n", ts.median_ms,
           tb.median_ms);
    return 0;
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && in.d.ladder && !ctx->show) {
        fprintf(stderr, "lab03: variant=ladder only times the reduction ladder (make run-lab03); it is not graded\n");
        rc = -1;
    }
    if (rc == 0)
        rc = in.d.ladder ? show_ladder(ctx, &in) : call_student(ctx, &in);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.is_int || in.d.ladder || in.d.n < 1)) {
        fprintf(stderr, "lab03: the benchmark times the float dot product (type=float, variant=dot) with n >= 1\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_dot(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        double gb = 2.0 * in.d.n * sizeof(float) / 1e9;
        kit_out_f64(ctx, "metric.dot_shared reads (GB/s)", gb / (ts.median_ms / 1e3));
    }
    teardown(&in);
    return rc;
}
