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
#include <stdlib.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/timed.h"
#include "kit/ref.h"
#include "kit/util.h"

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

/* A benchmark run recorded the y of a few timed calls (chosen at random as
 * they happened, and the last) with the (shift, scale) of their fresh x
 * (timed.h): each is recomputed, so y left from an earlier call (or the
 * baseline's) fails. */
static void check_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    const lab08_data *d = data;
    kit_timed_view v;
    const kit_csr *A = &d->A;
    size_t rows = (size_t)A->rows;
    if (!outs[0].got || outs[0].count != rows) /* after a wrong y too, not after a missing one */
        return;
    if (A->cols < 1 || kit_timed_load(ctx, A->rows, 1, A->rows, &v) != 1)
        return;
    float *x = kit_xmalloc((size_t)A->cols * sizeof *x, "a timed call's x");
    float *y = kit_xmalloc((rows ? rows : 1) * sizeof *y, "a timed call's y");
    double *exp = kit_xmalloc((rows ? rows : 1) * sizeof *exp, "the reference");
    double *bound = kit_xmalloc((rows ? rows : 1) * sizeof *bound, "the reference");
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, A->cols, "spmv_vector"))
            break;
        kit_fresh_apply_host(d->x, x, A->cols, v.shift[k], v.scale[k]);
        kit_ref_spmv_csr(A, x, exp, bound);
        for (size_t i = 0; i < rows; i++) {
            bound[i] = kit_sum_bound((double)(A->row_ptr[i + 1] - A->row_ptr[i]) + 1, bound[i], KIT_U_F32);
            y[i] = kit_timed_f32(&v, (size_t)k * rows + i);
        }
        kit_cmp r;
        kit_cmp_f32(&r, y, rows, exp, bound, rows);
        if (!kit_cmp_ok(&r)) {
            char what[160];
            kit_cmp_describe(&r, what, sizeof what);
            kit_timed_fail(ctx, &v, k, "spmv_vector", "x", "a wrong y (%s)", what);
        }
    }
    free(x);
    free(y);
    free(exp);
    free(bound);
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

static int outputs(const void *data, kit_check_output *out)
{
    out[0] = (kit_check_output){LAB08_OUT_Y, KIT_T_F32, (uint64_t)((const lab08_data *)data)->A.rows,
                                .len_fmt = "output 'y' has %llu elements, expected one per row (%llu)",
                                .what = "spmv_vector y", .reference = reference, .after = explain};
    return 1;
}

KIT_CHECK_DATASET(lab08)

const kit_check KIT_CHECK = {sizeof(lab08_data), check_generate, check_release, .input = input, .outputs = outputs,
                             .timed = check_timed, .timed_always = 1};
