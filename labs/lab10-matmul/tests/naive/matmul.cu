/* lab10 known-bad: no tiling - one thread per element of C reads its row of
 * A and column of B from global memory (the kit's baseline, as a student
 * would write it).  Right, but no faster than the baseline. */
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

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    matmul_kernel<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
    CUDA_CHECK_LAUNCH();
}
