/* product.h - a float matrix product judged against the exact one: C = A B,
 * row-major, A m x k, B k x n, C m x n (lab10's; a checker declares it as
 * data, kit_check.product, and the driver calls it).
 *
 * Tolerance: every element of C is a dot product of length k.  Whatever the
 * order of its additions (tile by tile, FMA or not), a float computation of
 * it differs from the exact value by at most
 *     kit_sum_bound(k + 1, sum_p |a_ip b_pj|, u_float)
 * (k rounded products summed in any order, plus the final rounding: the
 * bound of a dot product).  The reference is computed in double with exact
 * products, far more accurate than that.
 *
 * Up to m*n*k = full_max products every element is compared.  Above, the
 * O(mnk) reference would take seconds per case, so the check compares every
 * element of a sample of rows and of columns - the first two, the last
 * `edge` (the last partial tile of any tile size below edge, where the
 * bounds bugs live) and `random` random ones - and then probes all of C
 * with `probes` random vectors x (Freivalds): C x against A (B x), row by
 * row, within the sum of the elements' bounds, sum_j bound_ij |x_j| = beta
 * (|A| (|B| |x|))_i (beta: the bound per unit of sum |a b|), plus the
 * checker's own rounding.  A wrong element shows in C x unless the random x
 * cancels it, which a second probe makes negligible.  On that path every
 * element is also checked for NaN (never written: the harness poisons C
 * with NaN) and infinity.
 */
#ifndef KIT_PRODUCT_H
#define KIT_PRODUCT_H
#include <stdint.h>
#include "kit/checker.h"
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_PRODUCT_MAX_TILES 4

typedef struct {
    const char *name;         /* C, in messages */
    int m, n, k;
    const float *a, *b, *c;
    long long full_max;       /* every element compared up to m*n*k products; above, the sample and the probes */
    int edge, random, probes; /* the sample (the last `edge` and `random` random rows and columns) and the probes */
    uint64_t seed;            /* the sample's and probes' generator: a failure reproduces with the case's seed */
    int stream;
    /* Tile sizes (0 ends the list) whose last, partial tile row or column
     * the tally watches: the lab's hints name a bug of the grid's bounds. */
    int tiles[KIT_PRODUCT_MAX_TILES];
} kit_product;

/* The elements compared, for the lab's hints after a failure. */
typedef struct {
    size_t checked, bad;
    int fi, fj; /* the first wrong element, in the order compared */
    double f_exp, f_got, f_bound;
    double worst; /* the largest error over its bound (infinite for NaN) */
    int wi, wj;
    int edge_only[KIT_PRODUCT_MAX_TILES]; /* [t]: every wrong element lies in the last, partial tile row or
                                             column for tiles[t] x tiles[t] tiles */
    int sampled;
} kit_product_tally;

/* The lab's explanation of the first wrong element, after the failure that
 * names it (data: the lab's, as the driver has it). */
typedef void (*kit_product_explain)(kit_check_ctx *ctx, const void *data, const kit_product *p,
                                    const kit_product_tally *t);

/* Judges p->c (the header's comment).  A wrong element fails with
 * "C: B of N [compared ]elements differ; first wrong C[i][j]: expected e,
 * got g (allowed error b); largest error rx its bound at C[i][j]", then
 * explain (NULL: none); a right C gets a note of how much was compared. */
void kit_product_check(kit_check_ctx *ctx, const kit_product *p, kit_product_explain explain, const void *data);

/* Element e of C for A refreshed as scale * (A rotated by shift elements) -
 * a timed call's fresh A (fresh.cuh's ROTATE_SCALE), which the kit shifts
 * by whole rows only - with its bound in *bound; NaN for any other shift,
 * which no value matches.  product: a kit_product (kit_timed_samples's
 * element). */
double kit_product_element(const void *product, int64_t e, int64_t shift, double scale, double *bound);

#ifdef __cplusplus
}
#endif
#endif
