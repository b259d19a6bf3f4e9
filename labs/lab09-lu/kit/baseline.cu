/* baseline.cu - lab09 timing baseline: Crout LU, one launch per step.
 *
 * Part 1 of the lab: step j computes column j of L (a thread per row i >= j)
 * and row j of U (a thread per column k > j) from global memory; each thread
 * forms a sum of j products.  The U threads recompute the pivot from a copy
 * of the original diagonal (the L thread of row j overwrites a_jj in the
 * same launch).  n launches; no shared memory.  The blocked version, which
 * updates the trailing matrix tile by tile in shared memory, should beat it.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "baseline.h"
#include "lu.h"

#define KIT_THREADS 256

__global__ void kit_lu_tolerance(const float *a, int n, float rtol, float *tol, float *diag)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float s = 0;
    for (int k = 0; k < n; k++)
        s = fmaxf(s, fmaxf(fabsf(a[(size_t)j * n + k]), fabsf(a[(size_t)k * n + j])));
    tol[j] = rtol * s;
    diag[j] = a[(size_t)j * n + j];
}

__device__ static float kit_crout_sum(float base, const float *a, int n, int row, int col, int j)
{
    const float *l = a + (size_t)row * n;
    for (int k = 0; k < j; k++)
        base -= l[k] * a[(size_t)k * n + col];
    return base;
}

__global__ void kit_lu_step_kernel(float *a, int n, int j, const float *tol, const float *diag, int *status)
{
    if (*status != LU_OK)
        return;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y == 0) {
        int i = j + t;
        if (i >= n)
            return;
        size_t ij = (size_t)i * n + j;
        float l = kit_crout_sum(a[ij], a, n, i, j, j);
        a[ij] = l;
        if (i == j && !(fabsf(l) > tol[j]))
            *status = j + 1;
    } else {
        int k = j + 1 + t;
        if (k >= n)
            return;
        float pivot = kit_crout_sum(diag[j], a, n, j, j, j);
        if (!(fabsf(pivot) > tol[j]))
            return;
        size_t jk = (size_t)j * n + k;
        a[jk] = kit_crout_sum(a[jk], a, n, j, k, j) / pivot;
    }
}

int kit_lu_step(float *d_a, int n)
{
    if (n <= 0)
        return LU_OK;
    float *tol = NULL, *diag = NULL;
    int *status = NULL, result = -1;
    if (cudaMalloc(&tol, (size_t)n * sizeof *tol) != cudaSuccess ||
        cudaMalloc(&diag, (size_t)n * sizeof *diag) != cudaSuccess ||
        cudaMalloc(&status, sizeof *status) != cudaSuccess || cudaMemset(status, 0, sizeof *status) != cudaSuccess) {
        fprintf(stderr, "baseline: out of device memory\n");
        goto out;
    }
    kit_lu_tolerance<<<(n + KIT_THREADS - 1) / KIT_THREADS, KIT_THREADS>>>(d_a, n, (float)LU_PIVOT_RTOL(n, LU_U_FLOAT),
                                                                          tol, diag);
    for (int j = 0; j < n; j++)
        kit_lu_step_kernel<<<dim3((n - j + KIT_THREADS - 1) / KIT_THREADS, 2), KIT_THREADS>>>(d_a, n, j, tol, diag,
                                                                                              status);
    if (cudaMemcpy(&result, status, sizeof result, cudaMemcpyDeviceToHost) != cudaSuccess)
        fprintf(stderr, "baseline: %s\n", cudaGetErrorString(cudaGetLastError()));
out:
    cudaFree(tol);
    cudaFree(diag);
    cudaFree(status);
    return result;
}
