/* dataset.c - lab12 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

#define LAB12_MAX_N (1LL << 27)

/* Reads and checks the parameters into d; allocates nothing. */
static int parse(const kit_params *p, lab12_data *d, char *err, size_t errlen)
{
    int ok = 1;
    if (kit_params_only(p, "n", err, errlen))
        return -1;
    long long n = kit_params_ll(p, "n", -1, &ok);
    if (!ok || n < 0 || n > LAB12_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= 2^27 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    d->n = (int)n;
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab12_data d;
    return parse(p, &d, err, errlen);
}

int lab12_generate(const kit_params *p, uint64_t seed, lab12_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (parse(p, d, err, errlen) != 0)
        return -1;
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    d->in = malloc((d->n ? (size_t)d->n : 1) * sizeof *d->in);
    if (!d->in) {
        snprintf(err, errlen, "out of host memory for n=%d", d->n);
        return -1;
    }
    kit_gen_uniform_f32(&r, d->in, (size_t)d->n, -1.0f, 1.0f);
    return 0;
}

void lab12_free(lab12_data *d)
{
    free(d->in);
    memset(d, 0, sizeof *d);
}
