/* test_check_driver.c - the checker driver's loop (kit/check_driver.h) on a
 * lab of its own: "sq", v[i] = x[i]^2 for x[i] = i + 1, and optionally a
 * second output w that only judge() looks at.  Each test writes a runner's
 * output file, runs the loop and asserts the verdict, its messages and which
 * hooks ran, in which order. */
#include <math.h>
#include <string.h>

#include "check_main.h"
#include "kit/check_driver.h"
#include "kit/util.h"
#include "lab_check_test.h"

typedef struct {
    int n, is_int, two, host;
    int shifts; /* a timed call's shift limit other than n (timed_sampled.shift_of) */
    float *x;
} sq_data;

/* What the hooks saw, in order ("after judge timed"), and judge's ok. */
static char trail[256];
static int judged_ok = -1;
/* How often the inputs were generated and the reference computed. */
static int generated, referenced;
/* Set: run() checks against this case held open, not kit_check_run's own. */
static kit_check_case *held;

static void saw(const char *hook) { snprintf(trail + strlen(trail), sizeof trail - strlen(trail), "%s ", hook); }

static int sq_generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    sq_data *d = data;
    int ok = 1;
    (void)seed;
    generated++;
    d->n = (int)kit_params_ll(p, "n", 3, &ok);
    if (!ok || d->n < 0 || d->n > 100) {
        snprintf(err, errlen, "n must be 0 <= n <= 100 (got '%s')", kit_params_get(p, "n", ""));
        return -1;
    }
    d->is_int = !strcmp(kit_params_get(p, "type", "float"), "int");
    d->two = kit_params_has(p, "two");
    d->host = kit_params_has(p, "host");
    d->shifts = (int)kit_params_ll(p, "shifts", 0, NULL);
    d->x = kit_xmalloc((size_t)(d->n ? d->n : 1) * sizeof *d->x, "x");
    for (int i = 0; i < d->n; i++)
        d->x[i] = (float)(i + 1);
    return 0;
}

static void sq_release(void *data) { free(((sq_data *)data)->x); }
static double sq_input(const void *data) { return ((const sq_data *)data)->n * 4.0; }
static int sq_on_host(const void *data) { return ((const sq_data *)data)->host; }

static void sq_reference(const void *data, const kit_check_ref *r)
{
    const sq_data *d = data;
    referenced++;
    for (int i = 0; i < d->n; i++) {
        if (d->is_int)
            r->i[i] = (int64_t)(i + 1) * (i + 1);
        else
            r->f[i] = (double)d->x[i] * d->x[i], r->bound[i] = 0.5;
    }
}

/* A failure of its own when the output is wrong (explain_first puts it first). */
static void sq_after(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    (void)data;
    saw("after");
    if (!g->ok && !g->cmp.length_mismatch)
        kit_fail(ctx, "sq explains: v[%zu] is wrong", g->cmp.first_bad);
}

static kit_check_output sq_v = {.name = "v", .type = KIT_T_F32, .what = "sq", .reference = sq_reference,
                                .after = sq_after};

static int sq_outputs(const void *data, kit_check_output *out)
{
    const sq_data *d = data;
    out[0] = sq_v;
    out[0].len = (uint64_t)d->n;
    out[0].type = d->is_int ? KIT_T_I32 : KIT_T_F32;
    out[1] = (kit_check_output){.name = "w", .type = KIT_T_I32, .len = (uint64_t)d->n,
                                .len_fmt = "w: %llu elements, expected %llu"};
    return d->two ? 2 : 1;
}

static void sq_judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    (void)ctx, (void)data, (void)outs;
    saw("judge");
    judged_ok = ok;
}

static void sq_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    (void)ctx, (void)data, (void)outs;
    saw("timed");
}

const kit_check KIT_CHECK = {sizeof(sq_data), sq_generate, sq_release, .input = sq_input, .input_on_host = sq_on_host,
                             .outputs = sq_outputs, .judge = sq_judge, .timed = sq_timed};

/* The loop on the file w (closed here), with `lab`; text gets the summary and
 * the details.  Returns lab_check's status; *ctx_out the context's evidence. */
static int run(kit_writer *w, const char *params, const kit_check *lab, kit_check_ctx *ctx_out, char *text,
               size_t len)
{
    kit_writer_put_text(w, "runner.status", "ok");
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_params kp;
    ck_assert_int_eq(kit_params_parse(params, &kp, err, sizeof err), 0);
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &kp, ctx.out = b;
    trail[0] = 0, judged_ok = -1;
    int rc = held ? kit_check_case_run(&ctx, held) : kit_check_run(&ctx, lab);
    snprintf(text, len, "%s\n%s", ctx.summary, ctx.details ? ctx.details : "");
    free(ctx.details);
    ctx.details = NULL, ctx.out = NULL, ctx.params = NULL;
    if (ctx_out)
        *ctx_out = ctx;
    kit_blob_free(b);
    unlink(lct_path);
    return rc;
}

static kit_writer *with_v(const float *v, uint64_t n)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "v", KIT_T_F32, v, n);
    return w;
}

static const float RIGHT[3] = {1, 4, 9}, WRONG[3] = {1, 5, 9};

START_TEST(bad_parameters_stop_everything)
{
    char text[1024];
    kit_check_ctx ctx;
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=-1", &KIT_CHECK, &ctx, text, sizeof text), 1);
    ck_assert_str_eq(text, "bad test parameters: n must be 0 <= n <= 100 (got '-1')\n");
    ck_assert_int_eq(ctx.n_inputs, 0);
    ck_assert_str_eq(trail, ""); /* no hook ran */
}
END_TEST

START_TEST(right_output_passes_and_declares_its_input)
{
    char text[1024];
    kit_check_ctx ctx;
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3", &KIT_CHECK, &ctx, text, sizeof text), 0);
    ck_assert_str_eq(text, "\n");
    ck_assert_str_eq(trail, "after judge timed ");
    ck_assert_int_eq(judged_ok, 1);
    ck_assert_int_eq(ctx.n_inputs, 1);
    ck_assert_str_eq(ctx.inputs[0].call, "*");
    ck_assert(ctx.inputs[0].bytes == 12.0 && ctx.inputs[0].on_device == 1);
    /* handed over in host memory */
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3 host=1", &KIT_CHECK, &ctx, text, sizeof text), 0);
    ck_assert_int_eq(ctx.inputs[0].on_device, 0);
    /* ints, compared exactly */
    kit_writer *w = lct_open();
    int32_t iv[3] = {1, 4, 9};
    kit_writer_put(w, "v", KIT_T_I32, iv, 3);
    ck_assert_int_eq(run(w, "n=3 type=int", &KIT_CHECK, NULL, text, sizeof text), 0);
}
END_TEST

START_TEST(missing_and_mistyped_outputs)
{
    char text[1024];
    kit_writer *w = lct_open();
    kit_writer_put(w, "other", KIT_T_F32, RIGHT, 3);
    ck_assert_int_eq(run(w, "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "output 'v' missing", 18), "%s", text);
    ck_assert_int_eq(judged_ok, 0);
    ck_assert_str_eq(trail, "judge "); /* no after without the output, no timed after a failure */
    /* an int where a float is declared */
    w = lct_open();
    int32_t iv[3] = {1, 4, 9};
    kit_writer_put(w, "v", KIT_T_I32, iv, 3);
    ck_assert_int_eq(run(w, "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "output 'v' missing", 18), "%s", text);
}
END_TEST

START_TEST(wrong_length_said_three_ways)
{
    char text[1024];
    ck_assert_int_eq(run(with_v(RIGHT, 2), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_str_eq(text, "output 'v' has 2 elements, expected 3\n");
    ck_assert_str_eq(trail, "judge ");
    /* the lab's own words */
    kit_check lab = KIT_CHECK;
    sq_v.len_fmt = "v: %llu squares, expected n = %llu";
    ck_assert_int_eq(run(with_v(RIGHT, 2), "n=3", &lab, NULL, text, sizeof text), 1);
    ck_assert_str_eq(text, "v: 2 squares, expected n = 3\n");
    /* any length fetched: the comparison says it, then the after hook runs */
    sq_v.len_fmt = NULL, sq_v.len_any = 1;
    ck_assert_int_eq(run(with_v(RIGHT, 2), "n=3", &lab, NULL, text, sizeof text), 1);
    ck_assert_str_eq(text, "sq: wrong length: expected 3 elements, got 2\n");
    ck_assert_str_eq(trail, "after judge ");
    sq_v.len_any = 0;
}
END_TEST

START_TEST(wrong_value_then_its_explanation)
{
    char text[1024];
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "sq: 1 of 3 elements differ; first wrong index 1: expected 4, got 5", 66), "%s",
                  text);
    ck_assert_msg(strstr(text, "\nsq explains: v[1] is wrong\n"), "%s", text);
    ck_assert_str_eq(trail, "after judge ");
    ck_assert_int_eq(judged_ok, 0);
    /* explain_first: the explanation is the summary, the comparison a detail */
    sq_v.explain_first = 1;
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "sq explains: v[1] is wrong\nsq: 1 of 3 elements differ", 52), "%s", text);
    /* a NaN never passes */
    float nan[3] = {1, NAN, 9};
    ck_assert_int_eq(run(with_v(nan, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    sq_v.explain_first = 0;
}
END_TEST

START_TEST(first_failing_output_ends_the_loop)
{
    char text[1024];
    /* v wrong: w (missing) is not looked at */
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3 two=1", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "'w'"), "%s", text);
    /* v right: w is fetched and its length refused in the lab's words */
    kit_writer *w = with_v(RIGHT, 3);
    int32_t wv[2] = {0, 0};
    kit_writer_put(w, "w", KIT_T_I32, wv, 2);
    ck_assert_int_eq(run(w, "n=3 two=1", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_str_eq(text, "w: 2 elements, expected 3\n");
    ck_assert_int_eq(judged_ok, 0);
    /* both there: judge() gets them, ok */
    w = with_v(RIGHT, 3);
    int32_t w3[3] = {7, 7, 7};
    kit_writer_put(w, "w", KIT_T_I32, w3, 3);
    ck_assert_int_eq(run(w, "n=3 two=1", &KIT_CHECK, NULL, text, sizeof text), 0);
    ck_assert_int_eq(judged_ok, 1);
}
END_TEST

START_TEST(timed_calls_after_a_failure_only_when_asked)
{
    char text[1024];
    kit_check lab = KIT_CHECK;
    lab.timed_always = 1;
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &lab, NULL, text, sizeof text), 1);
    ck_assert_str_eq(trail, "after judge timed ");
    /* an empty case: nothing to compare, and it passes */
    ck_assert_int_eq(run(with_v(RIGHT, 0), "n=0", &KIT_CHECK, NULL, text, sizeof text), 0);
}
END_TEST

/* timed_sampled: call k's v[i] recomputed from x rotated by shift and scaled. */
static double sq_element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
{
    const sq_data *d = data;
    double x = scale * d->x[(i + shift) % d->n];
    *bound = 0.5;
    return x * x;
}

/* One timed call (7, shift 1 or 4 - with n = 3 the same x' = {4, 6, 2} at
 * scale 2), v[0] and v[2] sampled; shifts=N: the shifts' limit is N. */
static int run_sampled_at(const char *params, int64_t shift, float v2, char *text, size_t len)
{
    kit_check lab = KIT_CHECK;
    lab.timed = NULL;
    lab.timed_sampled.fresh = "x", lab.timed_sampled.per = 2, lab.timed_sampled.element = sq_element;
    lab.timed_sampled.when = (kit_when){KIT_AT(sq_data, is_int), 0, 0, 0}; /* every field: no -Wmissing-field-initializers */
    if (strstr(params, "shifts"))
        lab.timed_sampled.shift_of = KIT_AT(sq_data, shifts);
    int is_int = strstr(params, "int") != NULL;
    int32_t vi[3] = {1, 4, 9}, call = 7;
    int64_t idx[2] = {0, 2};
    double scale = 2;
    float val[2] = {16, v2};
    kit_writer *w = is_int ? lct_open() : with_v(RIGHT, 3);
    if (is_int)
        kit_writer_put(w, "v", KIT_T_I32, vi, 3);
    lct_timed(w, &call, &shift, &scale, 1, idx, val, 2);
    return run(w, params, &lab, NULL, text, len);
}

static int run_sampled(const char *params, float v2, char *text, size_t len)
{
    return run_sampled_at(params, 1, v2, text, len);
}

START_TEST(sampled_timed_calls_recomputed_where_declared)
{
    char text[1024];
    ck_assert_msg(run_sampled("n=3", 4, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_sampled("n=3", 5, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 7 of sq (fresh x each call): v[2] = 5, expected 4"), "%s", text);
    /* `when` does not hold: the timed calls are not looked at */
    ck_assert_msg(run_sampled("n=3 type=int", 5, text, sizeof text) == 0, "%s", text);
}
END_TEST

/* The shifts' limit: the output's length, or the field shift_of names (lab10:
 * whole rows of A, up to m * k, whatever the length of C). */
START_TEST(sampled_timed_calls_shift_limit_from_a_field)
{
    char text[1024];
    ck_assert_int_eq(run_sampled_at("n=3", 4, 4, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 7 of sq: its inputs were not recorded"), "%s", text);
    ck_assert_msg(run_sampled_at("n=3 shifts=5", 4, 4, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_sampled_at("n=3 shifts=4", 4, 4, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "its inputs were not recorded"), "%s", text);
}
END_TEST

/* One case held open, checked three times: its inputs generated and its
 * reference computed once, each run's verdict its own outputs'. */
START_TEST(a_case_held_open_makes_its_inputs_and_reference_once)
{
    char text[1024], err[256];
    kit_params kp;
    ck_assert_int_eq(kit_params_parse("n=3", &kp, err, sizeof err), 0);
    generated = referenced = 0;
    held = kit_check_case_open(&KIT_CHECK, &kp, 0, err, sizeof err);
    ck_assert_ptr_nonnull(held);
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 0);
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "sq explains: v[1] is wrong"));
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 0);
    ck_assert_str_eq(trail, "after judge timed ");
    ck_assert_int_eq(generated, 1);
    ck_assert_int_eq(referenced, 1);
    kit_check_case_close(held);
    held = NULL;
    /* bad parameters: no case, and why */
    ck_assert_int_eq(kit_params_parse("n=-1", &kp, err, sizeof err), 0);
    ck_assert_ptr_null(kit_check_case_open(&KIT_CHECK, &kp, 0, err, sizeof err));
    ck_assert_str_eq(err, "n must be 0 <= n <= 100 (got '-1')");
}
END_TEST

static Suite *driver_suite(void)
{
    Suite *s = suite_create("check_driver");
    TCase *t = tcase_create("loop");
    tcase_add_test(t, bad_parameters_stop_everything);
    tcase_add_test(t, right_output_passes_and_declares_its_input);
    tcase_add_test(t, missing_and_mistyped_outputs);
    tcase_add_test(t, wrong_length_said_three_ways);
    tcase_add_test(t, wrong_value_then_its_explanation);
    tcase_add_test(t, first_failing_output_ends_the_loop);
    tcase_add_test(t, timed_calls_after_a_failure_only_when_asked);
    tcase_add_test(t, sampled_timed_calls_recomputed_where_declared);
    tcase_add_test(t, sampled_timed_calls_shift_limit_from_a_field);
    tcase_add_test(t, a_case_held_open_makes_its_inputs_and_reference_once);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(driver_suite)
