/* lu_check.c - an LU factorization stored in place, judged (see
 * kit/lu_check.h): its backward error, its factors against the reference,
 * its timed calls.  Rows on kit_threads() threads, their findings combined
 * in row order (every report is the sequential one). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/compare.h"
#include "kit/lu_check.h"
#include "kit/rng.h"
#include "kit/timed.h"
#include "kit/util.h"
#include "lu_residual.h"

#define PROBES 3

void kit_lu_entry_name(int i, int j, char *buf, size_t len)
{
    if (j <= i)
        snprintf(buf, len, "L[%d][%d] (column %d of L)", i, j, j);
    else
        snprintf(buf, len, "U[%d][%d] (row %d of U)", i, j, i);
}

/* ---- the backward error, entry by entry (its rows: lu_residual.c) ---- */
static void backward_exact(kit_check_ctx *ctx, const kit_lu *f)
{
    size_t N = (size_t)f->n;
    double gu = kit_gamma((double)f->n, f->u), gd = kit_gamma((double)f->n + 1, KIT_U_F64);
    residual_row *rows = kit_lu_residual_rows(f, gu, gd);
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
        kit_lu_entry_name(wi, wj, where, sizeof where);
        kit_fail(ctx, "A - L U is too large at %zu entries; worst at (%d, %d), where the output holds %s: "
                      "|A - LU| = %.3g, rounding allows %.3g",
                 bad, wi, wj, where, w_err, w_bound);
        kit_detail(ctx, "||A - LU||_F / ||A||_F = %.3g (a correct factorization stays below %.3g)", rel, rel_bound);
    } else {
        kit_detail(ctx, "note: ||A - LU||_F / ||A||_F = %.3g (bound %.3g)", rel, rel_bound);
    }
}

/* ---- the backward error, probed ---- */
/* Row i of A x against L v (v = U x, va = |U| |x|): 1 when within the bound, else a failure. */
static int probe_row(kit_check_ctx *ctx, const kit_lu *f, size_t i, const double *x, const double *v,
                     const double *va, double gu, double gd)
{
    size_t N = (size_t)f->n;
    double z = 0, za = 0, y = 0, ya = 0;
    for (size_t k = 0; k <= i; k++) {
        z += f->F[i * N + k] * v[k];
        za += fabs(f->F[i * N + k]) * va[k];
    }
    for (size_t k = 0; k < N; k++) {
        y += f->A[i * N + k] * x[k];
        ya += fabs(f->A[i * N + k] * x[k]);
    }
    double bound = gu * za + gd * (ya + za);
    if (fabs(y - z) <= bound)
        return 1;
    kit_fail(ctx, "A x and L (U x) differ in row %zu for a random x: |difference| = %.3g, rounding allows %.3g: some "
                  "entry of row %zu of L or of U is wrong",
             i, fabs(y - z), bound, i);
    return 0;
}

static void backward_probe(kit_check_ctx *ctx, const kit_lu *f)
{
    size_t N = (size_t)f->n;
    double gu = kit_gamma((double)f->n, f->u), gd = kit_gamma(2.0 * f->n + 2, KIT_U_F64);
    double *x = kit_xmalloc(N * sizeof *x, "the checker"), *v = kit_xmalloc(N * sizeof *v, "the checker");
    double *va = kit_xmalloc(N * sizeof *va, "the checker");
    kit_rng r;
    kit_rng_seed(&r, f->n * 7919ull + 17, 7); /* fixed probes: a failure reproduces */
    for (int probe = 0; probe < PROBES && !ctx->failed; probe++) {
        for (size_t i = 0; i < N; i++)
            x[i] = 2.0 * kit_rng_unit(&r) - 1.0;
        for (size_t i = 0; i < N; i++) { /* v = U x, va = |U| |x| */
            double s = x[i], sa = fabs(x[i]);
            for (size_t k = i + 1; k < N; k++) {
                s += f->F[i * N + k] * x[k];
                sa += fabs(f->F[i * N + k] * x[k]);
            }
            v[i] = s, va[i] = sa;
        }
        for (size_t i = 0; i < N && probe_row(ctx, f, i, x, v, va, gu, gd); i++)
            ;
    }
    free(x);
    free(v);
    free(va);
}

void kit_lu_backward(kit_check_ctx *ctx, const kit_lu *f, int exact)
{
    if (exact)
        backward_exact(ctx, f);
    else
        backward_probe(ctx, f);
}

/* ---- the factors against the reference ---- */
/* acc[r][j] = sum_{k <= min(i,j)} |l_ik| |u_kj| for rows i = i0 .. i0 + g - 1
 * (g <= GROUP) of the reference.  In groups: each row of U, read once per
 * group, serves all of its rows (row by row it ran at the speed of memory);
 * every sum still adds its terms in k order. */
#define GROUP 4
static void abs_product_rows(size_t N, const double *L, const double *U, size_t i0, size_t g, double *const *acc)
{
    for (size_t r = 0; r < g; r++)
        memset(acc[r], 0, N * sizeof *acc[r]);
    for (size_t k = 0; k < i0 + g; k++) {
        const double *uk = U + k * N;
        size_t r0 = k > i0 ? k - i0 : 0; /* the rows i >= k */
        if (g - r0 == GROUP) {
            double l0 = fabs(L[i0 * N + k]), l1 = fabs(L[(i0 + 1) * N + k]);
            double l2 = fabs(L[(i0 + 2) * N + k]), l3 = fabs(L[(i0 + 3) * N + k]);
            double *a0 = acc[0], *a1 = acc[1], *a2 = acc[2], *a3 = acc[3];
#pragma omp simd
            for (size_t j = k; j < N; j++) {
                double u = fabs(uk[j]);
                a0[j] += l0 * u, a1[j] += l1 * u, a2[j] += l2 * u, a3[j] += l3 * u;
            }
            continue;
        }
        for (size_t r = r0; r < g; r++) {
            double lik = fabs(L[(i0 + r) * N + k]), *ar = acc[r];
#pragma omp simd
            for (size_t j = k; j < N; j++)
                ar[j] += lik * fabs(uk[j]);
        }
    }
}

/* One row's findings: wrong entries, and the first (in column order) of
 * those with the smallest step. */
typedef struct {
    size_t bad;
    int step, j;
    double got, exp, tol;
} factor_row;

/* Row i against the reference, m its row of |L||U|. */
static void check_factor_row(const kit_lu *f, const double *L, const double *U, int i, int steps, double g,
                             const double *m, factor_row *fr)
{
    size_t N = (size_t)f->n;
    fr->bad = 0, fr->step = f->n;
    for (int j = 0; j < f->n; j++) {
        int step = j <= i ? j : i; /* L[i][j] belongs to step j, U[i][j] to step i */
        if (step >= steps)
            continue;
        size_t ij = (size_t)i * N + (size_t)j;
        double exp = j <= i ? L[ij] : U[ij];
        double tol = g * (fabs(f->A[ij]) + m[j]);
        if (j > i)
            tol /= fabs(L[(size_t)i * N + (size_t)i]);
        if (fabs(f->F[ij] - exp) <= tol)
            continue;
        fr->bad++;
        if (step < fr->step)
            fr->step = step, fr->j = j, fr->got = f->F[ij], fr->exp = exp, fr->tol = tol;
    }
}

int kit_lu_factors(kit_check_ctx *ctx, const kit_lu *f, const double *L, const double *U, int steps, double slack)
{
    size_t N = (size_t)f->n;
    double g_tol = slack * kit_gamma((double)f->n, f->u);
    factor_row *rows = kit_xmalloc((N ? N : 1) * sizeof *rows, "the checker");
#pragma omp parallel num_threads(f->n >= 64 ? kit_threads() : 1)
    {
        double *m[GROUP];
        for (int r = 0; r < GROUP; r++)
            m[r] = kit_xmalloc((N ? N : 1) * sizeof *m[r], "the checker");
#pragma omp for schedule(dynamic, 2)
        for (int i0 = 0; i0 < f->n; i0 += GROUP) {
            int g = f->n - i0 < GROUP ? f->n - i0 : GROUP;
            abs_product_rows(N, L, U, (size_t)i0, (size_t)g, m);
            for (int r = 0; r < g; r++)
                check_factor_row(f, L, U, i0 + r, steps, g_tol, m[r], &rows[i0 + r]);
        }
        for (int r = 0; r < GROUP; r++)
            free(m[r]);
    }
    int first_step = f->n, fi = 0, fj = 0;
    size_t bad = 0;
    double got_v = 0, exp_v = 0, tol_v = 0;
    for (int i = 0; i < f->n; i++) {
        bad += rows[i].bad;
        if (rows[i].bad && rows[i].step < first_step)
            first_step = rows[i].step, fi = i, fj = rows[i].j, got_v = rows[i].got, exp_v = rows[i].exp,
            tol_v = rows[i].tol;
    }
    free(rows);
    if (!bad)
        return 1;
    char where[64];
    kit_lu_entry_name(fi, fj, where, sizeof where);
    kit_fail(ctx, "%zu entries of L and U differ from Crout's factors; the first wrong step is j = %d: %s = %.9g, "
                  "expected %.9g (allowed error %.2g)",
             bad, first_step, where, got_v, exp_v, tol_v);
    return 0;
}

/* ---- the timed calls ---- */
/* Entry (i, j) of A - LU of timed call k from its recorded row r and column
 * c; 1 when within the bound, 0 after a failure. */
static int timed_crossing(kit_check_ctx *ctx, const kit_lu *f, const kit_timed_view *v, int k, int r, int c,
                          int lines, const char *call)
{
    int n = f->n;
    const int64_t *idx = v->index + (size_t)k * v->per;
    size_t at = (size_t)k * v->per, col = (size_t)(lines + c) * n;
    int64_t i = idx[(size_t)r * n] / n, j = idx[col] % n, sh = v->shift[k];
    /* row i of the output holds l_ip (p <= i); column j holds u_pj (p < j), u_jj = 1 */
    double lu = 0, mag = 0;
    int bad_layout = 0;
    for (int64_t p = 0; p <= (i < j ? i : j); p++) {
        bad_layout |= idx[(size_t)r * n + p] != i * n + p || idx[col + p] != p * n + j;
        double l = kit_timed_f32(v, at + (size_t)r * n + p);
        double u = p == j ? 1.0 : kit_timed_f32(v, at + col + p);
        lu += l * u, mag += fabs(l * u);
    }
    if (bad_layout) {
        kit_fail(ctx, "timed call %d of %s: the record of its rows and columns is malformed", v->call[k], call);
        return 0;
    }
    double gu = kit_gamma((double)n, f->u), gd = kit_gamma((double)n + 1, KIT_U_F64);
    double a = v->scale[k] * f->A[(size_t)((i + sh) % n) * n + (size_t)((j + sh) % n)];
    double bound = gu * mag + gd * (fabs(a) + mag);
    if (!(fabs(a - lu) <= bound))
        kit_timed_fail(ctx, v, k, call, "A", "(A - LU)[%lld][%lld] = %.3g, rounding allows %.3g", (long long)i,
                       (long long)j, fabs(a - lu), bound);
    return 1;
}

void kit_lu_timed(kit_check_ctx *ctx, const kit_lu *f, int lines, int64_t shift_limit, const char *call)
{
    kit_timed_view v;
    int n = f->n, per = 2 * lines * n;
    if (n < 1 || kit_timed_load(ctx, per, 0, (int64_t)n * n, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, shift_limit, call))
            break;
        for (int r = 0; r < lines && !ctx->failed; r++)
            for (int c = 0; c < lines && !ctx->failed; c++)
                if (!timed_crossing(ctx, f, &v, k, r, c, lines, call))
                    break;
    }
}
