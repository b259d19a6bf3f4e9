/* lab10 reference solution - tiled matrix multiply in shared memory.
 *
 * One 32 x 32 block per 32 x 32 tile of C.  Along k, the block loads a tile
 * of A and a tile of B into shared memory (one element each per thread;
 * elements outside a matrix are loaded as 0, so they add nothing), waits,
 * multiplies them, and waits again before the next load overwrites them.
 * Every thread takes part in every load and barrier, including threads
 * whose element of C lies outside C; only the final store is guarded.
 */
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
