/* dataset.c - lab02 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/gen.h"
#include "kit/rng.h"

#define LAB02_MAX_N (1LL << 27)

/* Reads and checks the parameters into d; allocates nothing. */
static int parse(const kit_params *p, lab02_data *d, char *err, size_t errlen)
{
    int ok = 1;
    const char *entry;
    if (kit_params_only(p, "n per_thread entry time", err, errlen) ||
        kit_params_choice(p, "entry", "host device", "host", &entry, err, errlen))
        return -1;
    long long n = kit_params_ll(p, "n", -1, &ok);
    if (!ok || n < 0 || n > LAB02_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= 2^27 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    long long per_thread = kit_params_ll(p, "per_thread", 1, &ok);
    if (!ok || per_thread < 1 || per_thread > LAB02_MAX_N) {
        snprintf(err, errlen, "per_thread must be >= 1 (got '%s')", kit_params_get(p, "per_thread", ""));
        return -1;
    }
    d->on_device = !strcmp(entry, "device");
    d->n = (int)n;
    d->per_thread = (int)per_thread;
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab02_data d;
    return parse(p, &d, err, errlen);
}

int lab02_generate(const kit_params *p, uint64_t seed, lab02_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (parse(p, d, err, errlen) != 0)
        return -1;
    long long n = d->n;
    size_t cnt = n ? (size_t)n : 1;
    d->a = malloc(cnt * sizeof *d->a);
    d->b = malloc(cnt * sizeof *d->b);
    if (!d->a || !d->b) {
        lab02_free(d);
        snprintf(err, errlen, "out of host memory for n=%lld", n);
        return -1;
    }
    kit_rng ra, rb;
    kit_rng_seed(&ra, seed, 0);
    kit_rng_seed(&rb, seed, 1);
    kit_gen_uniform_f32(&ra, d->a, (size_t)n, -1.0f, 1.0f);
    kit_gen_uniform_f32(&rb, d->b, (size_t)n, -100.0f, 100.0f);
    return 0;
}

void lab02_free(lab02_data *d)
{
    free(d->a);
    free(d->b);
    memset(d, 0, sizeof *d);
}
