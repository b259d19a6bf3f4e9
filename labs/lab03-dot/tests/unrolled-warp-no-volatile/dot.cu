/* lab03 - known-bad test submission: the last warp unrolled the pre-Volta
 * way (the classic final reduction step): no barrier once 32
 * threads are left, no `volatile`, no __syncwarp().  The reference solution
 * with that reduction.
 *
 * Two bugs in one: the compiler may keep s[t] in a register across the
 * unrolled steps (nothing tells it that other threads read and write that
 * shared memory in between), and since Volta the 32 threads of a warp are
 * not in lockstep either (independent thread scheduling).  racecheck sees
 * the threads of warp 0 read what other threads of it write with nothing
 * in between (a hazard in shared memory).  nvcc 13 at -O2 does keep s[t]
 * in a register: each thread loads its neighbours' slots before any of them
 * is updated, and the block sums come out wrong.
 */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* Tree reduction of s[0..THREADS) into s[0]; all threads of the block call it. */
template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 32; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < 32) { /* BUG: one warp "in lockstep": neither volatile nor __syncwarp() */
        int t = threadIdx.x;
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
}

/* out[blockIdx.x] = sum over this block's share of a[i]*b[i] (b == NULL: sum of a[i]). */
template <typename T> __global__ void dot_partial(const T *a, const T *b, T *out, int n)
{
    __shared__ T partial[THREADS];
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += b ? a[i] * b[i] : a[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    block_reduce(partial);
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

/* Room for MAX_BLOCKS + 1 partials of the largest type, allocated once. */
static void *d_partials;
template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    if (!d_partials)
        CUDA_CHECK(cudaMalloc(&d_partials, (MAX_BLOCKS + 1) * sizeof(double)));
    T *d_part = (T *)d_partials, result;
    dot_partial<T><<<blocks, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<1, THREADS>>>(d_part, (const T *)nullptr, d_part + blocks, blocks);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
