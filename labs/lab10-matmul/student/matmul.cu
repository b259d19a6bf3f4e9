/* lab10 - tiled matrix multiply in shared memory.
 *
 * Read labs/lab10-matmul/handout.md first.  Check your work with:   make lab10
 *
 * This starter is the classic tiled kernel of the lecture slides, with the three
 * bugs they teach: it works for square matrices whose size is a multiple of
 * the tile - most of the time.  The TODOs say what to fix.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

#define TILE 16

__global__ void matmul_kernel(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty; /* the element of C this thread computes */
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        /* Each thread loads one element of the A tile and one of the B tile.
         * TODO 2: near the edges of the matrices these loads "clamp to the
         * edge": an index past the last column of A (or row of B) is replaced
         * by the last one.  That keeps the loads in bounds, but what does the
         * loop below then add to sum when k is not a multiple of TILE?  An
         * element outside the matrix must contribute nothing. */
        int a_col = min(t * TILE + tx, k - 1);
        int b_row = min(t * TILE + ty, k - 1);
        As[ty][tx] = A[min(row, m - 1) * k + a_col];
        Bs[ty][tx] = B[b_row * n + min(col, n - 1)];
        __syncthreads(); /* the tiles are loaded before anyone reads them */

        for (int p = 0; p < TILE; p++)
            sum += As[ty][p] * Bs[p][tx];

        /* TODO 1: the next iteration overwrites As and Bs.  What guarantees
         * that every thread of the block has finished reading them?  Run
         *     make lab10 TEST=racecheck
         * and read the lines it reports (resources/demos/matmul-tile.cu,
         * `make demo-matmul-tile`, shows this very bug). */
    }
    C[row * n + col] = sum;
}

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    /* TODO 3: this grid assumes that m and n are multiples of TILE: the last
     * rows and columns of C are never computed, and a matrix smaller than
     * one tile gets no block at all.  Cover all of C (and then make sure no
     * thread writes outside it), and think about m == 0 or n == 0. */
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, m / TILE);
    matmul_kernel<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
    CUDA_CHECK_LAUNCH();
}
