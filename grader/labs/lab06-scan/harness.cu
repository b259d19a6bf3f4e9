/* harness.cu - lab06 harness: copies the generated input to the GPU, calls
 * the student's scan_block / scan_block_int (part=1) or scan / scan_int
 * (part=2) on a poisoned output, records the output; in bench mode times
 * scan against the kit's one-launch-per-stride global-memory scan.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/rng.h"
#include "kit/runner.h"
#include "kit/util.h"
#include "scan.h"

typedef struct {
    lab06_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, in bench mode */
    int baseline_failed;
} inputs;

static size_t data_bytes(const inputs *in) { return (size_t)in->d.n * 4; }

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab06_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab06: %s\n", err);
        return -1;
    }
    size_t bytes = (size_t)(in->d.n ? in->d.n : 1) * 4;
    const void *host_in = in->d.is_int ? (const void *)in->d.iin : (const void *)in->d.fin;
    KIT_HCHECK(cudaMalloc(&in->d_in, bytes));
    KIT_HCHECK(cudaMalloc(&in->d_out, bytes));
    KIT_HCHECK(cudaMemcpy(in->d_in, host_in, data_bytes(in), cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->d_in);
    cudaFree(in->d_out);
    cudaFree(in->d_out_kit);
    lab06_free(&in->d);
}

/* Calls the function the case names (untraced: the caller brackets it). */
static void call_function(inputs *in)
{
    int n = in->d.n;
    if (in->d.part == 1 && in->d.is_int)
        scan_block_int((const int *)in->d_in, (int *)in->d_out, n);
    else if (in->d.part == 1)
        scan_block((const float *)in->d_in, (float *)in->d_out, n);
    else if (in->d.is_int)
        scan_int((const int *)in->d_in, (int *)in->d_out, n);
    else
        scan((const float *)in->d_in, (float *)in->d_out, n);
}

/* The first i where out[i] != out[i-1] + in[i] (floats: beyond a loose
 * tolerance), or -1: lets a student see a wrong scan without the checker. */
static long first_break(const lab06_data *d, const void *out)
{
    for (long i = 0; i < d->n; i++) {
        if (d->is_int) {
            const int *o = (const int *)out;
            if (o[i] != (i ? o[i - 1] : 0) + d->iin[i])
                return i;
        } else {
            const float *o = (const float *)out;
            double step = (double)o[i] - (i ? (double)o[i - 1] : 0.0);
            if (!(fabs(step - (double)d->fin[i]) <= 1e-3 * (1.0 + fabs((double)o[i]))))
                return i;
        }
    }
    return -1;
}

static void show_result(const inputs *in, const void *out)
{
    const lab06_data *d = &in->d;
    long broken = first_break(d, out);
    printf("%s(n=%d):\n", lab06_function(d), d->n);
    if (broken < 0)
        printf("  out[i] = out[i-1] + in[i] holds for every i%s\n", d->is_int ? "" : " (to within 1e-3)");
    else
        printf("  out[i] = out[i-1] + in[i] first fails at i = %ld\n", broken);
    for (int i = 0; i < d->n; i++) {
        if (d->n > 12 && i == 6) {
            printf("  ...\n");
            i = d->n - 6;
        }
        if (d->is_int)
            printf("  in[%d] = %d   out[%d] = %d\n", i, d->iin[i], i, ((const int *)out)[i]);
        else
            printf("  in[%d] = %.9g   out[%d] = %.9g\n", i, (double)d->fin[i], i, (double)((const float *)out)[i]);
    }
}

/* One traced call on a poisoned output; records the output. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    size_t bytes = data_bytes(in);
    KIT_HCHECK(cudaMemset(in->d_out, 0xFF, bytes ? bytes : 4)); /* NaN (float) / -1 (int) */
    ctx->kernel_optional = in->d.n == 0;
    kit_student_begin(ctx, lab06_function(&in->d));
    call_function(in);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    void *out = malloc(bytes ? bytes : 4);
    if (!out) {
        fprintf(stderr, "lab06: out of host memory\n");
        return -1;
    }
    cudaError_t e = cudaMemcpy(out, in->d_out, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(out);
        KIT_HCHECK(e);
    }
    kit_out(ctx, "out", in->d.is_int ? KIT_T_I32 : KIT_T_F32, out, (uint64_t)in->d.n);
    if (ctx->show)
        show_result(in, out);
    free(out);
    return 0;
}

static void time_student(void *arg) { call_function((inputs *)arg); }

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    if (kit_scan_global((const float *)in->d_in, in->d_out_kit, in->d.n) != 0)
        in->baseline_failed = 1;
}

/* `make run-lab06 P="... time=1"`: the student's function timed, and for
 * float data the global-memory baseline too. */
static int show_timing(kit_run_ctx *ctx, inputs *in)
{
    if (!kit_params_ll(ctx->params, "time", 0, NULL))
        return 0;
    kit_timing ts, tb;
    if (in->d.is_int) {
        if (kit_time_median(time_student, in, 3, 10, &ts) != 0)
            return -1;
        printf("  median of 10: %s %.4f ms (the baseline is float only)\n", lab06_function(&in->d), ts.median_ms);
        return 0;
    }
    KIT_HCHECK(cudaMalloc(&in->d_out_kit, (size_t)(in->d.n ? in->d.n : 1) * sizeof(float)));
    if (kit_time_interleaved(time_student, in, time_baseline, in, 3, 10, &ts, &tb) != 0 || in->baseline_failed)
        return -1;
    printf("  medians of 10: %s %.4f ms, global-memory scan (one launch per stride) %.4f ms: speedup %.2fx\n",
           lab06_function(&in->d), ts.median_ms, tb.median_ms, tb.median_ms / ts.median_ms);
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

/* Timed calls of the benchmark get fresh contents (fresh.cuh): before call
 * k, the input is replaced by scale_k * (input rotated by shift_k) and the
 * output poisoned (NaN), in buffers of their own.  For a few calls - chosen
 * at random as they happen, and the last - LAB06_TIMED_SAMPLE output
 * elements at random indices are recorded with (shift, scale); the checker
 * recomputes those prefixes. */
typedef struct {
    kit_timed rec; /* first: kit_timed_after is the after hook */
    inputs *in;
    float *d_xw, *d_yw;
} timed;

static void prepare_student(void *arg, int k)
{
    (void)k;
    timed *t = (timed *)arg;
    t->rec.cur = kit_fresh_draw(&t->rec.rng, t->in->d.n);
    kit_fresh_apply((const float *)t->in->d_in, t->d_xw, t->in->d.n, t->rec.cur);
    cudaMemsetAsync(t->d_yw, 0xFF, data_bytes(t->in));
}

static void time_student_fresh(void *arg)
{
    timed *t = (timed *)arg;
    scan(t->d_xw, t->d_yw, t->in->d.n);
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in;
    memset(&in, 0, sizeof in);
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.is_int || in.d.part != 2)) {
        fprintf(stderr, "lab06: the benchmark times scan (part=2 type=float)\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    if (rc == 0 && cudaMalloc(&in.d_out_kit, (size_t)(in.d.n ? in.d.n : 1) * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "lab06: out of device memory for the baseline\n");
        rc = -1;
    }
    timed *t = rc == 0 ? (timed *)calloc(1, sizeof *t) : NULL;
    if (rc == 0 && (!t || cudaMalloc(&t->d_xw, data_bytes(&in)) != cudaSuccess ||
                    cudaMalloc(&t->d_yw, data_bytes(&in)) != cudaSuccess)) {
        fprintf(stderr, "lab06: out of memory for the timed calls' input and output\n");
        rc = -1;
    }
    if (rc == 0 && kit_timed_init(&t->rec, t->d_yw, (int64_t)in.d.n, LAB06_TIMED_SAMPLE) != 0)
        rc = -1;
    kit_timing ts, tb;
    if (rc == 0) {
        t->in = &in;
        kit_time_pair_spec s = {};
        s.a = time_student_fresh, s.arg_a = t, s.b = time_baseline, s.arg_b = &in;
        s.warmup = ctx->warmup, s.reps = ctx->reps, s.a_name = "scan";
        s.prepare = prepare_student, s.after = kit_timed_after;
        rc = kit_time_pair(&s, &ts, &tb) == 0 ? 0 : -1;
    }
    /* The timed calls' output buffer still holds the last one's (the baseline writes its own). */
    if (rc == 0 && kit_timed_finish(&t->rec, ctx) != 0)
        rc = -1;
    if (t) {
        cudaFree(t->d_xw);
        cudaFree(t->d_yw);
        kit_timed_free(&t->rec);
        free(t);
    }
    if (rc == 0 && in.baseline_failed) {
        fprintf(stderr, "lab06: the baseline failed\n");
        rc = -1;
    }
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        /* the least traffic any scan needs: read the input once, write the output once */
        double gb = 2.0 * in.d.n * sizeof(float) / 1e9;
        kit_out_f64(ctx, "metric.scan effective bandwidth (GB/s, 8 bytes per element)", gb / (ts.median_ms / 1e3));
        kit_out_f64(ctx, "metric.baseline effective bandwidth (GB/s)", gb / (tb.median_ms / 1e3));
    }
    teardown(&in);
    return rc;
}
