/* baseline.cu - lab12 timing baseline: one thread per element, global memory.
 * The yardstick of the performance test (kernel names start with kit_). */
#include <cuda_runtime.h>

#include "baseline.h"

#define KIT_THREADS 256

__global__ void kit_toeplitz_matvec_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i] + 1.0f;
}

void kit_toeplitz_matvec_global(const float *d_in, float *d_out, int n)
{
    if (n > 0)
        kit_toeplitz_matvec_kernel<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_in, d_out, n);
}
