/* baseline.cu - lab04 timing baseline: the histogram with global atomics.
 *
 * This is the classic histogram-globalmem program (and the "simple"
 * kernel of a student report): every element is one atomicAdd on a counter in
 * global memory.  When many elements fall into the same bin, those atomics
 * queue up on one address in L2; the privatised version moves that
 * contention into each SM's shared memory and should beat it.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "baseline.h"

#define KIT_THREADS 256

__global__ void kit_histogram_atomics(const int *in, int n, unsigned int *bins_out, int bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        if (v >= 0 && v < bins)
            atomicAdd(&bins_out[v], 1u);
    }
}

int kit_histogram_global(const int *d_in, int n, unsigned int *d_bins, int bins)
{
    cudaError_t e = cudaMemset(d_bins, 0, (size_t)bins * sizeof(unsigned int));
    if (e == cudaSuccess && n > 0) {
        kit_histogram_atomics<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_in, n, d_bins, bins);
        e = cudaGetLastError();
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "baseline: %s\n", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}
