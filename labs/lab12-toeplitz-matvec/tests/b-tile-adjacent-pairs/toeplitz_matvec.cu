/* lab12 known-bad: the reference solution with the B tile loaded as two
 * adjacent values per thread (Bs[2t], Bs[2t + 1]) instead of two tiles
 * (Bs[t], Bs[t + TILE]): the same values, but a warp's load spans 256 bytes
 * with every other word skipped (8 sectors where 4 would do), and its
 * shared-memory stores are 2-way bank conflicts. */
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
            int k1 = kx0 + 2 * t, k2 = kx0 + 2 * t + 1;
            ps[t] = jx < nx ? p[(size_t)jy * nx + jx] : 0.0f;
            Bs[2 * t] = k1 >= 0 && k1 < 2 * nx - 1 ? brow[k1] : 0.0f;
            Bs[2 * t + 1] = k2 >= 0 && k2 < 2 * nx - 1 ? brow[k2] : 0.0f;
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
