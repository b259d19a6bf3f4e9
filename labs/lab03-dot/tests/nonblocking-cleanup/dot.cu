/* lab03 known-bad (work left running on a non-blocking stream), a call that returns a value: the reference
 * solution's dot product, waited for and right, then a "clean-up" kernel that
 * zeroes a scratch buffer of 4n elements eight times over (sixteen times the dot
 * product's memory traffic) on a stream of its own created with
 * cudaStreamNonBlocking - and dot_shared returns without waiting for it.  The
 * kit's timing used to stop at the legacy default stream, before the clean-up
 * ended: its cost went untimed.  Timed until all its work has ended, the call
 * is slower than the baseline. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024
#define SCRUB_PASSES 8

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

__global__ void scrub(float *p, size_t count, int passes)
{
    for (int r = 0; r < passes; r++)
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
            p[i] = 0.0f;
}

static void *d_partials;
static float *d_scratch;
static size_t scratch_count;
static cudaStream_t cleanup;

/* The twist: work queued on a non-blocking stream, not waited for. */
static void start_cleanup(int n)
{
    size_t want = 4 * (size_t)n;
    if (!cleanup)
        CUDA_CHECK(cudaStreamCreateWithFlags(&cleanup, cudaStreamNonBlocking));
    if (want > scratch_count) {
        CUDA_CHECK(cudaFree(d_scratch)); /* waits for the last clean-up */
        CUDA_CHECK(cudaMalloc(&d_scratch, want * sizeof(float)));
        scratch_count = want;
    }
    scrub<<<1024, THREADS, 0, cleanup>>>(d_scratch, want, SCRUB_PASSES);
    CUDA_CHECK_LAUNCH();
}

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
    start_cleanup(n);
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
