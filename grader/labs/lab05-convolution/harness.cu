/* harness.cu - lab05 harness: copies the generated input to the GPU, calls
 * the student's conv1d_tiled / conv1d_tiled_int / conv1d_halo_global with the
 * mask on the host and a poisoned output, records the output; in bench mode
 * times the float version against the kit's global-memory baseline.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "conv1d.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"

typedef struct {
    lab05_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output */
    int baseline_failed;
} inputs;

static size_t elem_bytes(const inputs *in) { return (size_t)in->d.n * 4; }

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab05_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab05: %s\n", err);
        return -1;
    }
    size_t bytes = (size_t)(in->d.n ? in->d.n : 1) * 4;
    const void *host_in = in->d.is_int ? (const void *)in->d.iin : (const void *)in->d.fin;
    KIT_HCHECK(cudaMalloc(&in->d_in, bytes));
    KIT_HCHECK(cudaMalloc(&in->d_out, bytes));
    KIT_HCHECK(cudaMemcpy(in->d_in, host_in, elem_bytes(in), cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->d_in);
    cudaFree(in->d_out);
    cudaFree(in->d_out_kit);
    lab05_free(&in->d);
}

static const char *function_name(const lab05_data *d)
{
    return d->halo ? "conv1d_halo_global" : d->is_int ? "conv1d_tiled_int" : "conv1d_tiled";
}

/* Calls the function the case names (untraced: the caller brackets it). */
static void call_function(inputs *in)
{
    lab05_data *d = &in->d;
    if (d->halo)
        conv1d_halo_global((const float *)in->d_in, (float *)in->d_out, d->n, d->fmask, d->mask_size);
    else if (d->is_int)
        conv1d_tiled_int((const int *)in->d_in, (int *)in->d_out, d->n, d->imask, d->mask_size);
    else
        conv1d_tiled((const float *)in->d_in, (float *)in->d_out, d->n, d->fmask, d->mask_size);
}

/* Element i for a human: the whole array when it is short, else the ends. */
static void show_result(const inputs *in, const void *out)
{
    const lab05_data *d = &in->d;
    printf("%s(n=%d, mask_size=%d)%s:\n", function_name(d), d->n, d->mask_size, d->example ? " on the worked example" : "");
    for (int i = 0; i < d->n; i++) {
        if (d->n > 12 && i == 6) {
            printf("  ...\n");
            i = d->n - 6;
        }
        if (d->is_int)
            printf("  out[%d] = %d\n", i, ((const int *)out)[i]);
        else
            printf("  out[%d] = %.9g\n", i, (double)((const float *)out)[i]);
    }
}

/* One traced call on a poisoned output; records the output. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    size_t bytes = elem_bytes(in);
    KIT_HCHECK(cudaMemset(in->d_out, 0xFF, bytes ? bytes : 4)); /* NaN (float) / -1 (int) */
    ctx->kernel_optional = in->d.n == 0;
    kit_student_begin(ctx, function_name(&in->d));
    call_function(in);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    void *out = malloc(bytes ? bytes : 4);
    if (!out) {
        fprintf(stderr, "lab05: out of host memory\n");
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
    if (kit_conv1d_global((const float *)in->d_in, in->d_out_kit, in->d.n, in->d.fmask, in->d.mask_size) != 0)
        in->baseline_failed = 1;
}

/* The timed calls of the float versions (fresh.cuh): before each, the input
 * is replaced by scale * (input rotated by shift) and the output poisoned
 * (NaN), in buffers of their own; LAB05_TIMED_SAMPLE output elements of a
 * few calls are recorded for the checker. */
static void timed_conv(const kit_timed_calls *tc)
{
    const lab05_data *d = &((const inputs *)tc->lab)->d;
    const float *x = (const float *)tc->in[0].work;
    if (d->halo)
        conv1d_halo_global(x, (float *)tc->out, d->n, d->fmask, d->mask_size);
    else
        conv1d_tiled(x, (float *)tc->out, d->n, d->fmask, d->mask_size);
}

static int time_conv(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    KIT_HCHECK(cudaMalloc(&in->d_out_kit, (size_t)(in->d.n ? in->d.n : 1) * sizeof(float)));
    kit_timed_calls tc = {};
    tc.name = function_name(&in->d), tc.call = timed_conv, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = in->d.n - 1;
    tc.in[0].orig = in->d_in, tc.in[0].count = in->d.n, tc.n_in = 1;
    tc.out_count = in->d.n, tc.poison = 0xFF, tc.sample = LAB05_TIMED_SAMPLE;
    tc.flops = 2.0 * in->d.n * in->d.mask_size; /* one multiply and one add per term */
    int rc = kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
    if (rc == 0 && in->baseline_failed) {
        fprintf(stderr, "lab05: the baseline failed\n");
        rc = -1;
    }
    return rc;
}

/* `make run-lab05 P="... time=1"`: the student's function and the baseline
 * timed, for exercises 13, 14 and 16 (the baseline is float only). */
static int show_timing(kit_run_ctx *ctx, inputs *in)
{
    if (!kit_params_ll(ctx->params, "time", 0, NULL))
        return 0;
    kit_timing ts, tb;
    if (in->d.is_int) {
        if (kit_time_median(time_student, in, 3, 10, &ts) != 0)
            return -1;
        printf("  median of 10: %s %.4f ms (the baseline is float only: use type=float to compare)\n",
               function_name(&in->d), ts.median_ms);
        return 0;
    }
    if (in->d.n < 1)
        return 0;
    if (time_conv(ctx, in, 3, 10, &ts, &tb) != 0)
        return -1;
    printf("  medians of 10: %s %.4f ms, global-memory baseline %.4f ms: speedup %.2fx\n", function_name(&in->d),
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
    if (rc == 0 && in.d.is_int) {
        fprintf(stderr, "lab05: the benchmark times the float versions (type=float)\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    if (rc == 0 && in.d.n < 1) {
        fprintf(stderr, "lab05: the benchmark needs n >= 1\n");
        rc = -1;
    }
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_conv(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        double flops = 2.0 * in.d.n * in.d.mask_size; /* one multiply and one add per term */
        char label[96];
        snprintf(label, sizeof label, "metric.%s (GFLOP/s)", function_name(&in.d));
        kit_out_f64(ctx, label, flops / (ts.median_ms / 1e3) / 1e9);
        kit_out_f64(ctx, "metric.global-memory baseline (GFLOP/s)", flops / (tb.median_ms / 1e3) / 1e9);
    }
    teardown(&in);
    return rc;
}
