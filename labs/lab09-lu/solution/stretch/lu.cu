/* lab09 stretch exercise - blocked LU whose trailing update is a
 * register-blocked matrix multiply, the panel factored beside the update
 * (handout, "How far from the library?").  Same interface, storage, pivot
 * test and status word as the reference solution (../lu.cu); Part 1
 * (lu_crout, lu_crout_double) is the reference's.  Part 2, right-looking
 * with panels of NB = 128 columns; for the panel at column J (E = J + NB):
 *
 *   1. diag_kernel (one block) factors the NB x NB diagonal block A11 =
 *      L11 U11 in shared memory, itself blocked in sub-panels of DIAG_W = 16
 *      columns: one warp factors a sub-panel with shuffles (no barrier per
 *      column), then the block solves for U's rows beside it and updates
 *      the rest - three barriers per 16 columns, where one per column made
 *      this serial step the longest in the factorization; it leaves U11 and
 *      L11 (transposed, reciprocals of the pivots on its diagonal) in a
 *      small workspace for step 2;
 *   2. trsm_kernel: L21 = A21 U11^-1 (a warp per 4 rows) and U12 = L11^-1 A12
 *      (a warp per 4 columns), both by substitution along the 128 columns /
 *      rows, the values passed between lanes by warp shuffles;
 *   3. update_kernel: A22 -= L21 U12, inner dimension 128: lab 10's stretch
 *      kernel (128 x 128 tiles of A22 per block of 16 x 16 threads, an 8 x 8
 *      block in registers per thread, 16-byte loads where proven aligned, two
 *      shared buffers) in place, its accumulators starting as A22's entries
 *      (loaded with the first step's operands) and the products taken off
 *      them: with only 8 steps of 16 per tile, a read-modify-write of A22
 *      after the multiply (16 round trips to memory per thread, one after another)
 *      took a large share of each block's time.
 * The loads at the head of the serial steps (the diagonal block, the tile
 * of A22) are all in flight at once, not a few at a time.
 * Step 3 carries all but O(n^2 NB) of the 2n^3/3 flops, but steps 1-2 are a
 * chain of short, mostly serial kernels per panel.  So the update of panel
 * J is split (look-ahead): the part that panel E needs - its columns and
 * its rows - is done first, on a second, high-priority stream, which then
 * factors panel E (steps 1-2) while the default stream updates the rest of
 * the trailing matrix.  The two streams never write the same entries at the
 * same time; events order the rest (see lu_plan).
 *
 * Why NB = 128: it is the update tile's edge, so the update's inner
 * dimension is 8 steps of 16, and the updates' read-modify-write traffic,
 * about n^3 / (3 NB) entries of 8 bytes, is 1.4 GB at n = 4096: 0.4 ms at
 * an H100's 3.35 TB/s, under the 0.9 ms of arithmetic (about 50 TFLOP/s of
 * FP32).  NB = 64 would double it to rival the arithmetic.  A wider panel
 * (256) would halve the number of serial panel chains but double the length
 * of each (the diagonal block's 256 dependent columns) and leave the update
 * of the last quarter of the matrix too few tiles to fill 132 SMs.
 * The pivot tolerances (largest |a| of each row and column) are found in one
 * coalesced pass, and the device buffers are kept between calls.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/cuda_check.cuh"
#include "lu.h"

#define THREADS 256
#define LINE_TILE 32   /* the tolerance pass: 32 x 32 entries per block of 32 x 8 threads */
#define LINE_ROWS 8

template <typename T> __host__ __device__ T abs_of(T x) { return x < 0 ? -x : x; }

/* ---- shared by both parts: pivot tolerances, kept buffers ---------------------------- */
/* Non-negative T as an unsigned integer of the same width: same order. */
template <typename T> struct bits_of;
template <> struct bits_of<float> {
    typedef unsigned int type;
    __device__ static type get(float x) { return __float_as_uint(x); }
    __device__ static float back(type b) { return __uint_as_float(b); }
};
template <> struct bits_of<double> {
    typedef unsigned long long type;
    __device__ static type get(double x) { return (type)__double_as_longlong(x); }
    __device__ static double back(type b) { return __longlong_as_double((long long)b); }
};

/* Block (32 x 8 threads) per 32 x 32 tile: row and column maxima of |a|,
 * merged into row_max / col_max (zeroed before). */
template <typename T>
__global__ void line_max_kernel(const T *a, int n, typename bits_of<T>::type *row_max,
                                typename bits_of<T>::type *col_max)
{
    typedef bits_of<T> B;
    __shared__ T part[LINE_ROWS][LINE_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * LINE_TILE + tx, row0 = blockIdx.y * LINE_TILE;
    T cmax = 0;
    for (int r = ty; r < LINE_TILE; r += LINE_ROWS) { /* the same trip count in every thread */
        int row = row0 + r;
        T v = row < n && col < n ? abs_of(a[(size_t)row * n + col]) : T(0); /* a warp reads 32 consecutive entries */
        cmax = v > cmax ? v : cmax;
        for (int off = 16; off > 0; off /= 2) { /* the warp is one row: the maximum over its 32 columns */
            T o = __shfl_xor_sync(0xffffffffu, v, off);
            v = o > v ? o : v;
        }
        if (tx == 0 && row < n)
            atomicMax(&row_max[row], B::get(v));
    }
    part[ty][tx] = cmax;
    __syncthreads(); /* every warp's column maxima stored before warp 0 combines them */
    if (ty == 0) {
        for (int w = 1; w < LINE_ROWS; w++)
            cmax = part[w][tx] > cmax ? part[w][tx] : cmax;
        if (col < n)
            atomicMax(&col_max[col], B::get(cmax));
    }
}

/* tol[j] = rtol * max(row j, column j); diag[j] = a_jj (the original). */
template <typename T>
__global__ void tolerance_kernel(const T *a, int n, T rtol, const typename bits_of<T>::type *row_max,
                                 const typename bits_of<T>::type *col_max, T *tol, T *diag)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    T r = bits_of<T>::back(row_max[j]), c = bits_of<T>::back(col_max[j]);
    tol[j] = rtol * (r > c ? r : c);
    diag[j] = a[(size_t)j * n + j];
}

/* Device buffers, kept between calls (one set per type). */
template <typename T> struct lu_work {
    T *tol, *diag;
    typename bits_of<T>::type *row_max, *col_max;
    int *status;
    int cap; /* the n they were allocated for */
};

template <typename T> static lu_work<T> &work_begin(const T *d_a, int n, double u)
{
    static lu_work<T> w = {};
    if (n > w.cap) {
        if (w.cap) {
            CUDA_CHECK(cudaFree(w.tol));
            CUDA_CHECK(cudaFree(w.diag));
            CUDA_CHECK(cudaFree(w.row_max));
            CUDA_CHECK(cudaFree(w.col_max));
            CUDA_CHECK(cudaFree(w.status));
        }
        CUDA_CHECK(cudaMalloc(&w.tol, (size_t)n * sizeof(T)));
        CUDA_CHECK(cudaMalloc(&w.diag, (size_t)n * sizeof(T)));
        CUDA_CHECK(cudaMalloc(&w.row_max, (size_t)n * sizeof *w.row_max));
        CUDA_CHECK(cudaMalloc(&w.col_max, (size_t)n * sizeof *w.col_max));
        CUDA_CHECK(cudaMalloc(&w.status, sizeof(int)));
        w.cap = n;
    }
    CUDA_CHECK(cudaMemsetAsync(w.status, 0, sizeof(int)));
    CUDA_CHECK(cudaMemsetAsync(w.row_max, 0, (size_t)n * sizeof *w.row_max)); /* 0 bits: +0.0 */
    CUDA_CHECK(cudaMemsetAsync(w.col_max, 0, (size_t)n * sizeof *w.col_max));
    int tiles = (n + LINE_TILE - 1) / LINE_TILE;
    line_max_kernel<T><<<dim3(tiles, tiles), dim3(LINE_TILE, LINE_ROWS)>>>(d_a, n, w.row_max, w.col_max);
    CUDA_CHECK_LAUNCH();
    tolerance_kernel<T><<<(n + THREADS - 1) / THREADS, THREADS>>>(d_a, n, (T)LU_PIVOT_RTOL(n, u), w.row_max,
                                                                  w.col_max, w.tol, w.diag);
    CUDA_CHECK_LAUNCH();
    return w;
}

/* The status word (the buffers stay for the next call). */
template <typename T> static int work_end(const lu_work<T> &w)
{
    int status;
    CUDA_CHECK(cudaMemcpy(&status, w.status, sizeof status, cudaMemcpyDeviceToHost));
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

/* ---- Part 2: blocked, the panel factored beside the update ------------------------- */
#define NB 128             /* panel width = the update's tile edge and inner dimension */
#define DIAG_THREADS 256   /* 16 x 16; in the sub-panel update thread (tx, ty) owns rows ty + 16 i, columns tx + 16 j */
#define DIAG_TX 16
#define DIAG_EACH 8        /* NB / DIAG_TX */
#ifndef DIAG_W
#define DIAG_W 16          /* sub-panel width: the columns one warp factors between two barriers (8 or 16) */
#endif
#define DIAG_LD (NB + 1)   /* the block's row stride in shared memory: a warp reading a column hits 32 banks */
#define DIAG_SMEM (NB * DIAG_LD * sizeof(float))
#define TRSM_THREADS 256   /* 8 warps, each 4 rows of L21 or 4 columns of U12 */
#define TRSM_LINES 32      /* rows (columns) per block */
#define FULL_MASK 0xffffffffu
static_assert(NB % DIAG_W == 0 && DIAG_W <= 32 && NB <= 4 * 32 && NB == DIAG_TX * DIAG_EACH,
              "a sub-panel's pivots lie in one warp's lanes 0 .. DIAG_W - 1, its rows in 4 per lane");
static_assert(NB * NB % DIAG_THREADS == 0, "the diagonal block's load: the same count of entries in every thread");

/* 1c. The trailing update of sub-panel [s, e) inside the diagonal block S:
 *     S[r][c] -= sum_{s <= p < e} S[r][p] S[p][c] for r, c >= e.  Thread
 *     (tx, ty) owns rows ty + 16 i and columns tx + 16 j; the groups
 *     i, j >= I0 = e / 16 are the ones that reach the region (the template
 *     fixes the loop bounds: acc stays in registers and no multiply is spent
 *     on groups wholly outside it).  With DIAG_W = 16 every entry of those
 *     groups is inside; with 8 the first group's rows or columns before e are
 *     computed but not stored. */
template <int I0> __device__ __forceinline__ void diag_update(float *S, int s, int e, int tx, int ty)
{
    const int G = DIAG_EACH - I0;
    float acc[G][G];
#pragma unroll
    for (int i = 0; i < G; i++)
#pragma unroll
        for (int j = 0; j < G; j++)
            acc[i][j] = 0.0f;
#pragma unroll 4
    for (int p = s; p < e; p++) {
        float l[G], u[G];
#pragma unroll
        for (int i = 0; i < G; i++) /* two rows per warp: broadcast reads */
            l[i] = S[(ty + DIAG_TX * (I0 + i)) * DIAG_LD + p];
#pragma unroll
        for (int j = 0; j < G; j++) /* 16 consecutive columns per warp */
            u[j] = S[p * DIAG_LD + tx + DIAG_TX * (I0 + j)];
#pragma unroll
        for (int i = 0; i < G; i++)
#pragma unroll
            for (int j = 0; j < G; j++)
                acc[i][j] = fmaf(l[i], u[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < G; i++) {
        int r = ty + DIAG_TX * (I0 + i);
#pragma unroll
        for (int j = 0; j < G; j++) {
            int c = tx + DIAG_TX * (I0 + j);
            if (r >= e && c >= e)
                S[r * DIAG_LD + c] -= acc[i][j];
        }
    }
}

/* Entry k (0 .. NB * NB / DIAG_THREADS - 1) of thread t when diag_kernel
 * loads the block: row r, column c; consecutive threads, consecutive
 * columns. */
__host__ __device__ inline void diag_entry(int t, int k, int *r, int *c)
{
    int x = t + k * DIAG_THREADS;
    *r = x / NB, *c = x % NB;
}

/* 1. Crout of the b x b diagonal block at (J, J), b <= NB, blocked inside
 *    the block: the whole NB x NB block sits in shared memory (outside b:
 *    the identity, whose factors are itself and whose pivots of 1 pass the
 *    test against a tolerance of 0 - so no step needs to know b), and for
 *    each sub-panel of DIAG_W columns [s, e):
 *    a. warp 0 factors the sub-panel, rows s .. NB - 1, in registers (lane
 *       q holds rows s + q + 32 i): pivot jj is lane jj's, passed round by a
 *       shuffle, the pivot row divided by it and taken off the rows below -
 *       no barrier per column, which is what made the block slow when all
 *       256 threads took part in every column (one barrier and a round trip
 *       through shared memory per column, 128 of them in a row);
 *    b. U's rows of the sub-panel right of it, U = L11^-1 A12 (L11 the
 *       sub-panel's DIAG_W x DIAG_W lower triangle): a thread per column,
 *       substitution down the DIAG_W rows;
 *    c. the rest of the block (rows and columns from e) -= L21 U12, inner
 *       dimension DIAG_W, all 256 threads (diag_update).
 *    Three barriers per sub-panel instead of DIAG_W.  The pivot of column
 *    jj is tested when all earlier columns' updates are in, as in the
 *    per-step Crout (only the order of the rounding differs); a rejected
 *    one sets the status, is never divided by, and every thread stops after
 *    the next barrier.  Then, for trsm_kernel: tri_u = U11 strictly above
 *    the diagonal, 0 elsewhere; tri_lt = L11 transposed strictly above it,
 *    1 / l_jj on it, 0 below (NB x NB each, 0 outside b).  256 threads of
 *    at most 128 registers (launch bounds) and 66 KB of shared memory: the
 *    block fits where one update block has finished. */
/* The block into S (the identity outside b) and its tolerances into stol.
 * Consecutive threads, consecutive columns; NB * NB / DIAG_THREADS = 64
 * entries per thread, a fixed count unrolled 16-fold so that 16 loads are
 * in flight at a time: the compiler's own choice, 4, made this 16 round
 * trips to memory one after another, at the head of the serial chain of
 * every panel. */
__device__ __forceinline__ void diag_load(float *S, float *stol, const float *a, int n, int J, int b,
                                          const float *tol, int t)
{
#pragma unroll 16
    for (int k = 0; k < NB * NB / DIAG_THREADS; k++) {
        int r, c;
        diag_entry(t, k, &r, &c);
        S[r * DIAG_LD + c] = r < b && c < b ? a[(size_t)(J + r) * n + J + c] : r == c ? 1.0f : 0.0f;
    }
    for (int i = t; i < NB; i += DIAG_THREADS)
        stol[i] = i < b ? tol[J + i] : 0.0f;
}

/* b. Column c = e + t of U12, rows s .. e - 1: substitution down the
 * sub-panel's unit lower triangle (its pivots' inverses in sinv). */
__device__ __forceinline__ void diag_solve_u12(float *S, const float *sinv, int s, int e, int t)
{
    int c = e + t;
    float x[DIAG_W];
#pragma unroll
    for (int r = 0; r < DIAG_W; r++)
        x[r] = S[(s + r) * DIAG_LD + c];
#pragma unroll
    for (int jj = 0; jj < DIAG_W; jj++) {
        x[jj] *= sinv[s + jj];
#pragma unroll
        for (int r = jj + 1; r < DIAG_W; r++)
            x[r] = fmaf(-S[(s + r) * DIAG_LD + s + jj], x[jj], x[r]);
    }
#pragma unroll
    for (int r = 0; r < DIAG_W; r++)
        S[(s + r) * DIAG_LD + c] = x[r];
}

/* c. The rest of the block, rows and columns from e: the first thread group
 * reaching them (a constant for diag_update's unrolled loops). */
__device__ __forceinline__ void diag_update_from(float *S, int s, int e, int tx, int ty)
{
    switch (e / DIAG_TX) {
    case 0: diag_update<0>(S, s, e, tx, ty); break;
    case 1: diag_update<1>(S, s, e, tx, ty); break;
    case 2: diag_update<2>(S, s, e, tx, ty); break;
    case 3: diag_update<3>(S, s, e, tx, ty); break;
    case 4: diag_update<4>(S, s, e, tx, ty); break;
    case 5: diag_update<5>(S, s, e, tx, ty); break;
    case 6: diag_update<6>(S, s, e, tx, ty); break;
    default: diag_update<7>(S, s, e, tx, ty); break;
    }
}

/* The factors back into a; with ok, tri_u and tri_lt for trsm_kernel. */
__device__ __forceinline__ void diag_store(const float *S, const float *sinv, float *a, int n, int J, int b, bool ok,
                                           float *tri_u, float *tri_lt, int t)
{
    for (int x = t; x < NB * NB; x += DIAG_THREADS) {
        int r = x / NB, c = x % NB;
        float v = S[r * DIAG_LD + c];
        bool in = r < b && c < b;
        if (in)
            a[(size_t)(J + r) * n + J + c] = v;
        if (ok)
            tri_u[x] = in && c > r ? v : 0.0f;
    }
    if (ok)
        for (int x = t; x < NB * NB; x += DIAG_THREADS) { /* tri_lt[c][r]: consecutive threads, consecutive rows r */
            int c = x / NB, r = x % NB;
            bool in = r < b && c < b;
            tri_lt[x] = in && r > c ? S[r * DIAG_LD + c] : in && r == c ? sinv[r] : 0.0f;
        }
}

__global__ void __launch_bounds__(DIAG_THREADS, 2)
    diag_kernel(float *a, int n, int J, int b, const float *tol, int *status, float *tri_u, float *tri_lt)
{
    extern __shared__ float S[]; /* NB x NB, rows DIAG_LD apart */
    __shared__ float stol[NB], sinv[NB];
    __shared__ int failed;
    if (*status != LU_OK) /* the same in every thread: the whole block leaves */
        return;
    int t = threadIdx.x, lane = t % 32, tx = t % DIAG_TX, ty = t / DIAG_TX;
    diag_load(S, stol, a, n, J, b, tol, t);
    if (t == 0)
        failed = 0;
    __syncthreads(); /* the block, stol and the flag in place */

    for (int s = 0; s < NB; s += DIAG_W) {
        int e = s + DIAG_W;
        if (t < 32) { /* a. warp 0: rows s + lane + 32 i (0 past NB, not stored), columns s .. e - 1 */
            float v[4][DIAG_W];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                int r = s + lane + 32 * i;
#pragma unroll
                for (int c = 0; c < DIAG_W; c++)
                    v[i][c] = r < NB ? S[r * DIAG_LD + s + c] : 0.0f;
            }
#pragma unroll
            for (int jj = 0; jj < DIAG_W; jj++) { /* unrolled: every register index is a constant */
                float p = __shfl_sync(FULL_MASK, v[0][jj], jj); /* row s + jj is lane jj's; the same p in every lane */
                if (!(fabsf(p) > stol[s + jj])) { /* uniform: the whole warp leaves the loop */
                    if (lane == 0) {
                        *status = J + s + jj + 1;
                        failed = 1;
                    }
                    break;
                }
                float inv = 1.0f / p;
                if (lane == 0)
                    sinv[s + jj] = inv;
                float u[DIAG_W]; /* row s + jj of U, columns after jj */
#pragma unroll
                for (int c = jj + 1; c < DIAG_W; c++)
                    u[c] = __shfl_sync(FULL_MASK, v[0][c], jj) * inv;
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    float l = i > 0 || lane > jj ? v[i][jj] : 0.0f; /* rows after s + jj only (l final) */
#pragma unroll
                    for (int c = jj + 1; c < DIAG_W; c++)
                        v[i][c] = fmaf(-l, u[c], v[i][c]);
                }
                if (lane == jj)
#pragma unroll
                    for (int c = jj + 1; c < DIAG_W; c++)
                        v[0][c] = u[c];
            }
#pragma unroll
            for (int i = 0; i < 4; i++) {
                int r = s + lane + 32 * i;
                if (r < NB)
#pragma unroll
                    for (int c = 0; c < DIAG_W; c++)
                        S[r * DIAG_LD + s + c] = v[i][c];
            }
        }
        __syncthreads(); /* the sub-panel (L11, L21, sinv) stored; `failed` final for this sub-panel */
        if (failed || e >= NB) /* the same in every thread */
            break;
        if (t < NB - e)
            diag_solve_u12(S, sinv, s, e, t);
        __syncthreads(); /* U12 stored before the update reads it */
        diag_update_from(S, s, e, tx, ty);
        __syncthreads(); /* updated before the next sub-panel reads it */
    }
    /* a rejected pivot: no solve follows, and 1 / 0 is never formed */
    diag_store(S, sinv, a, n, J, b, !failed, tri_u, tri_lt, t);
}

/* p[0 .. 3] into v, the first `valid` of them (0 past that): one 16-byte
 * access when all 4 are valid and `vec` (p is 16-byte aligned). */
__device__ __forceinline__ void load_4(const float *p, int valid, bool vec, float v[4])
{
    if (vec && valid >= 4) {
        float4 x = *(const float4 *)p;
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    } else {
#pragma unroll
        for (int j = 0; j < 4; j++)
            v[j] = j < valid ? p[j] : 0.0f;
    }
}

/* v into p[0 .. 3], the first `valid` of them only. */
__device__ __forceinline__ void store_4(float *p, int valid, bool vec, const float v[4])
{
    if (vec && valid >= 4) {
        *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (j < valid)
                p[j] = v[j];
    }
}

/* 2. For the panel at J, E = J + b < n.  blockIdx.y == 0: rows of L21,
 *    l_i = a_i U11^-1, forward substitution along the row: lane q holds
 *    columns 4q .. 4q + 3 of the warp's 4 rows; at column c the lane that
 *    holds it passes the (final) value round, and every lane takes its
 *    multiple of row c of U11 (0 up to column c) off its columns.
 *    blockIdx.y == 1: columns of U12, u_k = L11^-1 a_k, the same with rows:
 *    lane q holds rows 4q .. 4q + 3 of the warp's 4 columns; at row r the
 *    value is divided by l_rr and passed round, and every lane takes its
 *    multiple of column r of L11 (row r of tri_lt, 0 up to row r) off its
 *    rows; the lane holding row r keeps the quotient.  The triangle (tri_u
 *    or tri_lt, NB x NB) is staged in dynamic shared memory (64 KB).
 *    vec: 16-byte accesses of the matrix's rows are aligned (n % 4 == 0 and
 *    the array aligned; J and E are multiples of 4). */
__global__ void __launch_bounds__(TRSM_THREADS)
    trsm_kernel(float *a, int n, int J, int b, const float *tri_u, const float *tri_lt, const int *status, bool vec)
{
    extern __shared__ __align__(16) float tri[]; /* NB x NB */
    if (*status != LU_OK) /* uniform: the whole block leaves */
        return;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const float4 *src = (const float4 *)(blockIdx.y == 0 ? tri_u : tri_lt);
    for (int i = threadIdx.x; i < NB * NB / 4; i += TRSM_THREADS)
        ((float4 *)tri)[i] = src[i];
    __syncthreads(); /* the only barrier: every thread has reached it */
    int E = J + b;
    int first = E + blockIdx.x * TRSM_LINES + 4 * warp; /* the warp's first row (L21) or column (U12) */
    if (first >= n) /* the same in the whole warp: the shuffles below see all 32 lanes */
        return;
    float v[4][4];
    if (blockIdx.y == 0) {
        /* v[i][j]: row first + i, column J + 4 lane + j */
        int c0 = 4 * lane;
#pragma unroll
        for (int i = 0; i < 4; i++) /* rows past n, columns past b: 0 */
            load_4(a + (size_t)(first + i) * n + J + c0, first + i < n ? b - c0 : 0, vec, v[i]);
        for (int g = 0; g < NB / 4; g++) {
#pragma unroll
            for (int q = 0; q < 4; q++) {
                int c = 4 * g + q;
                if (c >= b) /* uniform */
                    break;
                float x[4];
#pragma unroll
                for (int i = 0; i < 4; i++)
                    x[i] = __shfl_sync(FULL_MASK, v[i][q], g);
                float4 u = *(const float4 *)&tri[c * NB + c0];
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    v[i][0] = fmaf(-x[i], u.x, v[i][0]);
                    v[i][1] = fmaf(-x[i], u.y, v[i][1]);
                    v[i][2] = fmaf(-x[i], u.z, v[i][2]);
                    v[i][3] = fmaf(-x[i], u.w, v[i][3]);
                }
            }
        }
#pragma unroll
        for (int i = 0; i < 4; i++)
            store_4(a + (size_t)(first + i) * n + J + c0, first + i < n ? b - c0 : 0, vec, v[i]);
    } else {
        /* v[q][j]: row J + 4 lane + q, column first + j */
        int r0 = 4 * lane;
#pragma unroll
        for (int q = 0; q < 4; q++) /* rows past b, columns past n: 0 */
            load_4(a + (size_t)(J + r0 + q) * n + first, r0 + q < b ? n - first : 0, vec, v[q]);
        for (int g = 0; g < NB / 4; g++) {
#pragma unroll
            for (int q = 0; q < 4; q++) {
                int r = 4 * g + q;
                if (r >= b) /* uniform */
                    break;
                float inv = tri[r * NB + r]; /* 1 / l_rr */
                float x[4];
#pragma unroll
                for (int j = 0; j < 4; j++)
                    x[j] = __shfl_sync(FULL_MASK, v[q][j], g) * inv;
                float4 l = *(const float4 *)&tri[r * NB + r0]; /* l_(4 lane + qq),r below row r, else 0 (or 1 / l_rr) */
                float lv[4] = {l.x, l.y, l.z, l.w};
#pragma unroll
                for (int qq = 0; qq < 4; qq++)
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        v[qq][j] = fmaf(-lv[qq], x[j], v[qq][j]);
                if (lane == g) /* row r itself: the quotient (its update above is overwritten) */
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        v[q][j] = x[j];
            }
        }
#pragma unroll
        for (int q = 0; q < 4; q++)
            store_4(a + (size_t)(J + r0 + q) * n + first, r0 + q < b ? n - first : 0, vec, v[q]);
    }
}

/* 3. C -= A B for up to two products in one launch, all three in the
 *    matrix, rows ld apart: lab 10's stretch kernel, its accumulators
 *    starting as C and the products subtracted (so C is read at the start,
 *    with step 0's operands, and only written at the end).  A
 *    block computes a BM x BN tile of A B, each of its 16 x 16 threads an
 *    8 x 8 block of it (rows 4 ty .. + 3 and 64 more, columns 4 tx .. + 3
 *    and 64 more: each group one 16-byte shared read, no bank conflicts), A's
 *    tile stored transposed; loads of the next BK-step go to registers
 *    during the multiply, then to the other shared buffer.  Blocks 0 ..
 *    tiles0 - 1 take the first product's tiles row by row, the rest the
 *    second's.  In place is safe: a block reads A and B outside its own C
 *    tile (the panel's L21 and U12), and no two blocks share a C tile. */
#define BM 128
#define BN 128
#define BK 16
#define AS_STRIDE (BM + 4) /* padding: fewer bank conflicts storing A transposed; rows stay 16-byte aligned */

struct gemm_job {
    const float *a, *b;
    float *c;
    int m, n, k;              /* C is m x n, the inner dimension k; m = 0: nothing */
    bool a_vec, b_vec, c_vec; /* 16-byte accesses of its rows are aligned */
};

/* A's tile, BM x BK: thread t loads row t / 4 and row t / 4 + 64, columns
 * 4 (t % 4) .. + 3; outside A: 0. */
__device__ __forceinline__ void load_a(const gemm_job &g, int ld, int row0, int p0, int t, float r[2][4])
{
    int p = p0 + (t & 3) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int row = row0 + (t >> 2) + 64 * h;
        const float *src = g.a + (size_t)row * ld + p;
        if (g.a_vec && row < g.m && p + 3 < g.k) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = row < g.m && p + q < g.k ? src[q] : 0.0f;
        }
    }
}

/* B's tile, BK x BN: thread t loads rows t / 32 and t / 32 + 8, columns
 * 4 (t % 32) .. + 3; outside B: 0. */
__device__ __forceinline__ void load_b(const gemm_job &g, int ld, int p0, int col0, int t, float r[2][4])
{
    int col = col0 + (t & 31) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int p = p0 + (t >> 5) + 8 * h;
        const float *src = g.b + (size_t)p * ld + col;
        if (g.b_vec && p < g.k && col + 3 < g.n) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = p < g.k && col + q < g.n ? src[q] : 0.0f;
        }
    }
}

__device__ __forceinline__ void store_tiles(float (*as)[AS_STRIDE], float (*bs)[BN], int t, const float ra[2][4],
                                            const float rb[2][4])
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
#pragma unroll
        for (int q = 0; q < 4; q++)
            as[(t & 3) * 4 + q][(t >> 2) + 64 * h] = ra[h][q]; /* transposed */
        *(float4 *)&bs[(t >> 5) + 8 * h][(t & 31) * 4] = make_float4(rb[h][0], rb[h][1], rb[h][2], rb[h][3]);
    }
}

/* Block `bid` of an update launch: the first product's tiles (tiles0 of
 * them, its n0 columns in tiles of BN) row by row, then the second's (n1
 * columns); row0, col0: the tile's corner inside its product. */
__host__ __device__ inline void tile_of_block(int bid, int tiles0, int n0, int n1, bool *second, int *row0, int *col0)
{
    *second = bid >= tiles0;
    int tile_no = *second ? bid - tiles0 : bid;
    int col_tiles = ((*second ? n1 : n0) + BN - 1) / BN; /* >= 1: only non-empty products get blocks */
    *row0 = tile_no / col_tiles * BM, *col0 = tile_no % col_tiles * BN;
}

/* Thread t's part of a BM x BN tile of C: rows tile_row(t, 0 .. 7), each
 * with the 4 columns from tile_col(t, 0) and from tile_col(t, 1) - the
 * rows and columns whose A and B values it reads from shared memory. */
__host__ __device__ inline int tile_row(int t, int i) { return (i < 4 ? 0 : 64) + (t / 16) * 4 + i % 4; }
__host__ __device__ inline int tile_col(int t, int h) { return 64 * h + (t % 16) * 4; }

/* Of the 4 columns from `col` in row `row` of an m x n C: how many are
 * inside it (load_4 and store_4 touch that many; <= 0: none). */
__host__ __device__ inline int c_valid(int row, int col, int m, int n) { return row < m ? n - col : 0; }

/* The thread's 8 x 8 entries of C at (row0, col0) into acc (0 outside C), or
 * acc back into C (rows past m and columns past n skipped). */
template <bool STORE> __device__ __forceinline__ void c_entries(const gemm_job &g, int ld, int row0, int col0, int t,
                                                               float (&acc)[8][8])
{
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + tile_row(t, i);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = col0 + tile_col(t, h);
            if (STORE)
                store_4(g.c + (size_t)row * ld + col, c_valid(row, col, g.m, g.n), g.c_vec, &acc[i][4 * h]);
            else
                load_4(g.c + (size_t)row * ld + col, c_valid(row, col, g.m, g.n), g.c_vec, &acc[i][4 * h]);
        }
    }
}

/* acc -= the step's A tile (transposed in as) times its B tile, for the
 * thread's rows (ty) and columns (tx): 4 float4 reads of shared memory per p. */
__device__ __forceinline__ void multiply_step(const float (*as)[AS_STRIDE], const float (*bs)[BN], int tx, int ty,
                                              float (&acc)[8][8])
{
#pragma unroll
    for (int p = 0; p < BK; p++) {
        float x[8], y[8];
        float4 v;
        v = *(const float4 *)&as[p][ty * 4];
        x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
        v = *(const float4 *)&as[p][64 + ty * 4];
        x[4] = v.x, x[5] = v.y, x[6] = v.z, x[7] = v.w;
        v = *(const float4 *)&bs[p][tx * 4];
        y[0] = v.x, y[1] = v.y, y[2] = v.z, y[3] = v.w;
        v = *(const float4 *)&bs[p][64 + tx * 4];
        y[4] = v.x, y[5] = v.y, y[6] = v.z, y[7] = v.w;
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < 8; j++)
                acc[i][j] = fmaf(-x[i], y[j], acc[i][j]);
    }
}

__global__ void __launch_bounds__(THREADS, 2) update_kernel(gemm_job j0, gemm_job j1, int tiles0, int ld,
                                                            const int *status)
{
    __shared__ __align__(16) float As[2][BK][AS_STRIDE];
    __shared__ __align__(16) float Bs[2][BK][BN];
    bool second;
    int row0, col0;
    tile_of_block(blockIdx.x, tiles0, j0.n, j1.n, &second, &row0, &col0);
    const gemm_job g = second ? j1 : j0; /* not an array indexed at run time: that would live in local memory */
    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    /* The whole block leaves or none of it: the status is the same in every thread. */
    if (*status != LU_OK || row0 >= g.m || col0 >= g.n)
        return;
    int ktiles = (g.k + BK - 1) / BK; /* uniform: the branches on it are too */

    float ra[2][4], rb[2][4];
    if (ktiles > 0) {
        load_a(g, ld, row0, 0, t, ra);
        load_b(g, ld, 0, col0, t, rb);
    }
    /* acc starts as the thread's 8 x 8 entries of C (0 outside it) and the
     * products are taken off it, so the end only stores.  Read-modify-write
     * at the end cost 16 round trips to memory one after another (the
     * compiler cannot move a load of C above a store to C that may alias
     * it), with the multiply done and nothing left to hide them; here the
     * 16 loads are in flight together, beside step 0's loads. */
    float acc[8][8];
    c_entries<false>(g, ld, row0, col0, t, acc);
    if (ktiles > 0)
        store_tiles(As[0], Bs[0], t, ra, rb);
    __syncthreads(); /* step 0 stored before anyone reads it */

    for (int kt = 0; kt < ktiles; kt++) {
        int cur = kt & 1;
        if (kt + 1 < ktiles) { /* the next step's loads are in flight during the multiply */
            load_a(g, ld, row0, (kt + 1) * BK, t, ra);
            load_b(g, ld, (kt + 1) * BK, col0, t, rb);
        }
        multiply_step(As[cur], Bs[cur], tx, ty, acc);
        /* The other buffer was last read in the previous iteration, before
         * the barrier that ended it. */
        if (kt + 1 < ktiles)
            store_tiles(As[cur ^ 1], Bs[cur ^ 1], t, ra, rb);
        __syncthreads(); /* stored before the next iteration reads it; read before the one after overwrites this one */
    }

    c_entries<true>(g, ld, row0, col0, t, acc); /* C's entries only */
}

/* ---- host side: the plan, streams, phases ---- */
/* A product's place: rows [r0, r0 + m) x columns [p0, p0 + k) times rows
 * [p0, p0 + k) x columns [c0, c0 + n), subtracted from rows [r0, r0 + m) x
 * columns [c0, c0 + n) of the matrix; m = n = 0: empty. */
struct prod {
    int r0, c0, p0, m, n, k;
};

static prod prod_at(int r0, int c0, int p0, int m, int n, int k)
{
    bool empty = m <= 0 || n <= 0;
    prod p = {r0, c0, p0, empty ? 0 : m, empty ? 0 : n, k};
    return p;
}

static int prod_tiles(const prod &p) { return p.m ? ((p.m + BM - 1) / BM) * ((p.n + BN - 1) / BN) : 0; }

static gemm_job job_of(float *a, int n_all, const prod &p)
{
    gemm_job g;
    g.a = a + (size_t)p.r0 * n_all + p.p0;
    g.b = a + (size_t)p.p0 * n_all + p.c0;
    g.c = a + (size_t)p.r0 * n_all + p.c0;
    g.m = p.m, g.n = p.n, g.k = p.k;
    bool rows16 = n_all % 4 == 0;
    g.a_vec = rows16 && (uintptr_t)g.a % 16 == 0;
    g.b_vec = rows16 && (uintptr_t)g.b % 16 == 0;
    g.c_vec = rows16 && (uintptr_t)g.c % 16 == 0;
    return g;
}

/* The factorization as a list of steps on two streams: MAIN (the default
 * stream) and SIDE (the panel's), ordered by two events. */
enum { OP_RECORD, OP_WAIT, OP_DIAG, OP_TRSM, OP_UPDATE };
enum { MAIN, SIDE };
enum { EV_MAIN_DONE, EV_SIDE_DONE, EVENTS };
struct lu_op {
    int kind, stream;
    int event;   /* OP_RECORD, OP_WAIT */
    int J, b;    /* OP_DIAG, OP_TRSM: the panel's columns [J, J + b) */
    prod p[2];   /* OP_UPDATE: one or two products in one launch */
};

static void plan_add(lu_op *ops, int cap, int *count, int kind, int stream, int event, int J, int b, prod p0,
                     prod p1)
{
    if (*count < cap) {
        lu_op o = {kind, stream, event, J, b, {p0, p1}};
        ops[*count] = o;
    }
    (*count)++;
}

/* The plan for an n x n matrix, panels J = 0, NB, 2 NB, ... (E = J + NB,
 * E2 = the end of the next panel).  SIDE starts after everything MAIN has
 * queued (the caller's A, the tolerances) and factors panel 0; then for
 * each J with columns after it:
 *   MAIN: wait for SIDE's factors of panel J; A[E2:, E2:] -= L21 U12 (the
 *         rest of the trailing matrix); record main_done;
 *   SIDE: wait for MAIN's rest of the previous panel (it wrote the entries
 *         updated next); A[E:, E:E2] and A[E:E2, E2:] -= L21 U12 (the next
 *         panel's columns and rows); factor panel E; record side_done.
 * MAIN finally waits for SIDE.  So panel E is factored while the rest is
 * updated: they write disjoint entries (panel E's columns and rows against
 * the rows and columns from E2), and both only read panel J's L21 and U12
 * (tests/solutions/test_lab09_stretch.cu checks this for many n).  Each
 * wait is issued before its event is recorded again.  Writes the first cap
 * steps to ops; returns how many there are. */
static int lu_plan(int n, lu_op *ops, int cap)
{
    int count = 0;
    prod none = prod_at(0, 0, 0, 0, 0, 0);
    if (n <= 0)
        return 0;
    plan_add(ops, cap, &count, OP_RECORD, MAIN, EV_MAIN_DONE, 0, 0, none, none);
    plan_add(ops, cap, &count, OP_WAIT, SIDE, EV_MAIN_DONE, 0, 0, none, none);
    int b0 = n < NB ? n : NB;
    plan_add(ops, cap, &count, OP_DIAG, SIDE, 0, 0, b0, none, none);
    if (b0 < n)
        plan_add(ops, cap, &count, OP_TRSM, SIDE, 0, 0, b0, none, none);
    plan_add(ops, cap, &count, OP_RECORD, SIDE, EV_SIDE_DONE, 0, 0, none, none);
    for (int J = 0; J + NB < n; J += NB) {
        int E = J + NB, E2 = E + NB < n ? E + NB : n;
        plan_add(ops, cap, &count, OP_WAIT, MAIN, EV_SIDE_DONE, 0, 0, none, none);
        if (J > 0)
            plan_add(ops, cap, &count, OP_WAIT, SIDE, EV_MAIN_DONE, 0, 0, none, none);
        prod rest = prod_at(E2, E2, J, n - E2, n - E2, NB);
        if (rest.m)
            plan_add(ops, cap, &count, OP_UPDATE, MAIN, 0, 0, 0, rest, none);
        plan_add(ops, cap, &count, OP_RECORD, MAIN, EV_MAIN_DONE, 0, 0, none, none);
        plan_add(ops, cap, &count, OP_UPDATE, SIDE, 0, 0, 0, prod_at(E, E, J, n - E, E2 - E, NB),
                 prod_at(E, E2, J, E2 - E, n - E2, NB));
        plan_add(ops, cap, &count, OP_DIAG, SIDE, 0, E, E2 - E, none, none);
        if (E2 < n)
            plan_add(ops, cap, &count, OP_TRSM, SIDE, 0, E, E2 - E, none, none);
        plan_add(ops, cap, &count, OP_RECORD, SIDE, EV_SIDE_DONE, 0, 0, none, none);
    }
    plan_add(ops, cap, &count, OP_WAIT, MAIN, EV_SIDE_DONE, 0, 0, none, none);
    return count;
}

/* The panel's stream (created with the device's highest priority: a hint
 * to the block scheduler to place its waiting blocks first wherever an
 * update block finishes; nothing running is preempted), the two
 * events that order it against the default stream, and the triangles'
 * workspace: created on the first call, kept. */
static cudaStream_t g_side;
static cudaEvent_t g_events[EVENTS];
static float *g_tri;

static void blocked_setup(void)
{
    if (g_tri)
        return;
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&g_side, cudaStreamNonBlocking, greatest));
    for (int e = 0; e < EVENTS; e++)
        CUDA_CHECK(cudaEventCreateWithFlags(&g_events[e], cudaEventDisableTiming));
    CUDA_CHECK(cudaFuncSetAttribute(diag_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)DIAG_SMEM));
    CUDA_CHECK(cudaFuncSetAttribute(trsm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)(NB * NB * sizeof(float))));
    CUDA_CHECK(cudaMalloc(&g_tri, 2 * NB * NB * sizeof(float)));
}

/* lu_stretch_phases only: every step on the default stream, in the plan's
 * order, a pair of timing events around each phase. */
enum { PH_TOL, PH_DIAG, PH_TRSM, PH_UPDATE, PH_KINDS };
typedef struct {
    cudaEvent_t *ev; /* 2 per phase */
    int *kind;
    int count, cap;
} phase_log;

static void phase_begin(phase_log *log)
{
    if (log && log->count < log->cap)
        CUDA_CHECK(cudaEventRecord(log->ev[2 * log->count], 0));
}

static void phase_end(phase_log *log, int kind)
{
    if (log && log->count < log->cap) {
        CUDA_CHECK(cudaEventRecord(log->ev[2 * log->count + 1], 0));
        log->kind[log->count++] = kind;
    }
}

/* One step of the plan. */
static void run_op(const lu_op &o, float *a, int n, const lu_work<float> &w, phase_log *log)
{
    cudaStream_t s = log || o.stream == MAIN ? 0 : g_side;
    bool vec = n % 4 == 0 && (uintptr_t)a % 16 == 0;
    switch (o.kind) {
    case OP_RECORD:
        if (!log)
            CUDA_CHECK(cudaEventRecord(g_events[o.event], s));
        break;
    case OP_WAIT:
        if (!log)
            CUDA_CHECK(cudaStreamWaitEvent(s, g_events[o.event], 0));
        break;
    case OP_DIAG:
        phase_begin(log);
        diag_kernel<<<1, DIAG_THREADS, DIAG_SMEM, s>>>(a, n, o.J, o.b, w.tol, w.status, g_tri, g_tri + NB * NB);
        CUDA_CHECK_LAUNCH();
        phase_end(log, PH_DIAG);
        break;
    case OP_TRSM:
        phase_begin(log);
        trsm_kernel<<<dim3((n - o.J - o.b + TRSM_LINES - 1) / TRSM_LINES, 2), TRSM_THREADS, NB * NB * sizeof(float),
                      s>>>(a, n, o.J, o.b, g_tri, g_tri + NB * NB, w.status, vec);
        CUDA_CHECK_LAUNCH();
        phase_end(log, PH_TRSM);
        break;
    case OP_UPDATE: {
        int t0 = prod_tiles(o.p[0]), t1 = prod_tiles(o.p[1]);
        if (t0 + t1 == 0)
            break;
        phase_begin(log);
        update_kernel<<<t0 + t1, THREADS, 0, s>>>(job_of(a, n, o.p[0]), job_of(a, n, o.p[1]), t0, n, w.status);
        CUDA_CHECK_LAUNCH();
        phase_end(log, PH_UPDATE);
        break;
    }
    }
}

static int blocked(float *a, int n, phase_log *log)
{
    if (n <= 0)
        return LU_OK;
    blocked_setup();
    int count = lu_plan(n, NULL, 0);
    lu_op *ops = (lu_op *)malloc((size_t)count * sizeof *ops);
    if (!ops) {
        fprintf(stderr, "lu_crout_blocked: no memory for the plan of %d steps\n", count);
        exit(1);
    }
    lu_plan(n, ops, count);
    phase_begin(log);
    lu_work<float> &w = work_begin(a, n, LU_U_FLOAT);
    phase_end(log, PH_TOL);
    for (int i = 0; i < count; i++)
        run_op(ops[i], a, n, w, log);
    free(ops);
    return work_end(w);
}

int lu_crout_blocked(float *d_a, int n) { return blocked(d_a, n, NULL); }

/* For the bench only (make bench, lab09): the same factorization on one
 * stream, no overlap, with the milliseconds of each phase summed over the
 * panels: ms[0] the pivot tolerances, ms[1] the diagonal blocks, ms[2] the
 * triangular solves, ms[3] the updates.  Returns the status. */
extern "C" int lu_stretch_phases(float *d_a, int n, float ms[PH_KINDS])
{
    phase_log log;
    log.cap = 4 * (n / NB + 2);
    log.count = 0;
    log.ev = (cudaEvent_t *)malloc(2 * log.cap * sizeof *log.ev);
    log.kind = (int *)malloc(log.cap * sizeof *log.kind);
    if (!log.ev || !log.kind) {
        free(log.ev), free(log.kind);
        return -1;
    }
    for (int i = 0; i < 2 * log.cap; i++)
        CUDA_CHECK(cudaEventCreate(&log.ev[i]));
    int status = blocked(d_a, n, &log);
    for (int k = 0; k < PH_KINDS; k++)
        ms[k] = 0.0f;
    for (int i = 0; i < log.count; i++) {
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, log.ev[2 * i], log.ev[2 * i + 1]));
        ms[log.kind[i]] += t;
    }
    for (int i = 0; i < 2 * log.cap; i++)
        CUDA_CHECK(cudaEventDestroy(log.ev[i]));
    free(log.ev), free(log.kind);
    return status;
}
