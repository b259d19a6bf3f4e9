/* test_lab_driver.cu - the lab driver's rules, held on the CPU (no GPU, no
 * CUDA call made): a fake lab with host outputs runs through kit_lab_run and
 * kit_lab_bench (common/src/lab_driver.cu) with the runner's hooks replaced by
 * recorders below.  What it holds: a call whose output declares no poison is
 * not made; outputs are poisoned before the call; kernel_optional is set
 * from the declaration before every call (never left from an earlier one);
 * a call that left a CUDA error returns KIT_RC_STUDENT_CUDA and records
 * nothing; refusals and bad parameters say "tag: why"; release runs whatever
 * happened; bench records KIT_KEY_STUDENT_MS, KIT_KEY_BASELINE_MS, the pairs
 * timed (KIT_KEY_TIMED_PAIRS), KIT_KEY_TIMED_DECIDED when the timing stopped
 * early, and the metrics under KIT_KEY_METRIC_PREFIX; a table beside the hooks (kit/lab_decl.cuh) gets its
 * buffer in plain host memory allocated and uploaded, its own function timed
 * after each timing of the call, and in show mode its summary of the outputs
 * unless it says no_summary; a call in place in its table gets its fresh
 * input copied in before each timed call, the untouched one before the
 * baseline.
 *
 * Not a Check program (nvcc builds it, for the driver is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/lab_decl.cuh"
#include "plain_catch.h"
#include "plain_check.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

/* The fake lab's state. */
typedef struct fake {
    float buf[4], *out; /* out: buf, but the timed calls' own output while one runs */
    int32_t rec[8];     /* 4 records: key, tag */
    float src[4], *from, *page; /* a declared buffer in plain host memory, uploaded from src */
    float *pristine;            /* page's untouched copy (a call in place), timing only */
    int four;
    double also_ms;     /* a time of the lab's own, declared (also_timed) */
} fake;

/* ---- the runner's hooks, recorded ---- */
static char outs[1024];     /* "name=v;" per record */
static int begun, end_fails, optional_at_begin, timed_rc;
void kit_student_begin(kit_run_ctx *ctx, const char *) { begun++, optional_at_begin = ctx->kernel_optional; }
int kit_student_end(kit_run_ctx *) { return end_fails ? -1 : 0; }
void kit_out(kit_run_ctx *, const char *name, kit_type t, const void *data, uint64_t count)
{
    char v[64] = "";
    if (count && t == KIT_T_F32)
        snprintf(v, sizeof v, "%g", ((const float *)data)[count - 1]);
    if (count && t == KIT_T_I32)
        snprintf(v, sizeof v, "%d", ((const int *)data)[count - 1]);
    if (t == KIT_T_F64)
        snprintf(v, sizeof v, "%g", *(const double *)data);
    snprintf(outs + strlen(outs), sizeof outs - strlen(outs), "%s=%s;", name, v);
}
void kit_out_f64(kit_run_ctx *ctx, const char *name, double v) { kit_out(ctx, name, KIT_T_F64, &v, 1); }
void kit_out_text(kit_run_ctx *ctx, const char *name, const char *) { kit_out(ctx, name, KIT_T_TEXT, "", 0); }
void kit_harness_error(cudaError_t, const char *, const char *, int) {}
int kit_time_median(kit_timed_fn, void *, int, int, kit_timing *t) { return t->median_ms = 3, 0; }
static float timed_out[4]; /* the timed calls' own output */
static float timed_in[4] = {10, 20, 30, 40}; /* their fresh input */
static struct fake *the_state;
static int restored;      /* the state's pointer was put back after the timed call */
static int stop_decided;  /* what the timing says it decided (kit_timing.decided) */
int kit_timed_calls_time(kit_timed_calls *tc, kit_run_ctx *, kit_timed_fn baseline, void *arg, int, int,
                         kit_timing *ts, kit_timing *tb)
{
    ts->reps = tb->reps = stop_decided ? 3 : 27;
    ts->decided = tb->decided = stop_decided;
    memset(timed_out, 0, sizeof timed_out);
    if (!tc->out) /* the driver's own (an output the lab declares in host memory is its own) */
        tc->out = timed_out;
    tc->in[0].work = timed_in;
    tc->call(tc);
    restored = the_state->out == the_state->buf;
    baseline(arg);
    ts->median_ms = 2, tb->median_ms = 4;
    return timed_rc;
}

/* ---- the fake lab: "n" outputs, keys and tags sharing one buffer ---- */
enum { PLAIN, NO_POISON, EMPTY, REFUSED, BAD_PARAMS, UNTIMED };
static int scenario, invoked, released, baselines;
static unsigned char seen[8]; /* the output's first bytes when the call began */


static int generate(const kit_params *, uint64_t, void *s, char *err, size_t len)
{
    the_state = (fake *)s;
    the_state->out = the_state->buf;
    the_state->four = 4, the_state->from = the_state->src;
    for (int i = 0; i < 4; i++)
        the_state->src[i] = 1.0f + i;
    snprintf(err, len, "n must be positive (got '-1')");
    return scenario == BAD_PARAMS ? -1 : 0;
}
static void release(kit_run_ctx *, void *) { released++; }
static void invoke(void *s)
{
    fake *f = (fake *)s;
    invoked++;
    memcpy(seen, f->out, sizeof seen);
    for (int i = 0; i < 4; i++)
        f->out[i] = 1.5f * i, f->rec[2 * i] = 10 * i, f->rec[2 * i + 1] = 100 * i;
}
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    fake *f = (fake *)s;
    if (k > 0)
        return 0;
    int n = scenario == EMPTY ? 0 : 4;
    *c = kit_lab_call{"fake_call", 0, invoke, {}, 3};
    int poison = scenario == NO_POISON ? 0 : KIT_POISON(0xFF);
    c->out[0] = kit_lab_out{"out", KIT_T_F32, f->out, 1, (uint64_t)n, 0, 0, poison};
    c->out[1] = kit_lab_out{"key", KIT_T_I32, f->rec, 1, (uint64_t)n, 8, 0, KIT_POISON(0x7F)};
    c->out[2] = kit_lab_out{"tag", KIT_T_I32, f->rec, 1, (uint64_t)n, 8, 4, KIT_POISON(0x7F)};
    return 1;
}
static const char *refuse(kit_run_ctx *, const void *, kit_lab_stage stage)
{
    return scenario == REFUSED && stage == KIT_LAB_BENCH_BEFORE ? "the benchmark needs n >= 1" : NULL;
}
/* The timed calls: the case's own call with the state's out swapped (kit_lab_swap). */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    sw->invoke = invoke, sw->out = (void **)&((fake *)s)->out;
    tc->name = "fake_call";
    return scenario == UNTIMED ? KIT_LAB_UNTIMED : 0;
}
static int baseline(void *) { return baselines++, 0; }
static double rate(const void *, double ms) { return 8 / ms; }
static double not_this_case(const void *, double) { return NAN; }

const kit_lab KIT_LAB = {
    .tag = "labT", .state_size = sizeof(fake), .generate = generate, .release = release, .call = call,
    .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"%s rate", rate}, {"baseline rate", rate, 1}, {"never recorded", not_this_case}},
};

/* The same lab with a table beside its hooks: a buffer in plain host memory
 * (uploaded, freed by the driver) and a function of its own timed after each
 * timing (also_timed, on the host's clock). */
static int also_ran;
static float also_saw; /* the buffer's last element when it ran */
static void also(void *s)
{
    also_ran++;
    also_saw = ((fake *)s)->page[3];
}
static const kit_lab_decl PAGED = {
    .bufs = {{KIT_AT(fake, page), KIT_T_F32, KIT_AT(fake, four), KIT_AT(fake, from), .pageable = 1}},
    .also_timed = {{also, KIT_AT(fake, also_ms), 1, 2, .on_cpu = 1}},
};
static kit_lab declared(void)
{
    kit_lab lab = KIT_LAB;
    lab.decl = &PAGED;
    return lab;
}

/* A call in place on plain host memory (kit_decl_timed.in_place): it
 * doubles page, whose untouched copy is pristine; what it and the baseline
 * found there (page[3]) when they began. */
static float twice_saw, base_saw;
static void twice(void *s)
{
    fake *f = (fake *)s;
    twice_saw = f->page[3];
    for (int i = 0; i < 4; i++)
        f->page[i] *= 2;
}
static int base_page(void *s) { return base_saw = ((fake *)s)->page[3], 0; }
static const kit_lab_decl IN_PLACE = {
    .bufs = {{KIT_AT(fake, page), KIT_T_F32, KIT_AT(fake, four), KIT_AT(fake, from), .pageable = 1},
             {KIT_AT(fake, pristine), KIT_T_F32, KIT_AT(fake, four), KIT_AT(fake, from), KIT_LAB_TIMING, .pageable = 1}},
    .calls = {{"twice", twice, .out = {{"page", KIT_T_F32, KIT_AT(fake, page), KIT_AT(fake, four), KIT_POISON_NONE,
                                        KIT_DECL_HOST}}}},
    .timed = {KIT_FRESH_ROTATE_SCALE, {KIT_AT(fake, pristine)}, .in_place = 1},
};

static int run_lab(const kit_lab *lab, int scen, int bench, char *err, size_t len);

/* The table's call in place: each timed call copies its fresh input into
 * the output first, the baseline gets the untouched input back first. */
static void in_place(void)
{
    kit_lab lab = KIT_LAB;
    lab.call = NULL, lab.timed = NULL, lab.baseline = base_page, lab.decl = &IN_PLACE;
    char err[1024];
    int rc = run_lab(&lab, PLAIN, 1, err, sizeof err);
    CHECK(rc == 0 && strstr(outs, "page=8;"), "the checked call doubled page: rc %d '%s' '%s'", rc, outs, err);
    CHECK(twice_saw == 40, "the timed call did not begin on its fresh input copied in: page[3] %g", twice_saw);
    CHECK(base_saw == 4, "the baseline did not begin on the untouched input: page[3] %g", base_saw);
}

/* The lab's metrics as one list, its hooks' then its table's, each
 * recorded in bench mode in that order; the rate a table shows is the
 * first of the call's own in GB/s, else in GFLOP/s, else none. */
static void metrics_list(void)
{
    static const kit_lab_decl RATED = {.metrics = {{"copy (GB/s)", KIT_AT(fake, four), 4, 1},
                                                   {"work GFLOP/s", KIT_AT(fake, four), 2},
                                                   {"moved (GB/s)", KIT_AT(fake, four), 4}}};
    kit_lab_decl flops = RATED;
    flops.metrics[2].label = NULL;
    kit_lab lab = KIT_LAB;
    lab.decl = &RATED;
    int base = -1;
    CHECK(kit_lab_hook_metrics(&lab) == 3 && !strcmp(kit_lab_metric(&lab, 1, &base), "baseline rate") && base == 1 &&
              !strcmp(kit_lab_metric(&lab, 3, &base), "copy (GB/s)") && base == 1 &&
              !strcmp(kit_lab_metric(&lab, 4, &base), "work GFLOP/s") && base == 0 && !kit_lab_metric(&lab, 6, &base),
          "the metrics in order");
    const char *rate = kit_lab_rate_label(&lab);
    CHECK(rate && !strcmp(rate, "moved (GB/s)"), "the rate: %s (not the baseline's GB/s, GB/s before GFLOP/s)", rate);
    lab.decl = &flops;
    rate = kit_lab_rate_label(&lab);
    CHECK(rate && !strcmp(rate, "work GFLOP/s"), "the rate without GB/s: %s", rate);
    CHECK(!kit_lab_rate_label(&KIT_LAB), "a rate in neither unit");
    lab.decl = &RATED;
    char err[1024];
    int rc = run_lab(&lab, PLAIN, 1, err, sizeof err);
    CHECK(rc == 0 && strstr(outs, "metric.baseline rate=2;metric.copy (GB/s)=4e-06;metric.work GFLOP/s=4e-06;"
                                  "metric.moved (GB/s)=8e-06;"),
          "the table's metrics recorded after the hooks': rc %d '%s'", rc, outs);
}

/* A host output poisoned with the complement of its source, word by word. */
static void complement_poison(void)
{
    uint32_t src[3] = {0, 7, 0xF0F0F0F0u}, out[4] = {1, 1, 1, 1};
    kit_lab_call c = kit_lab_call{"copy", 0, invoke, {}, 1};
    c.out[0] = kit_lab_out{"out", KIT_T_U32, out, 1, 3, 0, 0, KIT_POISON_COMPLEMENT, src};
    CHECK(kit_lab_poison(&c) == 0 && out[0] == 0xFFFFFFFFu && out[1] == 0xFFFFFFF8u && out[2] == 0x0F0F0F0Fu &&
              out[3] == 1,
          "complement: %x %x %x %x", out[0], out[1], out[2], out[3]);
}

/* What a show run of lab prints on stdout, into text. */
static void shown_by(const kit_lab *lab, char *text, size_t len)
{
    kit_params params;
    memset(&params, 0, sizeof params);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &params, ctx.show = 1;
    scenario = PLAIN;
    int saved;
    FILE *tmp = plain_catch(1, &saved);
    int rc = kit_lab_run(&ctx, lab);
    plain_caught(tmp, 1, saved, text, len);
    CHECK(rc == 0, "a show run");
}

/* Runs the lab's run (bench: bench) hook with stderr into err; its status. */
static int run_lab(const kit_lab *lab, int scen, int bench, char *err, size_t len);
static int run(int scen, int bench, char *err, size_t len) { return run_lab(&KIT_LAB, scen, bench, err, len); }
static int run_lab(const kit_lab *lab, int scen, int bench, char *err, size_t len)
{
    kit_params params;
    memset(&params, 0, sizeof params);
    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &params, ctx.reps = 1;
    ctx.kernel_optional = 1; /* left over from an earlier call: the driver must not keep it */
    scenario = scen, invoked = released = begun = baselines = 0, outs[0] = 0, memset(seen, 0, sizeof seen);
    int saved;
    FILE *tmp = plain_catch(2, &saved);
    int rc = bench ? kit_lab_bench(&ctx, lab) : kit_lab_run(&ctx, lab);
    plain_caught(tmp, 2, saved, err, len);
    return rc;
}

int main(void)
{
    char err[1024];
    int rc = run(PLAIN, 0, err, sizeof err);
    CHECK(rc == 0, "rc %d, stderr '%s'", rc, err);
    CHECK(invoked == 1 && begun == 1 && released == 1, "invoked %d begun %d released %d", invoked, begun, released);
    CHECK(seen[0] == 0xFF && seen[7] == 0xFF, "the output was not poisoned before the call: %02x", seen[0]);
    CHECK(optional_at_begin == 0, "kernel_optional %d for a call with outputs", optional_at_begin);
    CHECK(!strcmp(outs, "out=4.5;key=30;tag=300;"), "records '%s'", outs);

    rc = run(NO_POISON, 0, err, sizeof err);
    CHECK(rc == -1 && invoked == 0 && begun == 0, "a call without poison was made (rc %d)", rc);
    CHECK(strstr(err, "labT: the harness breaks a rule: call fake_call: output 'out' declares no poison"), "'%s'", err);
    CHECK(released == 1 && outs[0] == 0, "released %d, records '%s'", released, outs);

    rc = run(EMPTY, 0, err, sizeof err);
    CHECK(rc == 0 && optional_at_begin == 1, "empty outputs: rc %d kernel_optional %d", rc, optional_at_begin);

    end_fails = 1;
    rc = run(PLAIN, 0, err, sizeof err);
    end_fails = 0;
    CHECK(rc == KIT_RC_STUDENT_CUDA && outs[0] == 0 && released == 1, "rc %d records '%s'", rc, outs);

    rc = run(BAD_PARAMS, 0, err, sizeof err);
    CHECK(rc == -1 && invoked == 0 && released == 1, "bad parameters: rc %d", rc);
    CHECK(!strcmp(err, "labT: n must be positive (got '-1')\n"), "'%s'", err);

    rc = run(REFUSED, 1, err, sizeof err);
    CHECK(rc == -1 && invoked == 0 && !strcmp(err, "labT: the benchmark needs n >= 1\n"), "rc %d '%s'", rc, err);

    rc = run(PLAIN, 1, err, sizeof err);
    CHECK(rc == 0 && invoked == 2 && baselines == 1, "bench: rc %d invoked %d baselines %d", rc, invoked, baselines);
    CHECK(!strcmp(outs, "out=4.5;key=30;tag=300;" KIT_KEY_STUDENT_MS "=2;" KIT_KEY_BASELINE_MS "=4;"
                        KIT_KEY_TIMED_PAIRS "=27;metric.fake_call rate=4;metric.baseline rate=2;"),
          "bench records '%s'", outs);
    /* a timing stopped early says so, with the pairs it timed */
    stop_decided = KIT_DECIDED_NONE;
    rc = run(PLAIN, 1, err, sizeof err);
    stop_decided = 0;
    CHECK(rc == 0 && strstr(outs, KIT_KEY_TIMED_PAIRS "=3;" KIT_KEY_TIMED_DECIDED "=-1;"), "stopped early: rc %d "
          "records '%s'", rc, outs);
    CHECK(timed_out[3] == 4.5f, "the timed call did not write the timed calls' output: %g", timed_out[3]);
    CHECK(restored, "the swapped pointer was not put back");

    timed_rc = KIT_TIME_NO_KERNEL;
    rc = run(PLAIN, 1, err, sizeof err);
    timed_rc = 0;
    CHECK(rc == -1 && !strstr(outs, KIT_KEY_STUDENT_MS), "a refused timing: rc %d records '%s'", rc, outs);

    rc = run(UNTIMED, 1, err, sizeof err);
    CHECK(rc == 0 && !strstr(outs, KIT_KEY_STUDENT_MS), "nothing to time: rc %d records '%s'", rc, outs);

    /* declared beside the hooks: the plain host buffer allocated and uploaded,
     * the lab's own function timed after the call's timing (1 + 2 calls) */
    kit_lab paged = declared();
    also_ran = 0, also_saw = 0;
    rc = run_lab(&paged, PLAIN, 1, err, sizeof err);
    CHECK(rc == 0 && also_ran == 3 && also_saw == 4.0f, "also_timed: rc %d, ran %d, saw %g", rc, also_ran, also_saw);
    rc = run_lab(&paged, PLAIN, 0, err, sizeof err);
    CHECK(rc == 0 && also_ran == 3, "no timing, nothing else timed: ran %d", also_ran);

    /* show mode: the table's summary of the outputs, unless it says no_summary */
    char text[1024];
    shown_by(&paged, text, sizeof text);
    CHECK(strstr(text, "fake_call():\n  out: 4 elements"), "the summary: '%s'", text);
    kit_lab_decl quiet = PAGED;
    quiet.no_summary = 1;
    paged.decl = &quiet;
    shown_by(&paged, text, sizeof text);
    CHECK(!text[0], "no_summary: '%s'", text);

    /* the common timed calls: one rotated float input, the case's own call, NaN poison */
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    float *in_ptr = (float *)&tc, *out_ptr = NULL;
    kit_lab_timed_rotate(&tc, &sw, "fake_call", invoke, (void **)&in_ptr, 1000, (void **)&out_ptr, 999, 64);
    CHECK(tc.how == KIT_FRESH_ROTATE_SCALE && tc.shift_hi == 999 && tc.in[0].orig == in_ptr && tc.in[0].count == 1000 &&
              tc.n_in == 1 && tc.out_count == 999 && tc.poison == 0xFF && tc.sample == 64 && !tc.call,
          "kit_lab_timed_rotate's declaration");
    CHECK(sw.invoke == invoke && sw.in[0] == (void **)&in_ptr && sw.out == (void **)&out_ptr, "its swap");

    in_place();
    complement_poison();
    metrics_list();
    return plain_check_summary();
}
