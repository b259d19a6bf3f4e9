/* dataset.c - lab03 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

#define LAB03_MAX_N (1LL << 27)

int lab03_generate(const kit_params *p, uint64_t seed, lab03_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int ok = 1;
    const char *variant = kit_params_get(p, "variant", "dot");
    d->ladder = !strcmp(variant, "ladder");
    if (!d->ladder && strcmp(variant, "dot")) {
        snprintf(err, errlen, "variant must be dot or ladder (got '%s')", variant);
        return -1;
    }
    long long n = kit_params_ll(p, "n", d->ladder ? 1 << 24 : -1, &ok);
    const char *type = kit_params_get(p, "type", "float");
    const char *dist = kit_params_get(p, "dist", "uniform");
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
    if (!d->is_int && strcmp(type, "float")) {
        snprintf(err, errlen, "type must be float or int (got '%s')", type);
        return -1;
    }
    kit_rng ra, rb;
    kit_rng_seed(&ra, seed, 0);
    kit_rng_seed(&rb, seed, 1);
    size_t cnt = (size_t)n ? (size_t)n : 1;
    if (d->is_int) {
        d->ia = malloc(cnt * sizeof *d->ia);
        d->ib = malloc(cnt * sizeof *d->ib);
        if (!d->ia || !d->ib)
            goto oom;
        kit_gen_uniform_i32(&ra, d->ia, (size_t)n, -3, 3);
        kit_gen_uniform_i32(&rb, d->ib, (size_t)n, -3, 3);
    } else {
        float lo;
        if (kit_gen_float_dist(dist, &lo, err, errlen) != 0)
            return -1;
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
    snprintf(err, errlen, "out of host memory for n=%lld", n);
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
