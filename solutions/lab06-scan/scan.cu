/* lab06 reference solution - Kogge-Stone inclusive scan.
 *
 * scan_blocks: each block scans its elements in shared memory with two
 * buffers: a step reads only the buffer the previous step wrote and writes
 * the other one, so no thread overwrites a value another thread still has
 * to read (document 003's in-place version races exactly there).  One
 * barrier per step separates the steps.
 *
 * Part 1 launches it once with n threads.  Part 2 (any n): scan blocks of
 * SCAN_BLOCK_MAX elements, keeping each block's total; scan the totals with
 * the same function (recursively: 2^26 elements give 65536 totals, which
 * give 64); add to each block the scanned total of the blocks before it.
 * The last block may be partial: elements past n count as 0 and are not
 * written, and the totals array has exactly ceil(n / SCAN_BLOCK_MAX) entries.
 */
#include <cuda_runtime.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

#define BLOCK SCAN_BLOCK_MAX

/* out[i] = scan of this block's elements; block_totals[b] = the block's sum
 * (block_totals may be NULL). */
template <typename T> __global__ void scan_blocks(const T *in, T *out, T *block_totals, int n)
{
    __shared__ T buf[2][BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int cur = 0;
    buf[cur][tid] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        T v = buf[cur][tid];
        if (tid >= stride)
            v += buf[cur][tid - stride];
        buf[1 - cur][tid] = v; /* the other buffer: nobody reads it in this step */
        cur = 1 - cur;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[cur][tid];
    if (block_totals && tid == (int)blockDim.x - 1)
        block_totals[blockIdx.x] = buf[cur][tid];
}

/* out[i] += scanned_totals[b - 1] for the elements of block b >= 1. */
template <typename T> __global__ void add_block_offsets(T *out, const T *scanned_totals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scanned_totals[blockIdx.x - 1];
}

static int blocks_for(int n) { return (n + BLOCK - 1) / BLOCK; }

/* Room for the totals of every level of the recursion. */
static size_t scratch_elements(int n)
{
    size_t total = 0;
    for (int b = blocks_for(n); b > 1; b = blocks_for(b))
        total += (size_t)b;
    return total;
}

/* Scans n >= 1 elements; scratch holds scratch_elements(n) elements. */
template <typename T> static void scan_level(const T *d_in, T *d_out, int n, T *scratch)
{
    int blocks = blocks_for(n);
    if (blocks == 1) {
        scan_blocks<T><<<1, BLOCK>>>(d_in, d_out, (T *)nullptr, n);
        CUDA_CHECK_LAUNCH();
        return;
    }
    T *totals = scratch;
    scan_blocks<T><<<blocks, BLOCK>>>(d_in, d_out, totals, n);
    CUDA_CHECK_LAUNCH();
    scan_level<T>(totals, totals, blocks, scratch + blocks); /* in place: each thread reads before it writes */
    add_block_offsets<T><<<blocks, BLOCK>>>(d_out, totals, n);
    CUDA_CHECK_LAUNCH();
}

template <typename T> static void scan_any(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    size_t extra = scratch_elements(n);
    T *scratch = nullptr;
    if (extra)
        CUDA_CHECK(cudaMalloc(&scratch, extra * sizeof(T)));
    scan_level<T>(d_in, d_out, n, scratch);
    if (scratch)
        CUDA_CHECK(cudaFree(scratch));
}

template <typename T> static void scan_one_block(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    if (n > BLOCK) { /* outside Part 1's contract: still give the right answer */
        scan_any(d_in, d_out, n);
        return;
    }
    scan_blocks<T><<<1, n>>>(d_in, d_out, (T *)nullptr, n);
    CUDA_CHECK_LAUNCH();
}

void scan_block(const float *d_in, float *d_out, int n) { scan_one_block(d_in, d_out, n); }

void scan_block_int(const int *d_in, int *d_out, int n) { scan_one_block(d_in, d_out, n); }

void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }

void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
