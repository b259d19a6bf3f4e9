/* test_lu_check.c - an LU factorization's judgement (common/src/
 * lu_check.c) on a 3 x 3 matrix with exact Crout factors: right factors
 * pass the backward error (entry by entry and probed) and the reference,
 * a wrong entry is named in each, the earliest wrong step is the one
 * reported and steps beyond the limit are not looked at, a timed call's
 * recorded row and column are held to A - LU on the fresh A, and the
 * relative residual (show mode's) is the Frobenius norms' ratio. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "kit/lu_check.h"
#include "kit/rng.h"
#include "lab_check_test.h"

/* A = L U: L = [2 0 0; 1 3 0; 4 1 5], U = [1 .5 .25; 0 1 .5; 0 0 1]. */
static const double L[9] = {2, 0, 0, 1, 3, 0, 4, 1, 5}, U[9] = {1, .5, .25, 0, 1, .5, 0, 0, 1};
static const double A[9] = {2, 1, .5, 1, 3.5, 1.75, 4, 3, 6.5};
static double F[9]; /* in place: L on and below the diagonal, U above */

static void factors(void)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            F[i * 3 + j] = j <= i ? L[i * 3 + j] : U[i * 3 + j];
}

/* The summary and the details of ctx into text (and ctx's details freed). */
static void done(kit_check_ctx *ctx, char *text, size_t len)
{
    snprintf(text, len, "%s\n%s", ctx->summary, ctx->details ? ctx->details : "");
    free(ctx->details);
    ctx->details = NULL;
}

START_TEST(backward_error_both_ways)
{
    char text[1024];
    kit_lu f = {3, A, F, 0x1p-24};
    for (int exact = 1; exact >= 0; exact--) {
        kit_check_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        factors();
        kit_lu_backward(&ctx, &f, exact);
        done(&ctx, text, sizeof text);
        ck_assert_msg(!ctx.failed, "%s", text);
        if (exact)
            ck_assert_msg(strstr(text, "note: ||A - LU||_F / ||A||_F = 0 (bound "), "%s", text);
        F[1 * 3 + 2] = 0.75; /* U[1][2] */
        memset(&ctx, 0, sizeof ctx);
        kit_lu_backward(&ctx, &f, exact);
        done(&ctx, text, sizeof text);
        ck_assert(ctx.failed);
        if (exact)
            ck_assert_msg(strstr(text, "A - L U is too large at 2 entries; worst at (1, 2), where the output holds "
                                       "U[1][2] (row 1 of U)"),
                          "%s", text);
        else
            ck_assert_msg(strstr(text, "A x and L (U x) differ in row 1 for a random x"), "%s", text);
    }
}
END_TEST

/* The ratio lab09's show mode prints: 0 for exact factors; with U[1][2]
 * 0.75, A - LU is -0.75 at (1, 2) and -0.25 at (2, 2). */
START_TEST(relative_residual)
{
    kit_lu f = {3, A, F, 0x1p-24};
    double a2 = 0;
    for (int t = 0; t < 9; t++)
        a2 += A[t] * A[t];
    factors();
    ck_assert(kit_lu_relative_residual(&f) == 0);
    F[1 * 3 + 2] = 0.75;
    double r = kit_lu_relative_residual(&f);
    ck_assert_msg(fabs(r - sqrt((0.75 * 0.75 + 0.25 * 0.25) / a2)) < 1e-15, "%.17g", r);
}
END_TEST

/* Rows of A - LU go in groups of four: on random factors of sizes around
 * the groups, the ratio has the bits of the row-by-row sums in k order. */
START_TEST(relative_residual_in_groups)
{
    enum { M = 13 };
    double a[M * M], fm[M * M];
    kit_rng r;
    kit_rng_seed(&r, 5, 0);
    for (int n = 1; n <= M; n++) {
        for (int t = 0; t < n * n; t++)
            a[t] = 2 * kit_rng_unit(&r) - 1, fm[t] = 2 * kit_rng_unit(&r) - 1;
        double r2 = 0, a2 = 0;
        for (int i = 0; i < n; i++) { /* row sums, then their sum in row order */
            double ri = 0, ai = 0;
            for (int j = 0; j < n; j++) {
                double p = 0;
                for (int k = 0; k <= (i < j ? i : j); k++)
                    p += fm[i * n + k] * (k == j ? 1.0 : fm[k * n + j]);
                double d = a[i * n + j] - p;
                ri += d * d, ai += a[i * n + j] * a[i * n + j];
            }
            r2 += ri, a2 += ai;
        }
        kit_lu f = {n, a, fm, 0x1p-24};
        ck_assert_msg(kit_lu_relative_residual(&f) == sqrt(r2 / a2), "n = %d", n);
    }
}
END_TEST

/* The factored matrix in double, from floats and from doubles. */
START_TEST(factors_in_double)
{
    const float f[4] = {1.5f, -2, 0x1p-30f, 3};
    const double d[4] = {0.1, -2, 1e300, 3};
    double *F = kit_lu_in_double(2, 0, f), *D = kit_lu_in_double(2, 1, d);
    for (int t = 0; t < 4; t++)
        ck_assert(F[t] == (double)f[t] && D[t] == d[t]);
    free(F);
    free(D);
    free(kit_lu_in_double(0, 1, d)); /* n = 0: one element, nothing read */
}
END_TEST

START_TEST(factors_by_step)
{
    char text[1024];
    kit_lu f = {3, A, F, 0x1p-24};
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    factors();
    ck_assert_int_eq(kit_lu_factors(&ctx, &f, L, U, 3, 8), 1);
    F[2 * 3 + 2] = 4, F[1 * 3 + 2] = 0.75; /* steps 2 and 1 */
    ck_assert_int_eq(kit_lu_factors(&ctx, &f, L, U, 1, 8), 1); /* step 0 alone: right */
    ck_assert_int_eq(kit_lu_factors(&ctx, &f, L, U, 3, 8), 0);
    done(&ctx, text, sizeof text);
    ck_assert_msg(strstr(text, "2 entries of L and U differ from Crout's factors; the first wrong step is j = 1: "
                               "U[1][2] (row 1 of U) = 0.75, expected 0.5"),
                  "%s", text);
    kit_lu_entry_name(2, 0, text, sizeof text);
    ck_assert_str_eq(text, "L[2][0] (column 0 of L)");
}
END_TEST

/* One timed call (7) of 2 A (shift 0), row 1 and column 2 of its factors
 * recorded (lines = 1): rows[] and cols[] as the record holds them. */
static int timed(const float *row, const float *col, int64_t first_index, char *text, size_t len)
{
    int32_t call = 7;
    int64_t shift = 0, idx[6] = {first_index, 4, 5, 2, 5, 8};
    double scale = 2;
    float val[6] = {row[0], row[1], row[2], col[0], col[1], col[2]};
    kit_writer *w = lct_open();
    lct_timed(w, &call, &shift, &scale, 1, idx, val, 6);
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = lct_load(w);
    ck_assert_ptr_nonnull(ctx.out);
    kit_lu f = {3, A, NULL, 0x1p-24};
    kit_lu_timed(&ctx, &f, 1, 3, "lu");
    done(&ctx, text, len);
    kit_blob_free((kit_blobfile *)ctx.out);
    return ctx.failed;
}

START_TEST(timed_crossing_held_to_a_minus_lu)
{
    char text[1024];
    /* the factors of 2 A: 2 L and U; row 1 of the output: 2, 6, .5; column 2: .25, .5, 10 */
    const float row[3] = {2, 6, .5f}, col[3] = {.25f, .5f, 10}, stale_row[3] = {1, 3, .5f};
    ck_assert_msg(!timed(row, col, 3, text, sizeof text), "%s", text);
    ck_assert_int_eq(timed(stale_row, col, 3, text, sizeof text), 1); /* A's factors, not 2 A's */
    ck_assert_msg(strstr(text, "timed call 7 of lu (fresh A each call): (A - LU)[1][2] = "), "%s", text);
    ck_assert_int_eq(timed(row, col, 4, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 7 of lu: the record of its rows and columns is malformed"), "%s", text);
}
END_TEST

static Suite *lu_suite(void)
{
    Suite *s = suite_create("lu_check");
    TCase *t = tcase_create("judge");
    tcase_add_test(t, backward_error_both_ways);
    tcase_add_test(t, relative_residual);
    tcase_add_test(t, relative_residual_in_groups);
    tcase_add_test(t, factors_in_double);
    tcase_add_test(t, factors_by_step);
    tcase_add_test(t, timed_crossing_held_to_a_minus_lu);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(lu_suite)
