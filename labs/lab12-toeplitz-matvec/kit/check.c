/* check.c - lab12 checker: u = A p on the nx x ny grid against a
 * double-precision reference (B and p as dataset.h says).
 *
 * Tolerance: every element of u is a sum of n = nx*ny products.  Whatever the
 * order of its additions (tile by tile, FMA or not), a float computation of
 * it differs from the exact value by at most
 *     kit_sum_bound(n + 1, sum_J |B p|, u_float)
 * (n rounded products summed in any order, plus the final rounding: the bound
 * of lab03's dot product).  The reference is computed in double with exact
 * products, far more accurate than that.
 *
 * Up to n^2 = LAB12_FULL_MAX products every element is compared.  Above, the
 * O(n^2) reference would take seconds per case, so the checker compares a
 * sample: whole grid rows (the first two, the last two - where a partial tile
 * along y or an unguarded load would show - and SAMPLE_ROWS random ones) and
 * SAMPLE_POINTS random points anywhere, and checks every element for NaN
 * (never written: the harness poisons u) and infinity.  The kernels this lab
 * teaches are wrong by whole tiles or grid rows, which the rows catch; racy
 * ones are the sanitizer tests' to find.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/compare.h"
#include "kit/rng.h"
#include "kit/timed.h"
#include "kit/util.h"

#define LAB12_FULL_MAX (1LL << 28)
#define SAMPLE_ROWS 6
#define SAMPLE_POINTS 1024

/* u at grid point (ix, iy) for p'[J] = scale * p[(J + shift) % n] (the input
 * of a timed call; shift 0, scale 1: the case's own p), with the sum of the
 * terms' magnitudes. */
static double reference(const lab12_data *d, int ix, int iy, int64_t shift, double scale, double *abs_sum)
{
    size_t ldb = LAB12_LDB(d->nx);
    double s = 0, sa = 0;
    for (int jy = 0; jy < d->ny; jy++) {
        const float *brow = d->b + (size_t)(jy - iy + d->ny - 1) * ldb + (d->nx - 1 - ix); /* brow[jx]: B(jx - ix + nx - 1) */
        size_t j0 = (size_t)jy * d->nx;
        for (int jx = 0; jx < d->nx; jx++) {
            double pj = shift || scale != 1 ? (double)(float)(scale * d->p[(j0 + jx + (size_t)shift) % (size_t)d->n])
                                            : (double)d->p[j0 + jx];
            double t = (double)brow[jx] * pj;
            s += t, sa += fabs(t);
        }
    }
    *abs_sum = sa;
    return s;
}

typedef struct {
    const lab12_data *d;
    const float *u;
    double beta; /* the bound per unit of sum |B p| */
    size_t checked, bad, first;
    double f_exp, f_got, f_bound, worst;
    size_t worst_at;
    int zero_only; /* every wrong element is 0 */
} judge_t;

static void judge(judge_t *j, size_t i)
{
    double sa, exp = reference(j->d, (int)(i % j->d->nx), (int)(i / j->d->nx), 0, 1, &sa);
    double got = j->u[i], bound = j->beta * sa, err = fabs(got - exp);
    double ratio = err == 0 ? 0 : bound > 0 && !isnan(err) ? err / bound : INFINITY;
    j->checked++;
    if (!(ratio <= j->worst)) /* NaN: infinitely far */
        j->worst = ratio, j->worst_at = i;
    if (err <= bound) /* false for NaN */
        return;
    if (!j->bad++)
        j->first = i, j->f_exp = exp, j->f_got = got, j->f_bound = bound, j->zero_only = 1;
    if (got != 0)
        j->zero_only = 0;
}

static void report(kit_check_ctx *ctx, const judge_t *j, int sampled)
{
    const lab12_data *d = j->d;
    int fx = (int)(j->first % d->nx), fy = (int)(j->first / d->nx);
    if (!j->bad)
        return;
    kit_fail(ctx, "u: %zu of %zu %selements differ; first wrong u[%zu] (grid point ix=%d, iy=%d): expected %.9g, got "
                  "%.9g (allowed error %.2g); largest error %.2gx its bound at u[%zu]",
             j->bad, j->checked, sampled ? "compared " : "", j->first, fx, fy, j->f_exp, j->f_got, j->f_bound, j->worst,
             j->worst_at);
    if (isnan(j->f_got))
        kit_detail(ctx, "u[%zu] is NaN: no thread wrote it (the harness fills u with NaN before your call) - does your "
                        "grid cover all %d x %d points, the last partial tile included?",
                   j->first, d->nx, d->ny);
    else if (j->zero_only)
        kit_detail(ctx, "every wrong element is 0: the kernel stored its sum without adding any product to it");
}

/* A benchmark run sampled u of a few timed calls with the (shift, scale) of
 * their fresh p (timed.h): every sampled element is recomputed, so an output
 * left from an earlier call fails. */
static double timed_element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
{
    const lab12_data *d = data;
    double sa, exp = reference(d, (int)(i % d->nx), (int)(i / d->nx), shift, scale, &sa);
    *bound = kit_sum_bound((double)d->n + 1, 1.0, KIT_U_F32) * sa;
    return exp;
}

/* Every element of u, or the sample of rows and points and every element
 * for NaN or infinity (the header's comment), once u is there and of its length. */
static void check_u(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab12_data *d = data;
    const float *got = outs[0].got;
    if (!ok)
        return;
    judge_t j = {d, got, kit_sum_bound((double)d->n + 1, 1.0, KIT_U_F32), 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int sampled = (long long)d->n * (long long)d->n > LAB12_FULL_MAX;
    if (!sampled) {
        for (size_t i = 0; i < (size_t)d->n; i++)
            judge(&j, i);
    } else {
        kit_rng r;
        kit_rng_seed(&r, ctx->seed, 12); /* a failure reproduces with the case's seed */
        unsigned char *row = kit_xmalloc((size_t)d->ny, "the checker");
        memset(row, 0, (size_t)d->ny);
        row[0] = row[d->ny > 1] = row[d->ny - 1] = row[d->ny > 1 ? d->ny - 2 : 0] = 1;
        for (int t = 0; t < SAMPLE_ROWS; t++)
            row[kit_rng_u64(&r) % (uint64_t)d->ny] = 1;
        for (int iy = 0; iy < d->ny; iy++)
            for (int ix = 0; row[iy] && ix < d->nx; ix++)
                judge(&j, (size_t)iy * d->nx + ix);
        for (int t = 0; t < SAMPLE_POINTS; t++)
            judge(&j, (size_t)(kit_rng_u64(&r) % (uint64_t)d->n));
        free(row);
        for (size_t i = 0; !j.bad && !ctx->failed && i < (size_t)d->n; i++)
            if (!isfinite(got[i]))
                kit_fail(ctx, "u[%zu] (grid point ix=%d, iy=%d) is %s: %s", i, (int)(i % d->nx), (int)(i / d->nx),
                         isnan(got[i]) ? "NaN" : "infinite",
                         isnan(got[i]) ? "no thread wrote it (the harness fills u with NaN before your call)"
                                       : "no sum of these inputs overflows");
    }
    report(ctx, &j, sampled);
    if (!ctx->failed)
        kit_detail(ctx, "note: %zu elements of u compared%s; largest error %.2gx its bound", j.checked,
                   sampled ? " (sampled rows and points), every element checked for NaN" : "", j.worst);
}

/* evidence (manifest): the kernels read B and p, handed over on the device */
static double input(const void *data)
{
    const lab12_data *d = data;
    return (double)(d->b_count + d->n) * sizeof(float);
}

KIT_CHECK_DATASET(lab12)

/* u, judged by check_u (no reference of the whole of it: the sample above
 * 2^28 products); the timed calls' u sampled. */
const kit_check KIT_CHECK = {
    sizeof(lab12_data), check_generate, check_release, .input = input,
    .out = {{LAB12_OUT_U, KIT_T_F32, .what = "toeplitz_matvec", .len_of = KIT_AT(lab12_data, n)}},
    .judge = check_u, .timed_sampled = {"p", LAB12_TIMED_SAMPLE, timed_element}};
