/* timed.c - loading the timed calls' record (see timed.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "kit/timed.h"

int kit_timed_load(kit_check_ctx *ctx, int per, int whole, int64_t out_count, kit_timed_view *v)
{
    uint64_t n = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;
    memset(v, 0, sizeof *v);
    if (!kit_blob_get(ctx->out, KIT_KEY_TIMED_CALL, KIT_T_I32, &n))
        return 0; /* not a benchmark run */
    v->call = kit_expect_array(ctx, KIT_KEY_TIMED_CALL, KIT_T_I32, 0, &n);
    if (!v->call)
        return -1;
    if (n < 1 || n > KIT_TIMED_MAX || per < 1 || out_count < 1) {
        kit_fail(ctx, "the benchmark recorded %llu timed calls (1 to %d expected)", (unsigned long long)n,
                 KIT_TIMED_MAX);
        return -1;
    }
    v->shift = kit_expect_array(ctx, KIT_KEY_TIMED_SHIFT, KIT_T_I64, n, &c2);
    v->scale = kit_expect_array(ctx, KIT_KEY_TIMED_SCALE, KIT_T_F64, n, &c3);
    if (!whole)
        v->index = kit_expect_array(ctx, KIT_KEY_TIMED_INDEX, KIT_T_I64, n * (uint64_t)per, &c4);
    v->value = kit_expect_array(ctx, KIT_KEY_TIMED_VALUE, KIT_T_U32, n * (uint64_t)per, &c5);
    if (!v->shift || !v->scale || (!whole && !v->index) || !v->value)
        return -1;
    for (uint64_t i = 0; !whole && i < n * (uint64_t)per; i++)
        if (v->index[i] < 0 || v->index[i] >= out_count) {
            kit_fail(ctx, "timed call %d: a sampled index (%lld) is out of range", v->call[i / (uint64_t)per],
                     (long long)v->index[i]);
            return -1;
        }
    v->n = (int)n, v->per = per;
    return 1;
}

int kit_timed_inputs_ok(kit_check_ctx *ctx, const kit_timed_view *v, int k, int64_t limit, const char *call)
{
    if (v->shift[k] >= 0 && v->shift[k] < limit && isfinite(v->scale[k]) && v->scale[k] != 0)
        return 1;
    kit_fail(ctx, "timed call %d of %s: its inputs were not recorded", v->call[k], call);
    return 0;
}

void kit_timed_fail(kit_check_ctx *ctx, const kit_timed_view *v, int k, const char *call, const char *fresh,
                    const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    kit_fail(ctx, "timed call %d of %s (fresh %s each call): %s: every timed call must compute its result (a "
             "remembered one is not timed)", v->call[k], call, fresh, what);
}

void kit_timed_check_samples(kit_check_ctx *ctx, const void *data, const kit_timed_samples *s)
{
    kit_timed_view v;
    if (kit_timed_load(ctx, s->per, 0, s->out_count, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, s->shift_limit, s->call))
            break;
        for (int j = 0; j < s->per; j++) {
            size_t at = (size_t)k * (size_t)s->per + (size_t)j;
            int64_t i = v.index[at];
            double bound, exp = s->element(data, i, v.shift[k], v.scale[k], &bound);
            double got = kit_timed_f32(&v, at);
            if (!(fabs(got - exp) <= bound)) {
                kit_timed_fail(ctx, &v, k, s->call, s->fresh, "%s[%lld] = %.9g, expected %.9g", s->out, (long long)i,
                               got, exp);
                break;
            }
        }
    }
}
