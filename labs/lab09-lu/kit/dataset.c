/* dataset.c - lab09 input generation (see dataset.h). */
#include "dataset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/compare.h"
#include "kit/gen.h"
#include "kit/rng.h"

static int parse_class(const char *s, lab09_class *c)
{
    static const struct {
        const char *name;
        lab09_class cls;
    } names[] = {{"dd", LAB09_DD}, {"poisson", LAB09_POISSON}, {"zerodiag", LAB09_ZERODIAG}, {"singular", LAB09_SINGULAR}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) {
            *c = names[i].cls;
            return 0;
        }
    return -1;
}

static int grid_side(int n)
{
    int g = (int)floor(sqrt((double)n) + 0.5);
    return g * g == n ? g : -1;
}

/* Reads and checks every parameter except the matrix itself. */
static int read_params(const kit_params *p, lab09_data *d, int *every, char *err, size_t errlen)
{
    int ok = 1;
    if (kit_params_only(p, "n matrix type impl every k", err, errlen) != 0)
        return -1;
    long long n = kit_params_ll(p, "n", -1, &ok);
    if (!ok || n < 0 || n > LAB09_MAX_N) {
        snprintf(err, errlen, "n must be given, 0 <= n <= %d (got '%s')", LAB09_MAX_N, kit_params_get(p, "n", ""));
        return -1;
    }
    d->n = (int)n, d->nn = (int)(n * n);
    const char *cls = kit_params_get(p, "matrix", "dd"), *type = kit_params_get(p, "type", "float"),
               *impl = kit_params_get(p, "impl", "step");
    if (parse_class(cls, &d->cls) != 0) {
        snprintf(err, errlen, "matrix must be dd, poisson, zerodiag or singular (got '%s')", cls);
        return -1;
    }
    if (strcmp(type, "float") && strcmp(type, "double")) {
        snprintf(err, errlen, "type must be float or double (got '%s')", type);
        return -1;
    }
    if (strcmp(impl, "step") && strcmp(impl, "blocked")) {
        snprintf(err, errlen, "impl must be step or blocked (got '%s')", impl);
        return -1;
    }
    d->is_double = !strcmp(type, "double");
    d->blocked = !strcmp(impl, "blocked");
    d->u = d->is_double ? KIT_U_F64 : KIT_U_F32;
    if (d->blocked && d->is_double) {
        snprintf(err, errlen, "the blocked version is float only (impl=blocked type=float)");
        return -1;
    }
    if (d->cls == LAB09_POISSON && grid_side(d->n) < 0) {
        snprintf(err, errlen, "matrix=poisson needs n = g*g (got %d)", d->n);
        return -1;
    }
    *every = (int)kit_params_ll(p, "every", 3, &ok);
    if (!ok || *every < 2) {
        snprintf(err, errlen, "every must be >= 2");
        return -1;
    }
    d->k = (int)kit_params_ll(p, "k", d->n / 2 + 1, &ok);
    if (d->cls == LAB09_SINGULAR && (!ok || d->k < 2 || d->k > d->n)) {
        snprintf(err, errlen, "matrix=singular needs 2 <= k <= n (got k=%d, n=%d)", d->k, d->n);
        return -1;
    }
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab09_data d;
    int every;
    return read_params(p, &d, &every, err, errlen);
}

int lab09_generate(const kit_params *p, uint64_t seed, lab09_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int every;
    if (read_params(p, d, &every, err, errlen) != 0)
        return -1;
    size_t nn = (size_t)d->n * (size_t)d->n;
    d->a = malloc((nn ? nn : 1) * sizeof *d->a);
    if (!d->a) {
        snprintf(err, errlen, "out of host memory for n=%d", d->n);
        return -1;
    }
    d->rotates = LAB09_TIMED_ROTATES(d->cls);
    d->bytes = d->nn * (d->is_double ? 8 : 4);
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    switch (d->cls) {
    case LAB09_DD:
        kit_gen_diag_dominant(&r, d->a, d->n);
        break;
    case LAB09_POISSON:
        kit_gen_poisson2d(d->a, grid_side(d->n));
        break;
    case LAB09_ZERODIAG:
        kit_gen_zero_diag_regular(&r, d->a, d->n, every, NULL, NULL);
        break;
    case LAB09_SINGULAR:
        kit_gen_singular_minor(&r, d->a, d->n, d->k);
        break;
    }
    if (!d->is_double) /* what the float version receives, exactly */
        for (size_t i = 0; i < nn; i++)
            d->a[i] = (double)(float)d->a[i];
    return 0;
}

void lab09_free(lab09_data *d)
{
    free(d->a);
    memset(d, 0, sizeof *d);
}
