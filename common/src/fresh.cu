/* fresh.cu - the timed-call driver (see fresh.cuh). */
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/fresh.cuh"
#include "kit/plausible.h"
#include "kit/protocol.h"
#include "kit/runner.h"
#include "kit/util.h"

/* ---- making a timed call's inputs ---------------------------------------------- */

__global__ void kit_fresh_kernel(const float *src, float *dst, int64_t n, int64_t shift, float scale)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = scale * src[(i + shift) % n];
}

void kit_fresh_apply(const float *src, float *dst, int64_t n, kit_fresh f)
{
    if (n > 0)
        kit_fresh_kernel<<<1024, 256>>>(src, dst, n, f.shift, (float)f.scale);
}

__global__ void kit_fresh_square_kernel(const float *src, float *dst, int64_t side, int64_t shift, float scale)
{
    int64_t n = side * side;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < n; t += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = (t / side + shift) % side, j = (t % side + shift) % side;
        dst[t] = scale * src[i * side + j];
    }
}

__global__ void kit_fresh_offset_kernel(const int *src, int *dst, int64_t n, int offset, int modulus)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = modulus > 0 ? (src[i] + offset) % modulus : src[i] + offset;
}

/* The next call's (shift, scale). */
static kit_fresh fresh_draw(kit_timed_calls *tc)
{
    kit_fresh f;
    int64_t step = tc->shift_step ? tc->shift_step : 1;
    f.shift = step * kit_rng_range(&tc->rng, tc->shift_lo, tc->shift_hi);
    if (tc->how == KIT_FRESH_OFFSET)
        f.scale = 1;
    else if (tc->how == KIT_FRESH_ROTATE_XOR)
        f.scale = (double)(uint32_t)kit_rng_u64(&tc->rng);
    else
        f.scale = ldexp(kit_rng_range(&tc->rng, 0, 1) ? 1.0 : -1.0, (int)kit_rng_range(&tc->rng, -8, 8));
    return f;
}

static void fresh_input(const kit_timed_calls *tc, const kit_fresh_input *in, kit_fresh f)
{
    if (in->count < 1)
        return;
    switch (tc->how) {
    case KIT_FRESH_ROTATE_SCALE:
        kit_fresh_apply((const float *)in->orig, (float *)in->work, in->count, f);
        break;
    case KIT_FRESH_ROTATE_SQUARE:
        kit_fresh_square_kernel<<<1024, 256>>>((const float *)in->orig, (float *)in->work, tc->side, f.shift,
                                                (float)f.scale);
        break;
    case KIT_FRESH_OFFSET:
        kit_fresh_offset_kernel<<<1024, 256>>>((const int *)in->orig, (int *)in->work, in->count, (int)f.shift,
                                                (int)tc->modulus);
        break;
    case KIT_FRESH_ROTATE_XOR:
        kit_fresh_rotate_xor_host((const uint32_t *)in->orig, (uint32_t *)in->work, in->count, f.shift,
                                  (uint32_t)f.scale);
        break;
    }
}

/* kit_time_pair's prepare hook: fresh inputs, poisoned output. */
static void fresh_prepare(void *arg, int k)
{
    (void)k;
    kit_timed_calls *tc = (kit_timed_calls *)arg;
    tc->cur = fresh_draw(tc);
    for (int i = 0; i < tc->n_in; i++)
        fresh_input(tc, &tc->in[i], tc->cur);
    size_t bytes = (size_t)tc->out_count * 4;
    if (tc->out_host)
        kit_fill_host(tc->out, tc->poison, bytes);
    else
        cudaMemsetAsync(tc->out, tc->poison, bytes);
}

static void fresh_call(void *arg)
{
    const kit_timed_calls *tc = (const kit_timed_calls *)arg;
    tc->call(tc);
}

/* ---- recording a few calls' outputs ---------------------------------------------- */

__global__ void kit_fresh_gather(const uint32_t *src, const int64_t *idx, uint32_t *dst, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        dst[i] = src[idx[i]];
}

/* val[i] = the device array's 4-byte element idx[i] (synchronous). */
static cudaError_t gather_device(const void *d_out, const int64_t *idx, uint32_t *val, int m)
{
    int64_t *d_idx = NULL;
    uint32_t *d_val = NULL;
    cudaError_t e = cudaMalloc(&d_idx, (size_t)m * sizeof *d_idx);
    if (e == cudaSuccess)
        e = cudaMalloc(&d_val, (size_t)m * sizeof *d_val);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_idx, idx, (size_t)m * sizeof *d_idx, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        kit_fresh_gather<<<(m + 255) / 256, 256>>>((const uint32_t *)d_out, d_idx, d_val, m);
        e = cudaMemcpy(val, d_val, (size_t)m * sizeof *d_val, cudaMemcpyDeviceToHost);
    }
    cudaFree(d_idx);
    cudaFree(d_val);
    return e;
}

/* Keeps the output of call k (its output is in out now) in record slot `slot`. */
static int record(kit_timed_calls *tc, int slot, int k)
{
    cudaError_t e = cudaDeviceSynchronize(); /* a host output is complete only now */
    size_t per = tc->sample > 0 ? (size_t)tc->sample : (size_t)tc->out_count;
    uint32_t *val = tc->rec_value + (size_t)slot * per;
    const uint32_t *host = (const uint32_t *)tc->out;
    if (e == cudaSuccess && tc->sample > 0) {
        int64_t *idx = tc->rec_index + (size_t)slot * per;
        if (tc->pick)
            tc->pick(tc, &tc->rng, tc->sample, idx);
        else
            for (int i = 0; i < tc->sample; i++)
                idx[i] = kit_rng_range(&tc->rng, 0, tc->out_count - 1);
        if (tc->out_host)
            for (int i = 0; i < tc->sample; i++)
                val[i] = host[idx[i]];
        else
            e = gather_device(tc->out, idx, val, tc->sample);
    } else if (e == cudaSuccess) {
        e = cudaMemcpy(val, tc->out, per * sizeof *val, tc->out_host ? cudaMemcpyHostToHost : cudaMemcpyDeviceToHost);
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "fresh.cu: recording timed call %d of %s failed: %s\n", k + 1, tc->name, cudaGetErrorString(e));
        return -1;
    }
    tc->rec_call[slot] = k + 1, tc->rec_shift[slot] = tc->cur.shift, tc->rec_scale[slot] = tc->cur.scale;
    return 0;
}

/* kit_time_pair's after hook: about one call in 32 is recorded, while fewer
 * than KIT_TIMED_MAX - 1 are (the last slot is the last call's). */
static int fresh_after(void *arg, int k)
{
    kit_timed_calls *tc = (kit_timed_calls *)arg;
    tc->calls = k + 1;
    if (tc->n_rec < KIT_TIMED_MAX - 1 && kit_rng_range(&tc->rng, 0, 31) == 0) {
        if (record(tc, tc->n_rec, k) != 0)
            return -1;
        tc->n_rec++;
    }
    return 0;
}

static void write_record(const kit_timed_calls *tc, kit_run_ctx *ctx)
{
    uint64_t n = (uint64_t)tc->n_rec, per = tc->sample > 0 ? (uint64_t)tc->sample : (uint64_t)tc->out_count;
    kit_out(ctx, KIT_KEY_TIMED_CALL, KIT_T_I32, tc->rec_call, n);
    kit_out(ctx, KIT_KEY_TIMED_SHIFT, KIT_T_I64, tc->rec_shift, n);
    kit_out(ctx, KIT_KEY_TIMED_SCALE, KIT_T_F64, tc->rec_scale, n);
    if (tc->sample > 0)
        kit_out(ctx, KIT_KEY_TIMED_INDEX, KIT_T_I64, tc->rec_index, n * per);
    kit_out(ctx, KIT_KEY_TIMED_VALUE, KIT_T_U32, tc->rec_value, n * per);
}

/* ---- the driver ------------------------------------------------------------------ */

static void *alloc_buffer(int64_t count, int host)
{
    void *p = NULL;
    size_t bytes = (size_t)(count > 0 ? count : 1) * 4;
    cudaError_t e = host ? cudaMallocHost(&p, bytes) : cudaMalloc(&p, bytes);
    return e == cudaSuccess ? p : NULL;
}

static void free_buffer(void *p, int host)
{
    if (host)
        cudaFreeHost(p);
    else
        cudaFree(p);
}

/* The driver's part of tc: buffers not given, the record.  0, or -1. */
static int setup(kit_timed_calls *tc)
{
    tc->owned = 0, tc->n_rec = 0, tc->calls = 0;
    tc->rec_index = NULL, tc->rec_value = NULL;
    kit_rng_seed(&tc->rng, kit_random_u64(), 0x71);
    int host_in = tc->how == KIT_FRESH_ROTATE_XOR;
    for (int i = 0; i < tc->n_in; i++)
        if (!tc->in[i].work) {
            if (!(tc->in[i].work = alloc_buffer(tc->in[i].count, host_in)))
                return -1;
            tc->owned |= 1u << i;
        }
    if (!tc->out) {
        if (!(tc->out = alloc_buffer(tc->out_count, tc->out_host)))
            return -1;
        tc->owned |= 1u << KIT_FRESH_MAX_IN;
    }
    size_t per = tc->sample > 0 ? (size_t)tc->sample : (size_t)tc->out_count;
    tc->rec_index = tc->sample > 0 ? (int64_t *)malloc(KIT_TIMED_MAX * per * sizeof *tc->rec_index) : NULL;
    tc->rec_value = (uint32_t *)malloc(KIT_TIMED_MAX * (per ? per : 1) * sizeof *tc->rec_value);
    return (tc->sample > 0 && !tc->rec_index) || !tc->rec_value || tc->out_count < 1 ? -1 : 0;
}

static void teardown(kit_timed_calls *tc)
{
    int host_in = tc->how == KIT_FRESH_ROTATE_XOR;
    for (int i = 0; i < tc->n_in; i++)
        if (tc->owned & (1u << i)) {
            free_buffer(tc->in[i].work, host_in);
            tc->in[i].work = NULL;
        }
    if (tc->owned & (1u << KIT_FRESH_MAX_IN)) {
        free_buffer(tc->out, tc->out_host);
        tc->out = NULL;
    }
    tc->owned = 0;
    free(tc->rec_index);
    free(tc->rec_value);
    tc->rec_index = NULL, tc->rec_value = NULL;
}

/* What the timed calls left running (timing.cuh), for the checker. */
static void write_left(const kit_timed_calls *tc, kit_run_ctx *ctx)
{
    int calls = 0, lost = 0;
    double late = 0;
    const char *what = kit_time_left(&calls, &late, &lost);
    if (!what)
        return;
    char line[400];
    snprintf(line, sizeof line, "%s\t%d\t%d\t%.4f\t%d", what, calls, tc->calls, late, lost);
    kit_out_text(ctx, KIT_KEY_TIMED_LEFT, line);
}

/* The plausibility check's inputs (plausible.h): recorded for the checker,
 * which decides; judged here too in show mode, for the student. */
static void check_plausible(const kit_timed_calls *tc, kit_run_ctx *ctx, const kit_timing *ts)
{
    kit_plausible_in in = {};
    in.ms = ts->median_ms;
    in.bytes = kit_timed_calls_bytes(tc);
    in.flops = tc->flops;
    in.copy_gbs = kit_copy_roof_gbs(in.bytes);
    kit_device_limits(&in.dram_gbs, &in.peak_gflops);
    kit_out_f64(ctx, KIT_KEY_TIMED_BYTES, in.bytes);
    kit_out_f64(ctx, KIT_KEY_TIMED_FLOPS, in.flops);
    kit_out_f64(ctx, KIT_KEY_DEVICE_COPY_GBS, in.copy_gbs);
    kit_out_f64(ctx, KIT_KEY_DEVICE_DRAM_GBS, in.dram_gbs);
    kit_out_f64(ctx, KIT_KEY_DEVICE_PEAK_GFLOPS, in.peak_gflops);
    char why[600];
    if (ctx->show && kit_timing_implausible(&in, why, sizeof why))
        printf("%s\n", why);
}

int kit_timed_calls_time(kit_timed_calls *tc, kit_run_ctx *ctx, kit_timed_fn baseline, void *baseline_arg,
                         int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    int rc = 0;
    if (setup(tc) != 0) {
        fprintf(stderr, "fresh.cu: no memory for the timed calls' inputs and output of %s\n", tc->name);
        rc = -1;
    }
    int held = rc == 0;
    if (held)
        kit_time_hold(1); /* through check_plausible's copy roof */
    if (rc == 0) {
        kit_time_pair_spec s = {};
        s.a = fresh_call, s.arg_a = tc, s.b = baseline, s.arg_b = baseline_arg;
        s.warmup = warmup, s.reps = reps, s.a_name = tc->name, s.kernel_optional = tc->kernel_optional;
        s.decided = ctx->decided; /* the grader's bounds: it may stop once they decide the score */
        s.prepare = fresh_prepare, s.after = fresh_after;
        rc = kit_time_pair(&s, ts, tb);
    }
    /* The output still holds the last timed call's (the baseline writes its own). */
    if (rc == 0 && (tc->calls < 1 || record(tc, tc->n_rec, tc->calls - 1) != 0))
        rc = -1;
    if (rc == 0) {
        tc->n_rec++;
        write_record(tc, ctx);
        write_left(tc, ctx);
    }
    teardown(tc);
    if (rc == 0) /* after teardown: the copy that measures the device needs its memory */
        check_plausible(tc, ctx, ts);
    if (held)
        kit_time_hold(0);
    return rc;
}
