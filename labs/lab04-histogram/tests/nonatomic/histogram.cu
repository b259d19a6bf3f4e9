/* Known-bad lab04 submission: the privatised histogram done right except
 * for one line - the shared-memory counter is incremented with ++ instead of
 * atomicAdd.  Threads whose values fall into the same bin read the same
 * count, add one and write it back: all but one of those increments are
 * lost.  The counter is in shared memory, so racecheck reports the hazard
 * (it does not watch global memory). */
#include <cuda_runtime.h>

#include "histogram.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define BLOCKS_PER_SM 4

__global__ void histogram_nonatomic(const int *in, int n, unsigned int *global_bins, int bins)
{
    extern __shared__ unsigned int block_bins[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        block_bins[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (v >= 0 && v < bins)
            block_bins[v]++; /* the bug: a read-modify-write that other threads interleave with */
    }
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (block_bins[b])
            atomicAdd(&global_bins[b], block_bins[b]);
}

void histogram_shared(const int *d_in, int n, unsigned int *d_bins, int bins)
{
    CUDA_CHECK(cudaMemset(d_bins, 0, (size_t)bins * sizeof(unsigned int)));
    if (n <= 0)
        return;
    int device, sms;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > sms * BLOCKS_PER_SM)
        blocks = sms * BLOCKS_PER_SM;
    histogram_nonatomic<<<blocks, THREADS, (size_t)bins * sizeof(unsigned int)>>>(d_in, n, d_bins, bins);
    CUDA_CHECK_LAUNCH();
}
