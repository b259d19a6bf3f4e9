/* compare.c - GPU result vs CPU reference (see kit/compare.h). */
#include "kit/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kit/rng.h" /* kit_threads */

double kit_gamma(double k, double u)
{
    double ku = k * u;
    return ku >= 1.0 ? INFINITY : ku / (1.0 - ku);
}

double kit_sum_bound(double terms, double sum_abs, double u)
{
    if (terms < 1.0)
        terms = 1.0; /* even a single value was rounded once */
    double worst = kit_gamma(terms, u);
    double probable = KIT_LAMBDA * sqrt(terms) * u + terms * u * u;
    double c = worst < probable ? worst : probable;
    return sum_abs == 0.0 ? 0.0 : c * sum_abs;
}

/* From this many terms on, the probabilistic bound is the smaller:
 * gamma_t(u) >= t u > lambda sqrt(t) u + t u^2 once sqrt(t) > lambda / (1 - u),
 * t > 64.00001 for lambda 8 (by over 1% at 128, far beyond rounding). */
#define PROBABLE_FROM (2.0 * KIT_LAMBDA * KIT_LAMBDA)

void kit_sum_bounds(double *b, size_t n, double terms, int per_index, double u)
{
    /* kit_sum_bound's arithmetic, its choice made once per element by a
     * comparison (no division, no call): 2^26 elements in lab06 */
#pragma omp parallel for num_threads(n >= (1 << 16) ? kit_threads() : 1) schedule(static)
    for (size_t i = 0; i < n; i++) {
        double t = per_index ? terms + (double)i : terms;
        if (t < PROBABLE_FROM)
            b[i] = kit_sum_bound(t, b[i], u);
        else
            b[i] = b[i] == 0.0 ? 0.0 : (KIT_LAMBDA * sqrt(t) * u + t * u * u) * b[i];
    }
}

static void cmp_init(kit_cmp *r, size_t got_len, size_t exp_len, int exact)
{
    memset(r, 0, sizeof *r);
    r->expected_len = exp_len;
    r->got_len = got_len;
    r->first_bad = SIZE_MAX;
    r->max_ratio_index = SIZE_MAX;
    r->length_mismatch = got_len != exp_len;
    r->exact = exact;
}

/* Records element i.  bound < 0 means exact comparison. */
static void cmp_one(kit_cmp *r, size_t i, double got, double exp, double bound)
{
    double err = fabs(got - exp);
    int finite = isfinite(got);
    int bad = !finite || (bound < 0 ? got != exp : !(err <= bound));
    double ratio;
    if (!finite)
        ratio = INFINITY;
    else if (bound > 0)
        ratio = err / bound;
    else
        ratio = err == 0 ? 0 : INFINITY;
    if (!finite && !r->nan_seen) {
        /* the first NaN/Inf becomes the worst element, whatever came before */
        r->nan_seen = 1;
        r->max_ratio = INFINITY;
        r->max_ratio_index = i;
    } else if (ratio > r->max_ratio || r->max_ratio_index == SIZE_MAX) {
        r->max_ratio = ratio;
        r->max_ratio_index = i;
    }
    if (!bad)
        return;
    if (r->n_bad++ == 0) {
        r->first_bad = i;
        r->first_expected = exp;
        r->first_got = got;
        r->first_bound = bound < 0 ? 0 : bound;
    }
}

/* Whether cmp_one(r, i, got, exp, bound >= 0) would leave r as it is: got
 * finite, within its bound, and its ratio err / bound no larger than the
 * largest so far - told without a division: err < max_ratio * QUIET * bound
 * means err / bound < max_ratio even after the products' two roundings
 * (each at most 1 + 2^-53).  Zero and NaN bounds or ratios, NaN expected
 * values and the first element (max_ratio 0) are cmp_one's.  Most of a
 * right output's 2^26 elements in lab06 end here. */
#define QUIET (1.0 - 1.0 / 1024)
static inline int cmp_quiet(const kit_cmp *r, double got, double exp, double bound)
{
    double err = fabs(got - exp);
    return isfinite(got) && err <= bound && err < r->max_ratio * QUIET * bound;
}

/* Only the common prefix is compared when lengths differ: the result is
 * never ok, but the fields still say what the prefix looked like. */
static size_t common_len(size_t a, size_t b)
{
    return a < b ? a : b;
}

void kit_cmp_f32(kit_cmp *r, const float *got, size_t got_len, const double *exp, const double *bound,
                 size_t exp_len)
{
    cmp_init(r, got_len, exp_len, bound == NULL);
    for (size_t i = 0, n = common_len(got_len, exp_len); i < n; i++)
        if (!bound || !cmp_quiet(r, (double)got[i], exp[i], bound[i]))
            cmp_one(r, i, (double)got[i], exp[i], bound ? bound[i] : -1.0);
}

void kit_cmp_f64(kit_cmp *r, const double *got, size_t got_len, const double *exp, const double *bound,
                 size_t exp_len)
{
    cmp_init(r, got_len, exp_len, bound == NULL);
    for (size_t i = 0, n = common_len(got_len, exp_len); i < n; i++)
        if (!bound || !cmp_quiet(r, got[i], exp[i], bound[i]))
            cmp_one(r, i, got[i], exp[i], bound ? bound[i] : -1.0);
}

/* Integers are compared as integers; the doubles stored in r are for messages. */
static void int_one(kit_cmp *r, size_t i, int64_t got, int64_t exp)
{
    if (got == exp)
        return;
    if (r->n_bad++ == 0) {
        r->first_bad = i;
        r->first_expected = (double)exp;
        r->first_got = (double)got;
        r->max_ratio = INFINITY; /* any error is infinitely many times a zero bound */
        r->max_ratio_index = i;
    }
}

void kit_cmp_i32(kit_cmp *r, const int32_t *got, size_t got_len, const int64_t *exp, size_t exp_len)
{
    cmp_init(r, got_len, exp_len, 1);
    for (size_t i = 0, n = common_len(got_len, exp_len); i < n; i++)
        int_one(r, i, got[i], exp[i]);
}

void kit_cmp_i64(kit_cmp *r, const int64_t *got, size_t got_len, const int64_t *exp, size_t exp_len)
{
    cmp_init(r, got_len, exp_len, 1);
    for (size_t i = 0, n = common_len(got_len, exp_len); i < n; i++)
        int_one(r, i, got[i], exp[i]);
}

void kit_cmp_u32(kit_cmp *r, const uint32_t *got, size_t got_len, const uint64_t *exp, size_t exp_len)
{
    cmp_init(r, got_len, exp_len, 1);
    for (size_t i = 0, n = common_len(got_len, exp_len); i < n; i++) {
        /* expected values above INT64_MAX cannot equal a u32: clamp keeps them unequal */
        int64_t e = exp[i] > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)exp[i];
        int_one(r, i, (int64_t)got[i], e);
    }
}

void kit_cmp_scalar(kit_cmp *r, double got, double exp, double bound)
{
    cmp_init(r, 1, 1, 0);
    cmp_one(r, 0, got, exp, bound < 0 ? 0 : bound);
}

int kit_cmp_ok(const kit_cmp *r)
{
    return !r->length_mismatch && r->n_bad == 0 && !r->nan_seen;
}

void kit_cmp_norm_f64(kit_cmp *r, const double *got, const double *exp, size_t n, double rel_bound,
                      double *rel_err)
{
    cmp_init(r, n, n, 0);
    double diff2 = 0, exp2 = 0, exp_inf = 0, worst = -1;
    size_t worst_i = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        double d = got[i] - exp[i];
        if (!isfinite(got[i]))
            r->nan_seen = 1;
        diff2 += d * d;
        exp2 += exp[i] * exp[i];
        if (fabs(exp[i]) > exp_inf)
            exp_inf = fabs(exp[i]);
        if (!(fabs(d) <= worst)) { /* NaN counts as the worst */
            worst = isnan(d) ? INFINITY : fabs(d);
            worst_i = i;
        }
    }
    double num = sqrt(diff2), den = sqrt(exp2);
    double rel = den > 0 ? num / den : (num == 0 ? 0 : INFINITY);
    if (r->nan_seen || isnan(rel))
        rel = INFINITY;
    if (rel_err)
        *rel_err = rel;
    r->max_ratio = rel_bound > 0 ? rel / rel_bound : (rel == 0 ? 0 : INFINITY);
    r->max_ratio_index = worst_i;
    if (rel <= rel_bound)
        return;
    /* Failed: point at elements whose error alone is large, for orientation. */
    double elem_bound = rel_bound * exp_inf;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(got[i] - exp[i]);
        if (isfinite(got[i]) && d <= elem_bound)
            continue;
        if (r->n_bad++ == 0) {
            r->first_bad = i;
            r->first_expected = exp[i];
            r->first_got = got[i];
            r->first_bound = elem_bound;
        }
    }
    if (r->n_bad == 0 && worst_i != SIZE_MAX) { /* spread-out error: name the worst element */
        r->n_bad = 1;
        r->first_bad = worst_i;
        r->first_expected = exp[worst_i];
        r->first_got = got[worst_i];
        r->first_bound = elem_bound;
    }
    if (n == 0) /* nothing to point at, but a failure must not read as ok */
        r->n_bad = 1;
}

/* ---- describe ------------------------------------------------------------------ */
typedef struct {
    char *buf;
    size_t len, used; /* used may exceed len: snprintf semantics */
} outbuf;

static void out(outbuf *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(o->used < o->len ? o->buf + o->used : NULL, o->used < o->len ? o->len - o->used : 0,
                      fmt, ap);
    va_end(ap);
    if (w > 0)
        o->used += (size_t)w;
}

/* expected/got with enough digits to show that they differ: %.9g separates
 * floats; doubles closer than that get %.17g. */
static void out_pair(outbuf *o, double exp, double got)
{
    char e[40], g[40];
    snprintf(e, sizeof e, "%.9g", exp);
    snprintf(g, sizeof g, "%.9g", got);
    if (strcmp(e, g) == 0 && exp != got) {
        snprintf(e, sizeof e, "%.17g", exp);
        snprintf(g, sizeof g, "%.17g", got);
    }
    out(o, "expected %s, got %s", e, g);
}

int kit_cmp_describe(const kit_cmp *r, char *buf, size_t len)
{
    outbuf o = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    if (r->length_mismatch) {
        out(&o, "wrong length: expected %zu element%s, got %zu", r->expected_len,
            r->expected_len == 1 ? "" : "s", r->got_len);
    } else if (kit_cmp_ok(r)) {
        if (r->exact)
            out(&o, "all %zu elements match", r->expected_len);
        else
            out(&o, "all %zu elements within their bounds (largest error %.2gx its bound)", r->expected_len,
                r->max_ratio);
    } else {
        if (r->expected_len == 1)
            out(&o, "wrong value: ");
        else
            out(&o, "%zu of %zu elements differ; first wrong index %zu: ", r->n_bad, r->expected_len,
                r->first_bad);
        out_pair(&o, r->first_expected, r->first_got);
        if (!r->exact)
            out(&o, " (allowed error %.2g)", r->first_bound);
        if (!r->exact && isfinite(r->max_ratio) && r->expected_len > 1)
            out(&o, "; largest error %.2gx its bound at index %zu", r->max_ratio, r->max_ratio_index);
        if (r->nan_seen && isfinite(r->first_got))
            out(&o, "; a NaN or infinity was returned at index %zu", r->max_ratio_index);
    }
    return o.used > (size_t)0x7fffffff ? 0x7fffffff : (int)o.used;
}
