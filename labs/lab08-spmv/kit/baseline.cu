/* baseline.cu - lab08 timing baseline: the scalar CSR kernel.
 *
 * The classic scalar CSR kernel: one thread per row walks the row's nonzeros
 * alone.  Neighbouring threads read from different rows, so on long rows a
 * warp's loads are scattered (uncoalesced) and the threads of a warp finish
 * at different times; the vector kernel (a warp per row) should beat it there.
 */
#include <cuda_runtime.h>

#include "baseline.h"

#define KIT_THREADS 256

__global__ void kit_spmv_scalar_kernel(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
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

void kit_spmv_scalar(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x,
                     float *d_y)
{
    if (rows <= 0)
        return;
    kit_spmv_scalar_kernel<<<(rows + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(rows, d_row_ptr, d_col, d_val,
                                                                                   d_x, d_y);
}
