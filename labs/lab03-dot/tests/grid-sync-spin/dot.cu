/* lab03 known-bad: one launch, a grid-wide barrier made of an atomic counter
 * and a spin.  Every block adds its partial, counts itself and waits until
 * every block has arrived, then block 0 sums the partials.  Right while the
 * whole grid fits on the GPU at once; with more blocks than that, the waiting
 * blocks hold every place and the rest never start: the kernel never ends
 * (a grid-wide wait needs a cooperative launch, which refuses such a grid). */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256

__device__ unsigned int arrived; /* blocks that wrote their partial in this call */

template <typename T> __device__ T block_sum(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    return s[0];
}

template <typename T> __global__ void dot_one_pass(const T *a, const T *b, T *partials, T *result, int n)
{
    __shared__ T s[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? a[i] * b[i] : T(0);
    __syncthreads();
    T mine = block_sum(s);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = mine;
        __threadfence();
        atomicAdd(&arrived, 1u);
        while (atomicAdd(&arrived, 0u) < gridDim.x) { /* every block waits for every other */
        }
    }
    __syncthreads();
    if (blockIdx.x != 0)
        return;
    T sum = 0;
    for (unsigned k = threadIdx.x; k < gridDim.x; k += THREADS)
        sum += ((volatile T *)partials)[k];
    s[threadIdx.x] = sum;
    __syncthreads();
    T total = block_sum(s);
    if (threadIdx.x == 0)
        *result = total;
}

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    T *d_part, result;
    CUDA_CHECK(cudaMalloc(&d_part, (blocks + 1) * sizeof(T)));
    unsigned zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(arrived, &zero, sizeof zero));
    dot_one_pass<T><<<blocks, THREADS>>>(d_a, d_b, d_part, d_part + blocks, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
