/* baseline.cu - lab12 timing baseline: the thesis's Algorithm 4.2, one
 * thread per point of u, B and p read from global memory.  Blocks of 128
 * threads along a grid row (ty = 1): the consecutive threads of a warp read
 * consecutive B entries (in reverse order: kx falls as ix rises) and one
 * p entry, so every load is coalesced and the caches of a current GPU hold
 * the rows in use.  The yardstick of the performance test (kernel names
 * start with kit_). */
#include <cuda_runtime.h>

#include "baseline.h"
#include "dataset.h"

#define KIT_THREADS 128

__global__ void kit_toeplitz_matvec_global_kernel(const float *B, const float *p, float *u, int nx, int ny)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y;
    if (ix >= nx)
        return;
    size_t ldb = LAB12_LDB(nx);
    float sum = 0.0f;
    for (int jy = 0; jy < ny; jy++) {
        const float *brow = B + (size_t)(jy - iy + ny - 1) * ldb + (nx - 1 - ix); /* brow[jx]: B(jx - ix + nx - 1) */
        const float *prow = p + (size_t)jy * nx;
        for (int jx = 0; jx < nx; jx++)
            sum += brow[jx] * prow[jx];
    }
    u[(size_t)iy * nx + ix] = sum;
}

void kit_toeplitz_matvec_global(const float *d_B, const float *d_p, float *d_u, int nx, int ny)
{
    if (nx > 0 && ny > 0)
        kit_toeplitz_matvec_global_kernel<<<dim3((nx + KIT_THREADS - 1) / KIT_THREADS, ny), KIT_THREADS>>>(d_B, d_p, d_u,
                                                                                                         nx, ny);
}
