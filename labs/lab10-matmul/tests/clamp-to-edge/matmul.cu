/* lab10 known-bad: a student report's boundary condition - loads past the edge of
 * A or B load the edge element instead of 0.  In bounds, race-free, right for
 * k a multiple of the tile; otherwise every element of C gets spurious
 * products a[i][k-1] * b[k-1][j]. */
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

    for (int t = 0; t < k; t += TILE) {
        /* the report: past the edge, load the edge element */
        int r = min(row, m - 1), cc = min(col, n - 1);
        int a_col = min(t + tx, k - 1), b_row = min(t + ty, k - 1);
        As[ty][tx] = A[(size_t)r * k + a_col];
        Bs[ty][tx] = B[(size_t)b_row * n + cc];
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
