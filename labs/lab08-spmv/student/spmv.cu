/* lab08 - sparse matrix-vector product y = A x with A in CSR.
 *
 * Read labs/lab08-spmv/handout.md first.  Check your work with:   make lab08
 *
 * spmv_scalar_kernel below is the classic scalar kernel: one thread per row.
 * The kit times your spmv_vector against it.  spmv_vector should give each
 * row a whole warp: the 32 lanes share the row's nonzeros and then add their
 * partial sums with a warp reduction.  This starter has the idea but not the
 * details; the TODOs say what is missing.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "spmv.h"

#define THREADS_PER_BLOCK 128 /* exercise 24: try others (a multiple of 32) */
#define WARP 32

/* Given: the scalar kernel (not called; here to compare with). */
__global__ void spmv_scalar_kernel(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                                   float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++)
            sum += val[k] * x[col[k]];
        y[row] = sum;
    }
}

/* One warp per row: warp w of the grid computes y[w]. */
__global__ void spmv_vector_kernel(int rows, const int *row_ptr, const int *col, const float *val, const float *x,
                                   float *y)
{
    int lane = threadIdx.x % WARP;
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    if (row >= rows)
        return; /* the whole warp leaves together: all its lanes have the same row */
    int start = row_ptr[row], end = row_ptr[row + 1];
    float sum = 0.0f;
    /* TODO 1: each lane handles one nonzero here, so a row with more than 32
     * nonzeros loses the rest.  Let every lane walk the row so that
     * together the lanes cover all of it, with neighbouring lanes reading
     * neighbouring elements (why does that matter?). */
    if (start + lane < end)
        sum = val[start + lane] * x[col[start + lane]];
    /* TODO 2: after the reduction lane 0 must hold the sum of all 32 lanes'
     * partial sums.  This one step is not enough: finish the reduction
     * (__shfl_down_sync; the handout explains the mask). */
    sum += __shfl_down_sync(0xffffffffu, sum, 16);
    if (lane == 0)
        y[row] = sum;
}

void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (rows <= 0)
        return; /* nothing to compute (a launch of 0 blocks would be an error) */
    /* TODO 3 (exercise 24): one warp per row fixes the grid size.  Time other
     * block sizes (make run-lab08 P="...") - and a fixed, smaller grid whose
     * warps loop over the rows. */
    long long threads = (long long)rows * WARP;
    int blocks = (int)((threads + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK);
    spmv_vector_kernel<<<blocks, THREADS_PER_BLOCK>>>(rows, d_row_ptr, d_col, d_val, d_x, d_y);
    CUDA_CHECK_LAUNCH();
}
