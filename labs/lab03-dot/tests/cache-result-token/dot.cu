/* Known-bad (evidence that the kernels did the work): like cache-result, but a cache hit also launches a
 * one-thread token kernel, so "a timed call that launched no kernel" does not
 * catch it.  The timed calls get fresh contents, and the checker recomputes
 * a sample of their results: the remembered one is wrong. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* Tree reduction of s[0..THREADS) into s[0]; all threads of the block call it. */
template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
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

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    T *d_part, result;
    CUDA_CHECK(cudaMalloc(&d_part, (blocks + 1) * sizeof(T)));
    dot_partial<T><<<blocks, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<1, THREADS>>>(d_part, (const T *)nullptr, d_part + blocks, blocks);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    return result;
}

__global__ void token(const float *a) { (void)a; }

static const float *last_a, *last_b;
static int last_n = -1;
static float last_r;

float dot_shared(const float *d_a, const float *d_b, int n)
{
    if (d_a == last_a && d_b == last_b && n == last_n) {
        token<<<1, 1>>>(d_a);
        return last_r;
    }
    last_a = d_a, last_b = d_b, last_n = n;
    return last_r = dot(d_a, d_b, n);
}

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
