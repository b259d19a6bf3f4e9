/* lab10 known-bad: the reference's tiled multiply with the tile loop's test
 * written `t != k`: right when k is a multiple of the tile (32), and never
 * ending otherwise (t steps over k).  Judged once, at its limit; the later
 * runs of matmul_tiled are not made. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

#define TILE 32

__global__ void matmul_kernel(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t != k; t += TILE) { /* BUG: never equal when k is not a multiple of TILE */
        int a_col = t + tx, b_row = t + ty;
        As[ty][tx] = row < m && a_col < k ? A[(size_t)row * k + a_col] : 0.0f;
        Bs[ty][tx] = b_row < k && col < n ? B[(size_t)b_row * n + col] : 0.0f;
        __syncthreads(); /* loaded before anyone reads */
        for (int p = 0; p < TILE; p++)
            sum += As[ty][p] * Bs[p][tx];
        __syncthreads(); /* read by everyone before the next load */
    }
    if (row < m && col < n)
        C[(size_t)row * n + col] = sum;
}

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    dim3 block(TILE, TILE);
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_kernel<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
    CUDA_CHECK_LAUNCH();
}
