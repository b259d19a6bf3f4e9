/* lab_driver.cu - the one harness driver: run, bench and baseline mode of
 * every lab, from its descriptor (kit/lab.cuh says what it does and in which
 * order). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/lab_decl.cuh"
#include "kit/watchdog.h"

/* What the driver holds for one case (its own: no one else holds one open). */
typedef struct lab_case {
    const kit_lab *lab;
    void *state;
    kit_lab_buf bufs[2 * KIT_LAB_MAX_BUFS];
    int n_bufs, timing_ready;
    int baseline_failed;
    const char *timed_name; /* the timed function, for metric labels */
} lab_case;

static lab_case *current; /* the case kit_lab_time works on (one at a time per process) */

static int oom(const kit_lab *lab)
{
    fprintf(stderr, "%s: out of host memory\n", lab->tag);
    return -1;
}

/* A buffer made on the host first (tagged records, floats from doubles:
 * kit_decl_made_upload), then uploaded. */
static int upload_made(const kit_lab *lab, const kit_lab_buf *b)
{
    void *made = malloc(b->upload ? b->upload : 1);
    if (!made)
        return oom(lab);
    kit_decl_made_upload(b, made);
    cudaError_t e = cudaSuccess;
    if (b->pinned || b->pageable)
        memcpy(*b->at, made, b->upload);
    else if ((e = cudaMemcpy(*b->at, made, b->upload, cudaMemcpyHostToDevice)) != cudaSuccess)
        kit_harness_error(e, "cudaMemcpy(a buffer made on the host)", __FILE__, __LINE__);
    free(made);
    return e == cudaSuccess ? 0 : -1;
}

/* Allocates the buffers of one stage, then uploads them. */
static int buffers(kit_run_ctx *ctx, lab_case *lc, kit_lab_stage stage)
{
    kit_lab_buf *b = lc->bufs + lc->n_bufs;
    int n = lc->lab->buffers ? lc->lab->buffers(ctx, lc->state, stage, b)
                             : kit_decl_buffers_run(lc->lab->decl, ctx, lc->state, stage, b);
    if (n < 0 || n > KIT_LAB_MAX_BUFS) {
        fprintf(stderr, "%s: %d buffers declared (0..%d)\n", lc->lab->tag, n, KIT_LAB_MAX_BUFS);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        *b[i].at = NULL;
        lc->n_bufs++; /* freed from here on, whatever happens next */
        if (b[i].pageable && !(*b[i].at = malloc(b[i].bytes)))
            return oom(lc->lab);
        else if (b[i].pinned)
            KIT_HCHECK(cudaMallocHost(b[i].at, b[i].bytes));
        else if (!b[i].pageable)
            KIT_HCHECK(cudaMalloc(b[i].at, b[i].bytes));
    }
    for (int i = 0; i < n; i++) {
        if (!b[i].host)
            continue;
        if (b[i].tagged || b[i].from_f64) {
            if (upload_made(lc->lab, &b[i]) != 0)
                return -1;
        } else if (b[i].pinned || b[i].pageable)
            memcpy(*b[i].at, b[i].host, b[i].upload);
        else
            KIT_HCHECK(cudaMemcpy(*b[i].at, b[i].host, b[i].upload, cudaMemcpyHostToDevice));
    }
    return 0;
}

static int setup(kit_run_ctx *ctx, lab_case *lc, const kit_lab *lab)
{
    memset(lc, 0, sizeof *lc);
    lc->lab = lab;
    current = lc;
    lc->state = calloc(1, lab->state_size ? lab->state_size : 1);
    if (!lc->state)
        return oom(lab);
    char err[256] = "";
    if (lab->generate(ctx->params, ctx->seed, lc->state, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", lab->tag, err);
        return -1;
    }
    return buffers(ctx, lc, KIT_LAB_CASE);
}

static void teardown(kit_run_ctx *ctx, lab_case *lc)
{
    if (lc->state && lc->lab->release)
        lc->lab->release(ctx, lc->state);
    for (int i = 0; i < lc->n_bufs; i++) {
        if (lc->bufs[i].pageable)
            free(*lc->bufs[i].at);
        else if (lc->bufs[i].pinned)
            cudaFreeHost(*lc->bufs[i].at);
        else
            cudaFree(*lc->bufs[i].at);
    }
    free(lc->state);
    current = NULL;
}

/* 0, or -1 after saying why this case is not run at this stage. */
static int refused(kit_run_ctx *ctx, const lab_case *lc, kit_lab_stage stage)
{
    const char *why = lc->lab->refuse ? lc->lab->refuse(ctx, lc->state, stage)
                                      : kit_decl_refused(lc->lab->decl, ctx, lc->state, stage);
    if (!why)
        return 0;
    fprintf(stderr, "%s: %s\n", lc->lab->tag, why);
    return -1;
}

/* ---- one student call ------------------------------------------------------ */

/* A device output's complement poison, made on the host and uploaded. */
static int poison_complement(const kit_lab_out *o)
{
    void *words = malloc(kit_lab_out_span(o));
    if (!words)
        return fprintf(stderr, "out of host memory for a poison\n"), -1;
    kit_lab_complement(o, words);
    cudaError_t e = cudaMemcpy(o->at, words, kit_lab_out_bytes(o), cudaMemcpyHostToDevice);
    free(words);
    if (e != cudaSuccess)
        kit_harness_error(e, "cudaMemcpy(a complement poison)", __FILE__, __LINE__);
    return e == cudaSuccess ? 0 : -1;
}

int kit_lab_poison(const kit_lab_call *c)
{
    for (int i = 0; i < c->n_out; i++) {
        const kit_lab_out *o = &c->out[i];
        if (kit_lab_out_first(c, i) != i || o->poison == KIT_POISON_NONE)
            continue;
        if (o->poison == KIT_POISON_COMPLEMENT) {
            if (o->on_host)
                kit_lab_complement(o, o->at);
            else if (poison_complement(o) != 0)
                return -1;
        } else if (o->on_host) {
            memset(o->at, o->poison & 0xFF, kit_lab_out_span(o));
        } else {
            KIT_HCHECK(cudaMemset(o->at, o->poison & 0xFF, kit_lab_out_span(o)));
        }
    }
    return 0;
}

/* Reads the outputs back: raw[i] the buffer out[i] is in (host memory;
 * owned[i] when the driver allocated it), host[i] out[i] packed. */
static int read_back(const kit_lab *lab, const kit_lab_call *c, void **raw, void **host, int *owned)
{
    for (int i = 0; i < c->n_out; i++) {
        const kit_lab_out *o = &c->out[i];
        int f = kit_lab_out_first(c, i);
        if (f != i) {
            raw[i] = raw[f];
        } else if (o->on_host) {
            raw[i] = o->at;
        } else {
            if (!(raw[i] = malloc(kit_lab_out_span(o))))
                return oom(lab);
            owned[i] |= 1;
            KIT_HCHECK(cudaMemcpy(raw[i], o->at, kit_lab_out_bytes(o), cudaMemcpyDeviceToHost));
        }
        if (kit_lab_out_stride(o) == kit_type_size(o->type) && o->offset == 0) {
            host[i] = raw[i];
            continue;
        }
        if (!(host[i] = malloc((o->count ? o->count : 1) * kit_type_size(o->type))))
            return oom(lab);
        owned[i] |= 2;
        kit_lab_out_unpack(o, raw[i], host[i]);
    }
    return 0;
}

static int record(kit_run_ctx *ctx, lab_case *lc, const kit_lab_call *c, int k);

/* Call k of the case: declared, checked, poisoned, traced, read back,
 * recorded.  0, KIT_LAB_STOP, KIT_RC_STUDENT_CUDA or -1. */
static int student_call(kit_run_ctx *ctx, lab_case *lc, kit_lab_call *c, int k)
{
    const kit_lab *lab = lc->lab;
    char err[200];
    if (kit_lab_check_call(c, err, sizeof err) != 0) {
        fprintf(stderr, "%s: the harness breaks a rule: %s\n", lab->tag, err);
        return -1;
    }
    if (kit_lab_poison(c) != 0)
        return -1;
    if (kit_call_skipped(c->name)) { /* it hung earlier in this grading: not again */
        fprintf(stderr, KIT_SKIPPED_LINE "%s\n", c->name);
        return KIT_RC_SKIPPED;
    }
    ctx->kernel_optional = kit_lab_kernel_optional(c);
    kit_student_begin(ctx, c->name);
    kit_watchdog_arm(c->name); /* from here the call's own work: the harness's is done */
    c->invoke(lc->state);
    int ended = kit_student_end(ctx);
    double seconds = kit_watchdog_disarm();
    if (ended != 0)
        return KIT_RC_STUDENT_CUDA;
    if (kit_watchdog_overran(seconds)) {
        fprintf(stderr, "kit: %s() took %.2f s, over its limit while the GPU was shared\n", c->name, seconds);
        return KIT_RC_OVERRAN;
    }
    return record(ctx, lc, c, k);
}

/* Call k's outputs read back and recorded (kit_out), then the lab's `after`. */
static int record(kit_run_ctx *ctx, lab_case *lc, const kit_lab_call *c, int k)
{
    const kit_lab *lab = lc->lab;
    void *raw[KIT_LAB_MAX_OUTS] = {}, *host[KIT_LAB_MAX_OUTS] = {};
    int owned[KIT_LAB_MAX_OUTS] = {};
    int rc = read_back(lab, c, raw, host, owned);
    for (int i = 0; rc == 0 && i < c->n_out; i++)
        if (c->out[i].name)
            kit_out(ctx, c->out[i].name, c->out[i].type, host[i], c->out[i].count);
    if (rc == 0 && lab->decl && ctx->show && !lab->decl->no_summary) {
        kit_decl_summary(c, ctx->params, host);
        kit_decl_show_check(lab->decl, lc->state, c, host);
    }
    if (rc == 0 && lab->after)
        rc = lab->after(ctx, lc->state, k, host);
    for (int i = 0; i < c->n_out; i++) {
        if (owned[i] & 1)
            free(raw[i]);
        if (owned[i] & 2)
            free(host[i]);
    }
    return rc;
}

static int student_calls(kit_run_ctx *ctx, lab_case *lc)
{
    for (int k = 0;; k++) {
        kit_lab_call c;
        memset(&c, 0, sizeof c);
        const kit_lab *lab = lc->lab;
        int made = lab->call ? lab->call(ctx, lc->state, k, &c) : kit_decl_fill_call(lab->decl, lc->state, k, &c);
        if (!made)
            return lc->lab->untraced ? lc->lab->untraced(ctx, lc->state) : 0;
        int rc = student_call(ctx, lc, &c, k);
        if (rc == KIT_LAB_STOP)
            return 0;
        if (rc != 0)
            return rc;
    }
}

/* ---- timing ------------------------------------------------------------------ */

/* The input its table's call works on in place put back (kit_decl_in_place);
 * nonzero when that failed.  Nothing to do for any other call. */
static int table_restore(const lab_case *lc)
{
    kit_lab_buf b;
    if (!kit_decl_in_place(lc->lab->decl, lc->state, &b))
        return 0;
    if (b.pinned || b.pageable)
        return memcpy(*b.at, b.host, b.upload), 0;
    return cudaMemcpy(*b.at, b.host, b.upload, cudaMemcpyDeviceToDevice) != cudaSuccess;
}

/* The baseline of a call in place gets the untouched input back first,
 * timed with it, as each timed call copies its fresh one. */
static void baseline(void *arg)
{
    lab_case *lc = (lab_case *)arg;
    if (table_restore(lc) != 0 || lc->lab->baseline(lc->state) != 0)
        lc->baseline_failed = 1;
}

static int timing_buffers(kit_run_ctx *ctx, lab_case *lc)
{
    if (lc->timing_ready)
        return 0;
    lc->timing_ready = 1;
    return buffers(ctx, lc, KIT_LAB_TIMING);
}

/* The lab times its function: a timed() hook, or timed calls in its table. */
static int has_timed(const kit_lab *lab) { return lab->timed || (lab->decl && lab->decl->timed.in[0]); }

/* A timed call the driver makes (timed() left tc->call NULL): the case's
 * own call on the timed calls' buffers. */
static kit_lab_swap swap;

static void swapped_call(const kit_timed_calls *tc)
{
    void *saved[KIT_FRESH_MAX_IN + 1] = {};
    for (int i = 0; i < tc->n_in; i++)
        if (swap.in[i])
            saved[i] = *swap.in[i], *swap.in[i] = tc->in[i].work;
    if (swap.out)
        saved[KIT_FRESH_MAX_IN] = *swap.out, *swap.out = tc->out;
    swap.invoke(tc->lab);
    for (int i = 0; i < tc->n_in; i++)
        if (swap.in[i])
            *swap.in[i] = saved[i];
    if (swap.out)
        *swap.out = saved[KIT_FRESH_MAX_IN];
}

/* A timed call in place (kit_lab_swap.in_place): its fresh input copied
 * into its output first (4-byte elements, fresh.cuh), timed with the call. */
static void in_place_call(const kit_timed_calls *tc)
{
    size_t bytes = (size_t)tc->out_count * 4;
    if (tc->out_host)
        memcpy(tc->out, tc->in[0].work, bytes);
    else
        cudaMemcpy(tc->out, tc->in[0].work, bytes, cudaMemcpyDeviceToDevice);
    swapped_call(tc);
}

int kit_lab_time(kit_run_ctx *ctx, void *state, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    lab_case *lc = current;
    const kit_lab *lab = lc->lab;
    if (!has_timed(lab) || state != lc->state) {
        fprintf(stderr, "%s: nothing to time\n", lab->tag);
        return -1;
    }
    if (timing_buffers(ctx, lc) != 0)
        return -1;
    kit_timed_calls tc;
    memset(&tc, 0, sizeof tc);
    tc.lab = state;
    memset(&swap, 0, sizeof swap);
    int rc = lab->timed ? lab->timed(ctx, state, &tc, &swap) : kit_decl_timed_calls(lab->decl, state, &tc, &swap);
    if (rc != 0)
        return rc;
    if (!tc.call && !swap.invoke) {
        fprintf(stderr, "%s: the timed calls declare no call\n", lab->tag);
        return -1;
    }
    if (!tc.call)
        tc.call = swap.in_place ? in_place_call : swapped_call;
    lc->timed_name = tc.name;
    lc->baseline_failed = 0;
    rc = kit_timed_calls_time(&tc, ctx, baseline, lc, warmup, reps, ts, tb);
    if (rc == 0 && lc->baseline_failed) {
        fprintf(stderr, "%s: the baseline failed\n", lab->tag);
        rc = -1;
    }
    if (rc == 0 && lab->after_timing)
        rc = lab->after_timing(ctx, state);
    else if (rc == 0 && lab->decl)
        rc = kit_decl_after_timing(lab->decl, ctx, state);
    return rc;
}

void kit_lab_timed_rotate(kit_timed_calls *tc, kit_lab_swap *sw, const char *name, void (*invoke)(void *), void **in,
                          int64_t count, void **out, int64_t out_count, int sample)
{
    sw->invoke = invoke, sw->in[0] = in, sw->out = out;
    tc->name = name;
    tc->how = KIT_FRESH_ROTATE_SCALE, tc->shift_hi = count - 1;
    tc->in[0].orig = *in, tc->in[0].count = count, tc->n_in = 1;
    tc->out_count = out_count, tc->poison = 0xFF, tc->sample = sample;
}

int kit_lab_show_speedup(kit_run_ctx *ctx, void *state, int warmup, int reps, const char *name, const char *baseline)
{
    kit_timing ts, tb;
    if (kit_lab_time(ctx, state, warmup, reps, &ts, &tb) != 0)
        return -1;
    printf("  medians of %d: %s %.4f ms, %s %.4f ms: speedup %.2fx\n", reps, name, ts.median_ms, baseline, tb.median_ms,
           tb.median_ms / ts.median_ms);
    return 0;
}

int kit_lab_show_alone(void (*invoke)(void *), void *state, int warmup, int reps, const char *name, const char *note)
{
    kit_timing ts;
    if (kit_time_median(invoke, state, warmup, reps, &ts) != 0)
        return -1;
    printf("  median of %d: %s %.4f ms (%s)\n", reps, name, ts.median_ms, note);
    return 0;
}

static void record_metric(kit_run_ctx *ctx, const lab_case *lc, const char *label, double v)
{
    if (isnan(v))
        return;
    char key[128];
    kit_lab_metric_key(label, lc->timed_name, key, sizeof key);
    kit_out_f64(ctx, key, v);
}

static void record_times(kit_run_ctx *ctx, const lab_case *lc, const kit_timing *ts, const kit_timing *tb)
{
    const kit_lab *lab = lc->lab;
    kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts->median_ms);
    kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb->median_ms);
    kit_out_f64(ctx, KIT_KEY_TIMED_PAIRS, ts->reps);
    if (ts->decided)
        kit_out_f64(ctx, KIT_KEY_TIMED_DECIDED, ts->decided);
    const char *label;
    int base, hooks = kit_lab_hook_metrics(lab);
    for (int i = 0; (label = kit_lab_metric(lab, i, &base)) != NULL; i++) {
        double ms = base ? tb->median_ms : ts->median_ms;
        record_metric(ctx, lc, label, i < hooks ? lab->metrics[i].value(lc->state, ms)
                                                : kit_decl_metric_value(&lab->decl->metrics[i - hooks], lc->state, ms));
    }
}

/* ---- the modes of the runner (runner_main.cu) ------------------------------------ */

int kit_lab_run(kit_run_ctx *ctx, const kit_lab *lab)
{
    lab_case lc;
    int rc = setup(ctx, &lc, lab);
    if (rc == 0)
        rc = refused(ctx, &lc, KIT_LAB_RUN_BEFORE);
    if (rc == 0)
        rc = student_calls(ctx, &lc);
    if (rc == 0 && ctx->show)
        rc = lab->show_time ? lab->show_time(ctx, lc.state) : kit_decl_show_time(lab->decl, ctx, lc.state);
    teardown(ctx, &lc);
    return rc;
}

int kit_lab_baseline(kit_run_ctx *ctx, const kit_lab *lab)
{
    if (!lab->baseline) {
        fprintf(stderr, "%s: the lab has no baseline\n", lab->tag);
        return -1;
    }
    lab_case lc;
    int rc = setup(ctx, &lc, lab);
    if (rc == 0)
        rc = timing_buffers(ctx, &lc);
    kit_timing tb;
    if (rc == 0)
        rc = kit_time_median(baseline, &lc, 1, KIT_BASELINE_REPS, &tb);
    if (rc == 0 && lc.baseline_failed) {
        fprintf(stderr, "%s: the baseline failed\n", lab->tag);
        rc = -1;
    }
    if (rc == 0)
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
    teardown(ctx, &lc);
    return rc;
}

int kit_lab_bench(kit_run_ctx *ctx, const kit_lab *lab)
{
    if (!has_timed(lab)) {
        fprintf(stderr, "%s: there is nothing to time in this lab\n", lab->tag);
        return -1;
    }
    lab_case lc;
    ctx->bench = 1;
    int rc = setup(ctx, &lc, lab);
    if (rc == 0)
        rc = refused(ctx, &lc, KIT_LAB_BENCH_BEFORE);
    if (rc == 0 && lab->timing_first)
        rc = timing_buffers(ctx, &lc);
    if (rc == 0)
        rc = student_calls(ctx, &lc); /* the result of this call is checked */
    if (rc == 0)
        rc = refused(ctx, &lc, KIT_LAB_BENCH_AFTER);
    kit_timing ts, tb;
    if (rc == 0) {
        rc = kit_lab_time(ctx, lc.state, ctx->warmup, ctx->reps, &ts, &tb);
        if (rc == 0)
            record_times(ctx, &lc, &ts, &tb);
        else if (rc != KIT_LAB_UNTIMED)
            rc = -1;
        else
            rc = 0;
    }
    teardown(ctx, &lc);
    return rc;
}
