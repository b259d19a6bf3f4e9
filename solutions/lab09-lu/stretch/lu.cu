/* lab09 stretch exercise - blocked LU whose trailing update is a
 * register-blocked matrix multiply (handout, "How far from the library?").
 * Same interface, storage, pivot test and status word as the reference
 * solution (../lu.cu); Part 1 (lu_crout, lu_crout_double) and the blocked
 * version's diagonal-block and panel kernels are the reference's.  What
 * changes:
 *
 *   1. Two panel widths.  Panels of NB = 32 columns are factored as in the
 *      reference (diagonal block, then L21 and U12), but the trailing matrix
 *      beyond an outer panel of NB2 = 64 columns is updated once per outer
 *      panel, A22 -= L21 U12 with inner dimension 64 instead of twice with
 *      32: each entry of A22 is read and written half as often.  Inside an
 *      outer panel only the L-shaped part that its next inner panels read -
 *      the rows of the outer panel (all columns to the right) and the columns
 *      of the outer panel (all rows below) - is updated after each inner
 *      panel; the rest of the inner panel's update waits for the outer one.
 *      Each entry still gets every product l_ik u_kj, k < min(i, j), once.
 *   2. Every update, L-shaped or outer, is lab 10's stretch kernel with a
 *      minus sign: 128 x 128 tiles of A22 per block of 16 x 16 threads, an
 *      8 x 8 block in registers per thread, 16-byte loads where proven
 *      aligned, two shared buffers (one barrier per step of 16 along k).
 *   3. The pivot tolerances (largest |a| of each row and column) are found in
 *      one coalesced pass: a block per 32 x 32 tile takes the maxima of its
 *      rows and columns and merges them with atomicMax (non-negative floats
 *      order like their bit patterns as unsigned integers).  The reference's
 *      one thread per line reads a row with a stride of n - at n = 4096 that
 *      alone costs about as much as several panels.
 *   4. The device buffers (tolerances, status word) are kept between calls
 *      and grown when n grows, instead of cudaMalloc/cudaFree every call.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "lu.h"

#define THREADS 256
#define NB 32          /* inner panel width = the diagonal block */
#define NB2 64         /* outer panel width: the inner dimension of the big update */
#define PANEL_THREADS 64
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


/* 3. C -= A B for up to two products at once (blockIdx.z picks one), all
 *    three in the matrix, rows ld apart: lab 10's stretch kernel with a
 *    minus sign.  A block computes a BM x BN tile of A B, each of its 16 x 16
 *    threads an 8 x 8 block of it (rows 4 ty .. + 3 and 64 more, columns
 *    4 tx .. + 3 and 64 more: each group one 16-byte shared read, no bank
 *    conflicts), A's tile stored transposed; loads of the next BK-step go to
 *    registers during the multiply, then to the other shared buffer. */
#define BM 128
#define BN 128
#define BK 16
#define AS_STRIDE (BM + 4) /* padding: fewer bank conflicts storing A transposed; rows stay 16-byte aligned */

struct gemm_job {
    const float *a, *b;
    float *c;
    int m, n, k;             /* C is m x n, the inner dimension k; m = 0: nothing */
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

__global__ void __launch_bounds__(THREADS, 2) update_kernel(gemm_job j0, gemm_job j1, int ld, const int *status)
{
    __shared__ __align__(16) float As[2][BK][AS_STRIDE];
    __shared__ __align__(16) float Bs[2][BK][BN];
    const gemm_job g = blockIdx.z ? j1 : j0; /* not an array indexed at run time: that would live in local memory */
    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    /* The whole block leaves or none of it: the status and the tile's place
     * are the same in every thread (the grid covers the larger product). */
    if (*status != LU_OK || row0 >= g.m || col0 >= g.n)
        return;
    int tiles = (g.k + BK - 1) / BK; /* uniform: the branches on it are too */

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;

    float ra[2][4], rb[2][4];
    if (tiles > 0) {
        load_a(g, ld, row0, 0, t, ra);
        load_b(g, ld, 0, col0, t, rb);
        store_tiles(As[0], Bs[0], t, ra, rb);
    }
    __syncthreads(); /* step 0 stored before anyone reads it */

    for (int tile = 0; tile < tiles; tile++) {
        int cur = tile & 1;
        if (tile + 1 < tiles) { /* the next step's loads are in flight during the multiply */
            load_a(g, ld, row0, (tile + 1) * BK, t, ra);
            load_b(g, ld, (tile + 1) * BK, col0, t, rb);
        }
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float a[8], b[8];
            float4 v;
            v = *(const float4 *)&As[cur][p][ty * 4];
            a[0] = v.x, a[1] = v.y, a[2] = v.z, a[3] = v.w;
            v = *(const float4 *)&As[cur][p][64 + ty * 4];
            a[4] = v.x, a[5] = v.y, a[6] = v.z, a[7] = v.w;
            v = *(const float4 *)&Bs[cur][p][tx * 4];
            b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
            v = *(const float4 *)&Bs[cur][p][64 + tx * 4];
            b[4] = v.x, b[5] = v.y, b[6] = v.z, b[7] = v.w;
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] += a[i] * b[j];
        }
        /* The other buffer was last read in the previous iteration, before
         * the barrier that ended it. */
        if (tile + 1 < tiles)
            store_tiles(As[cur ^ 1], Bs[cur ^ 1], t, ra, rb);
        __syncthreads(); /* stored before the next iteration reads it; read before the one after overwrites this one */
    }

#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (row >= g.m)
            continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = col0 + 64 * h + tx * 4;
            float *dst = g.c + (size_t)row * ld + col;
            const float *v = &acc[i][4 * h];
            if (g.c_vec && col + 3 < g.n) {
                float4 x = *(float4 *)dst;
                x.x -= v[0], x.y -= v[1], x.z -= v[2], x.w -= v[3];
                *(float4 *)dst = x;
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (col + q < g.n)
                        dst[q] -= v[q];
            }
        }
    }
}

/* The product of rows [r0, r0 + m) x columns [p0, p0 + k) and rows
 * [p0, p0 + k) x columns [c0, c0 + n), subtracted from rows [r0, r0 + m) x
 * columns [c0, c0 + n) of the n_all x n_all matrix a; empty when m or n <= 0. */
static gemm_job job_at(float *a, int n_all, int r0, int c0, int p0, int m, int n, int k)
{
    gemm_job g;
    g.a = a + (size_t)r0 * n_all + p0;
    g.b = a + (size_t)p0 * n_all + c0;
    g.c = a + (size_t)r0 * n_all + c0;
    g.m = m > 0 && n > 0 ? m : 0, g.n = n > 0 ? n : 0, g.k = k;
    bool rows16 = n_all % 4 == 0;
    g.a_vec = rows16 && (uintptr_t)g.a % 16 == 0;
    g.b_vec = rows16 && (uintptr_t)g.b % 16 == 0;
    g.c_vec = rows16 && (uintptr_t)g.c % 16 == 0;
    return g;
}

/* One launch for one or two products (two: blockIdx.z picks; the grid covers
 * the larger one, the other's extra blocks leave at once). */
static void update(gemm_job j0, gemm_job j1, int two, int ld, const int *status)
{
    int m = j0.m, n = j0.n;
    if (two) {
        m = j1.m > m ? j1.m : m;
        n = j1.n > n ? j1.n : n;
    }
    if (m == 0 || n == 0)
        return;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM, two ? 2 : 1);
    update_kernel<<<grid, THREADS>>>(j0, j1, ld, status);
    CUDA_CHECK_LAUNCH();
}

int lu_crout_blocked(float *d_a, int n)
{
    if (n <= 0)
        return LU_OK;
    lu_work<float> &w = work_begin(d_a, n, LU_U_FLOAT);
    for (int J = 0; J < n; J += NB2) {
        int E = J + NB2 < n ? J + NB2 : n; /* the outer panel: columns [J, E) */
        for (int jj = J; jj < E; jj += NB) {
            int b = n - jj < NB ? n - jj : NB, s = jj + b, rest = n - s;
            diag_block_kernel<<<1, dim3(NB, NB)>>>(d_a, n, jj, b, w.tol, w.status);
            CUDA_CHECK_LAUNCH();
            if (rest == 0)
                break;
            panel_kernel<<<dim3((rest + PANEL_THREADS - 1) / PANEL_THREADS, 2), PANEL_THREADS>>>(d_a, n, jj, b,
                                                                                                 w.status);
            CUDA_CHECK_LAUNCH();
            /* What the outer panel's next inner panels read: its rows [s, E),
             * every column from s on, and its columns [s, E), every row from E on. */
            gemm_job rows = job_at(d_a, n, s, s, jj, E - s, n - s, b);
            gemm_job cols = job_at(d_a, n, E, s, jj, n - E, E - s, b);
            update(rows, cols, 1, n, w.status);
        }
        if (E < n) /* the rest of the trailing matrix, all NB2 columns of the outer panel at once */
            update(job_at(d_a, n, E, E, J, n - E, n - E, E - J), gemm_job(), 0, n, w.status);
    }
    return work_end(w);
}
