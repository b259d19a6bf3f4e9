/* baseline.cu - lab03 timing baseline: the global-memory dot product.
 *
 * This is the classic version students start from (the first half of the
 * half): every product goes to global memory, then the array is summed in
 * global memory, halving it each launch.  No shared memory, so each pass
 * reads and writes global memory; the shared-memory version should beat it.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "baseline.h"

#define KIT_THREADS 256

__global__ void kit_dot_products(const float *a, const float *b, float *prod, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        prod[i] = a[i] * b[i];
}

/* prod[i] += prod[i + half] for i < len - half: one halving pass. */
__global__ void kit_dot_halve(float *prod, int len, int half)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len - half)
        prod[i] += prod[i + half];
}

static float *scratch;
static int scratch_n;

float kit_dot_global(const float *d_a, const float *d_b, int n)
{
    if (n <= 0)
        return 0.0f;
    if (n > scratch_n) {
        cudaFree(scratch);
        if (cudaMalloc(&scratch, (size_t)n * sizeof(float)) != cudaSuccess) {
            fprintf(stderr, "baseline: out of device memory\n");
            scratch_n = 0;
            return 0.0f;
        }
        scratch_n = n;
    }
    kit_dot_products<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_a, d_b, scratch, n);
    for (int len = n; len > 1;) {
        int half = len / 2;
        kit_dot_halve<<<(len - half + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(scratch, len, half);
        len -= half;
    }
    float r = 0.0f;
    cudaMemcpy(&r, scratch, sizeof r, cudaMemcpyDeviceToHost);
    return r;
}
