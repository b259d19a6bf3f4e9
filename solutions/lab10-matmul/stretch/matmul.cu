/* lab10 stretch exercise - register-blocked matrix multiply (handout, "How far
 * from the library?").  Same interface as the reference solution
 * (../matmul.cu); the tile walk along k is the same, what changes is how much
 * each thread does with a tile, and which block takes which tile:
 *
 *   - a block of 16 x 16 threads computes a 128 x 128 tile of C, each thread
 *     an 8 x 8 block of it, kept in 64 registers (register blocking): per step
 *     along k it reads 8 values of A and 8 of B from shared memory for 64
 *     multiply-adds, where the reference reads 2 for 1;
 *   - a thread's 8 rows are two groups of 4 (rows 4 ty .. 4 ty + 3 and 64
 *     more), its 8 columns likewise: each group is one 16-byte shared-memory
 *     read, and the 16 threads of a half-warp read 64 consecutive words of a
 *     row of Bs (no bank conflicts), a warp's reads of As are broadcasts;
 *   - the tile of A is stored transposed (As[p][i]), so that a thread's 4
 *     rows of A at step p are consecutive too;
 *   - global loads are 16 bytes (float4) wherever they are proven aligned and
 *     inside the matrix (the row length a multiple of 4 and the array 16-byte
 *     aligned), one float at a time otherwise, elements outside the matrix
 *     loaded as 0;
 *   - two shared buffers: the next tile is loaded from global memory into
 *     registers while the current one is multiplied, then stored into the
 *     other buffer - one barrier per tile instead of two;
 *   - thin last column: when n leaves a last column of tiles at most THIN_BN
 *     wide (n = 2049 leaves 1 column), a full 128 x 128 block there would
 *     cost as much as any other for almost no work, and on an H100 (132 SMs,
 *     two blocks each) 16 x 17 = 272 blocks are one wave and a bit: the
 *     last few blocks would run alone for most of a second wave.  Those
 *     tiles are 128 x 32 instead (each thread 8 x 2), about a third of the
 *     time, and their blocks come last, so they fill the slots that the
 *     full tiles leave free and finish within the first wave;
 *   - block order: one-dimensional grid, the full tiles in groups of
 *     GROUP_M row tiles, walked down each column of tiles within a group, so
 *     that blocks running at the same time share strips of A and B in L2
 *     instead of all of them streaming the whole of B.
 * Every thread takes part in every load and barrier; only the stores to C
 * are guarded.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

#define BM 128           /* rows of C per block */
#define BN 128           /* columns of C per block */
#define BK 16            /* the step along k */
#define THREADS 256      /* 16 x 16 */
#define AS_STRIDE (BM + 4) /* padding: fewer bank conflicts storing A transposed; rows stay 16-byte aligned */
#define THIN_BN 32      /* a last column of tiles at most this wide is computed by thin blocks */
#define GROUP_M 16       /* row tiles per group in the block order (L2 reuse) */

/* A's tile, BM x BK: thread t loads 4 consecutive elements of row t / 4 and
 * of row t / 4 + 64, columns 4 (t % 4) .. + 3. */
__device__ __forceinline__ void load_a(const float *A, int m, int k, bool vec, int row0, int p0, int t, float r[2][4])
{
    int p = p0 + (t & 3) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int row = row0 + (t >> 2) + 64 * h;
        const float *src = A + (size_t)row * k + p;
        if (vec && row < m && p + 3 < k) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = row < m && p + q < k ? src[q] : 0.0f;
        }
    }
}

/* B's tile, BK x BN: thread t loads columns 4 (t % 32) .. + 3 of rows t / 32
 * and t / 32 + 8. */
__device__ __forceinline__ void load_b(const float *B, int k, int n, bool vec, int p0, int col0, int t, float r[2][4])
{
    int col = col0 + (t & 31) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int p = p0 + (t >> 5) + 8 * h;
        const float *src = B + (size_t)p * n + col;
        if (vec && p < k && col + 3 < n) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = p < k && col + q < n ? src[q] : 0.0f;
        }
    }
}

/* A thin tile's B, BK x THIN_BN: thread t loads columns 2 (t % 16) and + 1
 * of row t / 16 (one float at a time: such a tile is rare and small). */
__device__ __forceinline__ void load_b_thin(const float *B, int k, int n, int p0, int col0, int t, float r[2])
{
    int p = p0 + (t >> 4), col = col0 + (t & 15) * 2;
    const float *src = B + (size_t)p * n + col;
#pragma unroll
    for (int q = 0; q < 2; q++)
        r[q] = p < k && col + q < n ? src[q] : 0.0f;
}

__device__ __forceinline__ void store_a(float (*as)[AS_STRIDE], int t, const float ra[2][4])
{
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int q = 0; q < 4; q++)
            as[(t & 3) * 4 + q][(t >> 2) + 64 * h] = ra[h][q]; /* transposed */
}

/* The tile of B in registers: a full tile's 8 floats per thread, a thin one's 2. */
template <bool THIN> struct b_regs {
    float r[2][4];
};
template <> struct b_regs<true> {
    float r[2];
};

template <bool THIN>
__device__ __forceinline__ void load_b_any(const float *B, int k, int n, bool vec, int p0, int col0, int t,
                                           b_regs<THIN> &rb)
{
    if constexpr (THIN)
        load_b_thin(B, k, n, p0, col0, t, rb.r);
    else
        load_b(B, k, n, vec, p0, col0, t, rb.r);
}

template <bool THIN> __device__ __forceinline__ void store_b(float (*bs)[BN], int t, const b_regs<THIN> &rb)
{
    if constexpr (THIN) {
        *(float2 *)&bs[t >> 4][(t & 15) * 2] = make_float2(rb.r[0], rb.r[1]);
    } else {
#pragma unroll
        for (int h = 0; h < 2; h++)
            *(float4 *)&bs[(t >> 5) + 8 * h][(t & 31) * 4] =
                make_float4(rb.r[h][0], rb.r[h][1], rb.r[h][2], rb.r[h][3]);
    }
}

/* One tile of C: rows row0 .., columns col0 .. (BN of them, or THIN_BN),
 * through the kernel's two shared buffers As and Bs (declared there: the two
 * kinds of tile share them, a thin one uses the first THIN_BN columns of Bs). */
template <bool THIN>
__device__ __forceinline__ void tile_product(const float *A, const float *B, float *C, int m, int n, int k,
                                             int row0, int col0, bool a_vec, bool b_vec, bool c_vec,
                                             float (*As)[BK][AS_STRIDE], float (*Bs)[BK][BN])
{
    constexpr int TN = THIN ? 2 : 8; /* columns per thread */
    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    int tiles = (k + BK - 1) / BK; /* the same in every thread: the branches on it are uniform */

    float acc[8][TN];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    float ra[2][4];
    b_regs<THIN> rb;
    if (tiles > 0) {
        load_a(A, m, k, a_vec, row0, 0, t, ra);
        load_b_any<THIN>(B, k, n, b_vec, 0, col0, t, rb);
        store_a(As[0], t, ra);
        store_b<THIN>(Bs[0], t, rb);
    }
    __syncthreads(); /* tile 0 stored before anyone reads it */

    for (int tile = 0; tile < tiles; tile++) {
        int cur = tile & 1;
        if (tile + 1 < tiles) { /* the next tile's loads are in flight during the multiply */
            load_a(A, m, k, a_vec, row0, (tile + 1) * BK, t, ra);
            load_b_any<THIN>(B, k, n, b_vec, (tile + 1) * BK, col0, t, rb);
        }
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float a[8], b[TN];
            float4 v = *(const float4 *)&As[cur][p][ty * 4];
            a[0] = v.x, a[1] = v.y, a[2] = v.z, a[3] = v.w;
            v = *(const float4 *)&As[cur][p][64 + ty * 4];
            a[4] = v.x, a[5] = v.y, a[6] = v.z, a[7] = v.w;
            if constexpr (THIN) {
                float2 w = *(const float2 *)&Bs[cur][p][tx * 2];
                b[0] = w.x, b[1] = w.y;
            } else {
                v = *(const float4 *)&Bs[cur][p][tx * 4];
                b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
                v = *(const float4 *)&Bs[cur][p][64 + tx * 4];
                b[4] = v.x, b[5] = v.y, b[6] = v.z, b[7] = v.w;
            }
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        /* The other buffer was last read in the previous iteration, before
         * the barrier that ended it. */
        if (tile + 1 < tiles) {
            store_a(As[cur ^ 1], t, ra);
            store_b<THIN>(Bs[cur ^ 1], t, rb);
        }
        __syncthreads(); /* stored before the next iteration reads it; read before the one after overwrites this one */
    }

#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (row >= m)
            continue;
        float *dst = C + (size_t)row * n;
        if constexpr (THIN) {
#pragma unroll
            for (int q = 0; q < 2; q++)
                if (col0 + tx * 2 + q < n)
                    dst[col0 + tx * 2 + q] = acc[i][q];
        } else {
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int col = col0 + 64 * h + tx * 4;
                const float *v = &acc[i][4 * h];
                if (c_vec && col + 3 < n) {
                    *(float4 *)&dst[col] = make_float4(v[0], v[1], v[2], v[3]);
                } else {
#pragma unroll
                    for (int q = 0; q < 4; q++)
                        if (col + q < n)
                            dst[col + q] = v[q];
                }
            }
        }
    }
}

/* Which tile block b computes (host and device: the CPU test checks that
 * the blocks cover every tile once).  The first row_tiles * main_cols blocks
 * take the full tiles, in groups of GROUP_M row tiles: within a group,
 * consecutive blocks walk down one column of tiles (they share its strip of
 * B), then the next column (they share the group's strips of A).  When
 * main_cols * BN < n, the last row_tiles blocks take the thin column. */
__host__ __device__ inline void tile_of_block(int b, int row_tiles, int main_cols, int *row_tile, int *col_tile)
{
    int full = row_tiles * main_cols;
    if (b >= full) {
        *row_tile = b - full, *col_tile = main_cols;
        return;
    }
    int group = GROUP_M * main_cols; /* blocks per group */
    int first = b / group * GROUP_M;
    int rows = row_tiles - first < GROUP_M ? row_tiles - first : GROUP_M; /* the last group may be shorter */
    int rest = b % group;
    *row_tile = first + rest % rows, *col_tile = rest / rows;
}

/* a_vec, b_vec, c_vec: 16-byte accesses of A's, B's, C's rows are aligned
 * (host-checked).  main_cols: the column tiles that are full-width blocks;
 * one block per row tile follows for a thin last column when main_cols * BN
 * < n. */
__global__ void __launch_bounds__(THREADS, 2)
    matmul_regtile_kernel(const float *A, const float *B, float *C, int m, int n, int k, int main_cols, bool a_vec,
                          bool b_vec, bool c_vec)
{
    __shared__ __align__(16) float As[2][BK][AS_STRIDE];
    __shared__ __align__(16) float Bs[2][BK][BN];
    int row_tiles = (m + BM - 1) / BM, row_tile, col_tile;
    tile_of_block(blockIdx.x, row_tiles, main_cols, &row_tile, &col_tile);
    if (col_tile < main_cols) /* uniform across the block */
        tile_product<false>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
    else
        tile_product<true>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
}

/* Rows of length len starting at p are 16-byte aligned. */
static bool rows_aligned(const void *p, int len) { return (uintptr_t)p % 16 == 0 && len % 4 == 0; }

/* The column tiles taken by full-width blocks: all of them, or all but a
 * last one at most THIN_BN wide (that one gets thin blocks). */
static int full_col_tiles(int n)
{
    int rem = n % BN;
    return rem != 0 && rem <= THIN_BN ? n / BN : (n + BN - 1) / BN;
}

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    bool a_vec = rows_aligned(d_a, k), b_vec = rows_aligned(d_b, n), c_vec = rows_aligned(d_c, n);
    int row_tiles = (m + BM - 1) / BM, main_cols = full_col_tiles(n);
    int thin = main_cols * BN < n ? row_tiles : 0;
    /* One block per tile of C: C's m n floats fit in device memory, so the
     * count (m n / 2^14 at most, plus a column) is far below the grid's
     * limit of 2^31 - 1. */
    unsigned blocks = (unsigned)row_tiles * (unsigned)main_cols + (unsigned)thin;
    matmul_regtile_kernel<<<blocks, THREADS>>>(d_a, d_b, d_c, m, n, k, main_cols, a_vec, b_vec, c_vec);
    CUDA_CHECK_LAUNCH();
}
