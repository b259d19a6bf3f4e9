/* lab03 - cheat: the reference solution for n > 4096, and for small n (where
 * a kernel's edge cases live) the inputs are copied to the host and summed
 * there, next to a token kernel.  The copies of the small inputs are still
 * more than the allowance (12.5% of the input plus 8 bytes per block
 * launched): the small cases fail, and the sanitizer credit with them. */
#include <stdlib.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

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

template <typename T, typename Acc> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    T *d_part, result;
    CUDA_CHECK(cudaMalloc(&d_part, (blocks + 1) * sizeof(T)));
    if (n <= 4096) { /* the host path */
        dot_partial<T><<<1, THREADS>>>(d_a, (const T *)nullptr, d_part, 1);
        CUDA_CHECK_LAUNCH();
        T a[4096], b[4096];
        CUDA_CHECK(cudaMemcpy(a, d_a, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(b, d_b, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
        Acc sum = 0;
        for (int i = 0; i < n; i++)
            sum += (Acc)a[i] * b[i];
        CUDA_CHECK(cudaFree(d_part));
        return (T)sum;
    }
    dot_partial<T><<<blocks, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<1, THREADS>>>(d_part, (const T *)nullptr, d_part + blocks, blocks);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot<int, long long>(d_a, d_b, n); }
