/* fresh.cu - fresh contents for timed calls (see fresh.cuh). */
#include <math.h>
#include <stdio.h>

#include "kit/fresh.cuh"

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
