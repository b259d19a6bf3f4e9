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
#include "plain_catch.h"
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
/* The timings it asks for: the call against the baseline (2 and 4 ms;
 * time_rc: what the timing returns), a function of the lab on CUDA's clock
 * (7 ms, one call made). */
static int time_rc;
int kit_lab_time(kit_run_ctx *, void *, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    snprintf(shown, sizeof shown, "time %d %d", warmup, reps);
    ts->median_ms = 2, tb->median_ms = 4;
    return time_rc;
}
int kit_time_median(kit_timed_fn fn, void *arg, int warmup, int reps, kit_timing *t)
{
    snprintf(shown, sizeof shown, "median %d %d", warmup, reps);
    fn(arg);
    t->median_ms = 7;
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
    unsigned *hbuf;    /* plain host memory */
    double cpu_ms, trip_ms; /* times of the lab's own (also_timed) */
    int ran;           /* calls of count_run */
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
    /* a condition it needs: floats with n = 5 */
    kit_lab_decl d = DECL;
    d.refuse[2] = kit_decl_refuse{KIT_LAB_BENCH_BEFORE, 0, 0, 0, "floats, n = 5", 0, KIT_WHEN2(fake, is_int, 0, n, 5)};
    CHECK(kit_decl_refused(&d, &ctx, &s, KIT_LAB_BENCH_BEFORE), "ints: refused");
    s = make(0);
    CHECK(!kit_decl_refused(&d, &ctx, &s, KIT_LAB_BENCH_BEFORE), "floats, n = 5: taken");
    s.n = 4;
    CHECK(kit_decl_refused(&d, &ctx, &s, KIT_LAB_BENCH_BEFORE) && !strcmp(kit_decl_refused(&d, &ctx, &s,
          KIT_LAB_BENCH_BEFORE), "floats, n = 5"), "n = 4: refused");
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

/* A call in place (lab09's A): a status first, then the matrix it factors,
 * side x side (n = 9: side 3); the untouched copy a timing row of its own. */
static const kit_lab_decl IN_PLACE = {
    .bufs = {{F(da), KIT_T_F32, F(n), F(ha)}, {F(db), KIT_T_F32, F(n), F(ha), KIT_LAB_TIMING}},
    .calls = {{"lu", call_f, .out = {{"status", KIT_T_I32, F(bins), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE},
                                     {"a", KIT_T_F32, F(da), F(n), KIT_POISON_NONE}}}},
    .timed = {KIT_FRESH_ROTATE_SQUARE, {F(db)}, .poison = KIT_POISON(0xFF), .side = F(bins),
              .rotate_if = KIT_WHEN(fake, is_int, 0), .lines = 2, .in_place = 1, .out = 1},
};

/* The rows and columns pick_lines chose (sample 2 * lines * side), in order. */
static void picked_lines(const kit_timed_calls *tc, int64_t *idx)
{
    kit_rng r, again;
    kit_rng_seed(&r, 7, 0), kit_rng_seed(&again, 7, 0);
    tc->pick(tc, &r, tc->sample, idx);
    for (int l = 0; l < 4; l++) {
        int64_t line = kit_rng_range(&again, 0, 2);
        for (int t = 0; t < 3; t++)
            CHECK(idx[3 * l + t] == (l < 2 ? line * 3 + t : t * 3 + line), "line %d element %d: %lld", l, t,
                  (long long)idx[3 * l + t]);
    }
}

static void in_place(void)
{
    fake s = make(0);
    s.n = 9, s.bins = 3;
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_timed_calls(&IN_PLACE, &s, &tc, &sw) == 0 && sw.in_place && !strcmp(tc.name, "lu"), "timed");
    CHECK(tc.in[0].orig == s.db && tc.in[0].count == 9 && !sw.in[0], "the untouched copy refreshed, never swapped");
    CHECK(sw.out == (void **)&s.da && !tc.out && tc.out_count == 9 && tc.poison == 0xFF, "the output timed: a");
    CHECK(tc.extra_bytes == 0, "a is written from the fresh input, not read besides it: %g", tc.extra_bytes);
    CHECK(tc.how == KIT_FRESH_ROTATE_SQUARE && tc.side == 3 && tc.shift_lo == 0 && tc.shift_hi == 2, "shift [0, side)");
    CHECK(tc.sample == 12 && tc.pick, "2 rows and 2 columns of 3: sample %d", tc.sample);
    int64_t idx[12];
    picked_lines(&tc, idx);
    s.is_int = 1;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    kit_decl_timed_calls(&IN_PLACE, &s, &tc, &sw);
    CHECK(tc.shift_hi == 0, "rotate_if does not hold: the scale alone, not shift up to %lld", (long long)tc.shift_hi);
    kit_lab_buf b;
    CHECK(kit_decl_in_place(&IN_PLACE, &s, &b) == 1 && b.at == (void **)&s.da && b.host == s.db && b.upload == 36 &&
              !b.pinned && !b.pageable,
          "restored: a from the untouched copy, 36 bytes of device memory (%zu)", b.upload);
    CHECK(kit_decl_in_place(&DECL, &s, &b) == 0 && kit_decl_in_place(NULL, &s, &b) == 0, "no call in place");
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    kit_decl_timed_calls(&DECL, &s, &tc, &sw);
    CHECK(!sw.in_place && !tc.pick, "DECL: not in place, sampled uniformly");
}

/* An output poisoned with the complement of an input: the input's words found through its pointer field. */
static void complement(void)
{
    kit_lab_decl d = ENTRIES;
    d.calls[1].out[0].poison = KIT_POISON_COMPLEMENT, d.calls[1].out[0].complement_of = F(ha);
    fake s = make(1);
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    CHECK(kit_decl_fill_call(&d, &s, 0, &c) == 1 && c.out[0].poison == KIT_POISON_COMPLEMENT &&
              c.out[0].complement_of == s.ha && c.out[0].at == s.hout,
          "the complement of ha");
    memset(&c, 0, sizeof c);
    kit_decl_fill_call(&ENTRIES, &s, 0, &c);
    CHECK(!c.out[0].complement_of, "none declared: none");
}

/* What kit_show_corner printed, into text. */
static void corner_shown(char *text, size_t len, const char *what, kit_type type, const void *m, int rows, int cols)
{
    int saved;
    FILE *tmp = plain_catch(1, &saved);
    kit_show_corner(what, type, m, rows, cols);
    plain_caught(tmp, 1, saved, text, len);
}

/* Show mode's matrix corner: the first four rows and columns of a larger
 * matrix read with its own row length, in floats and doubles; a smaller or
 * empty one whole. */
static void show_corner(void)
{
    float m[5 * 6];
    double d[5 * 6];
    for (int t = 0; t < 30; t++)
        m[t] = (float)t, d[t] = t + 0.5;
    char text[512];
    corner_shown(text, sizeof text, "C", KIT_T_F32, m, 5, 6);
    CHECK(!strcmp(text, "top-left 4 x 4 of C:\n"
                        "              0            1            2            3\n"
                        "              6            7            8            9\n"
                        "             12           13           14           15\n"
                        "             18           19           20           21\n"),
          "floats: '%s'", text);
    corner_shown(text, sizeof text, "the result", KIT_T_F64, d, 5, 6);
    CHECK(strstr(text, "top-left 4 x 4 of the result:\n            0.5          1.5") &&
              strstr(text, "\n           18.5         19.5         20.5         21.5\n"),
          "doubles: '%s'", text);
    corner_shown(text, sizeof text, "C", KIT_T_F32, m, 1, 3);
    CHECK(!strcmp(text, "top-left 1 x 3 of C:\n              0            1            2\n"), "1 x 3: '%s'", text);
    corner_shown(text, sizeof text, "C", KIT_T_F32, m, 0, 0);
    CHECK(!strcmp(text, "top-left 0 x 0 of C:\n"), "empty: '%s'", text);
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

/* Tagged records: ints uploaded as {key, base + index}, the base a field. */
static void tagged(void)
{
    fake s = make(0);
    kit_lab_decl d = RECORDS;
    d.bufs[0] = kit_decl_buf{F(da), KIT_T_I64, F(n), F(ha), KIT_LAB_CASE, {}, .tagged = 1, .tag_base = F(bins)};
    kit_lab_buf b[KIT_LAB_MAX_BUFS];
    CHECK(kit_decl_buffers(&d, &s, KIT_LAB_CASE, b) == 2, "two buffers");
    CHECK(b[0].tagged && b[0].tag_base == 3 && b[0].host == s.ha && b[0].upload == 40 && b[0].bytes == 40,
          "5 records from ha, tags from bins = 3: tagged %d base %d upload %zu", b[0].tagged, b[0].tag_base,
          b[0].upload);
    CHECK(!b[1].tagged && !b[1].tag_base, "the output: not tagged");
    d.bufs[0].tag_base = 0;
    kit_decl_buffers(&d, &s, KIT_LAB_CASE, b);
    CHECK(b[0].tagged && b[0].tag_base == 0, "no base field: tags from 0");
    int32_t keys[3] = {7, -2, 9}, rec[6];
    kit_lab_buf t = {NULL, 24, keys, 24, .tagged = 1, .tag_base = 5};
    kit_decl_made_upload(&t, rec);
    CHECK(rec[0] == 7 && rec[1] == 5 && rec[2] == -2 && rec[3] == 6 && rec[4] == 9 && rec[5] == 7,
          "{key, 5 + index}: %d %d %d %d %d %d", rec[0], rec[1], rec[2], rec[3], rec[4], rec[5]);
}

/* Doubles uploaded as floats: the row's count of floats, each rounded once. */
static void from_f64(void)
{
    fake s = make(0);
    double wide[5] = {1.5, -2.25, 1.0 / 3, 1e-40, 7};
    kit_lab_decl d = RECORDS;
    d.bufs[0] = kit_decl_buf{F(da), KIT_T_F32, F(n), F(ha)};
    d.bufs[0].from_f64 = 1;
    kit_lab_buf b[KIT_LAB_MAX_BUFS];
    kit_decl_buffers(&d, &s, KIT_LAB_CASE, b);
    CHECK(b[0].from_f64 && !b[0].tagged && b[0].upload == 20 && b[0].bytes == 20, "5 floats: upload %zu", b[0].upload);
    CHECK(!b[1].from_f64, "the output: nothing to convert");
    b[0].host = wide;
    float f[5];
    kit_decl_made_upload(&b[0], f);
    CHECK(f[0] == 1.5f && f[1] == -2.25f && f[2] == (float)(1.0 / 3) && f[3] == (float)1e-40 && f[4] == 7.0f,
          "rounded once: %g %g %g %g %g", f[0], f[1], f[2], f[3], f[4]);
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

/* What the interpreter prints for c's outputs (host): the summary, or with
 * d the show_check line. */
static void printed(const kit_lab_decl *d, const void *state, const kit_lab_call *c, void *const *host, char *text,
                    size_t len)
{
    kit_params p;
    char err[64];
    CHECK(kit_params_parse("n=3", &p, err, sizeof err) == 0, "%s", err);
    int saved;
    FILE *f = plain_catch(1, &saved);
    if (d)
        kit_decl_show_check(d, state, c, host);
    else
        kit_decl_summary(c, &p, host);
    plain_caught(f, 1, saved, text, len);
}

/* A call "f" of one output, v: 3 floats poisoned with NaN. */
static kit_lab_call call_of_v(void)
{
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    c.name = "f", c.n_out = 1;
    c.out[0] = kit_lab_out{"v", KIT_T_F32, NULL, 0, 3, 0, 0, KIT_POISON(0xFF)};
    return c;
}

static void summary_of(const kit_lab_call *c, void *const *host, char *text, size_t len)
{
    printed(NULL, NULL, c, host, text, len);
}

/* A float output's NaN count says "never written" only where the kit
 * poisoned it with NaN (not lab09's A, factored in place). */
static void summary(void)
{
    float v[3] = {1, NAN, 2};
    void *host[1] = {v};
    kit_lab_call c = call_of_v();
    char text[512];
    summary_of(&c, host, text, sizeof text);
    CHECK(strstr(text, "v: 3 elements, sum 3, 1 NaN (the kit filled it with NaN before the call: never written)"),
          "poisoned: %s", text);
    c.out[0].poison = KIT_POISON_NONE;
    summary_of(&c, host, text, sizeof text);
    CHECK(strstr(text, "v: 3 elements, sum 3, 1 NaN\n") && !strstr(text, "never written"), "not poisoned: %s", text);
    /* an unnamed output of one element is the lab's (its after), not the call's value (lab11's n = 1) */
    c.out[0].count = 1, c.out[0].name = NULL;
    summary_of(&c, host, text, sizeof text);
    CHECK(!strstr(text, "= 1"), "an unnamed value shown: %s", text);
}

/* show_check: the first element of out[0] that breaks the lab's rule
 * (here: out[i] = i + state's n), on the output as read back. */
static size_t not_i_plus_n(const void *state, const void *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((const float *)out)[i] != (float)i + (float)((const fake *)state)->n)
            return i;
    return n;
}

static void show_check(void)
{
    kit_lab_decl d = DECL;
    d.show_check.first_wrong = not_i_plus_n, d.show_check.rule = "out[i] = i + n";
    fake s = make(0);
    float v[3] = {5, 6, 7};
    void *host[1] = {v};
    kit_lab_call c = call_of_v();
    char text[512];
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  out[i] = i + n holds for every i\n"), "right: %s", text);
    v[2] = 8;
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  out[i] = i + n first fails at i = 2\n"), "wrong: %s", text);
    s.n = 4;
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  out[i] = i + n first fails at i = 0\n"), "the lab's state: %s", text);
    printed(&DECL, &s, &c, host, text, sizeof text);
    CHECK(!text[0], "no show_check: nothing printed: %s", text);
}

/* show_ref: a first i32 output against the lab's CPU reference (here k[i]
 * = i + state's n), and a second one (t[i] = 10 i) where the first is right. */
static void ref_i_plus_n(const void *state, int32_t *const *ref, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ref[0][i] = (int32_t)i + ((const fake *)state)->n;
        if (ref[1])
            ref[1][i] = 10 * (int32_t)i;
    }
}

static void show_ref(void)
{
    kit_lab_decl d = DECL;
    d.show_ref.reference = ref_i_plus_n, d.show_ref.source = "the CPU", d.show_ref.name = "K";
    fake s = make(0);
    s.n = 5;
    int32_t k[3] = {5, 6, 7}, t[3] = {0, 10, 21};
    void *host[2] = {k, t};
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    c.name = "f", c.n_out = 1;
    c.out[0] = kit_lab_out{"k", KIT_T_I32, NULL, 0, 3, 0, 0, KIT_POISON(0xFF)};
    c.out[1] = kit_lab_out{"t", KIT_T_I32, NULL, 0, 3, 0, 0, KIT_POISON(0xFF)};
    char text[512];
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  all 3 outputs match the CPU\n"), "right: %s", text);
    k[1] = 9, k[2] = -1;
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  2 of 3 outputs differ from the CPU; first at K[1]: 9, expected 6\n"), "wrong: %s", text);
    /* the second output, counted only where the first is right */
    c.n_out = 2, d.show_ref.aside = "a wrong tag";
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  2 of 3 outputs differ from the CPU; first at K[1]: 9, expected 6\n  0 outputs hold a "
                        "wrong tag\n"), "aside: %s", text);
    k[1] = 6, k[2] = 7;
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!strcmp(text, "  all 3 outputs match the CPU\n  1 outputs hold a wrong tag\n"), "aside: %s", text);
    c.out[0].type = KIT_T_F32; /* not an i32 output: nothing */
    printed(&d, &s, &c, host, text, sizeof text);
    CHECK(!text[0], "a float output: %s", text);
    printed(&DECL, &s, &c, host, text, sizeof text);
    CHECK(!text[0], "no show_ref: nothing printed: %s", text);
}

/* Rows of a run that times (bench, show's time=1) whatever `when` says, and
 * plain host memory. */
static const kit_lab_decl TIMED_TOO = {
    .bufs = {{F(da), KIT_T_F32, F(n), F(ha), .when = KIT_WHEN(fake, is_int, 0), .when_timed = 1},
             {F(hbuf), KIT_T_U32, F(bins), .pageable = 1}},
    .calls = {{"dev", call_f, .out = {{"o", KIT_T_U32, F(dout), F(bins), KIT_POISON(0xFF)}}}},
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(da)}},
};

static void buffers_in_a_run(void)
{
    fake s = make(1);
    kit_lab_buf b[KIT_LAB_MAX_BUFS];
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    kit_params p;
    char err[64];
    CHECK(kit_params_parse("n=5", &p, err, sizeof err) == 0, "%s", err);
    ctx.params = &p;
    CHECK(kit_decl_buffers_run(&TIMED_TOO, &ctx, &s, KIT_LAB_CASE, b) == 1 && b[0].at == (void **)&s.hbuf,
          "ints, not timed: the host buffer alone");
    CHECK(b[0].pageable && !b[0].pinned && b[0].bytes == 12, "pageable, bins elements: %zu", b[0].bytes);
    ctx.bench = 1;
    CHECK(kit_decl_buffers_run(&TIMED_TOO, &ctx, &s, KIT_LAB_CASE, b) == 2 && b[0].at == (void **)&s.da &&
              b[0].upload == 20 && !b[0].pageable,
          "bench mode: the timed row too");
    ctx.bench = 0, ctx.show = 1;
    CHECK(kit_decl_buffers_run(&TIMED_TOO, &ctx, &s, KIT_LAB_CASE, b) == 1, "show mode without time=1");
    CHECK(kit_params_parse("n=5 time=1", &p, err, sizeof err) == 0, "%s", err);
    CHECK(kit_decl_buffers_run(&TIMED_TOO, &ctx, &s, KIT_LAB_CASE, b) == 2, "show mode with time=1");
    CHECK(kit_decl_buffers(&TIMED_TOO, &s, KIT_LAB_CASE, b) == 1, "kit_decl_buffers: by `when` alone");
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    CHECK(kit_decl_timed_calls(&TIMED_TOO, &s, &tc, &sw) == 0 && tc.in[0].count == 5, "timed: its count from the "
          "timed row, %lld", (long long)tc.in[0].count);
}

static void count_run(void *s) { ((fake *)s)->ran++; }

/* The lab's own functions timed after each timing, and metrics and a show
 * table from their times. */
static const kit_lab_decl ALSO = {
    .calls = {{"dev", call_f, .out = {{"o", KIT_T_U32, F(dout), F(bins), KIT_POISON(0xFF)}}}},
    .metrics = {{"cpu ms", .ms_of = F(cpu_ms)}, {"x faster", .ms_of = F(cpu_ms), .vs = 1}},
    .also_timed = {{count_run, F(cpu_ms), 1, 3, .on_cpu = 1}, {count_run, F(trip_ms), 2, 5, .show_only = 1}},
    .show_table = {"timings, n = %d:", "nothing for n = 0", F(n),
                   {{"the call", 0, 0, 12}, {"the baseline", 0, 1},
                    {"a trip (long,\n  two lines)", F(trip_ms)}, {"the cpu", F(cpu_ms), 0, 4}}},
};

static void also_timed(void)
{
    fake s = make(0);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    s.cpu_ms = s.trip_ms = -1, shown[0] = 0;
    CHECK(kit_decl_after_timing(&ALSO, &ctx, &s) == 0 && s.ran == 4, "on the host's clock: 1 + 3 calls, not %d",
          s.ran);
    CHECK(s.cpu_ms >= 0 && s.cpu_ms < 1e3 && s.trip_ms == -1 && !shown[0], "its median; the show-only row not timed");
    ctx.show = 1, s.ran = 0;
    CHECK(kit_decl_after_timing(&ALSO, &ctx, &s) == 0 && s.trip_ms == 7 && !strcmp(shown, "median 2 5"),
          "show mode: on CUDA's clock too, %s", shown);
    s.cpu_ms = 6;
    CHECK(kit_decl_metric_value(&ALSO.metrics[0], &s, 2.0) == 6, "a time of the lab's");
    CHECK(kit_decl_metric_value(&ALSO.metrics[1], &s, 2.0) == 3, "the call vs that time");
}

/* What kit_decl_show_time prints for ALSO's table. */
static void table_of(kit_run_ctx *ctx, fake *s, char *text, size_t len)
{
    int saved;
    FILE *f = plain_catch(1, &saved);
    CHECK(kit_decl_show_time(&ALSO, ctx, s) == 0, "the table");
    plain_caught(f, 1, saved, text, len);
}

static void show_table(void)
{
    kit_params p;
    char err[64], text[1024];
    CHECK(kit_params_parse("time=1", &p, err, sizeof err) == 0, "%s", err);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &p, ctx.show = 1, ctx.warmup = 1, ctx.reps = 9;
    fake s = make(0);
    s.n = 1000000, s.trip_ms = 5.5, s.cpu_ms = 8;
    table_of(&ctx, &s, text, sizeof text);
    CHECK(!strcmp(shown, "time 1 9"), "the runner's warmup and reps: %s", shown);
    CHECK(!strcmp(text, "timings, n = 1000000:\n"
                        "  the call                               2.0000 ms       6.0 GB/s\n"
                        "  the baseline                           4.0000 ms\n"
                        "  a trip (long,                          5.5000 ms\n"
                        "  two lines)\n"
                        "  the cpu                                8.0000 ms       0.5 GB/s\n"),
          "the table:\n%s", text);
    s.n = 0;
    table_of(&ctx, &s, text, sizeof text);
    CHECK(!strcmp(text, "nothing for n = 0\n"), "n = 0: %s", text);
    CHECK(kit_params_parse("n=5", &p, err, sizeof err) == 0, "%s", err);
    s.n = 5;
    table_of(&ctx, &s, text, sizeof text);
    CHECK(!text[0], "no time=1: nothing: %s", text);
}

/* What kit_decl_show_time prints for d; its status into *rc. */
static void line_of(const kit_lab_decl *d, kit_run_ctx *ctx, fake *s, int *rc, char *text, size_t len)
{
    int saved;
    shown[0] = 0;
    FILE *f = plain_catch(1, &saved);
    *rc = kit_decl_show_time(d, ctx, s);
    plain_caught(f, 1, saved, text, len);
}

/* show_line: the lab's own time line in every show run, by the row that
 * holds - the call's name or the row's, with the rates of the first metric
 * of each side's time that holds; none where the case has nothing to time;
 * a timing that failed fails the run, one with nothing to time does not. */
static void show_line(void)
{
    kit_lab_decl d = DECL;
    d.show_time.warmup = 1, d.show_time.reps = 3;
    d.show_line[0] = kit_decl_show_line{NULL, "the kit's", "speedup %.2fx", NULL, 0, KIT_WHEN(fake, is_int, 0), F(n)};
    d.show_line[1] = kit_decl_show_line{"a trip", "the other", "x %.2fx faster", "GB/s", 1, KIT_WHEN(fake, is_int, 1)};
    kit_params p;
    char err[128], text[512];
    CHECK(kit_params_parse("n=5", &p, err, sizeof err) == 0, "%s", err);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &p, ctx.show = 1;
    fake s = make(0);
    int rc;
    line_of(&d, &ctx, &s, &rc, text, sizeof text);
    CHECK(rc == 0 && !strcmp(shown, "time 1 3"), "no time=1 needed: %s", shown);
    CHECK(!strcmp(text, "time: scalar 2.000 ms, the kit's 4.000 ms (medians of 3): speedup 2.00x\n"), "%s", text);
    s.n = 0;
    line_of(&d, &ctx, &s, &rc, text, sizeof text);
    CHECK(rc == 0 && !shown[0] && !text[0], "n = 0: nothing to time, no line: %s", text);
    s = make(1), s.n = 1000000; /* 8n bytes in 2 ms: 4 GB/s; the baseline's 2 n bins flops in 4 ms: 1.5 */
    line_of(&d, &ctx, &s, &rc, text, sizeof text);
    CHECK(rc == 0 && !strcmp(text, "time: a trip 2.000 ms (4.0 GB/s), the other 4.000 ms (1.5 GB/s), medians of 3: x "
                                   "2.00x faster\n"),
          "%s", text);
    int rcs[3] = {KIT_LAB_UNTIMED, KIT_TIME_NO_KERNEL, -1};
    for (int i = 0; i < 3; i++) {
        time_rc = rcs[i];
        line_of(&d, &ctx, &s, &rc, text, sizeof text);
        CHECK(rc == (i == 2 ? -1 : 0) && !text[0], "timing %d: status %d, no line: %s", rcs[i], rc, text);
    }
    time_rc = 0;
}

/* every_call: each row that holds is a call, in order; a call that may
 * always launch no kernel. */
static const kit_lab_decl EVERY = {
    .calls = {{"first", call_f, KIT_WHEN(fake, is_int, 0)},
              {"ints", call_i, KIT_WHEN(fake, is_int, 1)},
              {"query", call_i, {}, .out = {{NULL, KIT_T_TEXT, F(r), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE,
                                              sizeof(float)}}, .kernel_optional = 1}},
    .every_call = 1,
};

static void every_call(void)
{
    fake s = make(0);
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    CHECK(kit_decl_fill_call(&EVERY, &s, 0, &c) == 1 && !strcmp(c.name, "first") && !c.kernel_optional &&
              c.n_out == 0,
          "call 0: the first row that holds");
    CHECK(kit_decl_fill_call(&EVERY, &s, 1, &c) == 1 && !strcmp(c.name, "query") && c.kernel_optional,
          "call 1: the next that holds, no kernel needed");
    CHECK(c.n_out == 1 && c.out[0].at == &s.r && kit_lab_out_span(&c.out[0]) == sizeof(float), "its whole field");
    CHECK(kit_decl_fill_call(&EVERY, &s, 2, &c) == 0, "two calls");
    s = make(1);
    CHECK(kit_decl_fill_call(&EVERY, &s, 0, &c) == 1 && !strcmp(c.name, "ints"), "ints: its own first call");
    kit_lab_decl one = EVERY;
    one.every_call = 0;
    CHECK(kit_decl_fill_call(&one, &s, 0, &c) == 1 && !strcmp(c.name, "ints") &&
              kit_decl_fill_call(&one, &s, 1, &c) == 0,
          "without every_call: the first that holds, alone");
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
    tagged();
    from_f64();
    offsets();
    summary();
    show_check();
    show_ref();
    buffers_in_a_run();
    also_timed();
    show_table();
    show_line();
    every_call();
    in_place();
    complement();
    show_corner();
    return plain_check_summary();
}
