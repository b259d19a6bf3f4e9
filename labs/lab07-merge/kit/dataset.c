/* dataset.c - lab07 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

#define WIDE 1000000000 /* the uniform range is [-WIDE, WIDE] */

static int size_param(const kit_params *p, const char *key, long long *v, char *err, size_t errlen)
{
    int ok = 1;
    *v = kit_params_ll(p, key, -1, &ok);
    if (!ok || *v < 0 || *v > LAB07_MAX_TOTAL) {
        snprintf(err, errlen, "%s must be given, 0 <= %s <= 2^28 (got '%s')", key, key, kit_params_get(p, key, ""));
        return -1;
    }
    return 0;
}

/* Fills d->a and d->b (allocated) with sorted keys of the named distribution. */
static int draw_keys(lab07_data *d, const char *dist, uint64_t seed, char *err, size_t errlen)
{
    kit_rng ra, rb;
    kit_rng_seed(&ra, seed, 0);
    kit_rng_seed(&rb, seed, 1);
    size_t m = (size_t)d->m, n = (size_t)d->n;
    if (!strcmp(dist, "uniform")) {
        kit_gen_sorted_i32(&ra, d->a, m, -WIDE, WIDE);
        kit_gen_sorted_i32(&rb, d->b, n, -WIDE, WIDE);
    } else if (!strcmp(dist, "ties")) {
        /* about 16 copies of every value in A and B together: runs of
         * ties cross thread slices, tiles and the two arrays */
        int32_t r = (int32_t)((m + n) / 16 > 3 ? (m + n) / 16 : 3);
        kit_gen_sorted_i32(&ra, d->a, m, 0, r);
        kit_gen_sorted_i32(&rb, d->b, n, 0, r);
    } else if (!strcmp(dist, "equal")) {
        kit_rng rv;
        kit_rng_seed(&rv, seed, 2);
        int32_t v = (int32_t)kit_rng_range(&rv, -WIDE, WIDE);
        for (size_t i = 0; i < m; i++)
            d->a[i] = v;
        for (size_t j = 0; j < n; j++)
            d->b[j] = v;
    } else if (!strcmp(dist, "disjoint")) {
        kit_gen_sorted_i32(&ra, d->a, m, -WIDE, -1);
        kit_gen_sorted_i32(&rb, d->b, n, 0, WIDE);
    } else if (!strcmp(dist, "disjoint-rev")) {
        kit_gen_sorted_i32(&ra, d->a, m, 0, WIDE);
        kit_gen_sorted_i32(&rb, d->b, n, -WIDE, -1);
    } else {
        snprintf(err, errlen, "dist must be uniform, ties, equal, disjoint or disjoint-rev (got '%s')", dist);
        return -1;
    }
    return 0;
}

/* The k for op=corank: all of [0, total] for small merges, else the ends,
 * the sizes and random k (stream 3 of the seed). */
static int choose_ks(lab07_data *d, uint64_t seed)
{
    int total = d->m + d->n;
    d->nk = total < LAB07_ALL_K_BELOW ? total + 1 : LAB07_SAMPLED_K;
    d->ks = malloc((size_t)d->nk * sizeof *d->ks);
    if (!d->ks)
        return -1;
    if (total < LAB07_ALL_K_BELOW) {
        for (int k = 0; k <= total; k++)
            d->ks[k] = k;
        return 0;
    }
    d->ks[0] = 0;
    d->ks[1] = total;
    d->ks[2] = d->m;
    d->ks[3] = d->n;
    kit_rng r;
    kit_rng_seed(&r, seed, 3);
    for (int t = 4; t < d->nk; t++)
        d->ks[t] = (int32_t)kit_rng_range(&r, 0, total);
    return 0;
}

/* Reads and checks the parameters into d (the distribution into *dist);
 * allocates nothing. */
static int parse(const kit_params *p, lab07_data *d, const char **dist, char *err, size_t errlen)
{
    long long m, n;
    const char *op, *impl, *type;
    if (kit_params_only(p, "m n op impl type dist", err, errlen) ||
        kit_params_choice(p, "op", "merge corank", "merge", &op, err, errlen) ||
        kit_params_choice(p, "impl", "basic tiled", "basic", &impl, err, errlen) ||
        kit_params_choice(p, "type", "int rec", "int", &type, err, errlen) ||
        kit_params_choice(p, "dist", "uniform ties equal disjoint disjoint-rev", "uniform", dist, err, errlen) ||
        size_param(p, "m", &m, err, errlen) || size_param(p, "n", &n, err, errlen))
        return -1;
    if (m + n > LAB07_MAX_TOTAL) {
        snprintf(err, errlen, "m + n must be <= 2^28 (got %lld)", m + n);
        return -1;
    }
    d->op = strcmp(op, "corank") ? LAB07_MERGE : LAB07_CORANK;
    d->tiled = !strcmp(impl, "tiled");
    d->is_rec = !strcmp(type, "rec");
    d->m = (int)m;
    d->n = (int)n;
    d->total = (int)(m + n);
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab07_data d;
    const char *dist;
    return parse(p, &d, &dist, err, errlen);
}

int lab07_generate(const kit_params *p, uint64_t seed, lab07_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    const char *dist;
    if (parse(p, d, &dist, err, errlen) != 0)
        return -1;
    long long m = d->m, n = d->n;
    d->a = malloc((size_t)(m ? m : 1) * sizeof *d->a);
    d->b = malloc((size_t)(n ? n : 1) * sizeof *d->b);
    if (!d->a || !d->b)
        goto oom;
    if (draw_keys(d, dist, seed, err, errlen) != 0) {
        lab07_free(d);
        return -1;
    }
    if (d->op == LAB07_CORANK && choose_ks(d, seed) != 0)
        goto oom;
    return 0;
oom:
    lab07_free(d);
    snprintf(err, errlen, "out of host memory for m=%lld n=%lld", m, n);
    return -1;
}

void lab07_free(lab07_data *d)
{
    free(d->a);
    free(d->b);
    free(d->ks);
    memset(d, 0, sizeof *d);
}
