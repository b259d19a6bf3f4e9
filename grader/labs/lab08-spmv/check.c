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
#include "kit/checker.h"
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

static void explain(kit_check_ctx *ctx, const kit_csr *A, const float *y, const double *exp, const double *bound)
{
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
static void check_timed(kit_check_ctx *ctx, const lab08_data *d)
{
    kit_timed_view v;
    const kit_csr *A = &d->A;
    size_t rows = (size_t)A->rows;
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

int lab_check(kit_check_ctx *ctx)
{
    lab08_data d;
    char err[256];
    if (lab08_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    /* evidence (manifest): the kernel reads every nonzero's value and column, handed over on the device */
    kit_call_input(ctx, "*", (double)d.A.nnz * (sizeof(float) + sizeof(int)), 1);
    const kit_csr *A = &d.A;
    size_t rows = (size_t)A->rows;
    uint64_t count = 0;
    const float *y = kit_expect_array(ctx, "y", KIT_T_F32, 0, &count);
    if (y && count != rows)
        kit_fail(ctx, "output 'y' has %llu elements, expected one per row (%zu)", (unsigned long long)count, rows);
    else if (y) {
        double *exp = kit_xmalloc((rows ? rows : 1) * sizeof *exp, "the reference");
        double *bound = kit_xmalloc((rows ? rows : 1) * sizeof *bound, "the reference");
        kit_ref_spmv_csr(A, d.x, exp, bound); /* bound holds sum |a_ik x_k| first */
        for (size_t i = 0; i < rows; i++)
            bound[i] = kit_sum_bound((double)(A->row_ptr[i + 1] - A->row_ptr[i]) + 1, bound[i], KIT_U_F32);
        kit_cmp r;
        kit_cmp_f32(&r, y, rows, exp, bound, rows);
        if (!kit_check_cmp(ctx, "spmv_vector y", &r)) {
            size_t i = r.first_bad;
            if (i < rows)
                kit_detail(ctx, "row %zu has %d nonzeros", i, A->row_ptr[i + 1] - A->row_ptr[i]);
            explain(ctx, A, y, exp, bound);
        }
        free(exp);
        free(bound);
        check_timed(ctx, &d);
    }
    lab08_free(&d);
    return ctx->failed;
}
