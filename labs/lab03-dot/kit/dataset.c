/* dataset.c - lab03 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

#define LAB03_MAX_N (1LL << 27)

/* Reads and checks the parameters into d (the low end of floats into *lo);
 * allocates nothing. */
static int parse(const kit_params *p, lab03_data *d, float *lo, char *err, size_t errlen)
{
    int ok = 1;
    const char *type, *variant;
    if (kit_params_only(p, "n type dist variant", err, errlen) ||
        kit_params_choice(p, "variant", "dot ladder", "dot", &variant, err, errlen) ||
        kit_params_choice(p, "type", "float int", "float", &type, err, errlen) ||
        kit_gen_float_dist(kit_params_get(p, "dist", "uniform"), lo, err, errlen)) /* ints: always [-3, 3] */
        return -1;
    d->ladder = !strcmp(variant, "ladder");
    long long n = kit_params_ll(p, "n", d->ladder ? 1 << 24 : -1, &ok);
    if (!ok || n < 0 || n > LAB03_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= 2^27 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    if (d->ladder && (n < 512 || n % 512 || strcmp(type, "float"))) {
        snprintf(err, errlen, "variant=ladder needs type=float and n a positive multiple of 512 (got n=%lld)", n);
        return -1;
    }
    d->n = (int)n;
    d->is_int = !strcmp(type, "int");
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab03_data d;
    float lo;
    return parse(p, &d, &lo, err, errlen);
}

int lab03_generate(const kit_params *p, uint64_t seed, lab03_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    float lo;
    if (parse(p, d, &lo, err, errlen) != 0)
        return -1;
    size_t n = (size_t)d->n;
    kit_rng ra, rb;
    kit_rng_seed(&ra, seed, 0);
    kit_rng_seed(&rb, seed, 1);
    size_t cnt = n ? n : 1;
    if (d->is_int) {
        d->ia = malloc(cnt * sizeof *d->ia);
        d->ib = malloc(cnt * sizeof *d->ib);
        if (!d->ia || !d->ib)
            goto oom;
        kit_gen_uniform_i32(&ra, d->ia, (size_t)n, -3, 3);
        kit_gen_uniform_i32(&rb, d->ib, (size_t)n, -3, 3);
    } else {
        d->fa = malloc(cnt * sizeof *d->fa);
        d->fb = malloc(cnt * sizeof *d->fb);
        if (!d->fa || !d->fb)
            goto oom;
        kit_gen_uniform_f32(&ra, d->fa, (size_t)n, lo, 1.0f);
        kit_gen_uniform_f32(&rb, d->fb, (size_t)n, lo, 1.0f);
    }
    return 0;
oom:
    lab03_free(d);
    snprintf(err, errlen, "out of host memory for n=%zu", n);
    return -1;
}

void lab03_free(lab03_data *d)
{
    free(d->fa);
    free(d->fb);
    free(d->ia);
    free(d->ib);
    memset(d, 0, sizeof *d);
}
