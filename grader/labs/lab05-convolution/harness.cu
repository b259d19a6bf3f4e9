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
#include "kit/rng.h"
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

static int setup_baseline(inputs *in)
{
    KIT_HCHECK(cudaMalloc(&in->d_out_kit, (size_t)(in->d.n ? in->d.n : 1) * sizeof(float)));
    return 0;
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
    if (setup_baseline(in) != 0)
        return -1;
    if (kit_time_interleaved(time_student, in, time_baseline, in, 3, 10, &ts, &tb) != 0 || in->baseline_failed)
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

/* Timed calls of the benchmark get fresh contents (fresh.cuh): before call
 * k, the input is replaced by scale_k * (input rotated by shift_k) and the
 * output poisoned (NaN), in buffers of their own.  For a few calls - chosen
 * at random as they happen, and the last - LAB05_TIMED_SAMPLE output
 * elements at random indices are recorded with (shift, scale); the checker
 * recomputes them. */
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
    cudaMemsetAsync(t->d_yw, 0xFF, elem_bytes(t->in));
}

static void time_student_fresh(void *arg)
{
    timed *t = (timed *)arg;
    lab05_data *d = &t->in->d;
    if (d->halo)
        conv1d_halo_global(t->d_xw, t->d_yw, d->n, d->fmask, d->mask_size);
    else
        conv1d_tiled(t->d_xw, t->d_yw, d->n, d->fmask, d->mask_size);
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
    if (rc == 0)
        rc = setup_baseline(&in);
    timed *t = rc == 0 ? (timed *)calloc(1, sizeof *t) : NULL;
    if (rc == 0 && (in.d.n < 1 || !t || cudaMalloc(&t->d_xw, elem_bytes(&in)) != cudaSuccess ||
                    cudaMalloc(&t->d_yw, elem_bytes(&in)) != cudaSuccess)) {
        fprintf(stderr, "lab05: the benchmark needs n >= 1 and memory for the timed calls' input and output\n");
        rc = -1;
    }
    if (rc == 0 && kit_timed_init(&t->rec, t->d_yw, (int64_t)in.d.n, LAB05_TIMED_SAMPLE) != 0)
        rc = -1;
    kit_timing ts, tb;
    if (rc == 0) {
        t->in = &in;
        kit_time_pair_spec s = {};
        s.a = time_student_fresh, s.arg_a = t, s.b = time_baseline, s.arg_b = &in;
        s.warmup = ctx->warmup, s.reps = ctx->reps, s.a_name = function_name(&in.d);
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
        fprintf(stderr, "lab05: the baseline failed\n");
        rc = -1;
    }
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
