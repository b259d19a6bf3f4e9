/* lab10 stretch exercise - register-blocked matrix multiply (handout, "How far
 * from the library?").  Same interface as the reference solution
 * (../matmul.cu); the tile walk along k is the same, what changes is how much
 * each thread does with a tile, and which block takes which tile:
 *
 *   - a block of 256 threads computes a 128 x 256 tile of C (SGEMM_BN;
 *     128 x 128 with -DSGEMM_BN=128), each thread an 8 x 16 block of it,
 *     kept in 128 registers (register blocking): per step along k it reads
 *     8 values of A and 16 of B from shared memory for 128 multiply-adds,
 *     where the reference reads 2 for 1.  Such a thread needs more than
 *     the 128 registers two blocks an SM allow, so one block runs per SM;
 *     on an H100 that measured 0.90 and 0.91 of cuBLAS at 4096^3 where
 *     128 x 128 tiles at two blocks an SM measured 0.86 to 0.89 (the
 *     handout's table);
 *   - a thread's 8 rows are two groups of 4, its columns groups of 4 too
 *     (c_row, c_col below): each group is one 16-byte shared-memory read.  By
 *     default (SGEMM_WARP_TILE) each warp owns a 32 x BN / 2 piece of the
 *     tile (32 x 128; 32 x 64 at 128 x 128), its lanes 4 x 8: for each group
 *     of columns the warp reads 8 consecutive float4 of Bs (128 bytes, one
 *     pass of shared memory), and 4 of As (broadcast) for each group of
 *     rows - at 128 x 128, 4 passes for its 4 reads where 16 x 16 threads
 *     over the whole tile take 6 (16 float4 of Bs: 256 bytes);
 *   - the tile of A is stored transposed (As[p][i]), so that a thread's 4
 *     rows of A at step p are consecutive too;
 *   - global loads are 16 bytes (float4) wherever they are proven aligned and
 *     inside the matrix (the row length a multiple of 4 and the array 16-byte
 *     aligned), one float at a time otherwise, elements outside the matrix
 *     loaded as 0;
 *   - two shared buffers: the next tile is loaded from global memory into
 *     registers while the current one is multiplied, then stored into the
 *     other buffer - one barrier per tile instead of two (with
 *     SGEMM_B_ASYNC, B's tile goes there by cp.async instead, no registers);
 *   - thin last column: when n leaves a last column of tiles at most THIN_BN
 *     wide (n = 2049 leaves 1 column), a full block there would cost as
 *     much as any other for almost no work, and would add blocks past a
 *     whole wave (on an H100, 132 SMs: with 128 x 128 tiles at two blocks
 *     an SM, 16 x 17 = 272 blocks are one wave and a bit; with 128 x 256
 *     at one, 16 x 9 = 144): the last few blocks would run alone for most
 *     of a second wave.  Those tiles are 128 x 32 instead (each thread
 *     8 x 2), a fraction of the time, and their blocks come last, so they
 *     fill the slots that the full tiles leave free;
 *   - block order: one-dimensional grid, the full tiles in groups of
 *     GROUP_M row tiles, walked down each column of tiles within a group, so
 *     that blocks running at the same time share strips of A and B in L2
 *     instead of all of them streaming the whole of B.
 * Every thread takes part in every load and barrier; only the stores to C
 * are guarded.
 */
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

/* The knobs (-D at build time, for sweeping variants on a GPU; the defaults
 * are the configuration the handout's figures are for):
 *   SGEMM_BK         8 or 16: the step along k (16 halves the barriers per
 *                    multiply-add, 8 halves the registers that stage a tile);
 *   SGEMM_WARP_TILE  1: each warp computes a 32 x 64 piece of the tile, its
 *                    lanes 4 x 8, so a warp's read of Bs at a step is 8
 *                    consecutive float4 (one 128-byte wavefront) and of As
 *                    4 (broadcast); 2: 64 x 32, lanes 8 x 4 (8 float4 of
 *                    As, 4 of Bs); 0: the threads 16 x 16 over the whole
 *                    tile (a warp reads 16 float4 of Bs, 256 bytes);
 *   SGEMM_B_ASYNC    1: the next tile of B goes from global to shared memory
 *                    by cp.async (no registers hold it, no stores to shared
 *                    memory issued for it); 0: through registers like A's.
 *   SGEMM_MIN_BLOCKS __launch_bounds__' blocks per SM (2: at most 128
 *                    registers a thread; the default is 1, up to 255,
 *                    for a tile larger than 128 x 128);
 *   SGEMM_GROUP_M    row tiles per group in the block order;
 *   SGEMM_STAGES     0: the two buffers above; 2 to 4: a pipeline of that
 *                    many buffers, A's tile and B's both copied by
 *                    cp.async (16 bytes where aligned and inside), the
 *                    copies of the next STAGES - 1 tiles in flight while
 *                    one is multiplied, no registers staging them and one
 *                    barrier a tile.  cp.async cannot transpose, so A's
 *                    tile stays row-major (As[i][p], rows padded to BK + 4
 *                    floats) and a thread reads its rows SGEMM_A_VEC
 *                    steps at a time (4: float4 along k, TM reads per 4
 *                    steps, as many as transposed, in 4 TM registers;
 *                    2: float2, twice the reads in half the registers);
 *   SGEMM_BM, SGEMM_BN 128 or 256 (not both 256): the block's tile of C.
 *                    Each thread's part grows with it - BM / 16 rows in
 *                    groups of 4 by BN / 16 columns in groups of 4 (8 x 8
 *                    at 128 x 128, 8 x 16 at 128 x 256) - so a step along
 *                    k reads BM / 64 + BN / 64 float4 of shared memory for
 *                    BM BN / 256 multiply-adds (6 for 128 at 256 x 128,
 *                    where 128 x 128 reads 4 for 64), and one block an SM
 *                    holds the 128 accumulators (registers: 255 at most).
 *                    Where the two buffers pass the 48 KB of static shared
 *                    memory (BK 16 with a 256 side), they are allocated
 *                    at launch (dynamic shared memory) instead. */
#ifndef SGEMM_BK
#define SGEMM_BK 16
#endif
#ifndef SGEMM_WARP_TILE
#define SGEMM_WARP_TILE 1
#endif
#ifndef SGEMM_B_ASYNC
#define SGEMM_B_ASYNC 0
#endif
#ifndef SGEMM_BM
#define SGEMM_BM 128
#endif
#ifndef SGEMM_BN
#define SGEMM_BN 256
#endif
#if (SGEMM_BM != 128 && SGEMM_BM != 256) || (SGEMM_BN != 128 && SGEMM_BN != 256) || SGEMM_BM * SGEMM_BN > 128 * 256
#error "SGEMM_BM and SGEMM_BN must be 128 or 256, not both 256"
#endif
#ifndef SGEMM_MIN_BLOCKS
#define SGEMM_MIN_BLOCKS (SGEMM_BM * SGEMM_BN > 128 * 128 ? 1 : 2)
#endif
#ifndef SGEMM_GROUP_M
#define SGEMM_GROUP_M 16
#endif
#if SGEMM_WARP_TILE < 0 || SGEMM_WARP_TILE > 2
#error "SGEMM_WARP_TILE must be 0, 1 or 2"
#endif
#if SGEMM_BK != 8 && SGEMM_BK != 16
#error "SGEMM_BK must be 8 or 16"
#endif
#ifndef SGEMM_STAGES
#define SGEMM_STAGES 0
#endif
#if SGEMM_STAGES != 0 && (SGEMM_STAGES < 2 || SGEMM_STAGES > 4)
#error "SGEMM_STAGES must be 0 (registers, two buffers) or 2 to 4 (cp.async)"
#endif
#ifndef SGEMM_A_VEC
#define SGEMM_A_VEC 4
#endif
#if SGEMM_A_VEC != 2 && SGEMM_A_VEC != 4
#error "SGEMM_A_VEC must be 2 or 4"
#endif
#define AV SGEMM_A_VEC /* steps along k per read of A's rows (SGEMM_STAGES) */

/* #pragma unroll in device code only: the CPU test (tests/solutions/
 * test_lab10_stretch.cu) compiles these functions for the host as well,
 * whose compiler does not know it. */
#ifdef __CUDA_ARCH__
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

#define BM SGEMM_BM      /* rows of C per block */
#define BN SGEMM_BN      /* columns of C per block */
#define RG (BM / 64)     /* a thread's groups of 4 rows of C */
#define CG (BN / 64)     /* a thread's groups of 4 columns of C (a full tile) */
#define TM (4 * RG)      /* a thread's rows of C */
#define TN_FULL (4 * CG) /* a thread's columns of C in a full tile */
#define BK SGEMM_BK      /* the step along k */
#define THREADS 256      /* 8 warps */
#define AS_STRIDE (BM + 4) /* padding: fewer bank conflicts storing A transposed; rows stay 16-byte aligned */
#define THIN_BN 32      /* a last column of tiles at most this wide is computed by thin blocks */
#define GROUP_M SGEMM_GROUP_M /* row tiles per group in the block order (L2 reuse) */
#define A_LOADS (BM * BK / 4 / THREADS)     /* float4 of A per thread per tile: 2 (BK 16) or 1 (BK 8) */
#define B_LOADS (BK * BN / 4 / THREADS)     /* float4 of B likewise */
#define THIN_PER (BK * THIN_BN / THREADS)   /* consecutive floats of a thin tile's B per thread: 2 or 1 */
/* The two buffers' bytes; past 48 KB (the most a kernel may declare
 * statically) they are dynamic shared memory. */
#define AK_STRIDE (BK + 4) /* a row of A's untransposed tile (SGEMM_STAGES): 16-byte aligned, padded */
#if SGEMM_STAGES
#define SMEM_BYTES (SGEMM_STAGES * (BM * AK_STRIDE + BK * BN) * 4) /* floats of 4 bytes */
#else
#define SMEM_BYTES (2 * BK * (AS_STRIDE + BN) * 4)
#endif
#define DYN_SMEM (SMEM_BYTES > 48 * 1024)

/* The index maps (host and device: the CPU test checks that they cover
 * every element once).  Loads: float4 number f = t + THREADS h of a tile,
 * in row-major order (so a warp reads whole rows, coalesced; THREADS is a
 * multiple of a row's float4, so h only moves the row).  A's tile is
 * BM x BK, B's BK x BN, a thin tile's B BK x THIN_BN (THIN_PER floats). */
__host__ __device__ inline int a_load_row(int t, int h) { return t / (BK / 4) + h * (THREADS / (BK / 4)); }
__host__ __device__ inline int a_load_col(int t, int) { return t % (BK / 4) * 4; }
__host__ __device__ inline int b_load_row(int t, int h) { return t / (BN / 4) + h * (THREADS / (BN / 4)); }
__host__ __device__ inline int b_load_col(int t, int) { return t % (BN / 4) * 4; }
__host__ __device__ inline int thin_load_row(int t) { return t / (THIN_BN / THIN_PER); }
__host__ __device__ inline int thin_load_col(int t) { return t % (THIN_BN / THIN_PER) * THIN_PER; }

/* Thread t's part of a tile of C: rows c_row(t, g) .. + 3 for g < RG;
 * columns c_col(t, g) .. + 3 for g < CG (a full tile) or thin_col(t) .. + 1
 * (a thin one).  At 128 x 128 RG = CG = 2. */
__host__ __device__ inline int c_row(int t, int g)
{
#if SGEMM_WARP_TILE == 1
    return t / 64 * (BM / 4) + t % 32 / 8 * 4 + 16 * g; /* warps 4 x 2, lanes 4 x 8 */
#elif SGEMM_WARP_TILE == 2
    return t / 128 * (BM / 2) + t % 32 / 4 * 4 + 32 * g; /* warps 2 x 4, lanes 8 x 4 */
#else
    return t / 16 * 4 + 64 * g;
#endif
}
__host__ __device__ inline int c_col(int t, int g)
{
#if SGEMM_WARP_TILE == 1
    return t / 32 % 2 * (BN / 2) + t % 8 * 4 + 32 * g;
#elif SGEMM_WARP_TILE == 2
    return t / 32 % 4 * (BN / 4) + t % 4 * 4 + 16 * g;
#else
    return t % 16 * 4 + 64 * g;
#endif
}
__host__ __device__ inline int thin_col(int t)
{
#if SGEMM_WARP_TILE == 1
    return (t / 32 % 2 * 8 + t % 8) * 2;
#elif SGEMM_WARP_TILE == 2
    return (t / 32 % 4 * 4 + t % 4) * 2;
#else
    return t % 16 * 2;
#endif
}

/* A's tile, BM x BK, into registers (transposed into shared memory later). */
__device__ __forceinline__ void load_a(const float *A, int m, int k, bool vec, int row0, int p0, int t,
                                       float r[A_LOADS][4])
{
UNROLL
    for (int h = 0; h < A_LOADS; h++) {
        int row = row0 + a_load_row(t, h), p = p0 + a_load_col(t, h);
        const float *src = A + (size_t)row * k + p;
        if (vec && row < m && p + 3 < k) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
UNROLL
            for (int q = 0; q < 4; q++)
                r[h][q] = row < m && p + q < k ? src[q] : 0.0f;
        }
    }
}

/* B's tile, BK x BN, into registers. */
__device__ __forceinline__ void load_b(const float *B, int k, int n, bool vec, int p0, int col0, int t,
                                       float r[B_LOADS][4])
{
UNROLL
    for (int h = 0; h < B_LOADS; h++) {
        int p = p0 + b_load_row(t, h), col = col0 + b_load_col(t, h);
        const float *src = B + (size_t)p * n + col;
        if (vec && p < k && col + 3 < n) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
UNROLL
            for (int q = 0; q < 4; q++)
                r[h][q] = p < k && col + q < n ? src[q] : 0.0f;
        }
    }
}

/* Floats src[0 .. 3] of a row of a matrix into dst by cp.async, src at
 * column col of a row of len: 16 bytes where the rows are aligned (vec) and
 * all four inside (the row is, row_in, and col + 3 < len), else 4 at a
 * time, those outside zero-filled and not read (base, the matrix, stands
 * in as their source); not committed. */
__device__ __forceinline__ void copy4_async(float *dst, const float *src, const float *base, bool row_in, int col,
                                            int len, bool vec)
{
    if (vec && row_in && col + 3 < len) {
        __pipeline_memcpy_async(dst, src, 16);
    } else {
UNROLL
        for (int q = 0; q < 4; q++) {
            bool in = row_in && col + q < len;
            __pipeline_memcpy_async(dst + q, in ? src + q : base, 4, in ? 0 : 4);
        }
    }
}

/* B's tile straight into shared memory by cp.async (copy4_async); not
 * committed. */
__device__ __forceinline__ void copy_b_async(const float *B, int k, int n, bool vec, int p0, int col0, int t,
                                             float (*bs)[BN])
{
UNROLL
    for (int h = 0; h < B_LOADS; h++) {
        int p = p0 + b_load_row(t, h), col = col0 + b_load_col(t, h);
        copy4_async(&bs[b_load_row(t, h)][b_load_col(t, h)], B + (size_t)p * n + col, B, p < k, col, n, vec);
    }
}

/* The same, committed as one group (SGEMM_B_ASYNC). */
__device__ __forceinline__ void load_b_async(const float *B, int k, int n, bool vec, int p0, int col0, int t,
                                             float (*bs)[BN])
{
    copy_b_async(B, k, n, vec, p0, col0, t, bs);
    __pipeline_commit(); /* one group: wait_prior(0) waits only for committed copies */
}

/* A thin tile's B, BK x THIN_BN (one float at a time: such a tile is rare
 * and small). */
__device__ __forceinline__ void load_b_thin(const float *B, int k, int n, int p0, int col0, int t,
                                            float r[THIN_PER])
{
    int p = p0 + thin_load_row(t), col = col0 + thin_load_col(t);
    const float *src = B + (size_t)p * n + col;
UNROLL
    for (int q = 0; q < THIN_PER; q++)
        r[q] = p < k && col + q < n ? src[q] : 0.0f;
}

__device__ __forceinline__ void store_a(float (*as)[AS_STRIDE], int t, const float ra[A_LOADS][4])
{
UNROLL
    for (int h = 0; h < A_LOADS; h++)
UNROLL
        for (int q = 0; q < 4; q++)
            as[a_load_col(t, h) + q][a_load_row(t, h)] = ra[h][q]; /* transposed */
}

/* The tile of B in registers: a full tile's float4s per thread (none when
 * they go by cp.async), a thin one's THIN_PER floats. */
template <bool THIN> struct b_regs {
    float r[SGEMM_B_ASYNC ? 1 : B_LOADS][4];
};
template <> struct b_regs<true> {
    float r[THIN_PER];
};

/* The next tile of B, rows p0 .. of B, on its way: into registers, or (full
 * tiles with SGEMM_B_ASYNC) straight into bs. */
template <bool THIN>
__device__ __forceinline__ void load_b_any(const float *B, int k, int n, bool vec, int p0, int col0, int t,
                                           b_regs<THIN> &rb, float (*bs)[BN])
{
    if constexpr (THIN)
        load_b_thin(B, k, n, p0, col0, t, rb.r);
    else if constexpr (SGEMM_B_ASYNC)
        load_b_async(B, k, n, vec, p0, col0, t, bs);
    else
        load_b(B, k, n, vec, p0, col0, t, rb.r);
}

/* B's tile from registers into bs (nothing to do for cp.async: wait for it). */
template <bool THIN> __device__ __forceinline__ void store_b(float (*bs)[BN], int t, const b_regs<THIN> &rb)
{
    if constexpr (THIN) {
        if constexpr (THIN_PER == 2)
            *(float2 *)&bs[thin_load_row(t)][thin_load_col(t)] = make_float2(rb.r[0], rb.r[1]);
        else
            bs[thin_load_row(t)][thin_load_col(t)] = rb.r[0];
    } else if constexpr (SGEMM_B_ASYNC) {
        __pipeline_wait_prior(0);
    } else {
UNROLL
        for (int h = 0; h < B_LOADS; h++)
            *(float4 *)&bs[b_load_row(t, h)][b_load_col(t, h)] =
                make_float4(rb.r[h][0], rb.r[h][1], rb.r[h][2], rb.r[h][3]);
    }
}

/* One step p along k of a tile: thread t's TM x TN products, from row p of
 * As (transposed A) and of Bs. */
template <bool THIN>
__device__ __forceinline__ void step_product(const float (*as)[AS_STRIDE], const float (*bs)[BN], int p, int t,
                                             float acc[TM][THIN ? 2 : TN_FULL])
{
    constexpr int TN = THIN ? 2 : TN_FULL;
    float a[TM], b[TN];
UNROLL
    for (int g = 0; g < RG; g++) {
        float4 v = *(const float4 *)&as[p][c_row(t, g)];
        a[4 * g] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
    }
    if constexpr (THIN) {
        float2 w = *(const float2 *)&bs[p][thin_col(t)];
        b[0] = w.x, b[1] = w.y;
    } else {
UNROLL
        for (int g = 0; g < CG; g++) {
            float4 v = *(const float4 *)&bs[p][c_col(t, g)];
            b[4 * g] = v.x, b[4 * g + 1] = v.y, b[4 * g + 2] = v.z, b[4 * g + 3] = v.w;
        }
    }
UNROLL
    for (int i = 0; i < TM; i++)
UNROLL
        for (int j = 0; j < TN; j++)
            acc[i][j] += a[i] * b[j];
}

/* Thread t's TM x TN results into C (rows from row0, columns from col0),
 * those inside C; 16 bytes at a time where aligned (c_vec) and inside. */
template <bool THIN>
__device__ __forceinline__ void store_c(float *C, int m, int n, int row0, int col0, bool c_vec, int t,
                                        const float acc[TM][THIN ? 2 : TN_FULL])
{
UNROLL
    for (int i = 0; i < TM; i++) {
        int row = row0 + c_row(t, i / 4) + i % 4;
        if (row >= m)
            continue;
        float *dst = C + (size_t)row * n;
        if constexpr (THIN) {
UNROLL
            for (int q = 0; q < 2; q++)
                if (col0 + thin_col(t) + q < n)
                    dst[col0 + thin_col(t) + q] = acc[i][q];
        } else {
UNROLL
            for (int h = 0; h < CG; h++) {
                int col = col0 + c_col(t, h);
                const float *v = &acc[i][4 * h];
                if (c_vec && col + 3 < n) {
                    *(float4 *)&dst[col] = make_float4(v[0], v[1], v[2], v[3]);
                } else {
UNROLL
                    for (int q = 0; q < 4; q++)
                        if (col + q < n)
                            dst[col + q] = v[q];
                }
            }
        }
    }
}

/* A thread's TM x TN sums, set to 0 before a tile's first step. */
template <int TN> __device__ __forceinline__ void zero_acc(float acc[TM][TN])
{
UNROLL
    for (int i = 0; i < TM; i++)
UNROLL
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;
}

/* One tile of C: rows row0 .., columns col0 .. (BN of them, or THIN_BN),
 * through the kernel's two shared buffers As and Bs (declared there: the two
 * kinds of tile share them, a thin one uses the first THIN_BN columns of Bs). */
template <bool THIN>
__device__ __forceinline__ void tile_product(const float *A, const float *B, float *C, int m, int n, int k,
                                             int row0, int col0, bool a_vec, bool b_vec, bool c_vec,
                                             float (*As)[BK][AS_STRIDE], float (*Bs)[BK][BN])
{
    constexpr int TN = THIN ? 2 : TN_FULL; /* columns per thread */
    int t = threadIdx.x;
    int tiles = (k + BK - 1) / BK; /* the same in every thread: the branches on it are uniform */

    float acc[TM][TN];
    zero_acc<TN>(acc);

    float ra[A_LOADS][4];
    b_regs<THIN> rb;
    if (tiles > 0) {
        load_a(A, m, k, a_vec, row0, 0, t, ra);
        load_b_any<THIN>(B, k, n, b_vec, 0, col0, t, rb, Bs[0]);
        store_a(As[0], t, ra);
        store_b<THIN>(Bs[0], t, rb);
    }
    __syncthreads(); /* tile 0 stored before anyone reads it */

    for (int tile = 0; tile < tiles; tile++) {
        int cur = tile & 1;
        /* The next tile's loads are in flight during the multiply.  The
         * other buffer (which cp.async may write now) was last read in the
         * previous iteration, before the barrier that ended it. */
        if (tile + 1 < tiles) {
            load_a(A, m, k, a_vec, row0, (tile + 1) * BK, t, ra);
            load_b_any<THIN>(B, k, n, b_vec, (tile + 1) * BK, col0, t, rb, Bs[cur ^ 1]);
        }
UNROLL
        for (int p = 0; p < BK; p++)
            step_product<THIN>(As[cur], Bs[cur], p, t, acc);
        if (tile + 1 < tiles) {
            store_a(As[cur ^ 1], t, ra);
            store_b<THIN>(Bs[cur ^ 1], t, rb);
        }
        __syncthreads(); /* stored before the next iteration reads it; read before the one after overwrites this one */
    }
    store_c<THIN>(C, m, n, row0, col0, c_vec, t, acc);
}

/* ---- SGEMM_STAGES: A's and B's tiles by cp.async, STAGES buffers ---- */

/* A's tile, BM x BK, into as (row-major, rows AK_STRIDE apart) by
 * cp.async (copy4_async); not committed. */
__device__ __forceinline__ void copy_a_async(const float *A, int m, int k, bool vec, int row0, int p0, int t,
                                             float (*as)[AK_STRIDE])
{
UNROLL
    for (int h = 0; h < A_LOADS; h++) {
        int row = row0 + a_load_row(t, h), p = p0 + a_load_col(t, h);
        copy4_async(&as[a_load_row(t, h)][a_load_col(t, h)], A + (size_t)row * k + p, A, row < m, p, k, vec);
    }
}

/* A thin tile's B, BK x THIN_BN, by cp.async a float at a time; not committed. */
__device__ __forceinline__ void copy_b_thin_async(const float *B, int k, int n, int p0, int col0, int t,
                                                  float (*bs)[BN])
{
    int p = p0 + thin_load_row(t), col = col0 + thin_load_col(t);
    const float *src = B + (size_t)p * n + col;
    float *dst = &bs[thin_load_row(t)][thin_load_col(t)];
UNROLL
    for (int q = 0; q < THIN_PER; q++) {
        bool in = p < k && col + q < n;
        __pipeline_memcpy_async(dst + q, in ? src + q : B, 4, in ? 0 : 4);
    }
}

/* Tile number `tile` of A's strip and B's into the buffers as, bs; not committed. */
template <bool THIN>
__device__ __forceinline__ void copy_tiles_async(const float *A, const float *B, int m, int n, int k, int row0,
                                                 int col0, bool a_vec, bool b_vec, int tile, int t,
                                                 float (*as)[AK_STRIDE], float (*bs)[BN])
{
    copy_a_async(A, m, k, a_vec, row0, tile * BK, t, as);
    if constexpr (THIN)
        copy_b_thin_async(B, k, n, tile * BK, col0, t, bs);
    else
        copy_b_async(B, k, n, b_vec, tile * BK, col0, t, bs);
}

/* AV consecutive floats of a row of A's tile, one read (float4 or float2). */
struct a_run {
    float v[AV];
};
__device__ __forceinline__ a_run read_a_run(const float *src)
{
    a_run r;
    if constexpr (AV == 4) {
        float4 w = *(const float4 *)src;
        r.v[0] = w.x, r.v[1] = w.y, r.v[2] = w.z, r.v[3] = w.w;
    } else {
        float2 w = *(const float2 *)src;
        r.v[0] = w.x, r.v[1] = w.y;
    }
    return r;
}

/* Steps p4 .. p4 + AV - 1 along k (p4 a multiple of AV): thread t's TM x TN
 * products, its rows of A read once each, AV floats along k. */
template <bool THIN>
__device__ __forceinline__ void steps_product(const float (*as)[AK_STRIDE], const float (*bs)[BN], int p4, int t,
                                              float acc[TM][THIN ? 2 : TN_FULL])
{
    constexpr int TN = THIN ? 2 : TN_FULL;
    a_run a[TM];
UNROLL
    for (int i = 0; i < TM; i++)
        a[i] = read_a_run(&as[c_row(t, i / 4) + i % 4][p4]);
UNROLL
    for (int q = 0; q < AV; q++) {
        float b[TN];
        if constexpr (THIN) {
            float2 w = *(const float2 *)&bs[p4 + q][thin_col(t)];
            b[0] = w.x, b[1] = w.y;
        } else {
UNROLL
            for (int g = 0; g < CG; g++) {
                float4 v = *(const float4 *)&bs[p4 + q][c_col(t, g)];
                b[4 * g] = v.x, b[4 * g + 1] = v.y, b[4 * g + 2] = v.z, b[4 * g + 3] = v.w;
            }
        }
UNROLL
        for (int i = 0; i < TM; i++)
UNROLL
            for (int j = 0; j < TN; j++)
                acc[i][j] += a[i].v[q] * b[j];
    }
}

/* One tile of C as tile_product, through SGEMM_STAGES buffers: tiles
 * tile + 1 .. tile + STAGES - 1 on their way while tile is multiplied. */
template <bool THIN>
__device__ __forceinline__ void tile_product_async(const float *A, const float *B, float *C, int m, int n, int k,
                                                   int row0, int col0, bool a_vec, bool b_vec, bool c_vec,
                                                   float (*As)[BM][AK_STRIDE], float (*Bs)[BK][BN])
{
    constexpr int TN = THIN ? 2 : TN_FULL, S = SGEMM_STAGES > 0 ? SGEMM_STAGES : 2;
    int t = threadIdx.x;
    int tiles = (k + BK - 1) / BK; /* the same in every thread: the branches on it are uniform */

    float acc[TM][TN];
    zero_acc<TN>(acc);

    /* one group per tile, committed even when empty: so at tile `tile`
     * wait_prior(S - 2) leaves only later tiles' copies pending */
UNROLL
    for (int s = 0; s < S - 1; s++) {
        if (s < tiles)
            copy_tiles_async<THIN>(A, B, m, n, k, row0, col0, a_vec, b_vec, s, t, As[s], Bs[s]);
        __pipeline_commit();
    }
    for (int tile = 0; tile < tiles; tile++) {
        __pipeline_wait_prior(S - 2); /* this thread's copies of tile are in */
        __syncthreads(); /* everyone's are; and everyone has done with tile - 1, whose buffer is refilled next */
        int next = tile + S - 1;
        if (next < tiles)
            copy_tiles_async<THIN>(A, B, m, n, k, row0, col0, a_vec, b_vec, next, t, As[next % S], Bs[next % S]);
        __pipeline_commit();
        int cur = tile % S;
UNROLL
        for (int p4 = 0; p4 < BK; p4 += AV)
            steps_product<THIN>(As[cur], Bs[cur], p4, t, acc);
    }
    store_c<THIN>(C, m, n, row0, col0, c_vec, t, acc);
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
__global__ void __launch_bounds__(THREADS, SGEMM_MIN_BLOCKS)
    matmul_regtile_kernel(const float *A, const float *B, float *C, int m, int n, int k, int main_cols, bool a_vec,
                          bool b_vec, bool c_vec)
{
#if SGEMM_STAGES
    constexpr int S = SGEMM_STAGES;
#if DYN_SMEM
    extern __shared__ __align__(16) float smem[]; /* SMEM_BYTES, given at launch */
    float(*As)[BM][AK_STRIDE] = (float(*)[BM][AK_STRIDE])smem;
    float(*Bs)[BK][BN] = (float(*)[BK][BN])(smem + S * BM * AK_STRIDE); /* AK_STRIDE % 4 == 0: 16-byte aligned */
#else
    __shared__ __align__(16) float As[S][BM][AK_STRIDE];
    __shared__ __align__(16) float Bs[S][BK][BN];
#endif
#elif DYN_SMEM
    extern __shared__ __align__(16) float smem[]; /* SMEM_BYTES, given at launch */
    float(*As)[BK][AS_STRIDE] = (float(*)[BK][AS_STRIDE])smem;
    float(*Bs)[BK][BN] = (float(*)[BK][BN])(smem + 2 * BK * AS_STRIDE); /* AS_STRIDE % 4 == 0: 16-byte aligned */
#else
    __shared__ __align__(16) float As[2][BK][AS_STRIDE];
    __shared__ __align__(16) float Bs[2][BK][BN];
#endif
    int row_tiles = (m + BM - 1) / BM, row_tile, col_tile;
    tile_of_block(blockIdx.x, row_tiles, main_cols, &row_tile, &col_tile);
#if SGEMM_STAGES
    if (col_tile < main_cols) /* uniform across the block */
        tile_product_async<false>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
    else
        tile_product_async<true>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
#else
    if (col_tile < main_cols) /* uniform across the block */
        tile_product<false>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
    else
        tile_product<true>(A, B, C, m, n, k, row_tile * BM, col_tile * BN, a_vec, b_vec, c_vec, As, Bs);
#endif
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
#if DYN_SMEM
    static bool smem_set; /* the kernel's limit on dynamic shared memory, raised once */
    if (!smem_set) {
        CUDA_CHECK(cudaFuncSetAttribute(matmul_regtile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        SMEM_BYTES));
        smem_set = true;
    }
    matmul_regtile_kernel<<<blocks, THREADS, SMEM_BYTES>>>(d_a, d_b, d_c, m, n, k, main_cols, a_vec, b_vec, c_vec);
#else
    matmul_regtile_kernel<<<blocks, THREADS>>>(d_a, d_b, d_c, m, n, k, main_cols, a_vec, b_vec, c_vec);
#endif
    CUDA_CHECK_LAUNCH();
}
