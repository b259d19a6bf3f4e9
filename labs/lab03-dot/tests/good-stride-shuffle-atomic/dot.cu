/* lab03 - known-good: a valid design the device-execution evidence must not
 * fail.  A fixed grid of 128 blocks (32768 threads, however large n is) walks
 * the vectors with a grid-stride loop; each warp reduces with shuffles, each
 * block's warps through shared memory, and one atomicAdd per block adds the
 * block's sum into a scratch total that is copied back. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define BLOCKS 128

template <typename T> __device__ T warp_sum(T v)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

template <typename T> __global__ void dot_stride(const T *a, const T *b, T *total, int n)
{
    __shared__ T warps[THREADS / 32];
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += a[i] * b[i];
    sum = warp_sum(sum);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0;
        sum = warp_sum(sum);
        if (threadIdx.x == 0)
            atomicAdd(total, sum);
    }
}

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    T *d_total, result;
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(T)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(T)));
    dot_stride<T><<<BLOCKS, THREADS>>>(d_a, d_b, d_total, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_total, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_total));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
