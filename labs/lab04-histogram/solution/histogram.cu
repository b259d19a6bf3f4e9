/* lab04 reference solution - privatised histogram in shared memory.
 *
 * A grid that just fills the GPU (as many blocks as fit on every SM at once,
 * given the shared histogram's size) covers the input with a grid-stride
 * loop.  Each block clears its shared histogram (all threads, one bin
 * apart), counts its elements into it with shared-memory atomics
 * (contention stays inside the SM), and flushes it with one global atomic
 * per non-empty bin (all threads again).  The global histogram is cleared
 * first, because the harness hands it over full of garbage.
 * The loop reads four elements at a time (one 16-byte int4 load) when the
 * input is 16-byte aligned: a memory-bound kernel needs many bytes in
 * flight, and a quarter of the load instructions.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "histogram.h"
#include "kit/cuda_check.cuh"

#define THREADS 256

__device__ void count(unsigned int *block_bins, int v, int bins)
{
    if (v >= 0 && v < bins) /* the interface promises this; a stray value must not corrupt memory */
        atomicAdd(&block_bins[v], 1u);
}

__global__ void histogram_privatised(const int *in, int n, unsigned int *global_bins, int bins, int vector_loads)
{
    extern __shared__ unsigned int block_bins[]; /* `bins` counters */
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        block_bins[b] = 0;
    __syncthreads();

    int first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    int n4 = vector_loads ? n / 4 : 0; /* elements [0, 4 n4) as int4, the rest one by one */
    for (int i = first; i < n4; i += stride) {
        int4 v = ((const int4 *)in)[i];
        count(block_bins, v.x, bins);
        count(block_bins, v.y, bins);
        count(block_bins, v.z, bins);
        count(block_bins, v.w, bins);
    }
    for (int i = 4 * n4 + first; i < n; i += stride)
        count(block_bins, in[i], bins);
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int c = block_bins[b];
        if (c) /* most bins of a block are empty when bins is large: skip their atomics */
            atomicAdd(&global_bins[b], c);
    }
}

void histogram_shared(const int *d_in, int n, unsigned int *d_bins, int bins)
{
    if (bins <= 0)
        return;
    CUDA_CHECK(cudaMemset(d_bins, 0, (size_t)bins * sizeof(unsigned int)));
    if (n <= 0)
        return;
    size_t shared_bytes = (size_t)bins * sizeof(unsigned int);
    int device, sms, per_sm;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_privatised, THREADS, shared_bytes));
    if (per_sm < 1)
        per_sm = 1;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > sms * per_sm)
        blocks = sms * per_sm; /* more blocks than fit at once would only add flushes */
    int vector_loads = (uintptr_t)d_in % sizeof(int4) == 0;
    histogram_privatised<<<blocks, THREADS, shared_bytes>>>(d_in, n, d_bins, bins, vector_loads);
    CUDA_CHECK_LAUNCH();
}
