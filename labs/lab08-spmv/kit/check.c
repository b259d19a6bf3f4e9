/* check.c - lab08 checker: y = A x against the CPU in double.
 *
 * Row i of y is a float dot product of the row's nnz_i nonzeros with x: in
 * any order of summation (with or without FMA, in a warp reduction or a
 * loop) its error is at most kit_sum_bound(nnz_i + 1, sum_k |a_ik x_k|,
 * u_float) - nnz_i rounded products and additions, plus one rounding in case
 * the sum was kept in double and rounded at the end.  An empty row must be
 * exactly 0 (its bound is 0).
 */
#include <math.h>
#include <stdio.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

/* Row-length classes, to point at the bug: rows longer than a warp, rows
 * that need a reduction, rows that don't. */
enum { LEN_EMPTY, LEN_ONE, LEN_WARP, LEN_LONG, LEN_CLASSES };
static const char *const class_name[LEN_CLASSES] = {"empty", "with 1 nonzero", "with 2 to 32", "with more than 32"};

static int length_class(int len)
{
    return len == 0 ? LEN_EMPTY : len == 1 ? LEN_ONE : len <= 32 ? LEN_WARP : LEN_LONG;
}

/* After a wrong y: the first wrong row's length, and which lengths of rows are wrong. */
static void explain(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const kit_csr *A = &((const lab08_data *)data)->A;
    const float *y = g->got;
    const double *exp = g->ref.f, *bound = g->ref.bound;
    if (g->ok)
        return;
    if (g->cmp.first_bad < (size_t)A->rows)
        kit_detail(ctx, "row %zu has %d nonzeros", g->cmp.first_bad, A->row_ptr[g->cmp.first_bad + 1] -
                   A->row_ptr[g->cmp.first_bad]);
    size_t rows_of[LEN_CLASSES] = {0}, bad_of[LEN_CLASSES] = {0};
    for (int i = 0; i < A->rows; i++) {
        int c = length_class(A->row_ptr[i + 1] - A->row_ptr[i]);
        rows_of[c]++;
        if (!(fabs((double)y[i] - exp[i]) <= bound[i]))
            bad_of[c]++;
    }
    char line[400];
    int w = snprintf(line, sizeof line, "wrong rows by length:");
    for (int c = 0; c < LEN_CLASSES; c++)
        if (rows_of[c] && w > 0 && (size_t)w < sizeof line)
            w += snprintf(line + w, sizeof line - (size_t)w, " %zu of %zu %s%s", bad_of[c], rows_of[c], class_name[c],
                          c + 1 < LEN_CLASSES ? ";" : "");
    kit_detail(ctx, "%s", line);
    if (bad_of[LEN_LONG] && !bad_of[LEN_WARP] && !bad_of[LEN_ONE] && !bad_of[LEN_EMPTY])
        kit_detail(ctx, "only rows longer than 32 are wrong: does every lane keep going until the row is done?");
    if (bad_of[LEN_WARP] && !bad_of[LEN_ONE])
        kit_detail(ctx, "rows with one nonzero are right but longer ones are not: the partial sums of the lanes are "
                        "not all added up (the warp reduction)");
    if (bad_of[LEN_EMPTY])
        kit_detail(ctx, "an empty row's y must be written as 0");
}

/* evidence (manifest): the kernel reads every nonzero's value and column, handed over on the device */
static double input(const void *data)
{
    return (double)((const lab08_data *)data)->A.nnz * (sizeof(float) + sizeof(int));
}

/* Row i: bound from the sum of the magnitudes of its nnz_i products. */
static void reference(const void *data, const kit_check_ref *r)
{
    const kit_csr *A = &((const lab08_data *)data)->A;
    kit_ref_spmv_csr(A, ((const lab08_data *)data)->x, r->f, r->bound); /* bound holds sum |a_ik x_k| first */
    for (int i = 0; i < A->rows; i++)
        r->bound[i] = kit_sum_bound((double)(A->row_ptr[i + 1] - A->row_ptr[i]) + 1, r->bound[i], KIT_U_F32);
}

KIT_CHECK_DATASET(lab08)

/* A benchmark run recorded the y of a few timed calls (chosen at random as
 * they happened, and the last) with the (shift, scale) of their fresh x: each
 * is the reference on that x (the driver's timed_fresh), so y left from an
 * earlier call (or the baseline's) fails. */
const kit_check KIT_CHECK = {
    sizeof(lab08_data), check_generate, check_release, .input = input,
    .out = {{LAB08_OUT_Y, KIT_T_F32, .len_fmt = "output 'y' has %llu elements, expected one per row (%llu)",
             .what = "spmv_vector y", .reference = reference, .after = explain, .len_of = KIT_AT(lab08_data, A.rows)}},
    .timed_always = 1,
    .timed_fresh = {"spmv_vector", "x", {KIT_AT(lab08_data, x)}, KIT_AT(lab08_data, A.cols)}};
