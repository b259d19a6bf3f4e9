/* lab06 known-bad: a Brent-Kung scan whose up-sweep __syncthreads() sits
 * inside the `if` that only the active threads take.  Part 1 is right (the
 * double-buffered Kogge-Stone); Part 2's block scan waits at a barrier that
 * the idle threads never reach in the same step: the kernel never ends. */
#include <cuda_runtime.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

/* ---- Part 1: right ---- */
template <typename T> __global__ void scan_block_kernel(const T *in, T *out, int n)
{
    __shared__ T buf[2][SCAN_BLOCK_MAX];
    int tid = threadIdx.x, cur = 0;
    buf[cur][tid] = tid < n ? in[tid] : T(0);
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        T v = buf[cur][tid];
        if (tid >= stride)
            v += buf[cur][tid - stride];
        buf[1 - cur][tid] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (tid < n)
        out[tid] = buf[cur][tid];
}

void scan_block(const float *d_in, float *d_out, int n)
{
    if (n > 0) {
        scan_block_kernel<float><<<1, n>>>(d_in, d_out, n);
        CUDA_CHECK_LAUNCH();
    }
}

void scan_block_int(const int *d_in, int *d_out, int n)
{
    if (n > 0) {
        scan_block_kernel<int><<<1, n>>>(d_in, d_out, n);
        CUDA_CHECK_LAUNCH();
    }
}

/* ---- Part 2: Brent-Kung, 1024 elements per block of 1024 threads ---- */
#define THREADS 1024

template <typename T> __global__ void brent_kung(const T *in, T *out, T *totals, int n)
{
    __shared__ T s[THREADS];
    int base = blockIdx.x * THREADS, t = threadIdx.x;
    s[t] = base + t < n ? in[base + t] : T(0);
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = (t + 1) * 2 * stride - 1;
        if (index < blockDim.x) {
            s[index] += s[index - stride];
            __syncthreads(); /* BUG: only the threads with index < blockDim.x get here */
        }
    }
    for (int stride = blockDim.x / 4; stride > 0; stride /= 2) {
        __syncthreads();
        int index = (t + 1) * 2 * stride - 1;
        if (index + stride < blockDim.x)
            s[index + stride] += s[index];
    }
    __syncthreads();
    if (base + t < n)
        out[base + t] = s[t];
    if (totals && t == THREADS - 1)
        totals[blockIdx.x] = s[THREADS - 1];
}

template <typename T> __global__ void add_offsets(T *out, const T *scanned, int n)
{
    int i = (blockIdx.x + 1) * THREADS + threadIdx.x;
    if (i < n)
        out[i] += scanned[blockIdx.x];
}

template <typename T> static void scan_any(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks == 1) {
        brent_kung<T><<<1, THREADS>>>(d_in, d_out, (T *)nullptr, n);
        CUDA_CHECK_LAUNCH();
        return;
    }
    T *totals;
    CUDA_CHECK(cudaMalloc(&totals, blocks * sizeof(T)));
    brent_kung<T><<<blocks, THREADS>>>(d_in, d_out, totals, n);
    CUDA_CHECK_LAUNCH();
    scan_any<T>(totals, totals, blocks);
    add_offsets<T><<<blocks - 1, THREADS>>>(d_out, totals, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaFree(totals));
}

void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }

void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
