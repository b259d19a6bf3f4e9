/* dataset.c - lab05 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv1d.h"
#include "kit/gen.h"
#include "kit/rng.h"

#define LAB05_MAX_N (1LL << 26)

static const int32_t example_in[8] = {3, 1, 0, 2, 6, 3, 4, 1};
static const int32_t example_mask[5] = {1, 2, 3, 2, 1};

/* Uniform in [-hi, -1] U [1, hi]: no zero, so a dropped term always changes
 * the sum (a zero input or mask tap would hide a boundary bug). */
static void nonzero_i32(kit_rng *r, int32_t *out, size_t n, int32_t hi)
{
    for (size_t i = 0; i < n; i++) {
        int32_t v = (int32_t)kit_rng_range(r, 1, 2 * (int64_t)hi);
        out[i] = v <= hi ? v - hi - 1 : v - hi;
    }
}

/* Reads and checks the parameters into d; allocates nothing. */
static int parse(const kit_params *p, lab05_data *d, char *err, size_t errlen)
{
    int ok = 1;
    if (kit_params_only(p, "n mask type variant data time", err, errlen) != 0)
        return -1;
    const char *type = kit_params_get(p, "type", "float");
    const char *variant = kit_params_get(p, "variant", "tiled");
    const char *data = kit_params_get(p, "data", "random");
    d->is_int = !strcmp(type, "int");
    d->halo = !strcmp(variant, "halo");
    d->example = !strcmp(data, "example");
    if (!d->is_int && strcmp(type, "float")) {
        snprintf(err, errlen, "type must be float or int (got '%s')", type);
        return -1;
    }
    if (!d->halo && strcmp(variant, "tiled")) {
        snprintf(err, errlen, "variant must be tiled or halo (got '%s')", variant);
        return -1;
    }
    if (d->halo && d->is_int) {
        snprintf(err, errlen, "variant=halo (conv1d_halo_global) is float only");
        return -1;
    }
    if (!d->example && strcmp(data, "random")) {
        snprintf(err, errlen, "data must be random or example (got '%s')", data);
        return -1;
    }
    if (d->example) {
        d->n = 8;
        d->mask_size = 5;
        return 0;
    }
    long long n = kit_params_ll(p, "n", -1, &ok);
    long long m = kit_params_ll(p, "mask", 5, &ok);
    if (!ok || n < 0 || n > LAB05_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= 2^26 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    if (m < 1 || m > CONV_MAX_MASK || m % 2 == 0) {
        snprintf(err, errlen, "mask must be odd, 1 <= mask <= %d (got '%s')", CONV_MAX_MASK,
                 kit_params_get(p, "mask", ""));
        return -1;
    }
    d->n = (int)n;
    d->mask_size = (int)m;
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab05_data d;
    return parse(p, &d, err, errlen);
}

int lab05_generate(const kit_params *p, uint64_t seed, lab05_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (parse(p, d, err, errlen) != 0)
        return -1;
    d->radius = d->mask_size / 2;
    size_t n = (size_t)d->n, m = (size_t)d->mask_size, cnt = n ? n : 1;
    kit_rng r_in, r_mask;
    kit_rng_seed(&r_in, seed, 0);
    kit_rng_seed(&r_mask, seed, 1);
    if (d->is_int) {
        d->iin = malloc(cnt * sizeof *d->iin);
        d->imask = malloc(m * sizeof *d->imask);
        if (!d->iin || !d->imask)
            goto oom;
        if (d->example) {
            memcpy(d->iin, example_in, sizeof example_in);
            memcpy(d->imask, example_mask, sizeof example_mask);
        } else {
            nonzero_i32(&r_in, d->iin, n, 9);
            nonzero_i32(&r_mask, d->imask, m, 4);
        }
    } else {
        d->fin = malloc(cnt * sizeof *d->fin);
        d->fmask = malloc(m * sizeof *d->fmask);
        if (!d->fin || !d->fmask)
            goto oom;
        if (d->example) {
            for (size_t i = 0; i < n; i++)
                d->fin[i] = (float)example_in[i];
            for (size_t j = 0; j < m; j++)
                d->fmask[j] = (float)example_mask[j];
        } else {
            kit_gen_uniform_f32(&r_in, d->fin, n, -1.0f, 1.0f);
            kit_gen_uniform_f32(&r_mask, d->fmask, m, -1.0f, 1.0f);
        }
    }
    return 0;
oom:
    lab05_free(d);
    snprintf(err, errlen, "out of host memory for n=%zu", n);
    return -1;
}

void lab05_free(lab05_data *d)
{
    free(d->fin);
    free(d->fmask);
    free(d->iin);
    free(d->imask);
    memset(d, 0, sizeof *d);
}
