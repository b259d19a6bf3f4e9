/* product.c - a float matrix product judged against the exact one (see
 * kit/product.h): every element, or sampled rows and columns and Freivalds
 * probes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/compare.h"
#include "kit/product.h"
#include "kit/rng.h"
#include "kit/util.h"

typedef struct {
    const kit_product *p;
    double beta; /* bound per unit of sum |a_ip b_pj| for a dot product of length k */
    kit_product_tally t;
} judge_t;

static int in_partial_tile(const kit_product *p, int i, int j, int tile)
{
    return i >= p->m / tile * tile || j >= p->n / tile * tile;
}

/* Element (i, j) against its exact value and the sum of its terms' magnitudes. */
static void judge(judge_t *c, int i, int j, double exp, double abs_sum)
{
    const kit_product *p = c->p;
    kit_product_tally *t = &c->t;
    double got = p->c[(size_t)i * p->n + j], bound = c->beta * abs_sum;
    double err = fabs(got - exp);
    double ratio = err == 0 ? 0 : bound > 0 && !isnan(err) ? err / bound : INFINITY;
    t->checked++;
    if (!(ratio <= t->worst)) /* NaN: infinitely far */
        t->worst = ratio, t->wi = i, t->wj = j;
    if (err <= bound) /* false for NaN */
        return;
    if (!t->bad++) {
        t->fi = i, t->fj = j, t->f_exp = exp, t->f_got = got, t->f_bound = bound;
        for (int s = 0; s < KIT_PRODUCT_MAX_TILES && p->tiles[s]; s++)
            t->edge_only[s] = 1;
    }
    for (int s = 0; s < KIT_PRODUCT_MAX_TILES && p->tiles[s]; s++)
        if (!in_partial_tile(p, i, j, p->tiles[s]))
            t->edge_only[s] = 0;
}

/* Row i of C against the reference (exact products, double sums). */
static void check_row(judge_t *c, int i, double *exp, double *abs_sum)
{
    const kit_product *p = c->p;
    memset(exp, 0, (size_t)p->n * sizeof *exp);
    memset(abs_sum, 0, (size_t)p->n * sizeof *abs_sum);
    for (int q = 0; q < p->k; q++) {
        double a = p->a[(size_t)i * p->k + q];
        const float *brow = p->b + (size_t)q * p->n;
        for (int j = 0; j < p->n; j++) {
            double prod = a * brow[j];
            exp[j] += prod;
            abs_sum[j] += fabs(prod);
        }
    }
    for (int j = 0; j < p->n; j++)
        judge(c, i, j, exp[j], abs_sum[j]);
}

/* The sampled columns of C: B's columns gathered first (k x ncols,
 * contiguous), so that each element is a contiguous dot product. */
static void check_columns(judge_t *c, const unsigned char *pick)
{
    const kit_product *p = c->p;
    int ncols = 0;
    for (int j = 0; j < p->n; j++)
        ncols += pick[j];
    int *col = kit_xmalloc((size_t)(ncols ? ncols : 1) * sizeof *col, "the checker");
    float *bt = kit_xmalloc(((size_t)ncols * p->k + 1) * sizeof *bt, "the checker");
    for (int j = 0, q = 0; j < p->n; j++)
        if (pick[j]) {
            col[q] = j;
            for (int r = 0; r < p->k; r++)
                bt[(size_t)q * p->k + r] = p->b[(size_t)r * p->n + j];
            q++;
        }
    for (int i = 0; i < p->m; i++) {
        const float *arow = p->a + (size_t)i * p->k;
        for (int q = 0; q < ncols; q++) {
            const float *bcol = bt + (size_t)q * p->k;
            double s = 0, sa = 0;
            for (int r = 0; r < p->k; r++) {
                double prod = (double)arow[r] * bcol[r];
                s += prod, sa += fabs(prod);
            }
            judge(c, i, col[q], s, sa);
        }
    }
    free(col);
    free(bt);
}

/* The sample: the first 2, the last `edge` and `random` random indices in
 * [0, len); marks them in `pick`. */
static void sample(const kit_product *p, kit_rng *r, int len, unsigned char *pick)
{
    memset(pick, 0, (size_t)len);
    for (int t = 0; t < 2 && t < len; t++)
        pick[t] = 1;
    for (int t = len - p->edge; t < len; t++)
        if (t >= 0)
            pick[t] = 1;
    for (int t = 0; t < p->random; t++)
        pick[kit_rng_u64(r) % (uint64_t)len] = 1;
}

/* Freivalds probes: C x against A (B x); fails naming the first wrong row. */
static void probe(kit_check_ctx *ctx, const judge_t *c, kit_rng *r)
{
    const kit_product *p = c->p;
    double *x = kit_xmalloc((size_t)p->n * sizeof *x, "the checker");
    double *bx = kit_xmalloc((size_t)p->k * sizeof *bx, "the checker");
    double *bxa = kit_xmalloc((size_t)p->k * sizeof *bxa, "the checker");
    double gd = kit_gamma((double)p->n + p->k + 2, KIT_U_F64);
    for (int t = 0; t < p->probes && !ctx->failed; t++) {
        for (int j = 0; j < p->n; j++)
            x[j] = 2.0 * kit_rng_unit(r) - 1.0;
        for (int q = 0; q < p->k; q++) { /* B x and |B| |x| */
            const float *brow = p->b + (size_t)q * p->n;
            double s = 0, sa = 0;
            for (int j = 0; j < p->n; j++)
                s += brow[j] * x[j], sa += fabs(brow[j] * x[j]);
            bx[q] = s, bxa[q] = sa;
        }
        for (int i = 0; i < p->m; i++) {
            const float *arow = p->a + (size_t)i * p->k, *crow = p->c + (size_t)i * p->n;
            double z = 0, za = 0, y = 0, ya = 0;
            for (int q = 0; q < p->k; q++)
                z += arow[q] * bx[q], za += fabs(arow[q]) * bxa[q];
            for (int j = 0; j < p->n; j++)
                y += crow[j] * x[j], ya += fabs(crow[j] * x[j]);
            double allowed = c->beta * za + gd * (ya + za);
            if (!(fabs(y - z) <= allowed)) {
                kit_fail(ctx, "row %d of %s is wrong somewhere outside the rows and columns compared one by one: for a "
                              "random x, (%s x)[%d] - (A (B x))[%d] = %.3g, rounding allows %.3g",
                         i, p->name, p->name, i, i, y - z, allowed);
                break;
            }
        }
    }
    free(x);
    free(bx);
    free(bxa);
}

static void report(kit_check_ctx *ctx, const judge_t *c, kit_product_explain explain, const void *data)
{
    const kit_product_tally *t = &c->t;
    const char *name = c->p->name;
    if (!t->bad)
        return;
    kit_fail(ctx, "%s: %zu of %zu %selements differ; first wrong %s[%d][%d]: expected %.9g, got %.9g (allowed error "
                  "%.2g); largest error %.2gx its bound at %s[%d][%d]",
             name, t->bad, t->checked, t->sampled ? "compared " : "", name, t->fi, t->fj, t->f_exp, t->f_got,
             t->f_bound, t->worst, name, t->wi, t->wj);
    if (explain)
        explain(ctx, data, c->p, t);
}

/* Every element for NaN (never written) or infinity, on the sampled path. */
static void check_finite(kit_check_ctx *ctx, const kit_product *p)
{
    size_t mn = (size_t)p->m * p->n;
    for (size_t t = 0; !ctx->failed && t < mn; t++)
        if (isnan(p->c[t]))
            kit_fail(ctx, "%s[%zu][%zu] is NaN: no thread wrote it (the harness fills %s with NaN before your call)",
                     p->name, t / p->n, t % p->n, p->name);
        else if (!isfinite(p->c[t]))
            kit_fail(ctx, "%s[%zu][%zu] is infinite: no product of these inputs overflows", p->name, t / p->n,
                     t % p->n);
}

/* The sampled rows and columns, then the probes of the rest. */
static void check_sampled(kit_check_ctx *ctx, judge_t *c, double *exp, double *abs_sum,
                          kit_product_explain explain, const void *data)
{
    const kit_product *p = c->p;
    kit_rng r;
    kit_rng_seed(&r, p->seed, (uint64_t)p->stream);
    unsigned char *rows = kit_xmalloc((size_t)p->m, "the checker");
    unsigned char *cols = kit_xmalloc((size_t)p->n, "the checker");
    sample(p, &r, p->m, rows);
    sample(p, &r, p->n, cols);
    for (int i = 0; i < p->m; i++)
        if (rows[i])
            check_row(c, i, exp, abs_sum);
    check_columns(c, cols);
    free(rows);
    free(cols);
    report(ctx, c, explain, data);
    check_finite(ctx, p);
    if (!ctx->failed)
        probe(ctx, c, &r);
}

void kit_product_check(kit_check_ctx *ctx, const kit_product *p, kit_product_explain explain, const void *data)
{
    judge_t c;
    memset(&c, 0, sizeof c);
    c.p = p, c.beta = kit_sum_bound((double)p->k + 1, 1.0, KIT_U_F32);
    c.t.sampled = (long long)p->m * p->n * p->k > p->full_max;
    double *exp = kit_xmalloc((p->n ? p->n : 1) * sizeof *exp, "the checker");
    double *abs_sum = kit_xmalloc((p->n ? p->n : 1) * sizeof *abs_sum, "the checker");
    if (c.t.sampled) {
        check_sampled(ctx, &c, exp, abs_sum, explain, data);
    } else {
        for (int i = 0; i < p->m; i++)
            check_row(&c, i, exp, abs_sum);
        report(ctx, &c, explain, data);
    }
    if (!ctx->failed)
        kit_detail(ctx, "note: %zu elements of %s compared%s%s%s; largest error %.2gx its bound", c.t.checked, p->name,
                   c.t.sampled ? " one by one, all of " : "", c.t.sampled ? p->name : "",
                   c.t.sampled ? " probed with random vectors" : "", c.t.worst);
    free(exp);
    free(abs_sum);
}

double kit_product_element(const void *product, int64_t e, int64_t shift, double scale, double *bound)
{
    const kit_product *p = product;
    int64_t row = e / p->n, col = e % p->n, src = (row + shift / p->k) % p->m;
    double exp = 0, abs_sum = 0;
    for (int q = 0; q < p->k; q++) {
        double term = (double)(float)(scale * p->a[src * p->k + q]) * (double)p->b[(size_t)q * p->n + col];
        exp += term;
        abs_sum += fabs(term);
    }
    *bound = kit_sum_bound((double)p->k + 1, abs_sum, KIT_U_F32);
    return shift % p->k ? NAN : exp;
}
