/* lab03 - known-good: a valid design the device-execution evidence must not
 * fail.  Cooperative groups (a block, its warps as tiled partitions, and
 * cg::reduce) sum each block's share into a scratch array of partials (an
 * extra allocation, cleared with cudaMemsetAsync on a stream of its own), a
 * second launch adds the partials, and only the scalar comes back. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

namespace cg = cooperative_groups;

#define THREADS 256
#define MAX_BLOCKS 2048

template <typename T> __device__ T block_sum(T v)
{
    __shared__ T warps[THREADS / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, cg::plus<T>());
    if (warp.thread_rank() == 0)
        warps[warp.meta_group_rank()] = v;
    block.sync();
    T s = 0;
    if (warp.meta_group_rank() == 0) {
        s = warp.thread_rank() < THREADS / 32 ? warps[warp.thread_rank()] : 0;
        s = cg::reduce(warp, s, cg::plus<T>());
    }
    return s;
}

template <typename T> __global__ void partials(const T *a, const T *b, T *out, int n)
{
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += a[i] * b[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

template <typename T> __global__ void finish(const T *part, int count, T *out)
{
    T sum = 0;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        sum += part[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0)
        *out = sum;
}

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + 4 * THREADS - 1) / (4 * THREADS); /* four elements per thread */
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    T *d_part, *d_out, result;
    CUDA_CHECK(cudaMalloc(&d_part, blocks * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(T)));
    CUDA_CHECK(cudaMemsetAsync(d_part, 0, blocks * sizeof(T), s));
    partials<T><<<blocks, THREADS, 0, s>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    finish<T><<<1, THREADS, 0, s>>>(d_part, blocks, d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(&result, d_out, sizeof(T), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaFree(d_part));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaStreamDestroy(s));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
