/* dataset.c - lab04 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "kit/gen.h"
#include "kit/rng.h"

#define LAB04_MAX_N (1LL << 27)

/* Reads and checks the parameters into d (dist into *dist); allocates nothing. */
static int parse(const kit_params *p, lab04_data *d, const char **dist, char *err, size_t errlen)
{
    int ok = 1;
    if (kit_params_only(p, "n bins dist time", err, errlen) ||
        kit_params_choice(p, "dist", "uniform skewed equal modulo", "uniform", dist, err, errlen))
        return -1;
    long long n = kit_params_ll(p, "n", -1, &ok);
    if (!ok || n < 0 || n > LAB04_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= 2^27 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    long long bins = kit_params_ll(p, "bins", 256, &ok);
    if (!ok || bins < 1 || bins > HISTO_MAX_BINS) {
        snprintf(err, errlen, "bins must be in [1, %d] (got '%s')", HISTO_MAX_BINS, kit_params_get(p, "bins", ""));
        return -1;
    }
    d->n = (int)n;
    d->bins = (int)bins;
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab04_data d;
    const char *dist;
    return parse(p, &d, &dist, err, errlen);
}

int lab04_generate(const kit_params *p, uint64_t seed, lab04_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    const char *dist;
    if (parse(p, d, &dist, err, errlen) != 0)
        return -1;
    long long n = d->n;
    int skewed = !strcmp(dist, "skewed"), equal = !strcmp(dist, "equal"), modulo = !strcmp(dist, "modulo");
    kit_rng r_hot, r_values;
    kit_rng_seed(&r_hot, seed, 1);
    kit_rng_seed(&r_values, seed, 0);
    d->hot = (int32_t)kit_rng_range(&r_hot, 0, d->bins - 1);
    d->in = malloc((size_t)(n ? n : 1) * sizeof *d->in);
    if (!d->in) {
        snprintf(err, errlen, "out of host memory for n=%lld", n);
        return -1;
    }
    if (equal) {
        for (long long i = 0; i < n; i++)
            d->in[i] = d->hot;
    } else if (modulo) {
        for (long long i = 0; i < n; i++)
            d->in[i] = (int32_t)(i % d->bins);
    } else if (skewed) {
        kit_gen_skewed_i32(&r_values, d->in, (size_t)n, 0, d->bins - 1, LAB04_SKEW_P, d->hot);
    } else {
        kit_gen_uniform_i32(&r_values, d->in, (size_t)n, 0, d->bins - 1);
    }
    return 0;
}

void lab04_free(lab04_data *d)
{
    free(d->in);
    memset(d, 0, sizeof *d);
}
