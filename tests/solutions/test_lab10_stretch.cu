/* test_lab10_stretch.cu - the lab10 stretch solution's block order, held on
 * the CPU (no GPU, no CUDA call made).  The solution
 * (labs/lab10-matmul/solution/stretch/matmul.cu, included below) launches one
 * block per tile of C in a one-dimensional grid: full BM x BN tiles in
 * groups of GROUP_M row tiles, then, when n leaves a last column at most
 * THIN_BN wide, one thin BM x THIN_BN block per row tile.  For many m and n
 * this program holds:
 *  - every element of C is in exactly one block's tile (full tiles BN wide,
 *    thin ones THIN_BN), and no block's tile starts outside C;
 *  - thin blocks come after every full block, and only for a last column at
 *    most THIN_BN wide;
 *  - within a group, consecutive blocks stay inside its GROUP_M row tiles;
 *  - the bench's sizes: 1999 x 2049 gives 16 x 16 full blocks and 16 thin
 *    ones (one wave of two blocks per SM on 132 SMs leaves room for them),
 *    4096 x 4096 gives 32 x 32 full blocks and no thin one (with a 256
 *    side, -D SGEMM_BM or SGEMM_BN, half as many along it); a thread's part
 *    of C is BM / 16 x BN / 16, and the default 128 x 128 tile keeps 8 x 8,
 *    two blocks an SM and static shared memory;
 *  - the index maps of a block's threads (for the -D knobs this is built
 *    with): the loads of A's, B's and a thin B's tile take every element of
 *    it once, float4 aligned; the threads' parts of a full and of a thin tile
 *    of C cover it once, their shared-memory reads float4 (float2) aligned;
 *    with SGEMM_WARP_TILE 1 a warp reads 8 consecutive float4 of Bs at a
 *    step (one 128-byte wavefront) and 4 of As, with 2 4 of Bs and 8 of As
 *    (consecutive too);
 *  - the products themselves, each block's 256 threads run on the CPU
 *    (below): C = A B for sizes that take every kind of tile and load
 *    (a thin column, partial tiles, k not a multiple of 4 or of BK, B's
 *    rows unaligned, k = 0), against a double reference - the path the -D
 *    knobs pick, registers and two buffers or the cp.async pipeline
 *    (SGEMM_STAGES).
 *
 * The CPU run of a block: every __device__ function of the solution is
 * compiled for the host as well; the block's threads are std::threads,
 * threadIdx theirs, __syncthreads a barrier of all of them, and cp.async an
 * immediate copy (zero-filled as asked).  So it holds what each thread
 * loads, where it stores and what it multiplies, and that no thread
 * overwrites a buffer another one still reads between two barriers (an
 * immediate copy into it corrupts the other's product); not the
 * commit-and-wait counts of cp.async, which copy at once here.
 *
 * Not a Check program (nvcc builds it, for the solution is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <cuda_pipeline.h> /* before the shims below: its own declarations stay as they are */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

/* A block's barrier for its CPU threads. */
struct cpu_barrier {
    std::mutex mu;
    std::condition_variable cv;
    int threads = 0, arrived = 0;
    long round = 0;
    void wait()
    {
        std::unique_lock<std::mutex> lock(mu);
        long r = round;
        if (++arrived == threads) {
            arrived = 0, round++;
            cv.notify_all();
        } else {
            cv.wait(lock, [&] { return round != r; });
        }
    }
};
cpu_barrier block_barrier;
thread_local uint3 cpu_thread_idx;
inline void cpu_syncthreads() { block_barrier.wait(); }
/* cp.async at once: n bytes, the last zfill of them zeros */
inline void cpu_memcpy_async(void *dst, const void *src, size_t n, size_t zfill = 0)
{
    memcpy(dst, src, n - zfill);
    memset((char *)dst + (n - zfill), 0, zfill);
}
#ifndef __CUDA_ARCH__ /* the host's compilation of the device functions */
#define threadIdx cpu_thread_idx
#define __syncthreads() cpu_syncthreads()
#define __pipeline_memcpy_async(dst, src, ...) cpu_memcpy_async(dst, src, __VA_ARGS__)
#define __pipeline_commit() ((void)0)
#define __pipeline_wait_prior(n) ((void)0)
#endif
/* the solution's device functions for the host as well - where the host's
 * compiler does not see that a thin tile's B is stored only after it was
 * loaded (both under the same tile + 1 < tiles) */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#undef __device__
#define __device__ __attribute__((host)) __attribute__((device))

#include "../../labs/lab10-matmul/solution/stretch/matmul.cu"
#include "plain_check.h"

static void check_order(int m, int n)
{
    int row_tiles = (m + BM - 1) / BM, main_cols = full_col_tiles(n);
    int thin = main_cols * BN < n ? row_tiles : 0;
    int blocks = row_tiles * main_cols + thin;
    unsigned char *seen = (unsigned char *)calloc((size_t)row_tiles * n, 1);
    int last_full = -1, first_thin = blocks;
    for (int b = 0; b < blocks; b++) {
        int rt, ct;
        tile_of_block(b, row_tiles, main_cols, &rt, &ct);
        int width = ct < main_cols ? BN : THIN_BN, c0 = ct * BN;
        CHECK(rt >= 0 && rt < row_tiles && c0 >= 0 && c0 < n, "m = %d, n = %d: block %d takes tile (%d, %d)", m, n, b,
              rt, ct);
        if (rt < 0 || rt >= row_tiles || c0 < 0 || c0 >= n)
            continue;
        if (ct < main_cols)
            last_full = b;
        else if (first_thin == blocks)
            first_thin = b;
        if (ct < main_cols && b < GROUP_M * main_cols * (row_tiles / GROUP_M))
            CHECK(rt / GROUP_M == b / (GROUP_M * main_cols), "m = %d, n = %d: block %d leaves its group", m, n, b);
        for (int c = c0; c < c0 + width && c < n; c++)
            seen[(size_t)rt * n + c]++;
    }
    CHECK(last_full < first_thin, "m = %d, n = %d: a full block (%d) after a thin one (%d)", m, n, last_full,
          first_thin);
    CHECK(!thin || n - main_cols * BN <= THIN_BN, "m = %d, n = %d: thin blocks for a column %d wide", m, n,
          n - main_cols * BN);
    int bad = 0;
    for (size_t i = 0; i < (size_t)row_tiles * n; i++)
        bad += seen[i] != 1;
    CHECK(bad == 0, "m = %d, n = %d: %d (row tile, column) pairs not covered exactly once", m, n, bad);
    free(seen);
}

/* Each element of a rows x cols tile counted once; name says which map. */
static void check_once(const unsigned char *seen, int rows, int cols, const char *name)
{
    int bad = 0;
    for (int i = 0; i < rows * cols; i++)
        bad += seen[i] != 1;
    CHECK(bad == 0, "%s: %d of %d x %d elements not taken exactly once", name, bad, rows, cols);
}

/* One load of width floats at row r, column c of a rows x cols tile, what
 * lies inside it counted in seen. */
static void take(unsigned char *seen, int rows, int cols, int r, int c, int width)
{
    for (int q = 0; q < width; q++)
        if (r >= 0 && r < rows && c + q >= 0 && c + q < cols)
            seen[r * cols + c + q]++;
}

/* The loads: A's tile BM x BK (A_LOADS float4 a thread), B's BK x BN
 * (B_LOADS), a thin B's BK x THIN_BN (THIN_PER consecutive floats). */
static void check_load_maps(void)
{
    static unsigned char a[BM * BK], b[BK * BN], thin[BK * THIN_BN];
    memset(a, 0, sizeof a), memset(b, 0, sizeof b), memset(thin, 0, sizeof thin);
    int misaligned = 0;
    for (int t = 0; t < THREADS; t++) {
        for (int h = 0; h < A_LOADS; h++) {
            misaligned += a_load_col(t, h) % 4 != 0;
            take(a, BM, BK, a_load_row(t, h), a_load_col(t, h), 4);
        }
        for (int h = 0; h < B_LOADS; h++) {
            misaligned += b_load_col(t, h) % 4 != 0;
            take(b, BK, BN, b_load_row(t, h), b_load_col(t, h), 4);
        }
        misaligned += thin_load_col(t) % THIN_PER != 0;
        take(thin, BK, THIN_BN, thin_load_row(t), thin_load_col(t), THIN_PER);
    }
    CHECK(misaligned == 0, "%d loads not aligned to their width", misaligned);
    check_once(a, BM, BK, "A's tile loads");
    check_once(b, BK, BN, "B's tile loads");
    check_once(thin, BK, THIN_BN, "a thin B's tile loads");
}

/* The threads' parts of C: rows c_row(t, g) + 0..3, columns c_col(t, g) +
 * 0..3 (full) or thin_col(t) + 0..1 (thin); and what a warp reads. */
static void check_c_maps(void)
{
    static unsigned char full[BM * BN], thin[BM * THIN_BN];
    memset(full, 0, sizeof full), memset(thin, 0, sizeof thin);
    int misaligned = 0;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < TM; i++) {
            int r = c_row(t, i / 4) + i % 4;
            misaligned += i % 4 == 0 && c_row(t, i / 4) % 4 != 0;
            for (int j = 0; j < TN_FULL; j++) {
                int c = c_col(t, j / 4) + j % 4;
                misaligned += i == 0 && j % 4 == 0 && c_col(t, j / 4) % 4 != 0;
                if (r >= 0 && r < BM && c >= 0 && c < BN)
                    full[r * BN + c]++;
            }
            for (int j = 0; j < 2; j++) {
                int c = thin_col(t) + j;
                misaligned += i == 0 && j == 0 && thin_col(t) % 2 != 0;
                if (r >= 0 && r < BM && c >= 0 && c < THIN_BN)
                    thin[r * THIN_BN + c]++;
            }
        }
    CHECK(misaligned == 0, "%d shared-memory reads not aligned to their width", misaligned);
    check_once(full, BM, BN, "a full tile of C");
    check_once(thin, BM, THIN_BN, "a thin tile of C");
#if SGEMM_WARP_TILE
    const int b_span = SGEMM_WARP_TILE == 1 ? 32 : 16, a_span = SGEMM_WARP_TILE == 1 ? 16 : 32;
    for (int w = 0; w < THREADS / 32; w++)
        for (int g = 0; g < (RG < CG ? RG : CG); g++) {
            int lo = BN, hi = -1, rlo = BM, rhi = -1;
            for (int t = 32 * w; t < 32 * w + 32; t++) {
                int c = c_col(t, g), r = c_row(t, g);
                lo = c < lo ? c : lo, hi = c > hi ? c : hi;
                rlo = r < rlo ? r : rlo, rhi = r > rhi ? r : rhi;
            }
            /* each lane reads 4 floats from a multiple of 4 (checked above),
             * so a span of 4 x (distinct reads) is consecutive float4 */
            CHECK(hi + 4 - lo == b_span, "warp %d reads Bs columns %d .. %d at a step, not %d consecutive", w, lo,
                  hi + 3, b_span);
            CHECK(rhi + 4 - rlo == a_span, "warp %d reads As columns %d .. %d at a step, not %d consecutive", w,
                  rlo, rhi + 3, a_span);
        }
#endif
}

/* Values in [-1, 1], multiples of 1/1000. */
static float small_value(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) % 2001) / 1000.0f - 1.0f;
}

/* Block b's tile of C, its threads on the CPU (the buffers: the kernel's). */
static void run_block(int b, const float *A, const float *B, float *C, int m, int n, int k, bool a_vec, bool b_vec,
                      bool c_vec)
{
#if SGEMM_STAGES
    static float As[SGEMM_STAGES][BM][AK_STRIDE] __attribute__((aligned(16)));
    static float Bs[SGEMM_STAGES][BK][BN] __attribute__((aligned(16)));
#else
    static float As[2][BK][AS_STRIDE] __attribute__((aligned(16)));
    static float Bs[2][BK][BN] __attribute__((aligned(16)));
#endif
    int row_tiles = (m + BM - 1) / BM, main_cols = full_col_tiles(n), rt, ct;
    tile_of_block(b, row_tiles, main_cols, &rt, &ct);
    memset(As, 0x7f, sizeof As), memset(Bs, 0x7f, sizeof Bs); /* 3.4e38: a read of what no load wrote shows */
    block_barrier.threads = THREADS;
    std::vector<std::thread> threads;
    for (int t = 0; t < THREADS; t++)
        threads.emplace_back([=] {
            cpu_thread_idx.x = t, cpu_thread_idx.y = cpu_thread_idx.z = 0;
#if SGEMM_STAGES
            if (ct < main_cols)
                tile_product_async<false>(A, B, C, m, n, k, rt * BM, ct * BN, a_vec, b_vec, c_vec, As, Bs);
            else
                tile_product_async<true>(A, B, C, m, n, k, rt * BM, ct * BN, a_vec, b_vec, c_vec, As, Bs);
#else
            if (ct < main_cols)
                tile_product<false>(A, B, C, m, n, k, rt * BM, ct * BN, a_vec, b_vec, c_vec, As, Bs);
            else
                tile_product<true>(A, B, C, m, n, k, rt * BM, ct * BN, a_vec, b_vec, c_vec, As, Bs);
#endif
        });
    for (auto &th : threads)
        th.join();
}

/* C = A B, m x n x k, every block on the CPU; B's rows from element
 * b_offset of their array (1: not 16-byte aligned).  Every element of C
 * within 1e-4 (k + 1) of the double sum (products of values at most 1). */
static void check_product(int m, int n, int k, int b_offset)
{
    unsigned seed = 7919u * m + 31u * n + k;
    std::vector<float> A((size_t)m * k + 4), Bv((size_t)k * n + 4), C((size_t)m * n, NAN);
    for (auto &v : A)
        v = small_value(&seed);
    for (auto &v : Bv)
        v = small_value(&seed);
    const float *B = Bv.data() + b_offset;
    bool a_vec = rows_aligned(A.data(), k), b_vec = rows_aligned(B, n), c_vec = rows_aligned(C.data(), n);
    int row_tiles = (m + BM - 1) / BM, main_cols = full_col_tiles(n);
    int blocks = row_tiles * main_cols + (main_cols * BN < n ? row_tiles : 0);
    for (int b = 0; b < blocks; b++)
        run_block(b, A.data(), B, C.data(), m, n, k, a_vec, b_vec, c_vec);
    int bad = 0, bi = -1, bj = -1;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double want = 0;
            for (int p = 0; p < k; p++)
                want += (double)A[(size_t)i * k + p] * B[(size_t)p * n + j];
            if (!(fabs(C[(size_t)i * n + j] - want) <= 1e-4 * (k + 1)) && bad++ == 0)
                bi = i, bj = j;
        }
    CHECK(bad == 0, "%d x %d x %d (B from element %d): %d elements of C wrong, the first C[%d][%d] = %g", m, n, k,
          b_offset, bad, bi, bj, bad ? C[(size_t)bi * n + bj] : 0.0);
}

int main(void)
{
    check_product(BM, BN, 64, 0);          /* one full tile, all aligned */
    check_product(300, 2 * BN + 1, 77, 0); /* a thin last column; k and n not multiples of 4 */
    check_product(257, 264, 100, 0);       /* a partial last row and column of full tiles */
    check_product(129, 2 * BN + 32, 40, 1); /* a thin column 32 wide; B's rows unaligned */
    check_product(5, 3, 1, 0);
    check_product(BM, BN, 0, 0); /* k = 0: C all zeros */

    check_load_maps();
    check_c_maps();
    const int sizes[] = {1, 2, 3, 31, 32, 33, 127, 128, 129, 160, 161, 255, 256, 257, 1000, 1999, 2001, 2049, 2080, 4096};
    for (int m : sizes)
        for (int n : sizes)
            check_order(m, n);
    check_order(5000, 3);
    check_order(3, 5000);

    /* the bench's sizes (2048 and 4096 are multiples of either BN) */
    int main_cols = full_col_tiles(2049);
    CHECK(main_cols == 2048 / BN && (1999 + BM - 1) / BM == 2048 / BM, "1999 x 2049: %d full column tiles, %d row tiles",
          main_cols, (1999 + BM - 1) / BM);
    CHECK(full_col_tiles(4096) == 4096 / BN, "4096: %d full column tiles", full_col_tiles(4096));
    CHECK(full_col_tiles(2048 + THIN_BN) == 2048 / BN && full_col_tiles(2049 + THIN_BN) == 2048 / BN + 1,
          "n = %d, %d: %d, %d full column tiles", 2048 + THIN_BN, 2049 + THIN_BN, full_col_tiles(2048 + THIN_BN),
          full_col_tiles(2049 + THIN_BN));
    /* a thread's part: BM / 16 x BN / 16, the 128 x 128 tile's 8 x 8 */
    CHECK(TM * 16 == BM && TN_FULL * 16 == BN, "a thread's part %d x %d of a %d x %d tile", TM, TN_FULL, BM, BN);
    CHECK(BM != 128 || BN != 128 || SGEMM_STAGES || (TM == 8 && TN_FULL == 8 && SGEMM_MIN_BLOCKS == 2 && !DYN_SMEM),
          "128 x 128: %d x %d a thread, %d blocks an SM, dynamic shared memory %d", TM, TN_FULL, SGEMM_MIN_BLOCKS,
          DYN_SMEM);
    /* the buffers of SGEMM_MIN_BLOCKS blocks fit an SM of compute capability
     * 9.0 (227 KB a block, 228 an SM, 1 of it the system's per block), and
     * the untransposed A's rows (SGEMM_STAGES) keep float4 reads aligned */
    CHECK((SMEM_BYTES + 1024) * SGEMM_MIN_BLOCKS <= 228 * 1024 && AK_STRIDE % 4 == 0,
          "%d bytes of shared memory a block for %d blocks an SM, A's rows %d floats apart", SMEM_BYTES,
          SGEMM_MIN_BLOCKS, AK_STRIDE);
    return plain_check_summary();
}
