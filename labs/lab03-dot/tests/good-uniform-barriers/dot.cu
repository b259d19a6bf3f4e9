/* lab03 - known-good test submission: barriers that every thread of the block
 * reaches, in the shapes the kit's barrier check (kit/barrier_check.cuh, the
 * synccheck test) must never report (barriers every thread of a block reaches):
 *  - whole blocks that return before any barrier: the grid is rounded up to
 *    a multiple of 4 blocks, and the blocks past the work return at once;
 *  - an `if` before a barrier: `if (t < stride) ...; __syncthreads();`;
 *  - a __syncthreads() in each branch of a condition that all threads of a
 *    block evaluate alike (odd or even block);
 *  - the last warp with shuffles (no block barrier in it).
 * Full marks.
 */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* out[blockIdx.x] = the sum over this block's share of a[i]*b[i] (b == NULL: of a[i]);
 * blocks from work_blocks on have nothing to do. */
template <typename T> __global__ void dot_partial(const T *a, const T *b, T *out, int n, int work_blocks)
{
    __shared__ T partial[THREADS];
    if ((int)blockIdx.x >= work_blocks)
        return; /* the whole block: it reaches no barrier */
    int t = threadIdx.x;
    T sum = 0;
    for (int i = blockIdx.x * THREADS + t; i < n; i += work_blocks * THREADS)
        sum += b ? a[i] * b[i] : a[i];
    partial[t] = sum;
    if (blockIdx.x % 2) {
        __syncthreads(); /* odd blocks */
    } else {
        __syncthreads(); /* even blocks: every thread of a block takes the same branch */
    }
    for (int stride = THREADS / 2; stride >= 32; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads(); /* after the if: every thread reaches it */
    }
    if (t < 32) {
        T v = partial[t];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

/* Room for MAX_BLOCKS + 1 partials of the largest type, allocated once. */
static void *d_partials;
template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int work = (n + THREADS - 1) / THREADS;
    if (work > MAX_BLOCKS)
        work = MAX_BLOCKS;
    int grid = (work + 3) / 4 * 4; /* up to 3 blocks with nothing to do */
    if (!d_partials)
        CUDA_CHECK(cudaMalloc(&d_partials, (MAX_BLOCKS + 1) * sizeof(double)));
    T *d_part = (T *)d_partials, result;
    dot_partial<T><<<grid, THREADS>>>(d_a, d_b, d_part, n, work);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<4, THREADS>>>(d_part, (const T *)nullptr, d_part + work, work, 1); /* 3 blocks idle */
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + work, sizeof(T), cudaMemcpyDeviceToHost));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
