/* dataset.c - lab11 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/rng.h"

/* An integer parameter in [lo, hi], `def` when absent. */
static int get(const kit_params *p, const char *key, long long def, long long lo, long long hi, const char *range,
               long long *out, char *err, size_t errlen)
{
    int ok = 1;
    long long v = kit_params_ll(p, key, def, &ok);
    if (!ok || v < lo || v > hi) {
        snprintf(err, errlen, "%s must be %s (got '%s')", key, range, kit_params_get(p, key, ""));
        return -1;
    }
    *out = v;
    return 0;
}

/* Reads and checks the parameters into d; allocates nothing. */
static int parse(const kit_params *p, lab11_data *d, char *err, size_t errlen)
{
    long long part, chunks, streams, rounds;
    if (kit_params_only(p, "n part chunks streams rounds min_overlap", err, errlen) ||
        get(p, "part", 2, 1, 2, "1 or 2", &part, err, errlen))
        return -1;
    d->part = (int)part;
    if (!kit_params_has(p, "n")) {
        snprintf(err, errlen, "n must be given (the number of 32-bit words)");
        return -1;
    }
    if (part == 1 ? get(p, "n", 0, 1, 1LL << 28, "1 <= n <= 2^28 for part 1", &d->n, err, errlen)
                  : get(p, "n", 0, 0, 1LL << 26, "0 <= n <= 2^26 for part 2", &d->n, err, errlen))
        return -1;
    d->words = (int)d->n;
    if (get(p, "chunks", 8, 1, 1024, "1 <= chunks <= 1024", &chunks, err, errlen) ||
        get(p, "streams", 4, 1, 32, "1 <= streams <= 32", &streams, err, errlen) ||
        get(p, "rounds", 64, 0, 4096, "0 <= rounds <= 4096", &rounds, err, errlen))
        return -1;
    d->chunks = (int)chunks, d->streams = (int)streams, d->rounds = (int)rounds;
    d->min_overlap = -1;
    if (kit_params_has(p, "min_overlap")) {
        int ok = 1;
        d->min_overlap = kit_params_f64(p, "min_overlap", 0, &ok);
        if (!ok || !(d->min_overlap >= 0 && d->min_overlap <= 1) || part != 2) {
            snprintf(err, errlen, "min_overlap must be a fraction in [0, 1], for part 2 (got '%s')",
                     kit_params_get(p, "min_overlap", ""));
            return -1;
        }
    }
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab11_data d;
    return parse(p, &d, err, errlen);
}

int lab11_generate(const kit_params *p, uint64_t seed, lab11_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (parse(p, d, err, errlen) != 0)
        return -1;
    d->in = malloc((size_t)(d->n ? d->n : 1) * sizeof *d->in);
    if (!d->in) {
        snprintf(err, errlen, "out of host memory for n=%lld", d->n);
        return -1;
    }
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    for (long long i = 0; i < d->n; i += 2) {
        uint64_t v = kit_rng_u64(&r);
        d->in[i] = (uint32_t)v;
        if (i + 1 < d->n)
            d->in[i + 1] = (uint32_t)(v >> 32);
    }
    return 0;
}

void lab11_free(lab11_data *d)
{
    free(d->in);
    memset(d, 0, sizeof *d);
}
