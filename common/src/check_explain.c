/* check_explain.c - what a wrong output's elements say, as its row in a
 * KIT_CHECK declares it (kit/check_driver.h): the elements the call never
 * wrote (they still hold the harness's poison: for an integer output, the
 * reference tells them from a computed value), wrong elements all at the
 * ends of the array, a mistake the output looks like, a lab's note.  Said in
 * the student's terms, after the comparison's "first wrong index" (or
 * before it: explain_first). */
#include <math.h>
#include <stdio.h>

#include "check_explain.h"

/* Element i of got holds the poison's byte in every byte. */
static int holds_poison(const kit_check_output *o, const void *got, size_t i)
{
    size_t size = kit_type_size(o->type);
    const unsigned char *p = (const unsigned char *)got + i * size;
    for (size_t k = 0; k < size; k++)
        if (p[k] != (unsigned char)(o->poison & 0xFF))
            return 0;
    return 1;
}

int64_t kit_check_int_at(kit_type type, const void *p, uint64_t i)
{
    switch (type) {
    case KIT_T_I32: return ((const int32_t *)p)[i];
    case KIT_T_U32: return ((const uint32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

/* Element i is outside its bound (floats) or not the reference (integers). */
static int wrong_at(const kit_check_got *g, size_t i)
{
    switch (g->out->type) {
    case KIT_T_F32: return !(fabs((double)((const float *)g->got)[i] - g->ref.f[i]) <= g->ref.bound[i]);
    case KIT_T_F64: return !(fabs(((const double *)g->got)[i] - g->ref.f[i]) <= g->ref.bound[i]);
    case KIT_T_I32: return ((const int32_t *)g->got)[i] != g->ref.i[i];
    case KIT_T_I64: return ((const int64_t *)g->got)[i] != g->ref.i[i];
    case KIT_T_U32: return ((const uint32_t *)g->got)[i] != g->ref.u[i];
    default: return 0;
    }
}

/* An integer output's last elements that still hold the poison where the
 * reference does not (unwritten_where): the poison is a value a computation
 * gives too, so only the reference tells an element never written; said
 * after the comparison's message, as a hint.  1 when every element was. */
static int say_unwritten_tail(kit_check_ctx *ctx, kit_check_got *g, const char *name)
{
    unsigned long long n = g->count, t = n;
    while (t > 0 && holds_poison(g->out, g->got, t - 1) && wrong_at(g, t - 1))
        t--;
    g->unwritten = n - t;
    if (t < n)
        kit_detail(ctx, "the last %llu outputs (%s[%llu] to %s[%llu]) still hold %lld, the value the harness filled %s "
                        "with before your call: were they ever written?",
                   n - t, name, t, name, n - 1, (long long)kit_check_int_at(g->out->type, g->got, n - 1), name);
    return t == 0 && n > 0;
}

/* The elements never written: every one, the last ones, or some.  1 when
 * every element was (nothing else is then worth saying). */
static int say_unwritten(kit_check_ctx *ctx, kit_check_got *g)
{
    const kit_check_output *o = g->out;
    const char *name = o->shown_as ? o->shown_as : o->name;
    if (o->unwritten_where && (o->type == KIT_T_I32 || o->type == KIT_T_I64 || o->type == KIT_T_U32))
        return say_unwritten_tail(ctx, g, name);
    int is_float = o->type == KIT_T_F32 || o->type == KIT_T_F64;
    unsigned long long n = g->count, count = 0, first = 0, last = 0;
    for (unsigned long long i = 0; i < n; i++)
        if (holds_poison(o, g->got, i)) {
            if (count++ == 0)
                first = i;
            last = i;
        }
    g->unwritten = count;
    const char *v = is_float ? "NaN" : "-1";
    if (count == 0)
        return 0;
    if (count == n && o->unwritten_all)
        kit_fail(ctx, o->unwritten_all, o->what, n);
    else if (count == n)
        kit_fail(ctx, "%s: no element of %s was written (all %llu still hold the %s the kit filled %s with)", o->what,
                 name, n, v, name);
    else if (!o->unwritten_where || !is_float) /* an int poison (-1) is a value a computation gives too */
        return 0;
    else if (last == n - 1 && count == n - first && first == n - 1)
        kit_fail(ctx, "%s: element %llu of %s was never written (still the kit's %s fill), the first %llu were: do "
                      "your blocks cover all %llu elements?", o->what, first, name, v, first, n);
    else if (last == n - 1 && count == n - first)
        kit_fail(ctx, "%s: elements %llu..%llu of %s were never written (still the kit's %s fill), the first %llu "
                      "were: do your blocks cover all %llu elements?", o->what, first, n - 1, name, v, first, n);
    else
        kit_fail(ctx, "%s: %llu of %llu elements of %s were never written (still the kit's %s fill), the first at "
                      "index %llu", o->what, count, n, name, v, first);
    return count == n;
}

/* Every wrong element within `edge` of either end, and elements between them. */
static int wrong_only_at_ends(const kit_check_got *g, unsigned long long edge)
{
    unsigned long long n = g->count;
    if (n <= 2 * edge + 2)
        return 0;
    for (unsigned long long i = edge + 1; i + edge + 1 < n; i++)
        if (wrong_at(g, i))
            return 0;
    return 1;
}

/* The row's mistake, when the output looks like it for some p: says so, 1. */
static int say_mistake(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const kit_check_output *o = g->out;
    size_t n = (size_t)g->count;
    for (size_t p = o->mistake.p_from; p > 0 && p <= o->mistake.p_to && p < n; p *= 2) {
        size_t lim = o->mistake.span && o->mistake.span * p < n ? o->mistake.span * p : n;
        if (o->mistake.looks_like(data, g->got, lim, p)) {
            kit_detail(ctx, o->mistake.says, p);
            return 1;
        }
    }
    return 0;
}

void kit_check_explain(kit_check_ctx *ctx, const void *data, kit_check_got *g)
{
    const kit_check_output *o = g->out;
    int all_unwritten = o->poison && say_unwritten(ctx, g);
    int edge = kit_field_int(data, o->edge_of);
    if (!all_unwritten && o->edge_of && o->edge_note && edge >= 0 && wrong_only_at_ends(g, (unsigned long long)edge))
        kit_detail(ctx, o->edge_note, edge);
    int explained = all_unwritten || (o->mistake.looks_like && say_mistake(ctx, data, g));
    if (o->note && kit_when_holds(&o->note_when, data) && !(o->note_unexplained && explained))
        kit_detail(ctx, "%s", o->note);
}
