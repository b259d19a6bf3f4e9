/* lab04 reference solution - privatised histogram in shared memory.
 *
 * A grid of a few blocks per SM covers the input with a grid-stride loop.
 * Each block clears its shared histogram (all threads, one bin apart),
 * counts its elements into it with shared-memory atomics (contention stays
 * inside the SM), and flushes it with one global atomic per non-empty bin
 * (all threads again).  The global histogram is cleared first, because the
 * harness hands it over full of garbage.
 */
#include <cuda_runtime.h>

#include "histogram.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define BLOCKS_PER_SM 4

__global__ void histogram_privatised(const int *in, int n, unsigned int *global_bins, int bins)
{
    extern __shared__ unsigned int block_bins[]; /* `bins` counters */
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        block_bins[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (v >= 0 && v < bins) /* the interface promises this; a stray value must not corrupt memory */
            atomicAdd(&block_bins[v], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int count = block_bins[b];
        if (count) /* most bins of a block are empty when bins is large: skip their atomics */
            atomicAdd(&global_bins[b], count);
    }
}

void histogram_shared(const int *d_in, int n, unsigned int *d_bins, int bins)
{
    if (bins <= 0)
        return;
    CUDA_CHECK(cudaMemset(d_bins, 0, (size_t)bins * sizeof(unsigned int)));
    if (n <= 0)
        return;
    int device, sms;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > sms * BLOCKS_PER_SM)
        blocks = sms * BLOCKS_PER_SM; /* more blocks would only add flushes */
    size_t shared_bytes = (size_t)bins * sizeof(unsigned int);
    histogram_privatised<<<blocks, THREADS, shared_bytes>>>(d_in, n, d_bins, bins);
    CUDA_CHECK_LAUNCH();
}
