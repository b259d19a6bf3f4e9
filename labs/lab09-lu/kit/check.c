/* check.c - lab09 checker: Crout LU factors and status (the outputs:
 * dataset.h; how the factors are stored, u and gamma_k(u): kit/lu_check.h).
 *
 * 1. Status.  The expected one comes from kit_ref_crout (double, same pivot
 *    test as lu.h) for n <= LAB09_REF_MAX, otherwise from the construction
 *    (a singular leading k x k minor stops Crout at column k - 1).
 * 2. No NaN or infinity anywhere, also after a reported zero pivot.
 * 3. Backward error (rigorous, kit_lu_backward: kit/lu_check.h says the
 *    bound): entry by entry for n <= LAB09_REF_MAX, else (O(n^3) would take
 *    too long) by three random probes.
 * 4. Factors against the reference (n <= LAB09_REF_MAX), step by step
 *    (kit_lu_factors), so that the first wrong column of L / row of U is
 *    named, within FACTOR_SLACK times the local bound of each step.  For the
 *    matrix classes of this lab (diagonally dominant, 2D Poisson, the
 *    constructed zero-diagonal class: well-conditioned factors, growth factor
 *    at most about 2) what an entry inherits from earlier steps stays within
 *    a small multiple of its local bound.  (Measured with CPU float versions
 *    of the per-step and of the blocked order, FMA as on the GPU, n = 1000 to
 *    1089, three seeds: the largest ratio error / (gamma_n(u) (|A| + |L||U|))
 *    was 0.1 to 0.25 for 2D Poisson, whose small fill-in entries of U lose
 *    relative accuracy, and below 0.1 for the other classes; a slack of 8
 *    leaves a margin of more than 30.)
 * 5. After a reported zero pivot at column f: column 0 of L must still be
 *    A's column 0 (no step changes it), and for the per-step version every
 *    column of L and row of U before f must match the reference as in 4.
 * 6. A benchmark run: entries of A - LU of a few timed calls on fresh
 *    matrices, with the bound of 3 (kit_lu_timed).
 */
#include <math.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/lu_check.h"
#include "kit/ref.h"
#include "kit/util.h"
#include "lu.h"

#define LAB09_REF_MAX 1100 /* O(n^3) checks up to here */
#ifndef FACTOR_SLACK
#define FACTOR_SLACK 8.0
#endif

/* ---- 1, 2: status and finiteness ---------------------------------------------- */
static int check_finite(kit_check_ctx *ctx, const kit_lu *f)
{
    size_t N = (size_t)f->n;
    for (size_t t = 0; t < N * N; t++)
        if (!isfinite(f->F[t])) {
            char where[64];
            kit_lu_entry_name((int)(t / N), (int)(t % N), where, sizeof where);
            kit_fail(ctx, "%s is %s: no NaN or infinity may appear (never divide by a pivot you rejected, and report "
                          "a zero pivot through the status)",
                     where, isnan(f->F[t]) ? "NaN" : "infinite");
            return 0;
        }
    return 1;
}

static int check_status(kit_check_ctx *ctx, int want, int got)
{
    if (got == want)
        return 1;
    if (want == 0)
        kit_fail(ctx, "the function returned %d (a zero pivot in column %d), but every leading minor of this matrix "
                      "is regular: expected LU_OK (0)",
                 got, got - 1);
    else if (got == 0)
        kit_fail(ctx, "the function returned LU_OK, but the leading %d x %d minor is singular: l_%d%d is zero up to "
                      "rounding; expected status %d (column %d)",
                 want, want, want - 1, want - 1, want, want - 1);
    else
        kit_fail(ctx, "the function returned %d (column %d), expected %d: the first zero pivot is in column %d", got,
                 got - 1, want, want - 1);
    return 0;
}

/* ---- 4: the factors' convention ------------------------------------------------------ */
/* Doolittle's convention (ones on L's diagonal) instead of Crout's. */
static void doolittle_hint(kit_check_ctx *ctx, const kit_lu *f)
{
    for (size_t i = 0; i < (size_t)f->n; i++)
        if (f->F[i * (size_t)f->n + i] != 1.0)
            return;
    if (f->n > 1)
        kit_detail(ctx, "every diagonal entry is 1: that is Doolittle's LU (unit L).  Crout keeps the pivots l_jj on "
                        "the diagonal; the ones of U are implicit");
}

/* ---- 5: after a zero pivot --------------------------------------------------------- */
static void check_first_column(kit_check_ctx *ctx, const kit_lu *f)
{
    size_t N = (size_t)f->n;
    for (size_t i = 0; i < N; i++)
        if (f->F[i * N] != f->A[i * N]) {
            kit_fail(ctx, "L[%zu][0] = %.9g, but column 0 of L is column 0 of A (a_%zu0 = %.9g): nothing may change it",
                     i, f->F[i * N], i, f->A[i * N]);
            return;
        }
}

/* ---- 6: the benchmark's timed calls (float only) ---------------------------------- */
static void check_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    const lab09_data *d = data;
    kit_lu f = {d->n, d->a, NULL, d->u};
    (void)outs;
    if (!d->is_double)
        kit_lu_timed(ctx, &f, LAB09_TIMED_LINES, d->rotates ? d->n : 1,
                     d->blocked ? "lu_crout_blocked" : "lu_crout");
}

/* ---- the declaration --------------------------------------------------------------- */
/* The status Crout must return (0, or the failing column + 1); up to
 * LAB09_REF_MAX the reference factors into *L and *U (else NULL). */
static int expected_status(const lab09_data *d, double **L, double **U)
{
    if (d->n > LAB09_REF_MAX)
        return d->cls == LAB09_SINGULAR ? d->k : LU_OK;
    size_t nn = (size_t)d->n * (size_t)d->n;
    *L = kit_xmalloc((nn ? nn : 1) * sizeof **L, "the reference");
    *U = kit_xmalloc((nn ? nn : 1) * sizeof **U, "the reference");
    int fail_col = -1;
    int rc = kit_ref_crout(d->a, d->n, *L, *U, LU_PIVOT_RTOL(d->n, d->u), &fail_col);
    return rc == KIT_LU_OK ? LU_OK : fail_col + 1;
}

/* Status, finiteness, then the factors and the backward error (the
 * header's comment), once both outputs are there and of their lengths. */
static void judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab09_data *d = data;
    if (!ok)
        return;
    double *F = kit_lu_in_double(d->n, d->is_double, outs[1].got), *L = NULL, *U = NULL;
    kit_lu f = {d->n, d->a, F, d->u};
    int want = expected_status(d, &L, &U);
    int status_ok = check_status(ctx, want, *(const int32_t *)outs[0].got);
    int finite = check_finite(ctx, &f);
    if (want != LU_OK) {
        if (finite)
            check_first_column(ctx, &f);
        if (finite && !d->blocked && L)
            kit_lu_factors(ctx, &f, L, U, want - 1, FACTOR_SLACK);
    } else if (status_ok && finite) {
        if (L && !kit_lu_factors(ctx, &f, L, U, d->n, FACTOR_SLACK))
            doolittle_hint(ctx, &f);
        kit_lu_backward(ctx, &f, L != NULL);
    }
    free(F);
    free(L);
    free(U);
}

KIT_CHECK_DATASET(lab09)

#define A_ROW(type, dbl) {LAB09_OUT_A, type, .len_fmt = "output 'a' has %llu elements, expected n*n = %llu", \
                               .len_of = KIT_AT(lab09_data, nn), .when = KIT_WHEN(lab09_data, is_double, dbl)}
/* the status, then the factored matrix in its type, judged together by judge();
 * evidence (manifest): the factorization reads the whole matrix, handed over on the device */
const kit_check KIT_CHECK = {
    sizeof(lab09_data), check_generate, check_release, .input_of = KIT_AT(lab09_data, bytes), .input_per = 1,
    .out = {{LAB09_OUT_STATUS, KIT_T_I32, 1}, A_ROW(KIT_T_F32, 0), A_ROW(KIT_T_F64, 1)},
    .judge = judge, .timed = check_timed};
