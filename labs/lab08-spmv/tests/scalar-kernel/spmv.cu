/* lab08 known-bad submission "scalar-kernel": spmv_vector is the scalar
 * kernel (one thread per row).  Right, but no faster than the kit's scalar
 * baseline: only the performance test fails. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "spmv.h"

#define THREADS_PER_BLOCK 256

__global__ void spmv_rowwise_kernel(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                                    float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = sum;
}

void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (rows <= 0)
        return;
    spmv_rowwise_kernel<<<(rows + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(
        rows, d_row_ptr, d_col, d_val, d_x, d_y);
    CUDA_CHECK_LAUNCH();
}
