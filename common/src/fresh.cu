/* fresh.cu - fresh contents for timed calls (see fresh.cuh). */
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/fresh.cuh"
#include "kit/protocol.h"
#include "kit/runner.h"
#include "kit/util.h"

kit_fresh kit_fresh_draw(kit_rng *r, int64_t n)
{
    kit_fresh f;
    f.shift = kit_rng_range(r, 0, n - 1);
    int e = (int)kit_rng_range(r, -8, 8);
    f.scale = ldexp(kit_rng_range(r, 0, 1) ? 1.0 : -1.0, e);
    return f;
}

int kit_fresh_record_now(kit_rng *r, int n_recorded, int max)
{
    return n_recorded < max - 1 && kit_rng_range(r, 0, 31) == 0;
}

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

__global__ void kit_fresh_gather(const uint32_t *src, const int64_t *idx, uint32_t *dst, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        dst[i] = src[idx[i]];
}

int kit_fresh_sample(const void *d_out, int64_t n, kit_rng *r, int m, int64_t *idx, void *val)
{
    for (int i = 0; i < m; i++)
        idx[i] = kit_rng_range(r, 0, n - 1);
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
    if (e != cudaSuccess)
        fprintf(stderr, "fresh.cu: sampling a timed call's output failed: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : -1;
}

int kit_timed_init(kit_timed *t, const void *d_out, int64_t out_count, int sample)
{
    memset(t, 0, sizeof *t);
    kit_rng_seed(&t->rng, kit_random_u64(), 0x71);
    t->d_out = d_out, t->out_count = out_count, t->sample = sample;
    size_t per = sample > 0 ? (size_t)sample : (size_t)out_count;
    t->index = sample > 0 ? (int64_t *)malloc(KIT_TIMED_MAX * per * sizeof *t->index) : NULL;
    t->value = (uint32_t *)malloc(KIT_TIMED_MAX * (per ? per : 1) * sizeof *t->value);
    if ((sample > 0 && !t->index) || !t->value || out_count < 1) {
        fprintf(stderr, "fresh.cu: no room to record the timed calls' outputs\n");
        return -1;
    }
    return 0;
}

/* Keeps the output of call k in record slot `slot`. */
static int timed_record(kit_timed *t, int slot, int k)
{
    if (t->sample > 0) {
        size_t at = (size_t)slot * (size_t)t->sample;
        if (kit_fresh_sample(t->d_out, t->out_count, &t->rng, t->sample, t->index + at, t->value + at) != 0)
            return -1;
    } else {
        cudaError_t e = cudaMemcpy(t->value + (size_t)slot * (size_t)t->out_count, t->d_out,
                                   (size_t)t->out_count * sizeof *t->value, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            fprintf(stderr, "fresh.cu: copying a timed call's output back failed: %s\n", cudaGetErrorString(e));
            return -1;
        }
    }
    t->call[slot] = k + 1, t->shift[slot] = t->cur.shift, t->scale[slot] = t->cur.scale;
    return 0;
}

int kit_timed_after(void *arg, int k)
{
    kit_timed *t = (kit_timed *)arg;
    t->calls = k + 1;
    if (kit_fresh_record_now(&t->rng, t->n_rec, KIT_TIMED_MAX)) {
        if (timed_record(t, t->n_rec, k) != 0)
            return -1;
        t->n_rec++;
    }
    return 0;
}

int kit_timed_finish(kit_timed *t, struct kit_run_ctx *ctx)
{
    if (t->calls < 1 || timed_record(t, t->n_rec, t->calls - 1) != 0)
        return -1;
    t->n_rec++;
    uint64_t n = (uint64_t)t->n_rec, per = t->sample > 0 ? (uint64_t)t->sample : (uint64_t)t->out_count;
    kit_out(ctx, KIT_KEY_TIMED_CALL, KIT_T_I32, t->call, n);
    kit_out(ctx, KIT_KEY_TIMED_SHIFT, KIT_T_I64, t->shift, n);
    kit_out(ctx, KIT_KEY_TIMED_SCALE, KIT_T_F64, t->scale, n);
    if (t->sample > 0)
        kit_out(ctx, KIT_KEY_TIMED_INDEX, KIT_T_I64, t->index, n * per);
    kit_out(ctx, KIT_KEY_TIMED_VALUE, KIT_T_U32, t->value, n * per);
    return 0;
}

void kit_timed_free(kit_timed *t)
{
    free(t->index);
    free(t->value);
    t->index = NULL, t->value = NULL;
}
