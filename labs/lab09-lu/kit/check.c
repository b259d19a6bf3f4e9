/* check.c - lab09 checker: Crout LU factors and status.
 *
 * Outputs of the runner: "status" (i32) and "a" (the factored matrix, f32 or
 * f64, n*n; L on and below the diagonal, U strictly above, U's unit diagonal
 * implicit).  u is the unit roundoff of the type, u_d that of double (the
 * checker's own arithmetic), gamma_k(u) = k u / (1 - k u).
 *
 * 1. Status.  The expected one comes from kit_ref_crout (double, same pivot
 *    test as lu.h) for n <= LAB09_REF_MAX, otherwise from the construction
 *    (a singular leading k x k minor stops Crout at column k - 1).
 * 2. No NaN or infinity anywhere, also after a reported zero pivot.
 * 3. Backward error (rigorous).  Any LU variant in precision u, whatever the
 *    order of its sums, gives computed factors with
 *        |A - L U| <= gamma_n(u) |L| |U|         (Higham, Accuracy and
 *    Stability of Numerical Algorithms, 2nd ed., thm 9.3),
 *    with |L|, |U| the COMPUTED factors.  For n <= LAB09_REF_MAX the checker
 *    forms A - LU entry by entry in double and allows, per entry,
 *        gamma_n(u) (|L||U|)_ij + gamma_{n+1}(u_d) (|A| + |L||U|)_ij,
 *    the second term covering its own rounding.  It also reports
 *    ||A - LU||_F / ||A||_F.  For larger n (O(n^3) would take too long) it
 *    probes with three random vectors x: |A x - L (U x)| <= gamma_n(u)
 *    |L| (|U| |x|) + gamma_{2n+2}(u_d) (|A| |x| + |L| (|U| |x|)) row by row -
 *    it holds because |(A - LU) x| <= |A - LU| |x|, and a wrong entry of the
 *    factors shows in A x - L(U x) unless three random x all cancel it.
 * 4. Factors against the reference (n <= LAB09_REF_MAX), step by step, so
 *    that the first wrong column of L / row of U is named.  The entries of
 *    step j carry the rounding errors of their own sums, bounded by
 *    gamma_n(u) (|A| + |L||U|) (|L||U| of the reference factors; for U's row
 *    divided by |l_jj|), plus what they inherit from earlier steps.  For the
 *    matrix classes of this lab (diagonally dominant, 2D Poisson, the
 *    constructed zero-diagonal class: well-conditioned factors, growth factor
 *    at most about 2) the inherited part stays within a small multiple of
 *    the local bound: the checker allows FACTOR_SLACK times it.  (Measured
 *    with CPU float versions of the per-step and of the blocked order, FMA
 *    as on the GPU, n = 1000 to 1089, three seeds: the largest ratio
 *    error / (gamma_n(u) (|A| + |L||U|)) was 0.1 to 0.25 for 2D Poisson, whose
 *    small fill-in entries of U lose relative accuracy, and below 0.1 for
 *    the other classes; a slack of 8 leaves a margin of more than 30.)
 * 5. After a reported zero pivot at column f: column 0 of L must still be
 *    A's column 0 (no step changes it), and for the per-step version every
 *    column of L and row of U before f must match the reference as in 4.
 * 6. A benchmark run: entries of A - LU of a few timed calls on fresh
 *    matrices, with the bound of 3 (check_timed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"
#include "kit/rng.h"
#include "kit/timed.h"
#include "kit/util.h"
#include "lu.h"

#define LAB09_REF_MAX 1100 /* O(n^3) checks up to here */
#ifndef FACTOR_SLACK
#define FACTOR_SLACK 8.0
#endif
#define PROBES 3

typedef struct {
    const lab09_data *d;
    int n;
    size_t N;
    const double *A;
    double *F;       /* the student's output, in double */
    double *L, *U;   /* reference factors (NULL above LAB09_REF_MAX) */
    int ref_status;  /* expected status: 0, or failing column + 1 */
} lu_check;

static double gam(double k, double u) { return kit_gamma(k, u); }

/* "column j of L" or "row i of U" for entry (i, j) of the in-place output. */
static void part_name(int i, int j, char *buf, size_t len)
{
    if (j <= i)
        snprintf(buf, len, "L[%d][%d] (column %d of L)", i, j, j);
    else
        snprintf(buf, len, "U[%d][%d] (row %d of U)", i, j, i);
}

/* ---- 1, 2: status and finiteness ---------------------------------------------- */
static int check_finite(kit_check_ctx *ctx, const lu_check *c)
{
    for (size_t t = 0; t < c->N * c->N; t++)
        if (!isfinite(c->F[t])) {
            char where[64];
            part_name((int)(t / c->N), (int)(t % c->N), where, sizeof where);
            kit_fail(ctx, "%s is %s: no NaN or infinity may appear (never divide by a pivot you rejected, and report "
                          "a zero pivot through the status)",
                     where, isnan(c->F[t]) ? "NaN" : "infinite");
            return 0;
        }
    return 1;
}

static int check_status(kit_check_ctx *ctx, const lu_check *c, int got)
{
    if (got == c->ref_status)
        return 1;
    if (c->ref_status == 0)
        kit_fail(ctx, "the function returned %d (a zero pivot in column %d), but every leading minor of this matrix "
                      "is regular: expected LU_OK (0)",
                 got, got - 1);
    else if (got == 0)
        kit_fail(ctx, "the function returned LU_OK, but the leading %d x %d minor is singular: l_%d%d is zero up to "
                      "rounding; expected status %d (column %d)",
                 c->ref_status, c->ref_status, c->ref_status - 1, c->ref_status - 1, c->ref_status, c->ref_status - 1);
    else
        kit_fail(ctx, "the function returned %d (column %d), expected %d: the first zero pivot is in column %d", got,
                 got - 1, c->ref_status, c->ref_status - 1);
    return 0;
}

/* ---- 4: factors against the reference -------------------------------------------- */
/* acc[j] = sum_{k <= min(i,j)} |l_ik| |u_kj| for one row i of the reference. */
static void abs_product_row(const lu_check *c, int i, double *acc)
{
    size_t N = c->N;
    memset(acc, 0, N * sizeof *acc);
    for (size_t k = 0; k <= (size_t)i; k++) {
        double lik = fabs(c->L[(size_t)i * N + k]);
        const double *uk = c->U + k * N;
        for (size_t j = k; j < N; j++)
            acc[j] += lik * fabs(uk[j]);
    }
}

/* One row's findings of check_factors: wrong entries, and the first (in
 * column order) of those with the smallest step. */
typedef struct {
    size_t bad;
    int step, j;
    double got, exp, tol;
} factor_row;

static void check_factor_row(const lu_check *c, int i, int steps, double g, double *m, factor_row *fr)
{
    size_t N = c->N;
    fr->bad = 0, fr->step = c->n;
    abs_product_row(c, i, m);
    for (int j = 0; j < c->n; j++) {
        int step = j <= i ? j : i; /* L[i][j] belongs to step j, U[i][j] to step i */
        if (step >= steps)
            continue;
        size_t ij = (size_t)i * N + (size_t)j;
        double exp = j <= i ? c->L[ij] : c->U[ij];
        double tol = g * (fabs(c->A[ij]) + m[j]);
        if (j > i)
            tol /= fabs(c->L[(size_t)i * N + (size_t)i]);
        if (fabs(c->F[ij] - exp) <= tol)
            continue;
        fr->bad++;
        if (step < fr->step)
            fr->step = step, fr->j = j, fr->got = c->F[ij], fr->exp = exp, fr->tol = tol;
    }
}

/* Compares the entries of steps 0 .. steps-1 (column j of L, row j of U);
 * reports the earliest wrong step.  Rows on kit_threads() threads, their
 * findings combined in row order (the report is the sequential one). */
static int check_factors(kit_check_ctx *ctx, const lu_check *c, int steps)
{
    size_t N = c->N;
    double g = FACTOR_SLACK * gam((double)c->n, c->d->u);
    factor_row *rows = kit_xmalloc((N ? N : 1) * sizeof *rows, "the checker");
#pragma omp parallel num_threads(c->n >= 64 ? kit_threads() : 1)
    {
        double *m = kit_xmalloc((N ? N : 1) * sizeof *m, "the checker");
#pragma omp for schedule(dynamic, 8)
        for (int i = 0; i < c->n; i++)
            check_factor_row(c, i, steps, g, m, &rows[i]);
        free(m);
    }
    int first_step = c->n, fi = 0, fj = 0;
    size_t bad = 0;
    double got_v = 0, exp_v = 0, tol_v = 0;
    for (int i = 0; i < c->n; i++) {
        bad += rows[i].bad;
        if (rows[i].bad && rows[i].step < first_step)
            first_step = rows[i].step, fi = i, fj = rows[i].j, got_v = rows[i].got, exp_v = rows[i].exp,
            tol_v = rows[i].tol;
    }
    free(rows);
    if (!bad)
        return 1;
    char where[64];
    part_name(fi, fj, where, sizeof where);
    kit_fail(ctx, "%zu entries of L and U differ from Crout's factors; the first wrong step is j = %d: %s = %.9g, "
                  "expected %.9g (allowed error %.2g)",
             bad, first_step, where, got_v, exp_v, tol_v);
    return 0;
}

/* ---- 3: backward error -------------------------------------------------------------- */
/* One row of A - L U from the student's factors: sums of squares, wrong
 * entries and the worst of them (the first of equals). */
typedef struct {
    double r2, a2, m2, worst, err, bound;
    size_t bad;
    int j;
} residual_row;

static void residual_of_row(const lu_check *c, size_t i, double gu, double gd, double *p, double *pa, residual_row *rr)
{
    size_t N = c->N;
    memset(rr, 0, sizeof *rr);
    /* row i of L U and of |L||U| */
    memset(p, 0, N * sizeof *p);
    memset(pa, 0, N * sizeof *pa);
    for (size_t k = 0; k <= i; k++) {
        double lik = c->F[i * N + k];
        const double *uk = c->F + k * N;
        p[k] += lik; /* u_kk = 1 */
        pa[k] += fabs(lik);
        for (size_t j = k + 1; j < N; j++) {
            p[j] += lik * uk[j];
            pa[j] += fabs(lik * uk[j]);
        }
    }
    for (size_t j = 0; j < N; j++) {
        double a = c->A[i * N + j], r = a - p[j];
        double bound = gu * pa[j] + gd * (fabs(a) + pa[j]);
        rr->r2 += r * r, rr->a2 += a * a, rr->m2 += pa[j] * pa[j];
        if (!(fabs(r) <= bound)) {
            double ratio = bound > 0 ? fabs(r) / bound : INFINITY;
            if (!rr->bad++ || ratio > rr->worst)
                rr->worst = ratio, rr->j = (int)j, rr->err = fabs(r), rr->bound = bound;
        }
    }
}

static void backward_exact(kit_check_ctx *ctx, const lu_check *c)
{
    size_t N = c->N;
    double gu = gam((double)c->n, c->d->u), gd = gam((double)c->n + 1, KIT_U_F64);
    residual_row *rows = kit_xmalloc((N ? N : 1) * sizeof *rows, "the checker");
#pragma omp parallel num_threads(N >= 64 ? kit_threads() : 1)
    {
        double *p = kit_xmalloc((N ? N : 1) * sizeof *p, "the checker");
        double *pa = kit_xmalloc((N ? N : 1) * sizeof *pa, "the checker");
#pragma omp for schedule(dynamic, 8)
        for (size_t i = 0; i < N; i++)
            residual_of_row(c, i, gu, gd, p, pa, &rows[i]);
        free(p);
        free(pa);
    }
    double r2 = 0, a2 = 0, m2 = 0, worst = 0;
    size_t bad = 0;
    int wi = 0, wj = 0;
    double w_err = 0, w_bound = 0;
    for (size_t i = 0; i < N; i++) { /* in row order: the sequential report */
        r2 += rows[i].r2, a2 += rows[i].a2, m2 += rows[i].m2;
        if (rows[i].bad && (!bad || rows[i].worst > worst))
            worst = rows[i].worst, wi = (int)i, wj = rows[i].j, w_err = rows[i].err, w_bound = rows[i].bound;
        bad += rows[i].bad;
    }
    free(rows);
    double rel = a2 > 0 ? sqrt(r2 / a2) : sqrt(r2), rel_bound = a2 > 0 ? gu * sqrt(m2 / a2) : 0;
    if (bad) {
        char where[64];
        part_name(wi, wj, where, sizeof where);
        kit_fail(ctx, "A - L U is too large at %zu entries; worst at (%d, %d), where the output holds %s: "
                      "|A - LU| = %.3g, rounding allows %.3g",
                 bad, wi, wj, where, w_err, w_bound);
        kit_detail(ctx, "||A - LU||_F / ||A||_F = %.3g (a correct factorization stays below %.3g)", rel, rel_bound);
    } else {
        kit_detail(ctx, "note: ||A - LU||_F / ||A||_F = %.3g (bound %.3g)", rel, rel_bound);
    }
}

static void backward_probe(kit_check_ctx *ctx, const lu_check *c)
{
    size_t N = c->N;
    double gu = gam((double)c->n, c->d->u), gd = gam(2.0 * c->n + 2, KIT_U_F64);
    double *x = kit_xmalloc(N * sizeof *x, "the checker"), *v = kit_xmalloc(N * sizeof *v, "the checker");
    double *va = kit_xmalloc(N * sizeof *va, "the checker");
    kit_rng r;
    kit_rng_seed(&r, c->d->n * 7919ull + 17, 7); /* fixed probes: a failure reproduces */
    for (int probe = 0; probe < PROBES && !ctx->failed; probe++) {
        for (size_t i = 0; i < N; i++)
            x[i] = 2.0 * kit_rng_unit(&r) - 1.0;
        for (size_t i = 0; i < N; i++) { /* v = U x, va = |U| |x| */
            double s = x[i], sa = fabs(x[i]);
            for (size_t k = i + 1; k < N; k++) {
                s += c->F[i * N + k] * x[k];
                sa += fabs(c->F[i * N + k] * x[k]);
            }
            v[i] = s, va[i] = sa;
        }
        for (size_t i = 0; i < N; i++) { /* z = L v vs y = A x */
            double z = 0, za = 0, y = 0, ya = 0;
            for (size_t k = 0; k <= i; k++) {
                z += c->F[i * N + k] * v[k];
                za += fabs(c->F[i * N + k]) * va[k];
            }
            for (size_t k = 0; k < N; k++) {
                y += c->A[i * N + k] * x[k];
                ya += fabs(c->A[i * N + k] * x[k]);
            }
            double bound = gu * za + gd * (ya + za);
            if (!(fabs(y - z) <= bound)) {
                kit_fail(ctx, "A x and L (U x) differ in row %zu for a random x: |difference| = %.3g, rounding allows "
                              "%.3g: some entry of row %zu of L or of U is wrong",
                         i, fabs(y - z), bound, i);
                break;
            }
        }
    }
    free(x);
    free(v);
    free(va);
}

/* Doolittle's convention (ones on L's diagonal) instead of Crout's. */
static void doolittle_hint(kit_check_ctx *ctx, const lu_check *c)
{
    for (size_t i = 0; i < c->N; i++)
        if (c->F[i * c->N + i] != 1.0)
            return;
    if (c->n > 1)
        kit_detail(ctx, "every diagonal entry is 1: that is Doolittle's LU (unit L).  Crout keeps the pivots l_jj on "
                        "the diagonal; the ones of U are implicit");
}

/* ---- 5: after a zero pivot --------------------------------------------------------- */
static void check_first_column(kit_check_ctx *ctx, const lu_check *c)
{
    for (size_t i = 0; i < c->N; i++)
        if (c->F[i * c->N] != c->A[i * c->N]) {
            kit_fail(ctx, "L[%zu][0] = %.9g, but column 0 of L is column 0 of A (a_%zu0 = %.9g): nothing may change it",
                     i, c->F[i * c->N], i, c->A[i * c->N]);
            return;
        }
}

/* ---- 6: the benchmark's timed calls ------------------------------------------------ */
/* A benchmark run recorded whole rows and columns of the factored matrix of a
 * few timed calls (chosen at random as they happened, and the last), each on
 * a fresh A (dataset.h, timed.h).  At every crossing (i, j) of a recorded row
 * and column the entry of A - LU is formed and held to the bound of 3, so a
 * factorization remembered from an earlier call (or A left unfactored) fails. */
static void check_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    const lab09_data *d = data;
    kit_timed_view v;
    int n = d->n, lines = LAB09_TIMED_LINES, per = 2 * LAB09_TIMED_LINES * n;
    const char *call = d->blocked ? "lu_crout_blocked" : "lu_crout";
    (void)outs;
    if (d->is_double || n < 1 || kit_timed_load(ctx, per, 0, (int64_t)n * n, &v) != 1)
        return;
    double gu = gam((double)n, d->u), gd = gam((double)n + 1, KIT_U_F64);
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, LAB09_TIMED_ROTATES(d->cls) ? n : 1, call))
            break;
        const int64_t *idx = v.index + (size_t)k * per;
        size_t at = (size_t)k * per;
        for (int r = 0; r < lines && !ctx->failed; r++) {
            int64_t i = idx[(size_t)r * n] / n;
            for (int c = 0; c < lines && !ctx->failed; c++) {
                size_t col = (size_t)(lines + c) * n;
                int64_t j = idx[col] % n, sh = v.shift[k];
                /* row i of the output holds l_ip (p <= i); column j holds u_pj (p < j), u_jj = 1 */
                double lu = 0, mag = 0;
                int bad_layout = 0;
                for (int64_t p = 0; p <= (i < j ? i : j); p++) {
                    bad_layout |= idx[(size_t)r * n + p] != i * n + p || idx[col + p] != p * n + j;
                    double l = kit_timed_f32(&v, at + (size_t)r * n + p);
                    double u = p == j ? 1.0 : kit_timed_f32(&v, at + col + p);
                    lu += l * u, mag += fabs(l * u);
                }
                if (bad_layout) {
                    kit_fail(ctx, "timed call %d of %s: the record of its rows and columns is malformed", v.call[k],
                             call);
                    break;
                }
                double a = v.scale[k] * d->a[(size_t)((i + sh) % n) * n + (size_t)((j + sh) % n)];
                double bound = gu * mag + gd * (fabs(a) + mag);
                if (!(fabs(a - lu) <= bound))
                    kit_timed_fail(ctx, &v, k, call, "A", "(A - LU)[%lld][%lld] = %.3g, rounding allows %.3g",
                                   (long long)i, (long long)j, fabs(a - lu), bound);
            }
        }
    }
}

/* ---- the declaration --------------------------------------------------------------- */
static void expected_status(lu_check *c)
{
    if (c->n <= LAB09_REF_MAX) {
        size_t nn = c->N * c->N;
        c->L = kit_xmalloc((nn ? nn : 1) * sizeof *c->L, "the reference");
        c->U = kit_xmalloc((nn ? nn : 1) * sizeof *c->U, "the reference");
        int fail_col = -1;
        int rc = kit_ref_crout(c->A, c->n, c->L, c->U, LU_PIVOT_RTOL(c->n, c->d->u), &fail_col);
        c->ref_status = rc == KIT_LU_OK ? LU_OK : fail_col + 1;
    } else {
        c->ref_status = c->d->cls == LAB09_SINGULAR ? c->d->k : LU_OK;
    }
}

/* Status, finiteness, then the factors and the backward error (the
 * header's comment), once both outputs are there and of their lengths. */
static void judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab09_data *d = data;
    if (!ok)
        return;
    lu_check c = {d, d->n, (size_t)d->n, d->a, NULL, NULL, NULL, 0};
    size_t nn = c.N * c.N;
    c.F = kit_xmalloc((nn ? nn : 1) * sizeof *c.F, "the checker");
    for (size_t t = 0; t < nn; t++)
        c.F[t] = d->is_double ? ((const double *)outs[1].got)[t] : (double)((const float *)outs[1].got)[t];
    expected_status(&c);
    int status_ok = check_status(ctx, &c, *(const int32_t *)outs[0].got);
    int finite = check_finite(ctx, &c);
    if (c.ref_status != LU_OK) {
        if (finite)
            check_first_column(ctx, &c);
        if (finite && !d->blocked && c.L)
            check_factors(ctx, &c, c.ref_status - 1);
    } else if (status_ok && finite) {
        if (c.L && !check_factors(ctx, &c, c.n))
            doolittle_hint(ctx, &c);
        if (c.L)
            backward_exact(ctx, &c);
        else
            backward_probe(ctx, &c);
    }
    free(c.F);
    free(c.L);
    free(c.U);
}

/* evidence (manifest): the factorization reads the whole matrix, handed over on the device */
static double input(const void *data)
{
    const lab09_data *d = data;
    return (double)d->n * d->n * (d->is_double ? 8 : 4);
}

KIT_CHECK_DATASET(lab09)

#define A_ROW(type, dbl) {LAB09_OUT_A, type, .len_fmt = "output 'a' has %llu elements, expected n*n = %llu", \
                               .len_of = KIT_AT(lab09_data, nn), .when = KIT_WHEN(lab09_data, is_double, dbl)}
/* the status, then the factored matrix in its type, judged together by judge() */
const kit_check KIT_CHECK = {
    sizeof(lab09_data), check_generate, check_release, .input = input,
    .out = {{LAB09_OUT_STATUS, KIT_T_I32, 1}, A_ROW(KIT_T_F32, 0), A_ROW(KIT_T_F64, 1)},
    .judge = judge, .timed = check_timed};
