/* dataset.c - lab12 input generation (see dataset.h). */
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
    if (!ok || v < 1 || v > LAB12_MAX_DIM) {
        snprintf(err, errlen, "%s must be 1 <= %s <= 2^14 (got '%s')", key, key, kit_params_get(p, key, ""));
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Reads and checks the parameters into d (the low end of the values into
 * *lo); allocates nothing. */
static int parse(const kit_params *p, lab12_data *d, float *lo, char *err, size_t errlen)
{
    if (kit_params_only(p, "nx ny dist", err, errlen) != 0)
        return -1;
    if (!kit_params_has(p, "nx")) {
        snprintf(err, errlen, "nx must be given (ny defaults to nx)");
        return -1;
    }
    if (dim(p, "nx", 0, &d->nx, err, errlen) || dim(p, "ny", d->nx, &d->ny, err, errlen))
        return -1;
    if ((long long)d->nx * d->ny > LAB12_MAX_POINTS) {
        snprintf(err, errlen, "nx=%d ny=%d: the grid must have at most 2^17 points", d->nx, d->ny);
        return -1;
    }
    d->n = d->nx * d->ny;
    d->b_count = (2 * d->ny - 1) * (int)LAB12_LDB(d->nx);
    return kit_gen_float_dist(kit_params_get(p, "dist", "uniform"), lo, err, errlen);
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab12_data d;
    float lo;
    return parse(p, &d, &lo, err, errlen);
}

int lab12_generate(const kit_params *p, uint64_t seed, lab12_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    float lo;
    if (parse(p, d, &lo, err, errlen) != 0)
        return -1;
    d->b = malloc((size_t)d->b_count * sizeof *d->b);
    d->p = malloc((size_t)d->n * sizeof *d->p);
    if (!d->b || !d->p) {
        snprintf(err, errlen, "out of host memory for nx=%d ny=%d", d->nx, d->ny);
        lab12_free(d);
        return -1;
    }
    kit_rng rb, rp;
    kit_rng_seed(&rb, seed, 0);
    kit_rng_seed(&rp, seed, 1);
    size_t ldb = LAB12_LDB(d->nx);
    for (int ky = 0; ky < 2 * d->ny - 1; ky++) {
        kit_gen_uniform_f32(&rb, d->b + ky * ldb, ldb - 1, lo, 1.0f);
        d->b[ky * ldb + ldb - 1] = 0.0f; /* the dummy entry: read by a tile load, never in a product */
    }
    kit_gen_uniform_f32(&rp, d->p, (size_t)d->n, lo, 1.0f);
    return 0;
}

void lab12_free(lab12_data *d)
{
    free(d->b);
    free(d->p);
    memset(d, 0, sizeof *d);
}
