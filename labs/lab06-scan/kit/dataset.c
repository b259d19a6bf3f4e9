/* dataset.c - lab06 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"
#include "kit/util.h" /* kit_malloc_large: 2^27 elements, few page faults */
#include "scan.h"

#define LAB06_MAX_N (1LL << 27)

/* Reads and checks the parameters into d (the low end of floats into *lo);
 * allocates nothing. */
static int parse(const kit_params *p, lab06_data *d, float *lo, char *err, size_t errlen)
{
    int ok = 1;
    const char *type;
    if (kit_params_only(p, "n part type dist time", err, errlen) ||
        kit_params_choice(p, "type", "float int", "float", &type, err, errlen) ||
        kit_gen_float_dist(kit_params_get(p, "dist", "uniform"), lo, err, errlen))
        return -1;
    long long part = kit_params_ll(p, "part", 2, &ok);
    if (!ok || (part != 1 && part != 2)) {
        snprintf(err, errlen, "part must be 1 or 2 (got '%s')", kit_params_get(p, "part", ""));
        return -1;
    }
    long long max_n = part == 1 ? SCAN_BLOCK_MAX : LAB06_MAX_N;
    long long n = kit_params_ll(p, "n", -1, &ok);
    if (!ok || n < 0 || n > max_n) {
        snprintf(err, errlen, "n must be given, 0 <= n <= %lld for part %lld (got '%s')", max_n, part,
                 kit_params_get(p, "n", ""));
        return -1;
    }
    d->part = (int)part;
    d->n = (int)n;
    d->is_int = !strcmp(type, "int");
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab06_data d;
    float lo;
    return parse(p, &d, &lo, err, errlen);
}

int lab06_generate(const kit_params *p, uint64_t seed, lab06_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    float lo;
    if (parse(p, d, &lo, err, errlen) != 0)
        return -1;
    long long n = d->n;
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    size_t cnt = n ? (size_t)n : 1;
    if (d->is_int) {
        d->iin = kit_malloc_large(cnt * sizeof *d->iin);
        if (!d->iin)
            goto oom;
        kit_gen_uniform_i32(&r, d->iin, (size_t)n, -8, 8);
    } else {
        d->fin = kit_malloc_large(cnt * sizeof *d->fin);
        if (!d->fin)
            goto oom;
        kit_gen_uniform_f32(&r, d->fin, (size_t)n, lo, 1.0f);
    }
    return 0;
oom:
    lab06_free(d);
    snprintf(err, errlen, "out of host memory for n=%lld", n);
    return -1;
}

void lab06_free(lab06_data *d)
{
    free(d->fin);
    free(d->iin);
    memset(d, 0, sizeof *d);
}

const char *lab06_function(const lab06_data *d)
{
    if (d->part == 1)
        return d->is_int ? "scan_block_int" : "scan_block";
    return d->is_int ? "scan_int" : "scan";
}
