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

static void residual_of_row(const kit_lu *f, size_t i, double gu, double gd, double *p, double *pa, residual_row *rr)
{
    size_t N = (size_t)f->n;
    memset(rr, 0, sizeof *rr);
    /* row i of L U and of |L||U| */
    memset(p, 0, N * sizeof *p);
    memset(pa, 0, N * sizeof *pa);
    for (size_t k = 0; k <= i; k++) {
        double lik = f->F[i * N + k];
        const double *uk = f->F + k * N;
        p[k] += lik; /* u_kk = 1 */
        pa[k] += fabs(lik);
        for (size_t j = k + 1; j < N; j++) {
            p[j] += lik * uk[j];
            pa[j] += fabs(lik * uk[j]);
        }
    }
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
        double *p = kit_xmalloc((N ? N : 1) * sizeof *p, "A - L U");
        double *pa = kit_xmalloc((N ? N : 1) * sizeof *pa, "A - L U");
#pragma omp for schedule(dynamic, 8)
        for (size_t i = 0; i < N; i++)
            residual_of_row(f, i, gu, gd, p, pa, &rows[i]);
        free(p);
        free(pa);
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
