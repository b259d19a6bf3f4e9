/* lab04 - privatised histogram in shared memory.
 *
 * Read labs/lab04-histogram/handout.md first.  Check your work with:   make lab04
 *
 * The harness gives you n input values in [0, bins) and a global histogram
 * full of garbage.  This starter clears the global histogram, lets every
 * block count its elements into a histogram in shared memory with atomics,
 * and adds the block's histogram to the global one.  It was tested with 8
 * bins, the input value i % 8 and a check that the counts add up to n - and
 * it passed.  On real data it is wrong.  The TODOs say where to look.
 */
#include <cuda_runtime.h>

#include "histogram.h"
#include "kit/cuda_check.cuh"

#define THREADS_PER_BLOCK 256

__global__ void histogram_kernel(const int *in, int n, unsigned int *global_bins, int bins)
{
    extern __shared__ unsigned int block_bins[]; /* `bins` counters, sized at launch */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int value = i < n ? in[i] : -1;

    /* TODO 1: each thread clears the counter of its own value.  Shared memory
     * is not cleared for you: which counters does no thread clear, and what
     * do they hold?  Make every counter of block_bins start at zero, with the
     * work spread over all threads of the block (exercise 9). */
    if (value >= 0)
        block_bins[value] = 0;
    __syncthreads();

    if (value >= 0)
        atomicAdd(&block_bins[value], 1u);
    __syncthreads();

    /* TODO 2: the flush.  Read the atomicAdd below carefully: which count
     * does global bin b receive?  Each global bin must receive this block's
     * count for that bin.  Then spread the flush over all threads too
     * (exercise 9), and think about what adding a zero costs. */
    if (threadIdx.x == 0) {
        for (int b = 0; b < bins; b++)
            atomicAdd(&global_bins[b], block_bins[value]);
    }
}

void histogram_shared(const int *d_in, int n, unsigned int *d_bins, int bins)
{
    CUDA_CHECK(cudaMemset(d_bins, 0, (size_t)bins * sizeof(unsigned int)));
    if (n <= 0)
        return;
    /* TODO 3 (speed): one thread per element gives n/256 blocks, and every
     * block flushes a whole histogram.  With 2^26 elements and 4096 bins,
     * how many global atomics is that?  Let each thread count several
     * elements (a grid-stride loop) so that a few blocks per SM cover any n. */
    int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    size_t shared_bytes = (size_t)bins * sizeof(unsigned int);
    histogram_kernel<<<blocks, THREADS_PER_BLOCK, shared_bytes>>>(d_in, n, d_bins, bins);
    CUDA_CHECK_LAUNCH();
}
