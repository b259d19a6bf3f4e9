/* baseline.cu - lab11 timing baseline: process_streams without streams.
 *
 * Copy in, compute, copy out, one after the other on the default stream:
 * while the kernel runs the copy engines are idle, and while the copies run
 * the SMs are.  It allocates and frees its device buffers in every call, as
 * a student's process_streams does, so the comparison is about overlap.
 */
#include <cuda_runtime.h>

#include "baseline.h"
#include "transfer.h"

#define KIT_THREADS 256

__global__ void kit_mix_kernel(const uint32_t *in, uint32_t *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lab11_mix(in[i], rounds);
}

void kit_process_serial(const uint32_t *h_in, uint32_t *h_out, int n, int rounds)
{
    if (n <= 0)
        return;
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *d_in = NULL, *d_out = NULL;
    if (cudaMalloc(&d_in, bytes) == cudaSuccess && cudaMalloc(&d_out, bytes) == cudaSuccess) {
        cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
        kit_mix_kernel<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_in, d_out, n, rounds);
        cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    }
    cudaFree(d_in);
    cudaFree(d_out);
}
