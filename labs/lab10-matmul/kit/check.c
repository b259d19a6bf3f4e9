/* check.c - lab10 checker: C = A B against a double-precision reference.
 *
 * Tolerance: every element of C is a dot product of length k.  Whatever the
 * order of its additions (tile by tile, FMA or not), a float computation of
 * it differs from the exact value by at most
 *     kit_sum_bound(k + 1, sum_p |a_ip b_pj|, u_float)
 * (k rounded products summed in any order, plus the final rounding: the
 * bound of lab03's dot product).  The reference is computed in double with
 * exact products, far more accurate than that.
 *
 * Up to m*n*k = LAB10_FULL_MAX every element is compared.  Above, the O(mnk)
 * reference would take seconds per case, so the checker compares every
 * element of a sample of rows and of columns - the first two, the last
 * SAMPLE_EDGE (the last partial tile of any tile size up to 32, where the
 * bounds bugs live) and SAMPLE_RANDOM random ones - and then probes all of C
 * with random vectors x (Freivalds): C x against A (B x), row by row, within
 * the sum of the elements' bounds, sum_j bound_ij |x_j| = beta (|A| (|B| |x|))_i
 * (beta: the bound per unit of sum |a b|), plus the checker's own rounding.
 * A wrong element shows in C x unless the random x cancels it, which the
 * second probe makes negligible.  Every element is also checked for NaN
 * (never written: the harness poisons C) in either path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/rng.h"
#include "kit/util.h"

#define LAB10_FULL_MAX (1LL << 27)
#define SAMPLE_EDGE 33
#define SAMPLE_RANDOM 32
#define PROBES 2

typedef struct {
    const lab10_data *d;
    const float *c;
    double beta; /* bound per unit of sum |a_ip b_pj| for a dot product of length k */
    /* the tally of compared elements */
    size_t checked, bad;
    int fi, fj;  /* first wrong element (in the order compared) */
    double f_exp, f_got, f_bound;
    double worst;
    int wi, wj;
    int edge_only[33]; /* [T]: every wrong element is in the last, partial tile row or column for tile T */
} mm_check;

static const int tiles[] = {8, 16, 32};

static int in_partial_tile(const mm_check *c, int i, int j, int t)
{
    return i >= c->d->m / t * t || j >= c->d->n / t * t;
}

static void judge(mm_check *c, int i, int j, double exp, double abs_sum)
{
    double got = c->c[(size_t)i * c->d->n + j], bound = c->beta * abs_sum;
    double err = fabs(got - exp);
    double ratio = err == 0 ? 0 : bound > 0 && !isnan(err) ? err / bound : INFINITY;
    c->checked++;
    if (!(ratio <= c->worst)) /* NaN: infinitely far */
        c->worst = ratio, c->wi = i, c->wj = j;
    if (err <= bound) /* false for NaN */
        return;
    if (!c->bad++) {
        c->fi = i, c->fj = j, c->f_exp = exp, c->f_got = got, c->f_bound = bound;
        for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
            c->edge_only[tiles[t]] = 1;
    }
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
        if (!in_partial_tile(c, i, j, tiles[t]))
            c->edge_only[tiles[t]] = 0;
}

/* Row i of C against the reference (exact products, double sums). */
static void check_row(mm_check *c, int i, double *exp, double *abs_sum)
{
    const lab10_data *d = c->d;
    memset(exp, 0, (size_t)d->n * sizeof *exp);
    memset(abs_sum, 0, (size_t)d->n * sizeof *abs_sum);
    for (int p = 0; p < d->k; p++) {
        double a = d->a[(size_t)i * d->k + p];
        const float *brow = d->b + (size_t)p * d->n;
        for (int j = 0; j < d->n; j++) {
            double prod = a * brow[j];
            exp[j] += prod;
            abs_sum[j] += fabs(prod);
        }
    }
    for (int j = 0; j < d->n; j++)
        judge(c, i, j, exp[j], abs_sum[j]);
}

/* The sampled columns of C: B's columns gathered first (k x ncols,
 * contiguous), so that each element is a contiguous dot product. */
static void check_columns(mm_check *c, const unsigned char *pick)
{
    const lab10_data *d = c->d;
    int ncols = 0;
    for (int j = 0; j < d->n; j++)
        ncols += pick[j];
    int *col = kit_xmalloc((size_t)(ncols ? ncols : 1) * sizeof *col, "the checker");
    float *bt = kit_xmalloc(((size_t)ncols * d->k + 1) * sizeof *bt, "the checker");
    for (int j = 0, q = 0; j < d->n; j++)
        if (pick[j]) {
            col[q] = j;
            for (int p = 0; p < d->k; p++)
                bt[(size_t)q * d->k + p] = d->b[(size_t)p * d->n + j];
            q++;
        }
    for (int i = 0; i < d->m; i++) {
        const float *arow = d->a + (size_t)i * d->k;
        for (int q = 0; q < ncols; q++) {
            const float *bcol = bt + (size_t)q * d->k;
            double s = 0, sa = 0;
            for (int p = 0; p < d->k; p++) {
                double prod = (double)arow[p] * bcol[p];
                s += prod, sa += fabs(prod);
            }
            judge(c, i, col[q], s, sa);
        }
    }
    free(col);
    free(bt);
}

/* The sample: the first 2, the last SAMPLE_EDGE and SAMPLE_RANDOM random
 * indices in [0, len); marks them in `pick`. */
static void sample(kit_rng *r, int len, unsigned char *pick)
{
    memset(pick, 0, (size_t)len);
    for (int t = 0; t < 2 && t < len; t++)
        pick[t] = 1;
    for (int t = len - SAMPLE_EDGE; t < len; t++)
        if (t >= 0)
            pick[t] = 1;
    for (int t = 0; t < SAMPLE_RANDOM; t++)
        pick[kit_rng_u64(r) % (uint64_t)len] = 1;
}

/* Freivalds probes: C x against A (B x); fails naming the first wrong row. */
static void probe(kit_check_ctx *ctx, mm_check *c, kit_rng *r)
{
    const lab10_data *d = c->d;
    double *x = kit_xmalloc((size_t)d->n * sizeof *x, "the checker");
    double *bx = kit_xmalloc((size_t)d->k * sizeof *bx, "the checker");
    double *bxa = kit_xmalloc((size_t)d->k * sizeof *bxa, "the checker");
    double gd = kit_gamma((double)d->n + d->k + 2, KIT_U_F64);
    for (int t = 0; t < PROBES && !ctx->failed; t++) {
        for (int j = 0; j < d->n; j++)
            x[j] = 2.0 * kit_rng_unit(r) - 1.0;
        for (int p = 0; p < d->k; p++) { /* B x and |B| |x| */
            const float *brow = d->b + (size_t)p * d->n;
            double s = 0, sa = 0;
            for (int j = 0; j < d->n; j++)
                s += brow[j] * x[j], sa += fabs(brow[j] * x[j]);
            bx[p] = s, bxa[p] = sa;
        }
        for (int i = 0; i < d->m; i++) {
            const float *arow = d->a + (size_t)i * d->k, *crow = c->c + (size_t)i * d->n;
            double z = 0, za = 0, y = 0, ya = 0;
            for (int p = 0; p < d->k; p++)
                z += arow[p] * bx[p], za += fabs(arow[p]) * bxa[p];
            for (int j = 0; j < d->n; j++)
                y += crow[j] * x[j], ya += fabs(crow[j] * x[j]);
            double allowed = c->beta * za + gd * (ya + za);
            if (!(fabs(y - z) <= allowed)) {
                kit_fail(ctx, "row %d of C is wrong somewhere outside the rows and columns compared one by one: for a "
                              "random x, (C x)[%d] - (A (B x))[%d] = %.3g, rounding allows %.3g",
                         i, i, i, y - z, allowed);
                break;
            }
        }
    }
    free(x);
    free(bx);
    free(bxa);
}

/* What the first wrong element says about the bug. */
static void hints(kit_check_ctx *ctx, const mm_check *c)
{
    const lab10_data *d = c->d;
    if (isnan(c->f_got)) {
        kit_detail(ctx, "C[%d][%d] is NaN: no thread wrote it (the harness fills C with NaN before your call) - does "
                        "your grid cover all %d rows and %d columns?",
                   c->fi, c->fj, d->m, d->n);
        return;
    }
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
        int T = tiles[t], pad = (T - d->k % T) % T;
        if (!pad || !d->k)
            continue;
        double extra = pad * (double)d->a[(size_t)c->fi * d->k + d->k - 1] * d->b[(size_t)(d->k - 1) * d->n + c->fj];
        if (fabs(c->f_got - (c->f_exp + extra)) <= 2 * c->f_bound + 1e-6 * fabs(extra)) {
            kit_detail(ctx, "C[%d][%d] is off by exactly %d extra copies of a[%d][%d] * b[%d][%d]: loads that clamp to "
                            "the edge add spurious products when k = %d is not a multiple of the tile (%d); an element "
                            "outside A or B must be loaded as 0",
                       c->fi, c->fj, pad, c->fi, d->k - 1, d->k - 1, c->fj, d->k, T);
            return;
        }
    }
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
        int T = tiles[t];
        if (c->edge_only[T] && (d->m % T || d->n % T)) {
            kit_detail(ctx, "every wrong element lies in the last, partial tile row or column (for %d x %d tiles): "
                            "look at the bounds of your grid, your loads and your store",
                       T, T);
            return;
        }
    }
}

static void report(kit_check_ctx *ctx, const mm_check *c, int sampled)
{
    if (!c->bad)
        return;
    kit_fail(ctx, "C: %zu of %zu %selements differ; first wrong C[%d][%d]: expected %.9g, got %.9g (allowed error "
                  "%.2g); largest error %.2gx its bound at C[%d][%d]",
             c->bad, c->checked, sampled ? "compared " : "", c->fi, c->fj, c->f_exp, c->f_got, c->f_bound, c->worst,
             c->wi, c->wj);
    hints(ctx, c);
}

/* A benchmark run sampled C of a few timed calls (chosen at random as they
 * happened, and the last) with the (shift, scale) of their fresh A, rows
 * rotated by shift / k (timed.h): every sampled element is recomputed, so a
 * C left from an earlier call fails.  The kit shifts A by whole rows only:
 * any other shift expects NaN, which no value matches. */
static double timed_element(const void *data, int64_t e, int64_t shift, double scale, double *bound)
{
    const lab10_data *d = data;
    int64_t row = e / d->n, col = e % d->n, src = (row + shift / d->k) % d->m;
    double exp = 0, abs_sum = 0;
    for (int p = 0; p < d->k; p++) {
        double term = (double)(float)(scale * d->a[src * d->k + p]) * (double)d->b[(size_t)p * d->n + col];
        exp += term;
        abs_sum += fabs(term);
    }
    *bound = kit_sum_bound((double)d->k + 1, abs_sum, KIT_U_F32);
    return shift % d->k ? NAN : exp;
}

/* Every element of C, or the sample and the probes (the header's comment),
 * once C is there and of its length. */
static void check_c(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab10_data *d = data;
    const float *got = outs[0].got;
    size_t mn = (size_t)d->m * d->n;
    if (!ok)
        return;
    mm_check c = {d, got, kit_sum_bound((double)d->k + 1, 1.0, KIT_U_F32), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}};
    double *exp = kit_xmalloc((d->n ? d->n : 1) * sizeof *exp, "the checker");
    double *abs_sum = kit_xmalloc((d->n ? d->n : 1) * sizeof *abs_sum, "the checker");
    int sampled = (long long)mn * d->k > LAB10_FULL_MAX;
    if (!sampled) {
        for (int i = 0; i < d->m; i++)
            check_row(&c, i, exp, abs_sum);
    } else {
        kit_rng r;
        kit_rng_seed(&r, ctx->seed, 10); /* a failure reproduces with the case's seed */
        unsigned char *rows = kit_xmalloc((size_t)d->m, "the checker");
        unsigned char *cols = kit_xmalloc((size_t)d->n, "the checker");
        sample(&r, d->m, rows);
        sample(&r, d->n, cols);
        for (int i = 0; i < d->m; i++)
            if (rows[i])
                check_row(&c, i, exp, abs_sum);
        check_columns(&c, cols);
        free(rows);
        free(cols);
        report(ctx, &c, 1);
        for (size_t t = 0; !ctx->failed && t < mn; t++)
            if (!isfinite(got[t])) {
                kit_fail(ctx, "C[%zu][%zu] is %s: %s", t / d->n, t % d->n, isnan(got[t]) ? "NaN" : "infinite",
                         isnan(got[t]) ? "no thread wrote it (the harness fills C with NaN before your call)"
                                       : "no product of these inputs overflows");
            }
        if (!ctx->failed)
            probe(ctx, &c, &r);
    }
    if (!sampled)
        report(ctx, &c, 0);
    if (!ctx->failed)
        kit_detail(ctx, "note: %zu elements of C compared%s; largest error %.2gx its bound", c.checked,
                   sampled ? " one by one, all of C probed with random vectors" : "", c.worst);
    free(exp);
    free(abs_sum);
}

/* evidence (manifest): the kernels read A and B, handed over on the device */
static double input(const void *data)
{
    const lab10_data *d = data;
    return ((double)d->m * d->k + (double)d->k * d->n) * sizeof(float);
}

KIT_CHECK_DATASET(lab10)

/* C, judged by check_c (no reference of the whole of it: the sample and
 * the probes above 2^27 products); the timed calls' C sampled, each shift
 * whole rows of A (below m * k). */
const kit_check KIT_CHECK = {
    sizeof(lab10_data), check_generate, check_release, .input = input,
    .out = {{LAB10_OUT_C, KIT_T_F32, .len_fmt = "output 'c' has %llu elements, expected m*n = %llu",
             .what = "matmul_tiled", .len_of = KIT_AT(lab10_data, c_count)}},
    .judge = check_c,
    .timed_sampled = {"A", LAB10_TIMED_SAMPLE, timed_element, .shift_of = KIT_AT(lab10_data, a_count)}};
