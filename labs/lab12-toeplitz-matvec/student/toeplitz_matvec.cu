/* lab12 starter - toeplitz_matvec: u = A p on an nx x ny grid, A held as B
 * (toeplitz_matvec.h).  `make lab12` checks it with the visible tests.
 *
 * matvec_global is right: the thesis's Algorithm 4.2, every B and p from
 * global memory (the kit's baseline is the same kernel; the performance test
 * times you against it).  Your job is matvec_shared, Algorithm 4.3: the
 * kernel below has the loops, the shared arrays, the first barrier and the
 * products, but it loads zeros and reads the wrong place of the B tile
 * (every u comes out 0).  The TODOs say what is missing.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "toeplitz_matvec.h"

#define TILE 128 /* tx: points of a grid row per block, a multiple of 32 */

/* One thread per point (ix, iy) of u, blocks of TILE threads along a grid row. */
__global__ void matvec_global(const float *B, const float *p, float *u, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y;
    if (ix >= nx)
        return;
    size_t ldb = 2 * (size_t)nx; /* B's padded rows */
    float sum = 0.0f;
    for (int jy = 0; jy < ny; jy++) {
        int ky = jy - iy + ny - 1;
        for (int jx = 0; jx < nx; jx++) {
            int kx = jx - ix + nx - 1;
            sum += B[(size_t)ky * ldb + kx] * p[(size_t)jy * nx + jx];
        }
    }
    u[(size_t)iy * nx + ix] = sum;
}

/* Block (iTx, iy) computes points ix = iTx*TILE + t of grid row iy, where
 * t = threadIdx.x.  It walks over p one tile at a time: tile jTx of grid
 * row jy holds p(jx, jy) for jx = jTx*TILE + j, j < TILE. */
__global__ void matvec_shared(const float *B, const float *p, float *u, int nx, int ny)
{
    __shared__ float Bs[2 * TILE]; /* the B values one tile of p needs: how many are there? */
    __shared__ float ps[TILE];     /* one tile of p */
    int t = threadIdx.x, iTx = blockIdx.x, iy = blockIdx.y, ix = iTx * TILE + t;
    float sum = 0.0f;
    for (int jy = 0; jy < ny; jy++) {
        for (int jTx = 0; jTx < (int)gridDim.x; jTx++) {
            /* TODO 1: load the tile of p: ps[t] = p(jTx*TILE + t, jy).  The
             * last tile of a grid row may reach past nx: what must ps hold
             * there so that those products add nothing? */
            ps[t] = 0.0f;

            /* TODO 2: load the values of B this tile needs.  Over the tile,
             * kx = jx - ix + nx - 1 takes 2*TILE - 1 values: which kx goes in
             * Bs[0], and where in Bs is B(jx - ix + nx - 1) for a given
             * thread t and j?  Each thread loads two of them (Bs[t] and
             * Bs[t + TILE]: B's rows are padded to 2nx floats, so that both
             * loads start on a tile boundary when nx is a multiple of TILE).
             * No load may leave B: kx outside 0 .. 2nx - 2 loads 0. */
            Bs[t] = 0.0f;
            Bs[t + TILE] = 0.0f;

            __syncthreads(); /* the tiles are loaded */

            /* TODO 3: the tile's products are B(jx - ix + nx - 1, ky) *
             * p(jx, jy) for jx = jTx*TILE + j: where in Bs is that B value,
             * for this thread t and this j? */
            for (int j = 0; j < TILE; j++) {
                int k = 0;
                sum += Bs[k] * ps[j];
            }

            /* TODO 4: the next iteration overwrites Bs and ps.  What must be
             * true before it does, and what makes it so? */
        }
    }
    if (ix < nx)
        u[(size_t)iy * nx + ix] = sum;
}

void toeplitz_matvec(const float *d_B, const float *d_p, float *d_u, int nx, int ny)
{
    dim3 grid((nx + TILE - 1) / TILE, ny);
    matvec_shared<<<grid, TILE>>>(d_B, d_p, d_u, nx, ny);
    CUDA_CHECK_LAUNCH();
}
