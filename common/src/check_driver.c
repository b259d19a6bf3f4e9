/* check_driver.c - the one check loop (kit/check_driver.h): lab_check() of
 * every lab whose check.c declares a KIT_CHECK.  A file of its own, in
 * libkit.a: a checker whose check.c defines lab_check() itself never pulls
 * it in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_explain.h"
#include "check_fields.h"
#include "check_launch_lines.h"
#include "check_map.h"
#include "kit/check_driver.h"
#include "kit/rng.h"
#include "kit/timed.h"
#include "kit/timeline.h"
#include "kit/util.h"

/* A KIT_CHECK the driver cannot follow: the kit's own mistake, exit 2 (an
 * internal error of the checker), never a verdict. */
static void bad_declaration(const char *what, const char *name, int value)
{
    fprintf(stderr, "check driver: %s (%s %d)\n", what, name ? name : "", value);
    exit(2);
}

/* Fetches o into g: present, of its type, of its length (unless the
 * comparison reports that).  Returns g->got != NULL after a length check. */
static int fetch(kit_check_ctx *ctx, const kit_check_output *o, kit_check_got *g)
{
    g->got = kit_expect_array(ctx, o->name, o->type, 0, &g->count);
    if (!g->got || o->len_any || g->count == o->len)
        return g->got != NULL;
    if (o->len_fmt)
        kit_fail(ctx, o->len_fmt, (unsigned long long)g->count, (unsigned long long)o->len);
    else
        kit_fail(ctx, "output '%s' has %llu elements, expected %llu", o->name, (unsigned long long)g->count,
                 (unsigned long long)o->len);
    return 0;
}

/* got against exp (and bound), by the output's type. */
static void compare(const kit_check_output *o, kit_check_got *g)
{
    size_t n = (size_t)g->count, len = (size_t)o->len;
    switch (o->type) {
    case KIT_T_F32: kit_cmp_f32(&g->cmp, g->got, n, g->ref.f, g->ref.bound, len); break;
    case KIT_T_F64: kit_cmp_f64(&g->cmp, g->got, n, g->ref.f, g->ref.bound, len); break;
    case KIT_T_I32: kit_cmp_i32(&g->cmp, g->got, n, g->ref.i, len); break;
    case KIT_T_I64: kit_cmp_i64(&g->cmp, g->got, n, g->ref.i, len); break;
    case KIT_T_U32: kit_cmp_u32(&g->cmp, g->got, n, g->ref.u, len); break;
    default: /* a lab's declaration the kit cannot compare: its judge() must */
        bad_declaration("an output with a reference but a type without a comparison", o->name, (int)o->type);
    }
}

/* The reference of o into r: the lab's function, or its element function at
 * shift 0, scale 1; then floats' sums of magnitudes made bounds. */
static void make_reference(const void *data, const kit_check_output *o, kit_check_ref *r)
{
    int64_t len = (int64_t)o->len;
    if (o->reference) {
        o->reference(data, r);
    } else if (o->ref_of) {
        const void *held;
        if (o->type == KIT_T_F32 || o->type == KIT_T_F64) /* a float's reference needs its bounds */
            bad_declaration("a float output's reference from ref_of", o->name, (int)o->type);
        memcpy(&held, (const char *)data + o->ref_of - 1, sizeof held);
        for (int64_t i = 0; i < len; i++)
            r->i[i] = kit_check_int_at(o->type, held, (uint64_t)i);
    } else {
#pragma omp parallel for num_threads(len >= (1 << 16) ? kit_threads() : 1) schedule(static)
        for (int64_t i = 0; i < len; i++)
            r->f[i] = o->element(data, i, 0, 1.0, &r->bound[i]);
    }
    if (!r->bound || !(o->terms_of || o->terms_add || o->terms_index))
        return;
    double u = o->type == KIT_T_F64 ? KIT_U_F64 : KIT_U_F32;
    double terms = (double)o->terms_add + kit_field_int(data, o->terms_of);
    kit_sum_bounds(r->bound, (size_t)len, terms, o->terms_index, u);
}

/* What a wrong value's elements say (check_explain.c), then the output's own `after`. */
static void explain(kit_check_ctx *ctx, const void *data, const kit_check_output *o, kit_check_got *g)
{
    if (!g->ok && !g->cmp.length_mismatch)
        kit_check_explain(ctx, data, g);
    if (o->after)
        o->after(ctx, data, g);
}

/* A map row the driver can follow: U32, of its length, saying what is wrong. */
static void map_declared(const kit_check_output *o)
{
    if (o->type != KIT_T_U32 || o->len_any || !o->map.wrong || o->reference || o->element || o->ref_of)
        bad_declaration("a map row must be U32 of its length, with wrong() and no other reference", o->name,
                        (int)o->type);
}

/* One output: fetched, compared with its reference (computed into *ref
 * where it is not yet: once per case) or its map, explained.  1 when right. */
static int check_output(kit_check_ctx *ctx, const void *data, const kit_check_output *o, kit_check_ref *ref,
                        kit_check_got *g)
{
    g->out = o;
    if (o->map.in)
        map_declared(o);
    if (!fetch(ctx, o, g))
        return 0;
    if (o->map.in) {
        g->ok = kit_check_map(ctx, data, g);
        if (o->after)
            o->after(ctx, data, g);
    } else if (o->reference || o->element || o->ref_of) {
        if (!ref->f) {
            size_t cells = o->len ? (size_t)o->len : 1;
            void *exp = kit_xmalloc(cells * 8, "the reference"); /* doubles, int64_t or uint64_t */
            *ref = (kit_check_ref){exp, exp, exp, NULL};
            if (o->type == KIT_T_F32 || o->type == KIT_T_F64)
                ref->bound = kit_xmalloc(cells * sizeof *ref->bound, "the reference");
            make_reference(data, o, ref);
        }
        g->ref = *ref;
        compare(o, g);
        g->ok = kit_cmp_ok(&g->cmp);
        int first = !g->ok && o->explain_first;
        if (first)
            explain(ctx, data, o, g);
        kit_check_cmp(ctx, o->what, &g->cmp);
        if (!first)
            explain(ctx, data, o, g);
    } else { /* judged by its after alone, if at all */
        int failed = ctx->fail_count;
        if (o->after)
            o->after(ctx, data, g);
        g->ok = ctx->fail_count == failed;
    }
    return g->ok;
}

/* The outputs of KIT_CHECK.out that this case has, their lengths from the data. */
static int table_outputs(const kit_check *lab, const void *data, kit_check_output *outs)
{
    int n = 0;
    for (int i = 0; i < KIT_CHECK_MAX_OUT && lab->out[i].name; i++) {
        if (!kit_when_holds(&lab->out[i].when, data))
            continue;
        outs[n] = lab->out[i];
        if (outs[n].len_of)
            outs[n].len = (uint64_t)kit_field_int(data, outs[n].len_of);
        n++;
    }
    return n;
}

/* The timed calls of a rotating output (kit_check.timed_rotated), against
 * the first output's reference. */
static void check_rotated(kit_check_ctx *ctx, const kit_check *lab, const kit_check_got *g)
{
    const char *call = lab->timed_rotated.call;
    int64_t len = (int64_t)g->out->len;
    kit_timed_view v;
    if (!g->ref.u || (g->out->type != KIT_T_U32 && g->out->type != KIT_T_I32) || len < 1 ||
        kit_timed_load(ctx, (int)len, 1, len, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, len, call))
            break;
        for (int64_t i = 0; i < len; i++) {
            int64_t at = (i + v.shift[k]) % len;
            uint32_t bits = v.value[(size_t)k * (size_t)len + (size_t)at];
            long long got = g->out->type == KIT_T_U32 ? (long long)bits : (long long)(int32_t)bits;
            long long exp = g->out->type == KIT_T_U32 ? (long long)g->ref.u[i] : (long long)g->ref.i[i];
            if (got != exp) {
                kit_timed_fail(ctx, &v, k, call, lab->timed_rotated.fresh, "%s %lld holds %lld, expected %lld",
                               lab->timed_rotated.element, (long long)at, got, exp);
                break;
            }
        }
    }
}

/* Timed call k's first output (o) against its reference on fresh data (r). 1 when right. */
static int fresh_call_ok(kit_check_ctx *ctx, const kit_check *lab, const kit_check_output *o,
                         const kit_timed_view *v, int k, const kit_check_ref *r)
{
    for (size_t j = 0; j < (size_t)v->per; j++) {
        size_t at = (size_t)k * (size_t)v->per + j, i = v->index ? (size_t)v->index[at] : j;
        double got = (double)v->value[at], exp = (double)r->u[i], bound = 0; /* U32 */
        if (o->type == KIT_T_F32)
            got = kit_timed_f32(v, at), exp = r->f[i], bound = r->bound[i];
        else if (o->type == KIT_T_I32)
            got = kit_timed_i32(v, at), exp = (double)r->i[i];
        if (fabs(got - exp) <= bound)
            continue;
        if (o->len == 1)
            kit_timed_fail(ctx, v, k, lab->timed_fresh.call, lab->timed_fresh.input, "returned %.9g, expected %.9g",
                           got, exp);
        else
            kit_timed_fail(ctx, v, k, lab->timed_fresh.call, lab->timed_fresh.input, "%s[%zu] = %.9g, expected %.9g",
                           o->name, i, got, exp);
        return 0;
    }
    return 1;
}

/* The timed calls recomputed on fresh data (kit_check.timed_fresh). */
static void check_fresh(kit_check_ctx *ctx, const kit_check *lab, const void *data, const kit_check_got *g)
{
    const kit_check_output *o = g->out;
    int64_t limit = kit_field_int(data, lab->timed_fresh.shift_of);
    int known = o->type == KIT_T_F32 || o->type == KIT_T_I32 || o->type == KIT_T_U32;
    int per = lab->timed_fresh.per;
    kit_timed_view v;
    if (!o->reference || o->len < 1 || !known || limit < 1 || !kit_when_holds(&lab->timed_fresh.when, data) ||
        kit_timed_load(ctx, per ? per : (int)o->len, !per, (int64_t)o->len, &v) != 1)
        return;
    void *exp = kit_xmalloc((size_t)o->len * 8, "the reference"), *fresh = kit_xmalloc(lab->data_size, "fresh inputs");
    kit_check_ref r = {exp, exp, exp, kit_xmalloc((size_t)o->len * sizeof(double), "the reference")};
    /* the refreshed inputs, remade for every timed call into the same arrays
     * (2^26 floats each in lab06: allocated once, not once a call) */
    float *made[2] = {NULL, NULL};
    for (int j = 0; j < 2 && lab->timed_fresh.in[j]; j++)
        made[j] = kit_xmalloc((size_t)limit * sizeof(float), "fresh inputs");
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, limit, lab->timed_fresh.call))
            break;
        memcpy(fresh, data, lab->data_size);
        for (int j = 0; j < 2 && lab->timed_fresh.in[j]; j++) {
            size_t at = lab->timed_fresh.in[j] - 1;
            const float *orig;
            memcpy(&orig, (const char *)data + at, sizeof orig);
            kit_fresh_apply_host(orig, made[j], limit, v.shift[k], v.scale[k]);
            memcpy((char *)fresh + at, &made[j], sizeof made[j]);
        }
        make_reference(fresh, o, &r); /* its bounds too, as the checked call's (terms_*) */
        if (!fresh_call_ok(ctx, lab, o, &v, k, &r))
            break;
    }
    free(made[0]), free(made[1]);
    free(exp), free(fresh), free(r.bound);
}

/* The timed calls of offset inputs (kit_check.timed_offset): each sampled
 * element of the first output the reference's plus the call's offset. */
static void check_offset(kit_check_ctx *ctx, const kit_check *lab, const void *data, const kit_check_got *g)
{
    const kit_check_output *o = g->out;
    int per = lab->timed_offset.per;
    kit_timed_view v;
    if (!g->ref.i || !kit_when_holds(&lab->timed_offset.when, data) ||
        kit_timed_load(ctx, per, 0, (int64_t)o->len, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++)
        for (int j = 0; j < per; j++) {
            size_t at = (size_t)k * (size_t)per + (size_t)j;
            int64_t i = v.index[at], want = g->ref.i[i] + v.shift[k];
            int64_t got = kit_check_int_at(o->type, v.value, at);
            if (got != want) {
                kit_timed_fail(ctx, &v, k, o->what, lab->timed_offset.fresh, "%s shifted by %lld: %s[%lld] = %lld, "
                               "expected %lld", lab->timed_offset.fresh, (long long)v.shift[k],
                               lab->timed_offset.element, (long long)i, (long long)got, (long long)want);
                break;
            }
        }
}

/* Whether timed call k's mask (its recorded scale) is a 32-bit value: any, 0 included. */
static int is_mask(double mask) { return mask >= 0 && mask <= 4294967295.0 && mask == floor(mask); }

/* The timed calls on fresh words (kit_check.timed_xor), by the row that holds. */
static void check_xor(kit_check_ctx *ctx, const kit_check *lab, const void *data)
{
    int r = 0;
    while (r < 2 && lab->timed_xor[r].call && !kit_when_holds(&lab->timed_xor[r].when, data))
        r++;
    if (r == 2 || !lab->timed_xor[r].call)
        return;
    const kit_check_xor *x = &lab->timed_xor[r];
    if (!x->in || !x->count)
        bad_declaration("a timed_xor row without its input words", x->call, r);
    int64_t n = kit_field_int(data, x->count);
    const uint32_t *in;
    kit_timed_view v;
    memcpy(&in, (const char *)data + x->in - 1, sizeof in);
    if (n < 1 || kit_timed_load(ctx, x->per, 0, n, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (v.shift[k] < 0 || v.shift[k] >= n || !is_mask(v.scale[k])) {
            kit_fail(ctx, "timed call %d of %s: its inputs were not recorded", v.call[k], x->call);
            break;
        }
        for (int j = 0; j < x->per; j++) {
            size_t at = (size_t)k * (size_t)x->per + (size_t)j;
            int64_t i = v.index[at];
            uint32_t word = in[(i + v.shift[k]) % n] ^ (uint32_t)v.scale[k];
            uint32_t want = x->element ? x->element(data, word) : word, got = v.value[at];
            if (got != want) {
                kit_timed_fail(ctx, &v, k, x->call, x->fresh, "%s[%lld] = %#x, expected %#x", x->out, (long long)i,
                               got, want);
                break;
            }
        }
    }
}

/* The product kit_check.product declares, of the data's fields, c its C. */
static kit_product product_of(const kit_check *lab, const void *data, const void *c)
{
    kit_product p = {lab->product.name, kit_field_int(data, lab->product.m), kit_field_int(data, lab->product.n),
                     kit_field_int(data, lab->product.k), NULL, NULL, c, lab->product.full_max, lab->product.edge,
                     lab->product.random, lab->product.probes, 0, lab->product.stream, {0}};
    memcpy(&p.a, (const char *)data + lab->product.a - 1, sizeof p.a);
    memcpy(&p.b, (const char *)data + lab->product.b - 1, sizeof p.b);
    memcpy(p.tiles, lab->product.tiles, sizeof p.tiles);
    return p;
}

/* The evidence of a product: its kernels read A and B. */
static double product_input(const kit_check *lab, const void *data)
{
    kit_product p = product_of(lab, data, NULL);
    return ((double)p.m * p.k + (double)p.k * p.n) * sizeof(float);
}

/* The first output judged as the declared product (kit_check.product). */
static void check_product(kit_check_ctx *ctx, const kit_check *lab, const void *data, const kit_check_got *g)
{
    kit_product p = product_of(lab, data, g->got);
    p.seed = ctx->seed;
    kit_product_check(ctx, &p, lab->product.explain, data);
}

/* The sampled timed calls (kit_check.timed_sampled) of the first output. */
static void check_sampled(kit_check_ctx *ctx, const kit_check *lab, const void *data, const kit_check_got *g)
{
    const kit_check_output *o = g->out;
    int64_t len = (int64_t)o->len;
    int64_t limit = lab->timed_sampled.shift_of ? kit_field_int(data, lab->timed_sampled.shift_of) : len;
    if (!kit_when_holds(&lab->timed_sampled.when, data))
        return;
    kit_timed_samples s = {o->what, lab->timed_sampled.fresh, o->name, lab->timed_sampled.per, len, limit,
                           lab->timed_sampled.element};
    if (!s.element) { /* a product's: recomputed on A refreshed by whole rows */
        kit_product p = product_of(lab, data, g->got);
        s.element = kit_product_element;
        kit_timed_check_samples(ctx, &p, &s);
        return;
    }
    kit_timed_check_samples(ctx, data, &s);
}

/* kit_check.copies: each row that holds, its call's copies each way. */
static void check_copies(kit_check_ctx *ctx, const kit_check *lab, const void *data)
{
    for (int r = 0; r < KIT_CHECK_MAX_COPIES && lab->copies[r].call; r++) {
        const kit_check_copy *c = &lab->copies[r];
        if (!kit_when_holds(&c->when, data))
            continue; /* its count_of need not mean anything then */
        unsigned long long count = (unsigned long long)kit_field_int(data, c->count_of);
        unsigned long long want[2] = {c->per[0] * count, c->per[1] * count};
        kit_check_copies(ctx, c->call, want, c->what, c->too_few, c->note);
    }
}

/* kit_check.threads: the case's call launched at most count / per threads in all. */
static void check_threads(kit_check_ctx *ctx, const kit_check *lab, const void *data, const kit_check_output *o)
{
    int count = kit_field_int(data, lab->threads.count_of), per = kit_field_int(data, lab->threads.per_of), n;
    if (per <= 1 || count <= 0)
        return;
    kit_launch *ks = kit_call_launches_all(ctx->out, o->what, &n);
    long long threads = 0, limit = count / per;
    for (int i = 0; i < n; i++)
        threads += kit_launch_threads(&ks[i]);
    free(ks);
    if (n > 0 && threads > limit) /* no trace, no kernel: the policy has said so */
        kit_fail(ctx, lab->threads.why, o->what, threads, count, per, limit);
}

struct kit_check_case {
    const kit_check *lab;
    void *data;
    int n;
    kit_check_output outs[KIT_CHECK_MAX_OUT];
    kit_check_ref refs[KIT_CHECK_MAX_OUT]; /* each computed at the first run that reaches its output */
};

kit_check_case *kit_check_case_open(const kit_check *lab, const kit_params *p, uint64_t seed, char *err, size_t len)
{
    kit_check_case *c = kit_xmalloc(sizeof *c, "the checker's inputs");
    memset(c, 0, sizeof *c);
    c->lab = lab;
    c->data = kit_xmalloc(lab->data_size ? lab->data_size : 1, "the checker's inputs");
    memset(c->data, 0, lab->data_size);
    if (lab->generate(p, seed, c->data, err, len) != 0) {
        free(c->data);
        free(c);
        return NULL;
    }
    c->n = lab->outputs ? lab->outputs(c->data, c->outs) : table_outputs(lab, c->data, c->outs);
    return c;
}

int kit_check_case_run(kit_check_ctx *ctx, kit_check_case *c)
{
    const kit_check *lab = c->lab;
    const void *data = c->data;
    double input = lab->input      ? lab->input(data)
                   : lab->input_of ? lab->input_per * kit_field_int(data, lab->input_of)
                                   : product_input(lab, data);
    if (lab->input || lab->input_of || lab->product.m) /* evidence (manifest): what the kernels must read */
        kit_call_input(ctx, "*", input, !(lab->input_on_host && lab->input_on_host(data)));
    kit_check_got got[KIT_CHECK_MAX_OUT];
    memset(got, 0, sizeof got);
    int n = c->n, ok = 1;
    for (int i = 0; i < n && (ok || c->outs[i].beside); i++)
        ok = check_output(ctx, data, &c->outs[i], &c->refs[i], &got[i]) && ok;
    for (int i = 0; i < n; i++)
        got[i].out = &c->outs[i];
    if (lab->product.m && ok && n > 0)
        check_product(ctx, lab, data, &got[0]);
    if (lab->judge)
        lab->judge(ctx, data, got, ok);
    if (lab->copies[0].call && !ctx->failed)
        check_copies(ctx, lab, data);
    if (lab->lines.call && kit_when_holds(&lab->lines.when, data) && !ctx->failed)
        kit_check_launch_lines(ctx, lab, data);
    if (lab->threads.why && n > 0)
        check_threads(ctx, lab, data, &c->outs[0]);
    if (lab->fields.truth && kit_when_holds(&lab->fields.when, data))
        kit_check_fields(ctx, lab);
    if (lab->timed && (!ctx->failed || lab->timed_always))
        lab->timed(ctx, data, got);
    else if (!lab->timed && lab->timed_rotated.call && n > 0 && !ctx->failed)
        check_rotated(ctx, lab, &got[0]);
    else if (!lab->timed && lab->timed_fresh.call && n > 0 && (!ctx->failed || lab->timed_always))
        check_fresh(ctx, lab, data, &got[0]);
    else if (!lab->timed && (lab->timed_sampled.element || (lab->product.m && lab->timed_sampled.per)) && n > 0 &&
             !ctx->failed)
        check_sampled(ctx, lab, data, &got[0]);
    else if (!lab->timed && lab->timed_offset.per && n > 0 && !ctx->failed)
        check_offset(ctx, lab, data, &got[0]);
    else if (!lab->timed && lab->timed_xor[0].call && !ctx->failed)
        check_xor(ctx, lab, data);
    return ctx->failed;
}

void kit_check_case_close(kit_check_case *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        free(c->refs[i].f);
        free(c->refs[i].bound);
    }
    if (c->lab->release)
        c->lab->release(c->data);
    free(c->data);
    free(c);
}

int kit_check_held(kit_check_ctx *ctx, const kit_check *lab, kit_check_case **held)
{
    char err[256];
    if (!*held && !(*held = kit_check_case_open(lab, ctx->params, ctx->seed, err, sizeof err))) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    return kit_check_case_run(ctx, *held);
}

int kit_check_run(kit_check_ctx *ctx, const kit_check *lab)
{
    kit_check_case *c = NULL;
    int rc = kit_check_held(ctx, lab, &c);
    kit_check_case_close(c);
    return rc;
}

int lab_check(kit_check_ctx *ctx) { return kit_check_run(ctx, &KIT_CHECK); }
