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

/* The timed calls of scan (fresh.cuh): before each, the input is replaced by
 * scale * (input rotated by shift) and the output poisoned (NaN), in buffers
 * of their own; LAB06_TIMED_SAMPLE output elements of a few calls are
 * recorded for the checker. */
static void timed_scan(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    if (in->d.part == 1)
        scan_block((const float *)tc->in[0].work, (float *)tc->out, in->d.n);
    else
        scan((const float *)tc->in[0].work, (float *)tc->out, in->d.n);
}

static int time_scan(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    KIT_HCHECK(cudaMalloc(&in->d_out_kit, (size_t)(in->d.n ? in->d.n : 1) * sizeof(float)));
    kit_timed_calls tc = {};
    tc.name = lab06_function(&in->d), tc.call = timed_scan, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = in->d.n - 1;
    tc.in[0].orig = in->d_in, tc.in[0].count = in->d.n, tc.n_in = 1;
    tc.out_count = in->d.n, tc.poison = 0xFF, tc.sample = LAB06_TIMED_SAMPLE;
    int rc = kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
    if (rc == 0 && in->baseline_failed) {
        fprintf(stderr, "lab06: the baseline failed\n");
        rc = -1;
    }
    return rc;
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
    if (in->d.n < 1)
        return 0;
    if (time_scan(ctx, in, 3, 10, &ts, &tb) != 0)
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
    if (rc == 0 && in.d.n < 1) {
        fprintf(stderr, "lab06: the benchmark needs n >= 1\n");
        rc = -1;
    }
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_scan(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
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
