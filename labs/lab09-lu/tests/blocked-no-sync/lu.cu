/* lab09 known-bad submission "blocked-no-sync": the reference solution
 * without the barrier between loading the two tiles of the trailing update
 * and multiplying them: threads read tile entries other warps have not
 * stored yet.
 *
 * (was: lab09 reference solution - Crout LU without pivoting, in place.)
 *
 * Storage: a[i*n + j]; L on and below the diagonal, U strictly above (its
 * unit diagonal implicit).  A pivot l_jj counts as zero when
 * |l_jj| <= LU_PIVOT_RTOL(n, u) * s_j (s_j: largest entry of row j and column
 * j of the original A); the first such column j is reported as j + 1 through
 * a status word in device memory, and every later kernel returns at once, so
 * nothing is ever divided by a rejected pivot.
 *
 * Part 1 (lu_crout, lu_crout_double): one launch per step j.  Its blocks
 * with blockIdx.y == 0 compute column j of L (rows i >= j), those with
 * blockIdx.y == 1 row j of U (columns k > j).  Each U thread recomputes the
 * pivot l_jj itself, from a copy of the original diagonal: the L thread of
 * row j overwrites a_jj in the same launch, and nothing orders the two.
 *
 * Part 2 (lu_crout_blocked): right-looking blocked LU with panels of NB = 32
 * columns.  For each panel starting at column J:
 *   1. factor the NB x NB diagonal block in shared memory (one block);
 *   2. L21 = A21 U11^-1 (a thread per row) and U12 = L11^-1 A12 (a thread per
 *      column), the diagonal block's factors staged in shared memory;
 *   3. A22 -= L21 U12: 32 x 32 tiles of L21 and U12 in shared memory, each
 *      thread four entries of the trailing matrix.
 * Step 3 carries all but O(n^2 NB) of the 2n^3/3 flops.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "lu.h"

#define THREADS 256
#define NB 32          /* panel width = tile size of the blocked version */
#define UPDATE_ROWS 8  /* threadIdx.y extent of the trailing update: 4 rows per thread */
#define PANEL_THREADS 128

template <typename T> __host__ __device__ T abs_of(T x) { return x < 0 ? -x : x; }

/* ---- shared by both parts ------------------------------------------------------ */
/* tol[j] = rtol * (largest |a_jk|, |a_kj|); diag[j] = a_jj (the original). */
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

/* Device buffers of one factorization. */
template <typename T> struct lu_work {
    T *tol, *diag;
    int *status;
};

template <typename T> static lu_work<T> work_begin(const T *d_a, int n, double u)
{
    lu_work<T> w;
    CUDA_CHECK(cudaMalloc(&w.tol, (size_t)n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&w.diag, (size_t)n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&w.status, sizeof(int)));
    CUDA_CHECK(cudaMemset(w.status, 0, sizeof(int)));
    pivot_tolerance_kernel<T><<<(n + THREADS - 1) / THREADS, THREADS>>>(d_a, n, (T)LU_PIVOT_RTOL(n, u), w.tol, w.diag);
    CUDA_CHECK_LAUNCH();
    return w;
}

/* Frees the buffers; returns the status word. */
template <typename T> static int work_end(lu_work<T> &w)
{
    int status;
    CUDA_CHECK(cudaMemcpy(&status, w.status, sizeof status, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(w.tol));
    CUDA_CHECK(cudaFree(w.diag));
    CUDA_CHECK(cudaFree(w.status));
    return status;
}

/* ---- Part 1: one launch per step --------------------------------------------------- */
/* base - sum_{k<j} l_{row,k} u_{k,col}: L's row `row` times U's column `col`,
 * both finished by earlier steps. */
template <typename T> __device__ T crout_sum(T base, const T *a, int n, int row, int col, int j)
{
    const T *l = a + (size_t)row * n;
    T s = base;
    for (int k = 0; k < j; k++)
        s -= l[k] * a[(size_t)k * n + col];
    return s;
}

template <typename T>
__global__ void crout_step_kernel(T *a, int n, int j, const T *tol, const T *diag, int *status)
{
    /* Set by an earlier step - or, in this launch, by the thread of row j:
     * a thread that already sees that only skips its (unneeded) work. */
    if (*status != LU_OK)
        return;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y == 0) { /* column j of L */
        int i = j + t;
        if (i >= n)
            return;
        size_t ij = (size_t)i * n + j;
        T l = crout_sum(a[ij], a, n, i, j, j);
        a[ij] = l;
        if (i == j && !(abs_of(l) > tol[j]))
            *status = j + 1;
    } else { /* row j of U */
        int k = j + 1 + t;
        if (k >= n)
            return;
        T pivot = crout_sum(diag[j], a, n, j, j, j);
        if (!(abs_of(pivot) > tol[j]))
            return; /* never divide by a rejected pivot */
        size_t jk = (size_t)j * n + k;
        a[jk] = crout_sum(a[jk], a, n, j, k, j) / pivot;
    }
}

template <typename T> static int lu_crout_t(T *d_a, int n, double u)
{
    if (n <= 0)
        return LU_OK;
    lu_work<T> w = work_begin(d_a, n, u);
    for (int j = 0; j < n; j++) {
        dim3 grid((n - j + THREADS - 1) / THREADS, 2); /* y = 0: column of L, y = 1: row of U */
        crout_step_kernel<T><<<grid, THREADS>>>(d_a, n, j, w.tol, w.diag, w.status);
        CUDA_CHECK_LAUNCH();
    }
    return work_end(w);
}

int lu_crout(float *d_a, int n) { return lu_crout_t(d_a, n, LU_U_FLOAT); }

int lu_crout_double(double *d_a, int n) { return lu_crout_t(d_a, n, LU_U_DOUBLE); }

/* ---- Part 2: blocked --------------------------------------------------------------- */
/* 1. Right-looking Crout of the b x b diagonal block at (J, J), in shared
 *    memory: block of NB x NB threads, thread (x, y) owns entry (y, x). */
__global__ void diag_block_kernel(float *a, int n, int J, int b, const float *tol, int *status)
{
    __shared__ float s[NB][NB + 1];
    if (*status != LU_OK)
        return;
    int r = threadIdx.y, c = threadIdx.x;
    bool mine = r < b && c < b;
    if (mine)
        s[r][c] = a[(size_t)(J + r) * n + J + c];
    __syncthreads();
    for (int jj = 0; jj < b; jj++) {
        float p = s[jj][jj]; /* the same value in every thread: the branch below is uniform */
        if (!(fabsf(p) > tol[J + jj])) {
            if (r == 0 && c == 0)
                *status = J + jj + 1;
            break;
        }
        if (r == jj && c > jj && c < b)
            s[jj][c] /= p; /* row jj of U */
        __syncthreads();
        if (r > jj && r < b && c > jj && c < b)
            s[r][c] -= s[r][jj] * s[jj][c];
        __syncthreads();
    }
    if (mine)
        a[(size_t)(J + r) * n + J + c] = s[r][c];
}

/* 2. blockIdx.y == 0: rows i >= J + b of L21,  l_i = a_i U11^-1 (forward
 *    substitution along the row); blockIdx.y == 1: columns k >= J + b of U12,
 *    u_k = L11^-1 a_k.  The factored diagonal block is staged in shared memory. */
__global__ void panel_kernel(float *a, int n, int J, int b, const int *status)
{
    __shared__ float s[NB][NB + 1];
    if (*status != LU_OK)
        return;
    for (int t = threadIdx.x; t < b * b; t += blockDim.x)
        s[t / b][t % b] = a[(size_t)(J + t / b) * n + J + t % b];
    __syncthreads();
    int idx = J + b + blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n)
        return;
    float v[NB]; /* constant bounds + guards: v stays in registers */
    if (blockIdx.y == 0) {
        float *row = a + (size_t)idx * n + J;
#pragma unroll
        for (int c = 0; c < NB; c++)
            v[c] = c < b ? row[c] : 0.0f;
#pragma unroll
        for (int c = 1; c < NB; c++)
            if (c < b)
#pragma unroll
                for (int q = 0; q < c; q++)
                    v[c] -= v[q] * s[q][c];
#pragma unroll
        for (int c = 0; c < NB; c++)
            if (c < b)
                row[c] = v[c];
    } else {
        float *col = a + (size_t)J * n + idx;
#pragma unroll
        for (int r = 0; r < NB; r++)
            v[r] = r < b ? col[(size_t)r * n] : 0.0f;
#pragma unroll
        for (int r = 0; r < NB; r++)
            if (r < b) {
#pragma unroll
                for (int q = 0; q < r; q++)
                    v[r] -= s[r][q] * v[q];
                v[r] /= s[r][r]; /* accepted pivots only: the status word was checked */
            }
#pragma unroll
        for (int r = 0; r < NB; r++)
            if (r < b)
                col[(size_t)r * n] = v[r];
    }
}

/* 3. A22 -= L21 U12 on the trailing matrix that starts at (J+b, J+b): one
 *    32 x 32 tile per block, block (NB, UPDATE_ROWS), 4 entries per thread. */
__global__ void trailing_update_kernel(float *a, int n, int J, int b, const int *status)
{
    __shared__ float ls[NB][NB + 1]; /* rows of the tile x the panel's columns */
    __shared__ float us[NB][NB + 1]; /* the panel's rows x columns of the tile */
    if (*status != LU_OK)
        return;
    int start = J + b, tx = threadIdx.x, ty = threadIdx.y;
    int row0 = start + blockIdx.y * NB, col0 = start + blockIdx.x * NB;
    for (int q = ty; q < NB; q += UPDATE_ROWS) {
        int r = row0 + q, c = col0 + tx;
        ls[q][tx] = r < n && tx < b ? a[(size_t)r * n + J + tx] : 0.0f;
        us[q][tx] = q < b && c < n ? a[(size_t)(J + q) * n + c] : 0.0f;
    }
    int c = col0 + tx;
    if (c >= n)
        return;
    for (int q = ty; q < NB; q += UPDATE_ROWS) {
        int r = row0 + q;
        if (r >= n)
            break;
        float acc = 0.0f;
#pragma unroll
        for (int kk = 0; kk < NB; kk++)
            acc += ls[q][kk] * us[kk][tx];
        a[(size_t)r * n + c] -= acc;
    }
}

int lu_crout_blocked(float *d_a, int n)
{
    if (n <= 0)
        return LU_OK;
    lu_work<float> w = work_begin(d_a, n, LU_U_FLOAT);
    for (int J = 0; J < n; J += NB) {
        int b = n - J < NB ? n - J : NB, rest = n - J - b;
        diag_block_kernel<<<1, dim3(NB, NB)>>>(d_a, n, J, b, w.tol, w.status);
        CUDA_CHECK_LAUNCH();
        if (rest == 0)
            break;
        panel_kernel<<<dim3((rest + PANEL_THREADS - 1) / PANEL_THREADS, 2), PANEL_THREADS>>>(d_a, n, J, b, w.status);
        CUDA_CHECK_LAUNCH();
        int tiles = (rest + NB - 1) / NB;
        trailing_update_kernel<<<dim3(tiles, tiles), dim3(NB, UPDATE_ROWS)>>>(d_a, n, J, b, w.status);
        CUDA_CHECK_LAUNCH();
    }
    return work_end(w);
}
