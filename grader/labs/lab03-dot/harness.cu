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
#include "kit/rng.h"
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

static void time_baseline(void *arg);

/* `make run-lab03 P="variant=ladder"`: dot_shared timed on the case's own inputs. */
static void time_student_shown(void *arg)
{
    inputs *in = (inputs *)arg;
    volatile float r = dot_shared((const float *)in->da, (const float *)in->db, in->d.n);
    (void)r;
}

/* variant=ladder (show mode): the four block reductions of document 000 side
 * by side, then the student's dot_shared and the baseline on the same n. */
static int show_ladder(inputs *in)
{
    if (kit_ladder_show(in->d.fa, in->d.n) != 0)
        return -1;
    kit_timing ts, tb;
    if (kit_time_interleaved(time_student_shown, in, time_baseline, in, 2, 9, &ts, &tb) != 0)
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
        rc = in.d.ladder ? show_ladder(&in) : call_student(ctx, &in);
    teardown(&in);
    return rc;
}

/* Timed calls get fresh contents (fresh.cuh): before call k of dot_shared,
 * b is replaced by scale_k * (b rotated by shift_k), so a result remembered
 * from an earlier call (keyed by pointers, or by contents) is wrong.  Every
 * timed result is recorded with its (shift, scale); the checker recomputes
 * an unpredictable sample of them.  The baseline always reads the original b. */
typedef struct {
    inputs *in;
    float *dwork; /* the b of the timed calls */
    kit_rng rng;
    int64_t *shift;
    double *scale;
    float *result;
    int n_calls, cap;
} timed;

static void prepare_student(void *arg, int k)
{
    timed *t = (timed *)arg;
    if (k >= t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        t->shift = (int64_t *)realloc(t->shift, (size_t)cap * sizeof *t->shift);
        t->scale = (double *)realloc(t->scale, (size_t)cap * sizeof *t->scale);
        t->result = (float *)realloc(t->result, (size_t)cap * sizeof *t->result);
        t->cap = cap;
    }
    kit_fresh f = kit_fresh_draw(&t->rng, t->in->d.n);
    t->shift[k] = f.shift, t->scale[k] = f.scale;
    kit_fresh_apply((const float *)t->in->db, t->dwork, t->in->d.n, f);
    t->result[k] = NAN;
}

static void time_student(void *arg)
{
    timed *t = (timed *)arg;
    t->result[t->n_calls] = dot_shared((const float *)t->in->da, t->dwork, t->in->d.n);
}

static int after_student(void *arg, int k)
{
    timed *t = (timed *)arg;
    t->n_calls = k + 1;
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    volatile float r = kit_dot_global((const float *)in->da, (const float *)in->db, in->d.n);
    (void)r;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    timed t = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.is_int || in.d.ladder || in.d.n < 1)) {
        fprintf(stderr, "lab03: the benchmark times the float dot product (type=float, variant=dot) with n >= 1\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    kit_timing ts, tb;
    if (rc == 0) {
        t.in = &in;
        kit_rng_seed(&t.rng, kit_random_u64(), 3);
        if (cudaMalloc(&t.dwork, (size_t)in.d.n * sizeof(float)) != cudaSuccess) {
            fprintf(stderr, "lab03: out of device memory for the timed calls' inputs\n");
            rc = -1;
        }
    }
    if (rc == 0) {
        kit_time_pair_spec s = {};
        s.a = time_student, s.arg_a = &t, s.b = time_baseline, s.arg_b = &in;
        s.warmup = ctx->warmup, s.reps = ctx->reps, s.a_name = "dot_shared";
        s.prepare = prepare_student, s.after = after_student;
        rc = kit_time_pair(&s, &ts, &tb) == 0 ? 0 : -1;
    }
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        double gb = 2.0 * in.d.n * sizeof(float) / 1e9;
        kit_out_f64(ctx, "metric.dot_shared reads (GB/s)", gb / (ts.median_ms / 1e3));
        kit_out(ctx, LAB03_TIMED_SHIFT, KIT_T_I64, t.shift, (uint64_t)t.n_calls);
        kit_out(ctx, LAB03_TIMED_SCALE, KIT_T_F64, t.scale, (uint64_t)t.n_calls);
        kit_out(ctx, LAB03_TIMED_RESULT, KIT_T_F32, t.result, (uint64_t)t.n_calls);
    }
    cudaFree(t.dwork);
    free(t.shift);
    free(t.scale);
    free(t.result);
    teardown(&in);
    return rc;
}
