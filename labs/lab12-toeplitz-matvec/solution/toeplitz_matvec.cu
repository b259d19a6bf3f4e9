/* lab12 reference solution - toeplitz_matvec: u = A p with tiles of p and B
 * in shared memory (the thesis's Algorithm 4.3, ty = 1).
 *
 * Block (iTx, iy) computes points ix = iTx*TILE + t (t = threadIdx.x) of grid
 * row iy.  For each grid row jy of p and each tile jTx of it, the products
 * need p(jx, jy) for jx = jTx*TILE + j and B(kx, ky) for
 *     kx = jx - ix + nx - 1 = kx0 + (j - t + TILE - 1),  kx0 = (jTx - iTx - 1)*TILE + nx,
 * ky = jy - iy + ny - 1: TILE values of p and 2*TILE - 1 of B, loaded as two
 * per thread (Bs[t] and Bs[t + TILE]: Bs[2*TILE - 1] is read, never used).
 * With B's padded rows (2nx floats) and nx a multiple of the tile, kx0 is a
 * multiple of TILE, so every warp's load starts on a 128-byte boundary.
 * Outside the grid (a partial last tile) p loads as 0 and B as 0, and no
 * load leaves B or p; every thread takes part in every barrier.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "toeplitz_matvec.h"

#define TILE 128 /* the thesis's best tile (tx = 128), four warps */

__global__ void toeplitz_matvec_shared(const float *B, const float *p, float *u, int nx, int ny)
{
    __shared__ float Bs[2 * TILE];
    __shared__ float ps[TILE];
    int t = threadIdx.x, iTx = blockIdx.x, iy = blockIdx.y, ix = iTx * TILE + t;
    size_t ldb = 2 * (size_t)nx;
    float sum = 0.0f;
    for (int jy = 0; jy < ny; jy++) {
        const float *brow = B + (size_t)(jy - iy + ny - 1) * ldb;
        for (int jTx = 0; jTx < (int)gridDim.x; jTx++) {
            int jx = jTx * TILE + t, kx0 = (jTx - iTx - 1) * TILE + nx;
            int k1 = kx0 + t, k2 = kx0 + t + TILE;
            ps[t] = jx < nx ? p[(size_t)jy * nx + jx] : 0.0f;
            Bs[t] = k1 >= 0 && k1 < 2 * nx - 1 ? brow[k1] : 0.0f;
            Bs[t + TILE] = k2 >= 0 && k2 < 2 * nx - 1 ? brow[k2] : 0.0f;
            __syncthreads(); /* the tiles are loaded */
#pragma unroll 16
            for (int j = 0; j < TILE; j++)
                sum += Bs[j - t + TILE - 1] * ps[j];
            __syncthreads(); /* every thread is done with them before the next tiles overwrite them */
        }
    }
    if (ix < nx)
        u[(size_t)iy * nx + ix] = sum;
}

void toeplitz_matvec(const float *d_B, const float *d_p, float *d_u, int nx, int ny)
{
    dim3 grid((nx + TILE - 1) / TILE, ny);
    toeplitz_matvec_shared<<<grid, TILE>>>(d_B, d_p, d_u, nx, ny);
    CUDA_CHECK_LAUNCH();
}
