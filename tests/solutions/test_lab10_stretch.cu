/* test_lab10_stretch.cu - the lab10 stretch solution's block order, held on
 * the CPU (no GPU, no CUDA call made).  The solution
 * (solutions/lab10-matmul/stretch/matmul.cu, included below) launches one
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
 *    4096 x 4096 gives 32 x 32 full blocks and no thin one.
 *
 * Not a Check program (nvcc builds it, for the solution is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../solutions/lab10-matmul/stretch/matmul.cu"
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

int main(void)
{
    const int sizes[] = {1, 2, 3, 31, 32, 33, 127, 128, 129, 160, 161, 255, 256, 257, 1000, 1999, 2001, 2049, 2080, 4096};
    for (int m : sizes)
        for (int n : sizes)
            check_order(m, n);
    check_order(5000, 3);
    check_order(3, 5000);

    int main_cols = full_col_tiles(2049);
    CHECK(main_cols == 16 && (1999 + BM - 1) / BM == 16, "1999 x 2049: %d full column tiles, %d row tiles",
          main_cols, (1999 + BM - 1) / BM);
    CHECK(full_col_tiles(4096) == 32, "4096: %d full column tiles", full_col_tiles(4096));
    CHECK(full_col_tiles(2080) == 16 && full_col_tiles(2081) == 17, "n = 2080, 2081: %d, %d full column tiles",
          full_col_tiles(2080), full_col_tiles(2081));
    return plain_check_summary();
}
