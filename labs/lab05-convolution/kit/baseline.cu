/* baseline.cu - lab05 timing baseline: convolution straight from global memory.
 *
 * The classic plain version: the mask is an ordinary device array passed to
 * the kernel instead of constant memory, and there is no tile: each thread
 * reads its mask_size inputs and mask values from global memory (through
 * the caches).  The tiled version with the mask in constant memory should
 * beat it, more so as the mask grows (exercise 14).
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "baseline.h"
#include "conv1d.h"

#define KIT_THREADS 256

__global__ void kit_conv1d_global_mask(const float *in, float *out, int n, const float *mask, int mask_size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int radius = mask_size / 2;
    float sum = 0.0f;
    for (int j = 0; j < mask_size; j++) {
        int g = i + j - radius;
        if (g >= 0 && g < n)
            sum += mask[j] * in[g];
    }
    out[i] = sum;
}

static float *mask_buffer; /* CONV_MAX_MASK floats of global memory, allocated once */

int kit_conv1d_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return 0;
    cudaError_t e = cudaSuccess;
    if (!mask_buffer)
        e = cudaMalloc(&mask_buffer, CONV_MAX_MASK * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMemcpy(mask_buffer, h_mask, (size_t)mask_size * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        kit_conv1d_global_mask<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_in, d_out, n, mask_buffer,
                                                                                    mask_size);
        e = cudaGetLastError();
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "baseline: %s\n", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}
