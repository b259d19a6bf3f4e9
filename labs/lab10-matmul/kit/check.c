/* check.c - lab10 checker: C = A B against a double-precision reference.
 *
 * The driver judges C as the product it is declared (kit/product.h says the
 * tolerance, kit_sum_bound(k + 1, sum_p |a_ip b_pj|, u_float) per element):
 * up to LAB10_FULL_MAX = m*n*k products every element; above, every element
 * of a sample of rows and of columns - the first two, the last 33 (the last
 * partial tile of any tile size up to 32, where the bounds bugs live) and 32
 * random ones - then two Freivalds probes of all of C, and every element
 * checked for NaN (never written: the harness poisons C).  What is lab10's
 * own is what its first wrong element says about the bug (hints): a NaN, the
 * extra products of loads that clamp to the edge, or the partial tiles of
 * 8, 16 or 32.
 */
#include <math.h>

#include "dataset.h"
#include "kit/check_driver.h"

#define LAB10_FULL_MAX (1LL << 27)

/* What the first wrong element says about the bug. */
static void hints(kit_check_ctx *ctx, const void *data, const kit_product *p, const kit_product_tally *c)
{
    const lab10_data *d = data;
    if (isnan(c->f_got)) {
        kit_detail(ctx, "C[%d][%d] is NaN: no thread wrote it (the harness fills C with NaN before your call) - does "
                        "your grid cover all %d rows and %d columns?",
                   c->fi, c->fj, d->m, d->n);
        return;
    }
    for (int t = 0; t < KIT_PRODUCT_MAX_TILES && p->tiles[t]; t++) {
        int T = p->tiles[t], pad = (T - d->k % T) % T;
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
    for (int t = 0; t < KIT_PRODUCT_MAX_TILES && p->tiles[t]; t++) {
        int T = p->tiles[t];
        if (c->edge_only[t] && (d->m % T || d->n % T)) {
            kit_detail(ctx, "every wrong element lies in the last, partial tile row or column (for %d x %d tiles): "
                            "look at the bounds of your grid, your loads and your store",
                       T, T);
            return;
        }
    }
}

KIT_CHECK_DATASET(lab10)

#define F(member) KIT_AT(lab10_data, member)
/* C, judged as the product of A and B once it is there and of its length
 * (evidence, manifest: the kernels read A and B, handed over on the device);
 * the timed calls' C sampled, each shift whole rows of A (below m * k). */
const kit_check KIT_CHECK = {
    sizeof(lab10_data), check_generate, check_release,
    .out = {{LAB10_OUT_C, KIT_T_F32, .len_fmt = "output 'c' has %llu elements, expected m*n = %llu",
             .what = "matmul_tiled", .len_of = F(c_count)}},
    .timed_sampled = {"A", LAB10_TIMED_SAMPLE, .shift_of = F(a_count)},
    .product = {F(m), F(n), F(k), F(a), F(b), "C", LAB10_FULL_MAX, 33, 32, 2, 10, {8, 16, 32}, hints}};
