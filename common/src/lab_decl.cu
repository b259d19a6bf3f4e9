/* lab_decl.cu - the interpreter of a lab's data descriptor (kit/lab_decl.cuh):
 * fills the driver's kit_lab_buf, kit_lab_call and kit_timed_calls from the
 * table and the lab's state.  No CUDA call of its own (common/tests/
 * test_lab_decl.cu holds it on the CPU); the driver allocates, uploads,
 * poisons and times (kit_lab_time, kit_time_median). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/lab_decl.cuh"
#include "kit/util.h"

static void **field_ptr(void *s, kit_at at) { return (void **)((char *)s + at - 1); }

static double field_double(const void *s, kit_at at)
{
    double v = 0;
    if (at)
        memcpy(&v, (const char *)s + at - 1, sizeof v);
    return v;
}

/* A buffer row is the case's where its `when` holds, or in a run that times
 * (times) where it says when_timed. */
static int row_applies(const kit_decl_buf *r, const void *s, int times)
{
    return kit_when_holds(&r->when, s) || (times && r->when_timed);
}

/* The buffer row that applies to this case, timed, and allocates into `at`, or NULL. */
static const kit_decl_buf *buf_of(const kit_lab_decl *d, const void *s, kit_at at)
{
    for (int i = 0; i < KIT_LAB_MAX_BUFS && d->bufs[i].at; i++)
        if (d->bufs[i].at == at && row_applies(&d->bufs[i], s, 1))
            return &d->bufs[i];
    return NULL;
}

static int buffers_of(const kit_lab_decl *d, void *s, kit_lab_stage stage, int times, kit_lab_buf *b)
{
    int n = 0;
    for (int i = 0; d && i < KIT_LAB_MAX_BUFS && d->bufs[i].at; i++) {
        const kit_decl_buf *r = &d->bufs[i];
        if (r->stage != stage || !row_applies(r, s, times))
            continue;
        size_t size = kit_type_size(r->type), count = (size_t)kit_field_int(s, r->count);
        kit_lab_buf *o = &b[n++]; /* each field by name: kit_lab_buf grows at its end, and its ints look alike */
        memset(o, 0, sizeof *o);
        o->at = field_ptr(s, r->at), o->bytes = (count ? count : 1) * size;
        o->host = r->host ? *field_ptr(s, r->host) : NULL, o->upload = r->host ? count * size : 0;
        o->pinned = r->pinned, o->pageable = r->pageable;
        o->tagged = r->tagged, o->tag_base = kit_field_int(s, r->tag_base), o->from_f64 = r->from_f64;
    }
    return n;
}

int kit_decl_buffers(const kit_lab_decl *d, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    return buffers_of(d, s, stage, 0, b);
}

int kit_decl_times(const kit_lab_decl *d, const kit_run_ctx *ctx)
{
    return ctx->bench || (ctx->show && ((d && d->show_time.always) || kit_params_ll(ctx->params, "time", 0, NULL)));
}

int kit_decl_buffers_run(const kit_lab_decl *d, const kit_run_ctx *ctx, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    return buffers_of(d, s, stage, kit_decl_times(d, ctx), b);
}

void kit_decl_made_upload(const kit_lab_buf *b, void *dst)
{
    if (b->tagged) {
        const int32_t *keys = (const int32_t *)b->host;
        int32_t *rec = (int32_t *)dst;
        for (size_t i = 0; i < b->upload / (2 * sizeof(int32_t)); i++)
            rec[2 * i] = keys[i], rec[2 * i + 1] = b->tag_base + (int32_t)i;
    } else if (b->from_f64) {
        for (size_t i = 0; i < b->upload / sizeof(float); i++)
            ((float *)dst)[i] = (float)((const double *)b->host)[i];
    }
}

const kit_decl_call *kit_decl_the_call(const kit_lab_decl *d, const void *s)
{
    if (!d || kit_field_int(s, d->no_call_if))
        return NULL;
    for (int i = 0; i < KIT_DECL_MAX_CALLS && d->calls[i].name; i++)
        if (kit_when_holds(&d->calls[i].when, s))
            return &d->calls[i];
    return NULL;
}

static kit_lab_out out_of(const kit_decl_out *o, void *s)
{
    void *at = o->where == KIT_DECL_IN_STATE ? (void *)field_ptr(s, o->at) : *field_ptr(s, o->at);
    uint64_t count = o->count ? (uint64_t)kit_field_int(s, o->count) : 1;
    const void *of = o->complement_of ? *field_ptr(s, o->complement_of) : NULL;
    return kit_lab_out{o->name, o->type, at, o->where != KIT_DECL_DEVICE, count, o->stride, o->offset, o->poison, of};
}

/* Call k of the case: with every_call the k-th row whose `when` holds, else
 * the one call (k = 0); NULL when there is none. */
static const kit_decl_call *call_k(const kit_lab_decl *d, const void *s, int k)
{
    if (!d || !d->every_call)
        return k > 0 ? NULL : kit_decl_the_call(d, s);
    for (int i = 0; !kit_field_int(s, d->no_call_if) && i < KIT_DECL_MAX_CALLS && d->calls[i].name; i++)
        if (kit_when_holds(&d->calls[i].when, s) && k-- == 0)
            return &d->calls[i];
    return NULL;
}

int kit_decl_fill_call(const kit_lab_decl *d, void *s, int k, kit_lab_call *c)
{
    const kit_decl_call *r = call_k(d, s, k);
    if (!r)
        return 0;
    c->name = r->name, c->invoke = r->invoke, c->n_out = 0;
    c->kernel_optional = r->kernel_optional || (r->optional_if_zero && kit_field_int(s, r->optional_if_zero) == 0);
    for (int i = 0; i < KIT_LAB_MAX_OUTS && (r->out[i].name || r->out[i].at); i++) /* unnamed: for `after` */
        c->out[c->n_out++] = out_of(&r->out[i], s);
    return 1;
}

const char *kit_decl_refused(const kit_lab_decl *d, const kit_run_ctx *ctx, const void *s, kit_lab_stage stage)
{
    for (int i = 0; d && i < KIT_DECL_MAX_REFUSE && d->refuse[i].why; i++) {
        const kit_decl_refuse *r = &d->refuse[i];
        int v = kit_field_int(s, r->field), out = v < r->lo || v > r->hi || !kit_when_holds(&r->needs, s);
        if (r->stage == stage && out && !(r->show_runs && ctx->show))
            return r->why;
    }
    return NULL;
}

/* The shift range of a timed call (fresh.cuh), from how its inputs are refreshed. */
static void shift_range(const kit_lab_decl *d, const void *s, kit_timed_calls *tc)
{
    if (d->timed.shift_hi > d->timed.shift_lo) {
        tc->shift_lo = d->timed.shift_lo, tc->shift_hi = d->timed.shift_hi;
    } else if (d->timed.how == KIT_FRESH_OFFSET) {
        tc->modulus = kit_field_int(s, d->timed.modulus);
        tc->shift_lo = tc->modulus > 1 ? 1 : 0, tc->shift_hi = tc->modulus - 1;
    } else if (d->timed.how == KIT_FRESH_ROTATE_SQUARE) {
        tc->side = kit_field_int(s, d->timed.side);
        tc->shift_hi = kit_when_holds(&d->timed.rotate_if, s) ? tc->side - 1 : 0;
    } else {
        int step = kit_field_int(s, d->timed.step); /* a shift of whole steps: step * [0, count / step) */
        tc->shift_step = step > 0 ? step : 0;
        tc->shift_hi = (step > 0 ? tc->in[0].count / step : tc->in[0].count) - 1;
    }
}

/* The bytes every timed call reads besides its refreshed inputs: the case's
 * other uploaded inputs (not an output worked on in place: each timed call
 * writes it from its fresh input). */
static double unrefreshed_bytes(const kit_lab_decl *d, const void *s, kit_at in_place)
{
    double bytes = 0;
    for (int i = 0; i < KIT_LAB_MAX_BUFS && d->bufs[i].at; i++) {
        const kit_decl_buf *r = &d->bufs[i];
        int refreshed = r->at == in_place;
        for (int j = 0; j < KIT_FRESH_MAX_IN; j++)
            refreshed |= d->timed.in[j] == r->at;
        if (r->stage == KIT_LAB_CASE && r->host && !refreshed && row_applies(r, s, 1))
            bytes += (double)kit_field_int(s, r->count) * (double)kit_type_size(r->type);
    }
    return bytes;
}

/* The call timed: the row timed.call names, else the case's call; NULL: none. */
static const kit_decl_call *timed_call(const kit_lab_decl *d, const void *s)
{
    if (!d->timed.call)
        return kit_decl_the_call(d, s);
    for (int i = 0; i < KIT_DECL_MAX_CALLS && d->calls[i].name; i++)
        if (!strcmp(d->calls[i].name, d->timed.call))
            return &d->calls[i];
    return NULL;
}

/* timed.lines: m / (2 side) random whole rows, then as many whole columns. */
static void pick_lines(const kit_timed_calls *tc, kit_rng *r, int m, int64_t *idx)
{
    int64_t n = tc->side, lines = n > 0 ? m / (2 * n) : 0;
    for (int64_t l = 0; l < 2 * lines; l++) {
        int64_t line = kit_rng_range(r, 0, n - 1);
        for (int64_t t = 0; t < n; t++)
            *idx++ = l < lines ? line * n + t : t * n + line;
    }
}

int kit_decl_timed_calls(const kit_lab_decl *d, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    const kit_decl_call *c = timed_call(d, s);
    if (!c || !d->timed.in[0])
        return KIT_LAB_UNTIMED;
    sw->invoke = c->invoke, sw->in_place = d->timed.in_place;
    tc->name = c->name, tc->how = d->timed.how, tc->sample = d->timed.sample;
    for (int i = 0; i < KIT_FRESH_MAX_IN && d->timed.in[i]; i++) {
        const kit_decl_buf *b = buf_of(d, s, d->timed.in[i]);
        void **at = field_ptr(s, d->timed.in[i]);
        sw->in[i] = d->timed.in_place ? NULL : at; /* in place, the call reads its output */
        tc->in[i].orig = *at, tc->in[i].count = b ? kit_field_int(s, b->count) : 0, tc->n_in++;
    }
    const kit_decl_out *o = &c->out[d->timed.out];
    if (o->where != KIT_DECL_DEVICE)
        tc->out = o->where == KIT_DECL_IN_STATE ? (void *)field_ptr(s, o->at) : *field_ptr(s, o->at), tc->out_host = 1;
    else
        sw->out = field_ptr(s, o->at);
    tc->out_count = o->count ? kit_field_int(s, o->count) : 1;
    tc->poison = (unsigned char)((d->timed.poison ? d->timed.poison : o->poison) & 0xFF);
    tc->extra_bytes = unrefreshed_bytes(d, s, d->timed.in_place ? o->at : 0);
    tc->flops = d->timed.flops_per;
    for (int i = 0; i < 2 && d->timed.flops_of[i]; i++)
        tc->flops *= kit_field_int(s, d->timed.flops_of[i]);
    shift_range(d, s, tc);
    if (d->timed.lines)
        tc->sample = 2 * d->timed.lines * (int)tc->side, tc->pick = pick_lines;
    return 0;
}

int kit_decl_in_place(const kit_lab_decl *d, void *s, kit_lab_buf *b)
{
    const kit_decl_call *c = d ? timed_call(d, s) : NULL;
    if (!c || !d->timed.in_place)
        return 0;
    kit_at out = c->out[d->timed.out].at;
    const kit_decl_buf *r = buf_of(d, s, out);
    memset(b, 0, sizeof *b);
    b->at = field_ptr(s, out), b->host = *field_ptr(s, d->timed.in[0]);
    b->upload = r ? (size_t)kit_field_int(s, r->count) * kit_type_size(r->type) : 0;
    b->pinned = r && r->pinned, b->pageable = r && r->pageable;
    return 1;
}

double kit_decl_metric_value(const kit_decl_metric *m, const void *s, double ms)
{
    if (!kit_when_holds(&m->when, s))
        return NAN;
    if (m->ms_of)
        return m->vs ? field_double(s, m->ms_of) / ms : field_double(s, m->ms_of);
    double units = m->per * kit_field_int(s, m->count) * (m->times ? kit_field_int(s, m->times) : 1);
    return units / 1e9 / (ms / 1e3);
}

/* One element of an output, as a double (integers exactly up to 2^53). */
static double element(const kit_lab_out *o, const void *p, uint64_t i)
{
    switch (o->type) {
    case KIT_T_F32: return ((const float *)p)[i];
    case KIT_T_F64: return ((const double *)p)[i];
    case KIT_T_I32: return ((const int32_t *)p)[i];
    case KIT_T_U32: return ((const uint32_t *)p)[i];
    case KIT_T_I64: return (double)((const int64_t *)p)[i];
    default: return NAN;
    }
}

static void summary_line(const kit_lab_out *o, const void *p)
{
    int is_float = o->type == KIT_T_F32 || o->type == KIT_T_F64;
    const char *fmt = is_float ? " %.9g" : " %.17g"; /* integers whole */
    double sum = 0;
    uint64_t marked = 0, top = 0;
    for (uint64_t i = 0; i < o->count; i++) {
        double v = element(o, p, i);
        marked += is_float ? isnan(v) != 0 : v != 0;
        sum += isnan(v) ? 0 : v;
        top = v > element(o, p, top) ? i : top;
    }
    printf("  %s: %llu elements, sum", o->name, (unsigned long long)o->count);
    printf(fmt, sum);
    if (is_float) /* NaN says "never written" only where the kit poisoned it with NaN (lab09's A is factored in place) */
        printf(", %llu NaN%s\n", (unsigned long long)marked,
               o->poison == KIT_POISON(0xFF) ? " (the kit filled it with NaN before the call: never written)" : "");
    else
        printf(", %llu non-zero, the largest %.17g at [%llu]\n", (unsigned long long)marked,
               o->count ? element(o, p, top) : 0.0, (unsigned long long)top);
    printf("  %s[0..%d]:", o->name, o->count < 8 ? (int)o->count - 1 : 7);
    for (uint64_t i = 0; i < o->count && i < 8; i++)
        printf(fmt, element(o, p, i));
    printf("\n");
}

void kit_decl_summary(const kit_lab_call *c, const kit_params *p, void *const *host)
{
    char params[512] = "";
    kit_params_format(p, params, sizeof params);
    if (c->n_out == 1 && c->out[0].count == 1 && c->out[0].name) {
        int is_float = c->out[0].type == KIT_T_F32 || c->out[0].type == KIT_T_F64;
        printf(is_float ? "%s(%s) = %.9g\n" : "%s(%s) = %.17g\n", c->name, params, element(&c->out[0], host[0], 0));
        return;
    }
    printf("%s(%s):\n", c->name, params);
    for (int i = 0; i < c->n_out; i++)
        if (c->out[i].name)
            summary_line(&c->out[i], host[i]);
}

/* show_ref: the first output against the lab's CPU reference, then the
 * second where the first is right. */
static void show_ref(const kit_lab_decl *d, const void *s, const kit_lab_call *c, void *const *host)
{
    size_t n = (size_t)c->out[0].count, bad = 0, first = 0, aside = 0;
    int two = d->show_ref.aside && c->n_out > 1 && c->out[1].type == KIT_T_I32;
    int32_t *ref[2] = {(int32_t *)kit_xmalloc((n ? n : 1) * sizeof(int32_t), "the CPU reference"),
                       two ? (int32_t *)kit_xmalloc((n ? n : 1) * sizeof(int32_t), "the CPU reference") : NULL};
    d->show_ref.reference(s, ref, n);
    const int32_t *got = (const int32_t *)host[0], *got2 = (const int32_t *)host[1];
    for (size_t k = 0; k < n; k++) {
        if (got[k] != ref[0][k]) {
            if (!bad++)
                first = k;
        } else if (two && got2[k] != ref[1][k]) {
            aside++;
        }
    }
    if (bad)
        printf("  %zu of %zu outputs differ from %s; first at %s[%zu]: %d, expected %d\n", bad, n, d->show_ref.source,
               d->show_ref.name, first, got[first], ref[0][first]);
    else
        printf("  all %zu outputs match %s\n", n, d->show_ref.source);
    if (two)
        printf("  %zu outputs hold %s\n", aside, d->show_ref.aside);
    free(ref[0]);
    free(ref[1]);
}

void kit_decl_show_check(const kit_lab_decl *d, const void *s, const kit_lab_call *c, void *const *host)
{
    if (!d || c->n_out < 1)
        return;
    size_t n = (size_t)c->out[0].count, i = d->show_check.first_wrong ? d->show_check.first_wrong(s, host[0], n) : 0;
    if (d->show_check.first_wrong && i >= n)
        printf("  %s holds for every i\n", d->show_check.rule);
    else if (d->show_check.first_wrong)
        printf("  %s first fails at i = %zu\n", d->show_check.rule, i);
    if (d->show_ref.reference && c->out[0].type == KIT_T_I32)
        show_ref(d, s, c, host);
}

/* The median of r's reps calls (after its warmup) into its field: on the
 * host's clock - a CPU's work, which CUDA's events do not see - or CUDA's. */
static int time_also(const kit_decl_also *r, void *s)
{
    double ms;
    if (r->on_cpu) {
        double *t = (double *)calloc((size_t)r->reps + 1, sizeof *t);
        if (!t)
            return -1;
        for (int k = 0; k < r->warmup + r->reps; k++) {
            double t0 = kit_now();
            r->invoke(s);
            if (k >= r->warmup)
                t[k - r->warmup] = (kit_now() - t0) * 1e3;
        }
        ms = kit_median(t, (size_t)r->reps);
        free(t);
    } else {
        kit_timing tm;
        if (kit_time_median(r->invoke, s, r->warmup, r->reps, &tm) != 0)
            return -1;
        ms = tm.median_ms;
    }
    memcpy((char *)s + r->ms - 1, &ms, sizeof ms);
    return 0;
}

int kit_decl_after_timing(const kit_lab_decl *d, const kit_run_ctx *ctx, void *s)
{
    for (int i = 0; d && i < KIT_DECL_MAX_ALSO && d->also_timed[i].invoke; i++)
        if ((ctx->show || !d->also_timed[i].show_only) && time_also(&d->also_timed[i], s) != 0)
            return -1;
    return 0;
}

/* The show table (kit_lab_decl.show_table): the call timed, then a row each. */
static int show_table(const kit_lab_decl *d, kit_run_ctx *ctx, void *s)
{
    int count = kit_field_int(s, d->show_table.count);
    int warmup = d->show_time.warmup ? d->show_time.warmup : ctx->warmup;
    kit_timing ts, tb;
    if (count == 0) {
        printf("%s\n", d->show_table.none);
        return 0;
    }
    if (kit_lab_time(ctx, s, warmup, d->show_time.reps ? d->show_time.reps : ctx->reps, &ts, &tb) != 0)
        return -1;
    printf(d->show_table.title, count);
    printf("\n");
    for (int i = 0; i < KIT_DECL_MAX_SHOW_ROWS && d->show_table.rows[i].label; i++) {
        const kit_decl_show_row *r = &d->show_table.rows[i];
        double ms = r->ms ? field_double(s, r->ms) : r->baseline ? tb.median_ms : ts.median_ms;
        const char *more = strchr(r->label, '\n');
        printf("  %-35.*s%10.4f ms", more ? (int)(more - r->label) : (int)strlen(r->label), r->label, ms);
        if (r->per > 0)
            printf("  %8.1f GB/s", r->per * count / 1e9 / (ms / 1e3));
        printf("\n%s%s", more ? more + 1 : "", more ? "\n" : "");
    }
    return 0;
}

/* The rate of the call's time (baseline 0) or the baseline's: the first
 * such metric that holds for the case. */
static double rate(const kit_lab_decl *d, const void *s, int baseline, double ms)
{
    for (int i = 0; i < KIT_LAB_MAX_METRICS && d->metrics[i].label; i++)
        if (d->metrics[i].baseline == baseline && kit_when_holds(&d->metrics[i].when, s))
            return kit_decl_metric_value(&d->metrics[i], s, ms);
    return NAN;
}

/* The line of show_line row l (kit_lab_decl.show_line). */
static int show_line(const kit_lab_decl *d, kit_run_ctx *ctx, void *s, const kit_decl_show_line *l)
{
    kit_timing ts, tb;
    int reps = d->show_time.reps, rc = kit_lab_time(ctx, s, d->show_time.warmup, reps, &ts, &tb);
    if (rc != 0) /* said on stderr; nothing to time, or no kernel to time, is no failure of the run */
        return rc == KIT_LAB_UNTIMED || rc == KIT_TIME_NO_KERNEL ? 0 : rc;
    printf("time: %s %.3f ms", l->self ? l->self : timed_call(d, s)->name, ts.median_ms);
    if (l->unit)
        printf(" (%.*f %s), %s %.3f ms (%.*f %s), medians of %d: ", l->digits, rate(d, s, 0, ts.median_ms), l->unit,
               l->base, tb.median_ms, l->digits, rate(d, s, 1, tb.median_ms), l->unit, reps);
    else
        printf(", %s %.3f ms (medians of %d): ", l->base, tb.median_ms, reps);
    printf(l->ratio, tb.median_ms / ts.median_ms);
    printf("\n");
    return 0;
}

int kit_decl_show_time(const kit_lab_decl *d, kit_run_ctx *ctx, void *s)
{
    for (int i = 0; d && i < KIT_DECL_MAX_SHOW_LINES && d->show_line[i].ratio; i++) {
        const kit_decl_show_line *l = &d->show_line[i];
        if (kit_when_holds(&l->when, s))
            return l->some && !kit_field_int(s, l->some) ? 0 : show_line(d, ctx, s, l);
    }
    if (d && d->show_table.title && kit_decl_times(d, ctx))
        return show_table(d, ctx, s);
    if (!d || !d->show_time.baseline || !(d->show_time.always || kit_params_ll(ctx->params, "time", 0, NULL)))
        return 0;
    const kit_decl_call *c = timed_call(d, s);
    int warmup = d->show_time.warmup, reps = d->show_time.reps;
    if (c && d->show_time.alone_if.field && kit_when_holds(&d->show_time.alone_if, s))
        return kit_lab_show_alone(c->invoke, s, warmup, reps, c->name, d->show_time.alone_note);
    if (!c || kit_decl_refused(d, ctx, s, KIT_LAB_BENCH_AFTER))
        return 0;
    return kit_lab_show_speedup(ctx, s, warmup, reps, c->name, d->show_time.baseline);
}

#define CORNER 4

void kit_show_corner(const char *what, kit_type type, const void *m, int rows, int cols)
{
    int r = rows < CORNER ? rows : CORNER, c = cols < CORNER ? cols : CORNER;
    printf("top-left %d x %d of %s:\n", r, c, what);
    for (int i = 0; i < r; i++) {
        printf("  ");
        for (int j = 0; j < c; j++) {
            size_t t = (size_t)i * (size_t)cols + (size_t)j;
            printf(" %12.6g", type == KIT_T_F64 ? ((const double *)m)[t] : (double)((const float *)m)[t]);
        }
        printf("\n");
    }
}
