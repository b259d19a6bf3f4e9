/* lu_residual.c - the rows of A - L U of factors stored in place (see
 * lu_residual.h): the checker's backward error (lu_check.c) and the ratio
 * of Frobenius norms lab09's show mode prints, and the factors in double
 * both start from.  Apart from lu_check.c, so that a runner
 * (kit_lu_relative_residual, kit_lu_in_double) links none of the checker. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit/rng.h"
#include "kit/util.h"
#include "lu_residual.h"

/* Rows of A - L U go in groups of GROUP: each row k of U, read once per
 * group, serves all of them (row by row, the check read all of U once a row
 * and ran at the speed of memory).  Every entry still sums its terms in k
 * order: the same bits as row by row. */
#define GROUP 4

/* Rows i0 .. i0 + g - 1 of L U into p[r] and of |L||U| into pa[r]. */
static void product_rows(const kit_lu *f, size_t i0, size_t g, double *const *p, double *const *pa)
{
    size_t N = (size_t)f->n;
    for (size_t r = 0; r < g; r++) {
        memset(p[r], 0, N * sizeof *p[r]);
        memset(pa[r], 0, N * sizeof *pa[r]);
    }
    for (size_t k = 0; k < i0 + g; k++) { /* terms k <= min(i, j) */
        const double *uk = f->F + k * N;
        size_t r0 = k > i0 ? k - i0 : 0; /* the rows i >= k */
        for (size_t r = r0; r < g; r++) { /* u_kk = 1 */
            double lik = f->F[(i0 + r) * N + k];
            p[r][k] += lik;
            pa[r][k] += fabs(lik);
        }
        if (g - r0 == GROUP) {
            double l0 = f->F[i0 * N + k], l1 = f->F[(i0 + 1) * N + k];
            double l2 = f->F[(i0 + 2) * N + k], l3 = f->F[(i0 + 3) * N + k];
            double *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
            double *a0 = pa[0], *a1 = pa[1], *a2 = pa[2], *a3 = pa[3];
#pragma omp simd
            for (size_t j = k + 1; j < N; j++) {
                double u = uk[j];
                p0[j] += l0 * u, a0[j] += fabs(l0 * u);
                p1[j] += l1 * u, a1[j] += fabs(l1 * u);
                p2[j] += l2 * u, a2[j] += fabs(l2 * u);
                p3[j] += l3 * u, a3[j] += fabs(l3 * u);
            }
            continue;
        }
        for (size_t r = r0; r < g; r++) {
            double lik = f->F[(i0 + r) * N + k], *pr = p[r], *ar = pa[r];
#pragma omp simd
            for (size_t j = k + 1; j < N; j++)
                pr[j] += lik * uk[j], ar[j] += fabs(lik * uk[j]);
        }
    }
}

/* Row i of A - L U from its rows p of L U and pa of |L||U|. */
static void residual_of_row(const kit_lu *f, size_t i, double gu, double gd, const double *p, const double *pa,
                            residual_row *rr)
{
    size_t N = (size_t)f->n;
    memset(rr, 0, sizeof *rr);
    for (size_t j = 0; j < N; j++) {
        double a = f->A[i * N + j], r = a - p[j];
        double bound = gu * pa[j] + gd * (fabs(a) + pa[j]);
        rr->r2 += r * r, rr->a2 += a * a, rr->m2 += pa[j] * pa[j];
        if (!(fabs(r) <= bound)) {
            double ratio = bound > 0 ? fabs(r) / bound : INFINITY;
            if (!rr->bad++ || ratio > rr->worst)
                rr->worst = ratio, rr->j = (int)j, rr->err = fabs(r), rr->bound = bound;
        }
    }
}

residual_row *kit_lu_residual_rows(const kit_lu *f, double gu, double gd)
{
    size_t N = (size_t)f->n;
    residual_row *rows = kit_xmalloc((N ? N : 1) * sizeof *rows, "A - L U");
#pragma omp parallel num_threads(N >= 64 ? kit_threads() : 1)
    {
        double *p[GROUP], *pa[GROUP];
        for (int r = 0; r < GROUP; r++) {
            p[r] = kit_xmalloc((N ? N : 1) * sizeof *p[r], "A - L U");
            pa[r] = kit_xmalloc((N ? N : 1) * sizeof *pa[r], "A - L U");
        }
#pragma omp for schedule(dynamic, 2)
        for (size_t i0 = 0; i0 < N; i0 += GROUP) {
            size_t g = N - i0 < GROUP ? N - i0 : GROUP;
            product_rows(f, i0, g, p, pa);
            for (size_t r = 0; r < g; r++)
                residual_of_row(f, i0 + r, gu, gd, p[r], pa[r], &rows[i0 + r]);
        }
        for (int r = 0; r < GROUP; r++) {
            free(p[r]);
            free(pa[r]);
        }
    }
    return rows;
}

double kit_lu_relative_residual(const kit_lu *f)
{
    residual_row *rows = kit_lu_residual_rows(f, 0, 0);
    double r2 = 0, a2 = 0;
    for (size_t i = 0; i < (size_t)f->n; i++) /* in row order: the checker's sum */
        r2 += rows[i].r2, a2 += rows[i].a2;
    free(rows);
    return a2 > 0 ? sqrt(r2 / a2) : sqrt(r2);
}

double *kit_lu_in_double(int n, int is_double, const void *m)
{
    size_t nn = (size_t)n * (size_t)n;
    double *F = kit_xmalloc((nn ? nn : 1) * sizeof *F, "the factors in double");
    for (size_t t = 0; t < nn; t++)
        F[t] = is_double ? ((const double *)m)[t] : (double)((const float *)m)[t];
    return F;
}
