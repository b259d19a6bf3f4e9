/* lab06 - Kogge-Stone inclusive scan.
 *
 * Read labs/lab06-scan/handout.md first.  Check your work with:   make lab06
 *
 * Part 1 (scan_block, scan_block_int): one block, one thread per element.
 * The kernel below is the classic first Kogge-Stone program: its logic
 * is sound, and for n = 32 it even gives the right answer.  Try n = 1024 a
 * few times (make lab06 TEST=part1-1024) and see.
 * Part 2 (scan, scan_int): any n.  Only the first of its three steps is
 * here.  The TODOs say what to do.
 */
#include <cuda_runtime.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

/* Scans the blockDim.x elements of this block (elements past n count as 0).
 * Before the step with stride s, partials[t] holds the sum of the (up to)
 * s elements that end at t; adding the value s places to the left doubles
 * that, so after log2(blockDim.x) steps partials[t] is the prefix sum. */
template <typename T> __global__ void kogge_stone_scan(const T *in, T *out, int n)
{
    __shared__ T partials[SCAN_BLOCK_MAX];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    partials[tid] = i < n ? in[i] : T(0);
    __syncthreads();

    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        /* TODO 1: find out why this is only right sometimes: run
         *     make lab06 TEST=racecheck
         * and read the line it reports and the two accesses it names.
         * Then make every step read only values of the previous step. */
        if (tid >= stride)
            partials[tid] += partials[tid - stride];
        __syncthreads();
    }
    if (i < n)
        out[i] = partials[tid];
}

void scan_block(const float *d_in, float *d_out, int n)
{
    if (n <= 0)
        return;
    kogge_stone_scan<float><<<1, n>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void scan_block_int(const int *d_in, int *d_out, int n)
{
    if (n <= 0)
        return;
    kogge_stone_scan<int><<<1, n>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

template <typename T> static void scan_any(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    int blocks = (n + SCAN_BLOCK_MAX - 1) / SCAN_BLOCK_MAX;
    /* Step 1: every block scans its own SCAN_BLOCK_MAX elements. */
    kogge_stone_scan<T><<<blocks, SCAN_BLOCK_MAX>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
    /* TODO 2 (Part 2): out[i] now sums only the elements of i's own block.
     * Step 2: collect the total of every block and scan those totals.  With
     *         2^26 elements there are 65536 totals - more than one block
     *         can scan: the same problem again, smaller.
     * Step 3: add to every element the total of all the blocks before its own.
     * n is rarely a multiple of the block size: mind the last block.
     * You may allocate scratch device memory for the totals (cudaMalloc here
     * and cudaFree before returning, or a buffer kept between calls); d_out
     * may serve as scratch too, d_in must not be modified. */
}

void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }

void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
