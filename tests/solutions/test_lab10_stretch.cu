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
 *    (consecutive too).
 *
 * Not a Check program (nvcc builds it, for the solution is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
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
    CHECK(BM != 128 || BN != 128 || (TM == 8 && TN_FULL == 8 && SGEMM_MIN_BLOCKS == 2 && !DYN_SMEM),
          "128 x 128: %d x %d a thread, %d blocks an SM, dynamic shared memory %d", TM, TN_FULL, SGEMM_MIN_BLOCKS,
          DYN_SMEM);
    return plain_check_summary();
}
