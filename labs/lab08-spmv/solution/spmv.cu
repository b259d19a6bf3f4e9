/* lab08 reference solution - CSR SpMV, vector kernel (a warp per row).
 *
 * The 32 lanes of a warp walk the row together (lane l takes nonzeros
 * l, l+32, l+64, ...: consecutive lanes read consecutive val/col entries, so
 * the loads are coalesced), each keeps a partial sum in a register, and a
 * shuffle reduction adds the 32 partial sums into lane 0, which writes y.
 * Warps loop over rows (grid-stride), so any grid size covers any matrix.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "spmv.h"

#define THREADS_PER_BLOCK 256
#define WARP 32
#define WARPS_PER_BLOCK (THREADS_PER_BLOCK / WARP)
#define MAX_BLOCKS 65535
#define FULL_MASK 0xffffffffu

__global__ void spmv_vector_kernel(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                                   float *y)
{
    int lane = threadIdx.x % WARP;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int warps = gridDim.x * blockDim.x / WARP;
    /* the loop condition is the same for all lanes of a warp: the shuffles
     * below always run with the full warp */
    for (int row = warp; row < rows; row += warps) {
        int start = row_ptr[row], end = row_ptr[row + 1];
        float sum = 0.0f;
        for (int k = start + lane; k < end; k += WARP)
            sum += val[k] * x[col[k]];
        for (int offset = WARP / 2; offset > 0; offset /= 2)
            sum += __shfl_down_sync(FULL_MASK, sum, offset);
        if (lane == 0)
            y[row] = sum;
    }
}

void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (rows <= 0)
        return;
    int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    spmv_vector_kernel<<<blocks, THREADS_PER_BLOCK>>>(rows, d_row_ptr, d_col, d_val, d_x, d_y);
    CUDA_CHECK_LAUNCH();
}
