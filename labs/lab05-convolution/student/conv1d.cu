/* lab05 - 1D convolution with a tile in shared memory.
 *
 * Read labs/lab05-convolution/handout.md first.  Check your work with:   make lab05
 * The worked example of the handout:     make run-lab05 P="data=example type=int"
 *
 * The harness gives you device arrays d_in, d_out (n elements) and the mask
 * on the host.  This starter puts the mask in constant memory and computes
 * each block's outputs from a tile in shared memory - but the tile is filled
 * by one thread, the elements at the two ends of the array come out wrong,
 * and the exercise-16 variant is missing.  The TODOs say what to do.
 */
#include <cuda_runtime.h>

#include "conv1d.h"
#include "kit/cuda_check.cuh"

#define THREADS_PER_BLOCK 256
#define TILE_SIZE (THREADS_PER_BLOCK + CONV_MAX_MASK - 1)

/* The masks, in constant memory: every thread of a warp reads the same
 * mask[j] at the same time, which the constant cache broadcasts. */
__constant__ float c_mask_float[CONV_MAX_MASK];
__constant__ int c_mask_int[CONV_MAX_MASK];

template <typename T> __device__ T mask_at(int j);
template <> __device__ float mask_at<float>(int j) { return c_mask_float[j]; }
template <> __device__ int mask_at<int>(int j) { return c_mask_int[j]; }

template <typename T> __global__ void conv_tiled_kernel(const T *in, T *out, int n, int mask_size)
{
    __shared__ T tile[TILE_SIZE];
    int radius = mask_size / 2;
    int block_start = blockIdx.x * blockDim.x;
    int i = block_start + threadIdx.x;

    /* TODO 1 (exercise 15): thread 0 copies the whole tile while the other
     * threads of the block wait for it.  Let all threads copy it together. */
    if (threadIdx.x == 0) {
        for (int t = 0; t < (int)blockDim.x + 2 * radius; t++) {
            int g = block_start - radius + t; /* input index held by tile[t] */
            /* TODO 2: positions outside the array count as zero.  Run the
             * worked example (see the top of this file) and compare out[0],
             * out[1], out[6], out[7] with the handout. */
            tile[t] = (g > 0 && g < n - 1) ? in[g] : T(0);
        }
    }
    __syncthreads();

    if (i < n) {
        T sum = 0;
        for (int j = 0; j < mask_size; j++)
            sum += mask_at<T>(j) * tile[threadIdx.x + j];
        out[i] = sum;
    }
}

void conv1d_tiled(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_float, h_mask, mask_size * sizeof(float)));
    int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    conv_tiled_kernel<float><<<blocks, THREADS_PER_BLOCK>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}

void conv1d_tiled_int(const int *d_in, int *d_out, int n, const int *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_int, h_mask, mask_size * sizeof(int)));
    int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    conv_tiled_kernel<int><<<blocks, THREADS_PER_BLOCK>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}

void conv1d_halo_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    /* TODO 3 (exercise 16): a kernel whose tile holds only the block's own
     * THREADS_PER_BLOCK elements.  A term whose input lies in the tile comes
     * from shared memory; a halo term (just outside the tile) comes from
     * global memory; a term outside the array counts as zero. */
    (void)d_in, (void)d_out, (void)n, (void)h_mask, (void)mask_size;
}
