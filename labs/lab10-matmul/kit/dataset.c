/* dataset.c - lab10 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

static int dim(const kit_params *p, const char *key, long long def, int *out, char *err, size_t errlen)
{
    int ok = 1;
    long long v = kit_params_ll(p, key, def, &ok);
    if (!ok || v < 0 || v > LAB10_MAX_DIM) {
        snprintf(err, errlen, "%s must be 0 <= %s <= 2^16 (got '%s')", key, key, kit_params_get(p, key, ""));
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Reads and checks the parameters into d (the low end of the values into
 * *lo); allocates nothing. */
static int parse(const kit_params *p, lab10_data *d, float *lo, char *err, size_t errlen)
{
    if (kit_params_only(p, "m n k dist", err, errlen) != 0)
        return -1;
    if (!kit_params_has(p, "m")) {
        snprintf(err, errlen, "m must be given (n defaults to m, k to n)");
        return -1;
    }
    if (dim(p, "m", 0, &d->m, err, errlen) || dim(p, "n", d->m, &d->n, err, errlen) ||
        dim(p, "k", d->n, &d->k, err, errlen))
        return -1;
    long long mk = (long long)d->m * d->k, kn = (long long)d->k * d->n, mn = (long long)d->m * d->n;
    if (mk > LAB10_MAX_ELEMS || kn > LAB10_MAX_ELEMS || mn > LAB10_MAX_ELEMS) {
        snprintf(err, errlen, "m=%d n=%d k=%d: every matrix must have at most 2^26 elements", d->m, d->n, d->k);
        return -1;
    }
    d->a_count = (int)mk, d->b_count = (int)kn, d->c_count = (int)mn;
    d->nonempty = mn > 0 && d->k > 0;
    return kit_gen_float_dist(kit_params_get(p, "dist", "uniform"), lo, err, errlen);
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab10_data d;
    float lo;
    return parse(p, &d, &lo, err, errlen);
}

int lab10_generate(const kit_params *p, uint64_t seed, lab10_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    float lo;
    if (parse(p, d, &lo, err, errlen) != 0)
        return -1;
    size_t mk = (size_t)d->a_count, kn = (size_t)d->b_count;
    d->a = malloc((mk ? mk : 1) * sizeof *d->a);
    d->b = malloc((kn ? kn : 1) * sizeof *d->b);
    if (!d->a || !d->b) {
        snprintf(err, errlen, "out of host memory for m=%d n=%d k=%d", d->m, d->n, d->k);
        lab10_free(d);
        return -1;
    }
    kit_rng ra, rb;
    kit_rng_seed(&ra, seed, 0);
    kit_rng_seed(&rb, seed, 1);
    kit_gen_uniform_f32(&ra, d->a, mk, lo, 1.0f);
    kit_gen_uniform_f32(&rb, d->b, kn, lo, 1.0f);
    return 0;
}

void lab10_free(lab10_data *d)
{
    free(d->a);
    free(d->b);
    memset(d, 0, sizeof *d);
}
