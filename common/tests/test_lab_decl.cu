/* test_lab_decl.cu - the data descriptor's interpreter (common/src/lab_decl.cu)
 * on the CPU: a fake lab's table, with two entries told apart by a field
 * (as lab03's float and int), must become the driver's structs with every
 * pointer, size, poison and count taken from the field the table names -
 * a buffer allocated into the wrong pointer, uploaded from the wrong array,
 * an output read from the wrong buffer or with the wrong count, a timed
 * input or shift range mapped wrong fails here.
 *
 * Not a Check program (nvcc builds it): plain_check.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kit/lab_decl.cuh"
#include "plain_check.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

/* lab_decl.cu's calls into the driver (show mode's timing): recorded, not made. */
static char shown[256];
int kit_lab_show_speedup(kit_run_ctx *, void *, int warmup, int reps, const char *name, const char *baseline)
{
    snprintf(shown, sizeof shown, "speedup %d %d %s %s", warmup, reps, name, baseline);
    return 0;
}
int kit_lab_show_alone(void (*)(void *), void *, int warmup, int reps, const char *name, const char *note)
{
    snprintf(shown, sizeof shown, "alone %d %d %s %s", warmup, reps, name, note);
    return 0;
}

typedef struct {
    int pad;           /* no field at offset 0: KIT_AT's + 1 is what tells "none" */
    int n, bins, is_int;
    float *ha, *hb;    /* host inputs */
    float *da, *db;    /* device inputs */
    unsigned *dout;    /* device output */
    unsigned *dkit;    /* the baseline's, timing only, in pinned host memory */
    unsigned *hout;    /* host output (an entry on host arrays) */
    float r;           /* a result returned by value */
} fake;

static void call_f(void *) {}
static void call_i(void *) {}

#define F(member) KIT_AT(fake, member)
static const kit_lab_decl DECL = {
    .bufs = {{F(da), KIT_T_F32, F(n), F(ha)},
             {F(db), KIT_T_F32, F(n), F(hb), .when = KIT_WHEN(fake, is_int, 0)},
             {F(dout), KIT_T_U32, F(bins)},
             {F(dkit), KIT_T_U32, F(bins), .stage = KIT_LAB_TIMING, .pinned = 1}},
    .calls = {{"whole", call_i, KIT_WHEN(fake, is_int, 1), .optional_if_zero = F(n),
               .out = {{"bins", KIT_T_U32, F(dout), F(bins), KIT_POISON(0x7F)}}},
              {"scalar", call_f, KIT_WHEN(fake, is_int, 0),
               .out = {{"r", KIT_T_F32, F(r), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE}}}},
    .refuse = {{KIT_LAB_BENCH_AFTER, F(n), 1, 1000, "n out of range"},
               {KIT_LAB_RUN_BEFORE, F(is_int), 0, 0, "ints are shown only", 1}},
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(db)}, .flops_per = 2, .flops_of = {F(n), F(bins)}},
    .metrics = {{"GB/s", F(n), 8}, {"GFLOP/s", F(n), 2, 1, F(bins)},
                {"ints", F(n), 1, .when = KIT_WHEN(fake, is_int, 1)}},
};

static const kit_lab_decl OFFSET = {
    .bufs = {{F(da), KIT_T_I32, F(n), F(ha)}, {F(dout), KIT_T_U32, F(bins)}},
    .calls = {{"hist", call_i, .out = {{"bins", KIT_T_U32, F(dout), F(bins), KIT_POISON(0xFF)}}}},
    .timed = {KIT_FRESH_OFFSET, {F(da)}, .modulus = F(bins)},
};

/* Two entries, one on host arrays; the timed call is the device one whatever the case's. */
static const kit_lab_decl ENTRIES = {
    .bufs = {{F(da), KIT_T_F32, F(n), F(ha)}, {F(dout), KIT_T_U32, F(bins)}},
    .calls = {{"dev", call_f, KIT_WHEN(fake, is_int, 0), .out = {{"o", KIT_T_U32, F(dout), F(bins), KIT_POISON(0xFF)}}},
              {"host", call_i, KIT_WHEN(fake, is_int, 1),
               .out = {{"o", KIT_T_U32, F(hout), F(bins), KIT_POISON(0xFF), KIT_DECL_HOST}}}},
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(da)}, .call = "dev"},
};

static fake make(int is_int)
{
    static float a[5], b[5];
    fake s;
    memset(&s, 0, sizeof s);
    s.n = 5, s.bins = 3, s.is_int = is_int, s.ha = a, s.hb = b;
    s.da = (float *)0x1000, s.db = (float *)0x2000, s.dout = (unsigned *)0x3000, s.hout = (unsigned *)0x4000;
    return s;
}

static void buffers(void)
{
    fake s = make(0);
    kit_lab_buf b[KIT_LAB_MAX_BUFS];
    CHECK(kit_decl_buffers(&DECL, &s, KIT_LAB_CASE, b) == 3, "three case buffers for floats");
    CHECK(b[0].at == (void **)&s.da && b[0].host == s.ha && b[0].bytes == 20 && b[0].upload == 20, "a: %zu", b[0].bytes);
    CHECK(b[1].at == (void **)&s.db && b[1].host == s.hb && b[1].upload == 20, "b");
    CHECK(b[2].at == (void **)&s.dout && !b[2].host && b[2].bytes == 12 && !b[2].upload, "out: %zu", b[2].bytes);
    CHECK(!b[0].pinned && !b[2].pinned, "device buffers");
    CHECK(kit_decl_buffers(&DECL, &s, KIT_LAB_TIMING, b) == 1 && b[0].at == (void **)&s.dkit, "the timing buffer");
    CHECK(b[0].pinned, "a pinned host buffer: pinned");
    s = make(1);
    CHECK(kit_decl_buffers(&DECL, &s, KIT_LAB_CASE, b) == 2 && b[1].at == (void **)&s.dout, "when: no b for ints");
    s.n = 0;
    CHECK(kit_decl_buffers(&DECL, &s, KIT_LAB_CASE, b) == 2 && b[0].bytes == 4 && b[0].upload == 0,
          "n = 0: one element allocated, nothing uploaded");
}

static void calls(void)
{
    fake s = make(1);
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    CHECK(kit_decl_fill_call(&DECL, &s, 0, &c) == 1 && !strcmp(c.name, "whole") && c.invoke == call_i, "int call");
    CHECK(c.n_out == 1 && c.out[0].at == s.dout && !c.out[0].on_host && c.out[0].count == 3 &&
              c.out[0].poison == KIT_POISON(0x7F) && c.out[0].type == KIT_T_U32,
          "its output: count %llu", (unsigned long long)c.out[0].count);
    CHECK(!c.kernel_optional, "n = 5: a kernel is needed");
    CHECK(kit_decl_fill_call(&DECL, &s, 1, &c) == 0, "one call only");
    s.n = 0;
    kit_decl_fill_call(&DECL, &s, 0, &c);
    CHECK(c.kernel_optional, "n = 0: no kernel needed");
    s = make(0);
    CHECK(kit_decl_fill_call(&DECL, &s, 0, &c) == 1 && !strcmp(c.name, "scalar"), "float call");
    CHECK(c.out[0].at == &s.r && c.out[0].on_host && c.out[0].count == 1, "a result by value is the state's field");
}

static void refusals(void)
{
    fake s = make(0);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    CHECK(!kit_decl_refused(&DECL, &ctx, &s, KIT_LAB_BENCH_AFTER), "n = 5 is in range");
    s.n = 0;
    CHECK(kit_decl_refused(&DECL, &ctx, &s, KIT_LAB_BENCH_AFTER), "n = 0 is refused");
    CHECK(!kit_decl_refused(&DECL, &ctx, &s, KIT_LAB_BENCH_BEFORE), "only at its stage");
    s = make(1);
    CHECK(kit_decl_refused(&DECL, &ctx, &s, KIT_LAB_RUN_BEFORE), "ints are refused in run mode");
    ctx.show = 1;
    CHECK(!kit_decl_refused(&DECL, &ctx, &s, KIT_LAB_RUN_BEFORE), "and shown in show mode");
}

static void timed(void)
{
    fake s = make(0);
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_timed_calls(&DECL, &s, &tc, &sw) == 0, "timed");
    CHECK(sw.invoke == call_f && !strcmp(tc.name, "scalar") && tc.how == KIT_FRESH_ROTATE_SCALE, "the call");
    CHECK(tc.n_in == 1 && sw.in[0] == (void **)&s.db && tc.in[0].orig == s.db && tc.in[0].count == 5, "b refreshed");
    CHECK(tc.shift_lo == 0 && tc.shift_hi == 4, "shift [%lld, %lld]", (long long)tc.shift_lo, (long long)tc.shift_hi);
    CHECK(tc.out == &s.r && tc.out_host && !sw.out && tc.out_count == 1 && tc.poison == 0xFF, "the result");
    CHECK(tc.extra_bytes == 20, "a is read by every call: %g", tc.extra_bytes);
    CHECK(kit_timed_calls_bytes(&tc) == 20 + 20 + 4, "a, b and the result: %g bytes", kit_timed_calls_bytes(&tc));
    CHECK(tc.flops == 2.0 * 5 * 3, "flops: 2 * n * bins, not %g", tc.flops);
    CHECK(tc.shift_step == 0, "no step declared: any element");
    kit_lab_decl rows = DECL; /* b as rows of `bins` elements: n = 7 holds two whole rows of 3 */
    rows.timed.step = F(bins), s.n = 7;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    kit_decl_timed_calls(&rows, &s, &tc, &sw);
    CHECK(tc.shift_step == 3 && tc.shift_lo == 0 && tc.shift_hi == 1, "rows of 3 of 7 elements: shift 3 * [0, 1], "
          "not %lld * [%lld, %lld]", (long long)tc.shift_step, (long long)tc.shift_lo, (long long)tc.shift_hi);
    s.n = 5;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_timed_calls(&OFFSET, &s, &tc, &sw) == 0 && tc.how == KIT_FRESH_OFFSET, "offset");
    CHECK(tc.modulus == 3 && tc.shift_lo == 1 && tc.shift_hi == 2, "offset in [1, bins)");
    CHECK(sw.out == (void **)&s.dout && !tc.out && tc.out_count == 3 && tc.extra_bytes == 0, "the histogram");
    CHECK(kit_timed_calls_bytes(&tc) == 20 + 12, "the values and the bins: %g bytes", kit_timed_calls_bytes(&tc));
    CHECK(tc.flops == 0, "no flops declared: none");
    s.bins = 1;
    memset(&tc, 0, sizeof tc);
    kit_decl_timed_calls(&OFFSET, &s, &tc, &sw);
    CHECK(tc.shift_lo == 0 && tc.shift_hi == 0, "one bin: offset 0");
    CHECK(fabs(kit_decl_metric_value(&DECL.metrics[0], &s, 2.0) - 8.0 * 5 / 1e9 / 2e-3) < 1e-15, "metric");
    s.bins = 3;
    CHECK(fabs(kit_decl_metric_value(&DECL.metrics[1], &s, 2.0) - 2.0 * 5 * 3 / 1e9 / 2e-3) < 1e-15, "n * bins");
    CHECK(isnan(kit_decl_metric_value(&DECL.metrics[2], &s, 2.0)), "floats: not the ints' metric");
    s.is_int = 1;
    CHECK(fabs(kit_decl_metric_value(&DECL.metrics[2], &s, 2.0) - 5 / 1e9 / 2e-3) < 1e-15, "ints: theirs");
}

/* An output in host memory behind a pointer field, and the timed call chosen by name. */
static void entries(void)
{
    fake s = make(1);
    kit_lab_call c;
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&c, 0, sizeof c), memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_fill_call(&ENTRIES, &s, 0, &c) == 1 && !strcmp(c.name, "host"), "the host entry");
    CHECK(c.out[0].at == s.hout && c.out[0].on_host && c.out[0].count == 3, "its output is where hout points");
    CHECK(kit_decl_timed_calls(&ENTRIES, &s, &tc, &sw) == 0 && !strcmp(tc.name, "dev") && sw.invoke == call_f,
          "the timed call is the one named, not the case's");
    CHECK(sw.out == (void **)&s.dout && !tc.out && !tc.out_host && tc.out_count == 3, "its device output");
    kit_lab_decl host = ENTRIES;
    host.timed.call = "host";
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    kit_decl_timed_calls(&host, &s, &tc, &sw);
    CHECK(tc.out == s.hout && tc.out_host && !sw.out, "a timed host output: the memory hout points to");
    host.timed.call = "none";
    CHECK(kit_decl_timed_calls(&host, &s, &tc, &sw) == KIT_LAB_UNTIMED, "a name no row has: untimed");
    kit_when both = KIT_WHEN2(fake, is_int, 1, n, 5);
    CHECK(kit_when_holds(&both, &s), "is_int = 1 and n = 5");
    s.n = 4;
    CHECK(!kit_when_holds(&both, &s), "the second condition fails");
    s = make(0);
    CHECK(!kit_when_holds(&both, &s), "the first fails");
}

/* Records in one buffer (keys and tags of 8-byte records); timed with
 * offsets in a declared range and an output poison of their own, and a
 * show run that times without time=1 (offsets). */
static const kit_lab_decl RECORDS = {
    .bufs = {{F(da), KIT_T_I32, F(n), F(ha)}, {F(dout), KIT_T_I64, F(bins)}},
    .calls = {{"rec", call_i,
               .out = {{"key", KIT_T_I32, F(dout), F(bins), KIT_POISON(0xFF), .stride = 8},
                       {"tag", KIT_T_I32, F(dout), F(bins), KIT_POISON(0xFF), .stride = 8, .offset = 4}}}},
    .timed = {KIT_FRESH_OFFSET, {F(da)}, .shift_lo = -7, .shift_hi = 9, .poison = KIT_POISON(0x7F)},
    .show_time = {"base", 1, 2, .always = 1},
};

static void records(void)
{
    fake s = make(0);
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    CHECK(kit_decl_fill_call(&RECORDS, &s, 0, &c) == 1 && c.n_out == 2, "two outputs");
    CHECK(c.out[0].at == s.dout && c.out[0].stride == 8 && c.out[0].offset == 0, "keys: stride %zu offset %zu",
          c.out[0].stride, c.out[0].offset);
    CHECK(c.out[1].at == s.dout && c.out[1].stride == 8 && c.out[1].offset == 4, "tags: stride %zu offset %zu",
          c.out[1].stride, c.out[1].offset);
    memset(&c, 0, sizeof c);
    kit_decl_fill_call(&DECL, &s, 0, &c);
    CHECK(c.out[0].stride == 0 && c.out[0].offset == 0, "undeclared: packed");
}

static void offsets(void)
{
    fake s = make(0);
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_timed_calls(&RECORDS, &s, &tc, &sw) == 0 && tc.how == KIT_FRESH_OFFSET, "timed");
    CHECK(tc.shift_lo == -7 && tc.shift_hi == 9 && tc.modulus == 0, "shift [%lld, %lld], modulus %lld",
          (long long)tc.shift_lo, (long long)tc.shift_hi, (long long)tc.modulus);
    CHECK(tc.poison == 0x7F, "the timed calls' poison, not the call's: %#x", tc.poison);
    kit_params p;
    char err[128];
    CHECK(kit_params_parse("n=5", &p, err, sizeof err) == 0, "%s", err);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &p, ctx.show = 1, shown[0] = 0;
    CHECK(kit_decl_show_time(&RECORDS, &ctx, &s) == 0 && !strcmp(shown, "speedup 1 2 rec base"), "always: %s", shown);
}

/* time=1: int data alone, floats against the baseline where bench mode's
 * timing takes n (a BENCH_BEFORE refusal does not stop it), nothing else. */
static void show_time(void)
{
    kit_lab_decl d = DECL;
    d.show_time.baseline = "base", d.show_time.warmup = 1, d.show_time.reps = 2;
    d.show_time.alone_note = "no baseline", d.show_time.alone_if = (kit_when)KIT_WHEN(fake, is_int, 1);
    d.refuse[2] = kit_decl_refuse{KIT_LAB_BENCH_BEFORE, F(pad), 1, 1, "not graded"};
    kit_params p;
    char err[128];
    CHECK(kit_params_parse("time=1", &p, err, sizeof err) == 0, "%s", err);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &p, ctx.show = 1;
    fake s = make(1);
    shown[0] = 0;
    CHECK(kit_decl_show_time(&d, &ctx, &s) == 0 && !strcmp(shown, "alone 1 2 whole no baseline"), "int: %s", shown);
    s = make(0), shown[0] = 0;
    kit_decl_show_time(&d, &ctx, &s);
    CHECK(!strcmp(shown, "speedup 1 2 scalar base"), "float: %s", shown);
    s.n = 0, shown[0] = 0;
    CHECK(kit_decl_show_time(&d, &ctx, &s) == 0 && !shown[0], "n = 0, refused by bench mode's timing: %s", shown);
    s = make(0), shown[0] = 0;
    CHECK(kit_params_parse("n=5", &p, err, sizeof err) == 0, "%s", err);
    CHECK(kit_decl_show_time(&d, &ctx, &s) == 0 && !shown[0], "no time=1: %s", shown);
}

/* What kit_decl_summary prints for c's outputs (stdout caught in a file). */
static void summary_of(const kit_lab_call *c, void *const *host, char *text, size_t len)
{
    kit_params p;
    char err[64];
    CHECK(kit_params_parse("n=3", &p, err, sizeof err) == 0, "%s", err);
    fflush(stdout);
    int saved = dup(1);
    FILE *f = tmpfile();
    dup2(fileno(f), 1);
    kit_decl_summary(c, &p, host);
    fflush(stdout);
    dup2(saved, 1), close(saved);
    rewind(f);
    text[fread(text, 1, len - 1, f)] = 0;
    fclose(f);
}

/* A float output's NaN count says "never written" only where the kit
 * poisoned it with NaN (not lab09's A, factored in place). */
static void summary(void)
{
    float v[3] = {1, NAN, 2};
    void *host[1] = {v};
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    c.name = "f", c.n_out = 1;
    c.out[0] = kit_lab_out{"v", KIT_T_F32, NULL, 0, 3, 0, 0, KIT_POISON(0xFF)};
    char text[512];
    summary_of(&c, host, text, sizeof text);
    CHECK(strstr(text, "v: 3 elements, sum 3, 1 NaN (the kit filled it with NaN before the call: never written)"),
          "poisoned: %s", text);
    c.out[0].poison = KIT_POISON_NONE;
    summary_of(&c, host, text, sizeof text);
    CHECK(strstr(text, "v: 3 elements, sum 3, 1 NaN\n") && !strstr(text, "never written"), "not poisoned: %s", text);
}

int main(void)
{
    buffers();
    calls();
    refusals();
    timed();
    entries();
    show_time();
    records();
    offsets();
    summary();
    return plain_check_summary();
}
