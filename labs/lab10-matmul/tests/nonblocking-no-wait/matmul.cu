/* lab10 known-bad (a kernel left running on a non-blocking stream): no tiling (labs/lab10-matmul/tests/naive),
 * launched on a stream of its own created with cudaStreamNonBlocking, and
 * matmul_tiled returns without waiting.  The kit's timing used to stop before
 * the kernel ended: 20/20, "speedup 221x" and 1.3 PFLOP/s on an H100 for a
 * kernel no faster than the naive baseline. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

__global__ void matmul_kernel(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++)
            sum += A[(size_t)row * k + p] * B[(size_t)p * n + col];
        C[(size_t)row * n + col] = sum;
    }
}

static cudaStream_t stream;

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    if (!stream)
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    matmul_kernel<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    CUDA_CHECK_LAUNCH();
    /* the twist: no cudaStreamSynchronize(stream) */
}
