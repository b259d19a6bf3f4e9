/* lab09 - Crout LU factorization without pivoting.
 *
 * Read labs/lab09-lu/handout.md first.  Check your work with:   make lab09
 *
 * The matrix is factored in place (lu.h): after the call, a[i*n + j] holds
 * l_ij for j <= i and u_ij for j > i.  Crout computes, for j = 0, 1, ..., n-1,
 *     l_ij = a_ij - sum_{k<j} l_ik u_kj             (column j of L, i >= j)
 *     u_jk = (a_jk - sum_{k'<j} l_jk' u_k'k) / l_jj (row j of U, k > j)
 * Part 1 does one kernel launch per step j.  The pivot test, the status word
 * and the copy of the diagonal are complete; the kernels have two bugs (see
 * the TODOs).  Part 2, the blocked version, is still to be written.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "lu.h"

#define THREADS 256

template <typename T> __host__ __device__ T abs_of(T x) { return x < 0 ? -x : x; }

/* Given: tol[j] = the pivot threshold of column j (lu.h), diag[j] = a_jj. */
template <typename T> __global__ void pivot_tolerance_kernel(const T *a, int n, T rtol, T *tol, T *diag)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    T s = 0;
    for (int k = 0; k < n; k++) {
        T r = abs_of(a[(size_t)j * n + k]), c = abs_of(a[(size_t)k * n + j]);
        s = r > s ? r : s;
        s = c > s ? c : s;
    }
    tol[j] = rtol * s;
    diag[j] = a[(size_t)j * n + j];
}

/* base - sum_{k<j} l_{row,k} u_{k,col}: row `row` of L times column `col` of U. */
template <typename T> __device__ T crout_sum(T base, const T *a, int n, int row, int col, int j)
{
    const T *l = a + (size_t)row * n;
    T s = base;
    /* TODO 1: compare this loop with the formulas above.  Which entries does
     * its last pass read, and what do they hold at step j?  (make lab09
     * TEST=step-float names the first wrong entry.) */
    for (int k = 0; k <= j; k++)
        s -= l[k] * a[(size_t)k * n + col];
    return s;
}

/* Step j: blocks with blockIdx.y == 0 compute column j of L, those with
 * blockIdx.y == 1 row j of U.  The launch boundary orders the steps. */
template <typename T>
__global__ void crout_step_kernel(T *a, int n, int j, const T *tol, const T *diag, int *status)
{
    if (*status != LU_OK)
        return; /* an earlier column had a zero pivot: stop */
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y == 0) { /* column j of L: row i = j + t */
        int i = j + t;
        if (i >= n)
            return;
        size_t ij = (size_t)i * n + j;
        T l = crout_sum(a[ij], a, n, i, j, j);
        a[ij] = l;
        if (i == j && !(abs_of(l) > tol[j]))
            *status = j + 1;
    } else { /* row j of U: column k = j + 1 + t */
        int k = j + 1 + t;
        /* TODO 2: the grid has more threads than row j has entries right of
         * the diagonal.  Where do the others write?  Run
         *     make lab09 TEST=memcheck */
        /* The thread of row j overwrites a_jj in this same launch, so the
         * pivot is recomputed here from the copy of the original diagonal. */
        T pivot = crout_sum(diag[j], a, n, j, j, j);
        if (!(abs_of(pivot) > tol[j]))
            return; /* never divide by a zero pivot */
        size_t jk = (size_t)j * n + k;
        a[jk] = crout_sum(a[jk], a, n, j, k, j) / pivot;
    }
}

template <typename T> static int lu_crout_t(T *d_a, int n, double u)
{
    if (n <= 0)
        return LU_OK;
    T *d_tol, *d_diag;
    int *d_status, status;
    CUDA_CHECK(cudaMalloc(&d_tol, (size_t)n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_diag, (size_t)n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_status, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_status, 0, sizeof(int)));
    pivot_tolerance_kernel<T><<<(n + THREADS - 1) / THREADS, THREADS>>>(d_a, n, (T)LU_PIVOT_RTOL(n, u), d_tol, d_diag);
    CUDA_CHECK_LAUNCH();
    for (int j = 0; j < n; j++) {
        dim3 grid((n - j + THREADS - 1) / THREADS, 2);
        crout_step_kernel<T><<<grid, THREADS>>>(d_a, n, j, d_tol, d_diag, d_status);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaMemcpy(&status, d_status, sizeof status, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_tol));
    CUDA_CHECK(cudaFree(d_diag));
    CUDA_CHECK(cudaFree(d_status));
    return status;
}

int lu_crout(float *d_a, int n) { return lu_crout_t(d_a, n, LU_U_FLOAT); }

int lu_crout_double(double *d_a, int n) { return lu_crout_t(d_a, n, LU_U_DOUBLE); }

/* ---- Part 2 ---------------------------------------------------------------------- */
/* TODO 3: the blocked version.  Work on panels of NB columns (NB = 32, say):
 * factor the NB x NB diagonal block, compute the panel of L below it and
 * the block row of U right of it, then subtract L21 * U12 from the trailing
 * matrix tile by tile, staging tiles in __shared__ memory.  The pivot test
 * stays the same (tol[j] of the column, status j + 1).  Until then this
 * calls Part 1, which the performance test does not reward. */
int lu_crout_blocked(float *d_a, int n) { return lu_crout(d_a, n); }
