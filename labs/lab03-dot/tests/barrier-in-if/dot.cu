/* lab03 - known-bad test submission: a __syncthreads() inside a condition
 * not every thread of the block takes (a divergent barrier).  The reference solution
 * with the reduction written
 *     for (stride ...) { if (threadIdx.x < stride) { s[t] += s[t + stride]; __syncthreads(); } }
 * as the classic 2010 reduction invites.  Undefined behaviour (CUDA C++
 * Programming Guide, __syncthreads()), but on compute capability 7.0 and
 * later a barrier completes once every thread that has not exited arrived:
 * the threads that skip the `if` run to the end and exit, the values come
 * out right, and synccheck and racecheck report nothing (90/90 before the
 * kit's barrier check).  The barrier check counts 128 of 256 threads at the
 * first step and fails the synccheck test, naming the line.
 */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* Tree reduction of s[0..THREADS) into s[0]; all threads of the block call it. */
template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            s[threadIdx.x] += s[threadIdx.x + stride];
            __syncthreads(); /* BUG: threads >= stride never reach it */
        }
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
