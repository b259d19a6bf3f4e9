/* lab05 - known-bad test submission: the tile is used before it is loaded.
 * The reference solution without the __syncthreads() between filling the
 * tile and computing from it in conv_tiled: a thread reads tile positions
 * that threads of other warps may not have written yet.  racecheck reports
 * the read-after-write hazard whatever the timing; whether a run adds a
 * stale value depends on warp scheduling.  conv1d_halo_global (with its
 * barrier) is the reference's.
 */
#include <cuda_runtime.h>

#include "conv1d.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define OUTPUTS 8                   /* outputs per thread (coarsening) */
#define TILE (THREADS * OUTPUTS)    /* outputs per block of conv_tiled */

__constant__ float c_mask_float[CONV_MAX_MASK];
__constant__ int c_mask_int[CONV_MAX_MASK];

template <typename T> __device__ T mask_at(int j);
template <> __device__ float mask_at<float>(int j) { return c_mask_float[j]; }
template <> __device__ int mask_at<int>(int j) { return c_mask_int[j]; }

template <typename T> __global__ void conv_tiled(const T *in, T *out, int n, int mask_size)
{
    __shared__ T tile[TILE + CONV_MAX_MASK - 1];
    int radius = mask_size / 2;
    long block_start = (long)blockIdx.x * TILE;
    /* tile[t] holds in[block_start - radius + t], or 0 outside [0, n) */
    for (int t = threadIdx.x; t < TILE + 2 * radius; t += THREADS) {
        long g = block_start - radius + t;
        tile[t] = g >= 0 && g < n ? in[g] : T(0);
    }
    /* BUG: no __syncthreads(): the loop below reads what other warps are still loading */

    T sum[OUTPUTS] = {};
    for (int j = 0; j < mask_size; j++) {
        T m = mask_at<T>(j);
        for (int k = 0; k < OUTPUTS; k++) /* output threadIdx.x + k * THREADS of the tile */
            sum[k] += m * tile[threadIdx.x + k * THREADS + j];
    }
    for (int k = 0; k < OUTPUTS; k++) {
        long i = block_start + threadIdx.x + k * THREADS;
        if (i < n)
            out[i] = sum[k];
    }
}

__global__ void conv_halo_global(const float *in, float *out, int n, int mask_size)
{
    __shared__ float tile[THREADS];
    int radius = mask_size / 2;
    int block_start = blockIdx.x * blockDim.x;
    int i = block_start + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads(); /* every thread reaches it, also those past the end */

    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < mask_size; j++) {
            int t = (int)threadIdx.x + j - radius; /* position in the tile */
            int g = i + j - radius;                /* position in the array */
            float v;
            if (t >= 0 && t < (int)blockDim.x)
                v = tile[t]; /* 0 when g >= n: the tile holds 0 there */
            else if (g >= 0 && g < n)
                v = in[g];   /* halo: from global memory (cached) */
            else
                v = 0.0f;    /* outside the array: the term is left out */
            sum += mask_at<float>(j) * v;
        }
        out[i] = sum;
    }
}

static int blocks_for(int n) { return (n + THREADS - 1) / THREADS; }
static int tiles_for(int n) { return (n + TILE - 1) / TILE; }

void conv1d_tiled(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_float, h_mask, (size_t)mask_size * sizeof(float)));
    conv_tiled<float><<<tiles_for(n), THREADS>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}

void conv1d_tiled_int(const int *d_in, int *d_out, int n, const int *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_int, h_mask, (size_t)mask_size * sizeof(int)));
    conv_tiled<int><<<tiles_for(n), THREADS>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}

void conv1d_halo_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_float, h_mask, (size_t)mask_size * sizeof(float)));
    conv_halo_global<<<blocks_for(n), THREADS>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}
