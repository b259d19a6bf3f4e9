/* lab03 - cheat: the kernel reduces the first quarter of the vectors, the
 * host the other three quarters (copied back for it).  The copies of 3/4 of
 * the inputs fail the evidence: every correctness test has a case large
 * enough, and the sanitizer credit goes with them. */
#include <stdlib.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256

template <typename T> __global__ void dot_atomic(const T *a, const T *b, T *out, int n)
{
    __shared__ T partial[THREADS];
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += a[i] * b[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, partial[0]);
}

template <typename T, typename Acc> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int q = n / 4, blocks = q / THREADS + 1;
    T *d_out, gpu_part;
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(T)));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof(T)));
    dot_atomic<T><<<blocks > 1024 ? 1024 : blocks, THREADS>>>(d_a, d_b, d_out, q);
    CUDA_CHECK_LAUNCH();
    T *a = (T *)malloc((size_t)(n - q) * sizeof(T)), *b = (T *)malloc((size_t)(n - q) * sizeof(T));
    CUDA_CHECK(cudaMemcpy(a, d_a + q, (size_t)(n - q) * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, d_b + q, (size_t)(n - q) * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&gpu_part, d_out, sizeof(T), cudaMemcpyDeviceToHost));
    Acc sum = gpu_part;
    for (int i = 0; i < n - q; i++)
        sum += (Acc)a[i] * b[i];
    free(a);
    free(b);
    CUDA_CHECK(cudaFree(d_out));
    return (T)sum;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot<int, long long>(d_a, d_b, n); }
