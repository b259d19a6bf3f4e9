/* Known-bad lab06 submission: a student report's multi-block scan.  Blocks of
 * 1024 elements are scanned correctly (two buffers) and their totals
 * collected; the totals are then scanned 512 at a time by one-block
 * launches, carrying the last total of a chunk into the first of the next -
 * with 002's chunk arithmetic: the chunk boundaries are counted from the
 * END (the first chunk is the short one, `total mod 512` long), but every
 * launch scans 512 totals from its start.  Whenever there are more than 512
 * totals and their number is not a multiple of 512, totals get scanned
 * twice and the carry is added on top: every prefix after the first chunk
 * is wrong.  002 only ran powers of two, where it is right. */
#include <cuda_runtime.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

#define BLOCK SCAN_BLOCK_MAX
#define CHUNK 512

/* count elements from in + start (up to blockDim.x of them), scanned into
 * out + start with two buffers; the block's total into totals[blockIdx.x]. */
template <typename T>
__global__ void scan_blocks(const T *in, T *out, T *totals, int count, int start)
{
    __shared__ T buf[2][BLOCK];
    int tid = threadIdx.x, i = start + blockIdx.x * blockDim.x + tid, cur = 0;
    buf[0][tid] = i < count ? in[i] : T(0);
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        buf[1 - cur][tid] = tid >= stride ? buf[cur][tid] + buf[cur][tid - stride] : buf[cur][tid];
        cur = 1 - cur;
        __syncthreads();
    }
    if (i < count)
        out[i] = buf[cur][tid];
    if (totals && tid == (int)blockDim.x - 1)
        totals[blockIdx.x] = buf[cur][tid];
}

template <typename T> __global__ void carry_into(T *totals, int end) { totals[end] += totals[end - 1]; }

template <typename T> __global__ void add_offsets(T *out, const T *scanned_totals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scanned_totals[blockIdx.x - 1];
}

/* 002's step 3, on `count` totals. */
template <typename T> static void scan_totals_in_chunks(T *totals, int count)
{
    int chunks = (count + CHUNK - 1) / CHUNK, start = 0;
    while (chunks > 0) {
        chunks--;
        int end = count - CHUNK * chunks;
        scan_blocks<T><<<1, CHUNK>>>(totals, totals, (T *)nullptr, count, start);
        CUDA_CHECK_LAUNCH();
        start = end;
        if (chunks > 0) {
            carry_into<T><<<1, 1>>>(totals, end);
            CUDA_CHECK_LAUNCH();
        }
    }
}

template <typename T> static void scan_any(const T *in, T *out, int n)
{
    if (n <= 0)
        return;
    int blocks = (n + BLOCK - 1) / BLOCK;
    T *totals;
    CUDA_CHECK(cudaMalloc(&totals, (size_t)blocks * sizeof(T)));
    scan_blocks<T><<<blocks, BLOCK>>>(in, out, totals, n, 0);
    CUDA_CHECK_LAUNCH();
    if (blocks > 1) {
        scan_totals_in_chunks(totals, blocks);
        add_offsets<T><<<blocks, BLOCK>>>(out, totals, n);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaFree(totals));
}

template <typename T> static void scan_part1(const T *in, T *out, int n)
{
    if (n <= 0)
        return;
    scan_blocks<T><<<1, n>>>(in, out, (T *)nullptr, n, 0);
    CUDA_CHECK_LAUNCH();
}

void scan_block(const float *d_in, float *d_out, int n) { scan_part1(d_in, d_out, n); }
void scan_block_int(const int *d_in, int *d_out, int n) { scan_part1(d_in, d_out, n); }
void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }
void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
