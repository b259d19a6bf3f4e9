/* Known-bad lab06 submission: a student report's in-place race, hidden in
 * 32-thread blocks.  Part 1 is right (two buffers).  Part 2 scans blocks of
 * 32 elements with the in-place update temp[tid] += temp[tid - offset]:
 * every block is a single warp, whose threads load before any of them
 * stores, so the answers come out right - until the block grows past one
 * warp (Part 1's n = 1024 went wrong in 19 of 20 runs).  The hazards are
 * all between threads of one warp, which racecheck ranks as warnings
 * ("warp level programming"), not errors. */
#include <cuda_runtime.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

#define WARP_BLOCK 32

/* Part 1: one block of n threads, double-buffered. */
template <typename T> __global__ void scan_one_block(const T *in, T *out, int n)
{
    __shared__ T buf[2][SCAN_BLOCK_MAX];
    int tid = threadIdx.x, cur = 0;
    buf[0][tid] = tid < n ? in[tid] : T(0);
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        buf[1 - cur][tid] = tid >= stride ? buf[cur][tid] + buf[cur][tid - stride] : buf[cur][tid];
        cur = 1 - cur;
        __syncthreads();
    }
    if (tid < n)
        out[tid] = buf[cur][tid];
}

/* Part 2's block scan, 32 threads, in place (the report's scanKernel). */
template <typename T> __global__ void scan32_in_place(const T *in, T *out, T *totals, int n)
{
    __shared__ T temp[WARP_BLOCK];
    int tid = threadIdx.x, i = blockIdx.x * WARP_BLOCK + tid;
    temp[tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int offset = 1; offset < WARP_BLOCK; offset *= 2) {
        if (tid >= offset)
            temp[tid] += temp[tid - offset];
        __syncthreads();
    }
    if (i < n)
        out[i] = temp[tid];
    if (totals && tid == WARP_BLOCK - 1)
        totals[blockIdx.x] = temp[tid];
}

template <typename T> __global__ void add_offsets(T *out, const T *scanned_totals, int n)
{
    int i = blockIdx.x * WARP_BLOCK + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scanned_totals[blockIdx.x - 1];
}

static int blocks_for(int n) { return (n + WARP_BLOCK - 1) / WARP_BLOCK; }

template <typename T> static void scan_level(const T *in, T *out, int n, T *scratch)
{
    int blocks = blocks_for(n);
    T *totals = blocks > 1 ? scratch : nullptr;
    scan32_in_place<T><<<blocks, WARP_BLOCK>>>(in, out, totals, n);
    CUDA_CHECK_LAUNCH();
    if (blocks == 1)
        return;
    scan_level<T>(totals, totals, blocks, scratch + blocks);
    add_offsets<T><<<blocks, WARP_BLOCK>>>(out, totals, n);
    CUDA_CHECK_LAUNCH();
}

template <typename T> static void scan_any(const T *in, T *out, int n)
{
    if (n <= 0)
        return;
    size_t extra = 0;
    for (int b = blocks_for(n); b > 1; b = blocks_for(b))
        extra += (size_t)b;
    T *scratch = nullptr;
    if (extra)
        CUDA_CHECK(cudaMalloc(&scratch, extra * sizeof(T)));
    scan_level<T>(in, out, n, scratch);
    if (scratch)
        CUDA_CHECK(cudaFree(scratch));
}

template <typename T> static void scan_part1(const T *in, T *out, int n)
{
    if (n <= 0)
        return;
    scan_one_block<T><<<1, n>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

void scan_block(const float *d_in, float *d_out, int n) { scan_part1(d_in, d_out, n); }
void scan_block_int(const int *d_in, int *d_out, int n) { scan_part1(d_in, d_out, n); }
void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }
void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
