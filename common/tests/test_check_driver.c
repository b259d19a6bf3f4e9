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
    int edge, per; /* an output row's edge_of; the threads limit's per_of */
    float *x;
    uint32_t *w; /* w[i] = 10 (i + 1): timed_xor's input words */
} sq_data;

/* What the hooks saw, in order ("after judge timed"), and judge's ok. */
static char trail[256];
static int judged_ok = -1;
/* How often the inputs were generated and the reference computed. */
static int generated, referenced;
/* Set: run() checks with kit_check_held on the case `held`, not with
 * kit_check_run's own. */
static int holding;
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
    d->edge = (int)kit_params_ll(p, "edge", 0, NULL);
    d->per = (int)kit_params_ll(p, "per", 0, NULL);
    d->x = kit_xmalloc((size_t)(d->n ? d->n : 1) * sizeof *d->x, "x");
    d->w = kit_xmalloc((size_t)(d->n ? d->n : 1) * sizeof *d->w, "w");
    for (int i = 0; i < d->n; i++)
        d->x[i] = (float)(i + 1), d->w[i] = 10u * (uint32_t)(i + 1);
    return 0;
}

static void sq_release(void *data) { free(((sq_data *)data)->x), free(((sq_data *)data)->w); }
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
    int rc = holding ? kit_check_held(&ctx, lab, &held) : kit_check_run(&ctx, lab);
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

/* ---- outputs as table rows: the reference from an element function or
 * with sums of magnitudes made bounds, and what a wrong value's elements say ---- */

/* v[i] = (i + 1)^2 on the CPU; `poisoned` entries hold the harness's 0xFF fill. */
static kit_writer *squares(int n, const char *poisoned)
{
    float v[16];
    for (int i = 0; i < n; i++)
        v[i] = (float)((i + 1) * (i + 1));
    for (int i = 0; i < n; i++)
        if (poisoned[i] == 'x')
            memset(&v[i], 0xFF, sizeof v[i]);
    return with_v(v, (uint64_t)n);
}

/* A lab of one table row, v, compared with `row`'s reference. */
static int run_row(kit_writer *w, const char *params, kit_check_output row, char *text, size_t len)
{
    kit_check lab = {.data_size = sizeof(sq_data), .generate = sq_generate, .release = sq_release};
    row.name = "v", row.type = row.type ? row.type : KIT_T_F32, row.what = "sq", row.len_of = KIT_AT(sq_data, n);
    lab.out[0] = row;
    return run(w, params, &lab, NULL, text, len);
}

START_TEST(reference_from_the_element_function)
{
    char text[1024];
    kit_check_output row = {.element = sq_element};
    ck_assert_msg(run_row(with_v(RIGHT, 3), "n=3", row, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_row(with_v(WRONG, 3), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "sq: 1 of 3 elements differ; first wrong index 1: expected 4, got 5", 66), "%s", text);
}
END_TEST

/* The magnitudes 1e6 made bounds: terms = 1 + n (3) + i, so v[1] may be off
 * by kit_sum_bound(5, 1e6, u) (0.3), not by 1e6; without n's 3, by 0.12. */
static void sq_magnitudes(const void *data, const kit_check_ref *r)
{
    for (int i = 0; i < ((const sq_data *)data)->n; i++)
        r->f[i] = (double)(i + 1) * (i + 1), r->bound[i] = 1e6;
}

START_TEST(sums_of_magnitudes_made_bounds)
{
    char text[1024];
    kit_check_output row = {.reference = sq_magnitudes, .terms_of = KIT_AT(sq_data, n), .terms_add = 1,
                            .terms_index = 1};
    const float near[3] = {1, 4.25f, 9}, far[3] = {1, 4.5f, 9};
    ck_assert_msg(run_row(with_v(near, 3), "n=3", row, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_row(with_v(far, 3), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 1") && strstr(text, "allowed error 0.3)"), "%s", text);
    row.terms_of = 0;
    ck_assert_int_eq(run_row(with_v(near, 3), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "allowed error 0.12)"), "%s", text);
}
END_TEST

START_TEST(unwritten_elements_named)
{
    char text[2048];
    kit_check_output row = {.element = sq_element, .poison = KIT_POISON(0xFF)};
    ck_assert_int_eq(run_row(squares(3, "xxx"), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "\nsq: no element of v was written (all 3 still hold the NaN the kit filled v with)\n"),
                  "%s", text);
    /* some of them: said only where asked (unwritten_where) */
    ck_assert_int_eq(run_row(squares(3, "x.."), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "never written"), "%s", text);
    row.unwritten_where = 1;
    ck_assert_int_eq(run_row(squares(3, "x.."), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "sq: 1 of 3 elements of v were never written (still the kit's NaN fill), the first at "
                               "index 0"), "%s", text);
    ck_assert_int_eq(run_row(squares(5, "..x.x"), "n=5", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "sq: 2 of 5 elements of v were never written"), "%s", text);
    ck_assert_int_eq(run_row(squares(5, "...xx"), "n=5", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "sq: elements 3..4 of v were never written (still the kit's NaN fill), the first 3 "
                               "were: do your blocks cover all 5 elements?"), "%s", text);
    ck_assert_int_eq(run_row(squares(5, "....x"), "n=5", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "sq: element 4 of v was never written"), "%s", text);
    /* the lab's words for all of them, first (explain_first) */
    row.unwritten_all = "%s: v was never copied back (%llu elements)", row.explain_first = 1;
    ck_assert_int_eq(run_row(squares(3, "xxx"), "n=3", row, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "sq: v was never copied back (3 elements)\nsq: 3 of 3 elements differ", 63), "%s",
                  text);
}
END_TEST

/* Ints: all of them -1 is said; some -1 is not (a value sums give too). */
START_TEST(unwritten_ints_only_all)
{
    char text[2048];
    kit_check_output row = {.type = KIT_T_I32, .reference = sq_reference, .poison = KIT_POISON(0xFF)};
    int32_t all[3] = {-1, -1, -1}, one[3] = {-1, 4, 9};
    kit_writer *w = lct_open();
    kit_writer_put(w, "v", KIT_T_I32, all, 3);
    ck_assert_int_eq(run_row(w, "n=3 type=int", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "sq: no element of v was written (all 3 still hold the -1 the kit filled v with)"), "%s",
                  text);
    w = lct_open();
    kit_writer_put(w, "v", KIT_T_I32, one, 3);
    ck_assert_int_eq(run_row(w, "n=3 type=int", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "never written") && !strstr(text, "no element"), "%s", text);
}
END_TEST

/* Wrong elements only within `edge` of either end (with elements between),
 * and a note where its condition holds. */
START_TEST(wrong_at_the_ends_and_a_note)
{
    char text[2048];
    kit_check_output row = {.element = sq_element, .edge_of = KIT_AT(sq_data, edge), .edge_note = "at the ends (%d)",
                            .note = "a float note", .note_when = KIT_WHEN(sq_data, is_int, 0)};
    float v[10];
    for (int i = 0; i < 10; i++)
        v[i] = (float)((i + 1) * (i + 1));
    v[1] += 1, v[8] += 1; /* within 1 of either end */
    ck_assert_int_eq(run_row(with_v(v, 10), "n=10 edge=1", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "\nat the ends (1)\na float note\n"), "%s", text);
    ck_assert_int_eq(run_row(with_v(v, 10), "n=10 edge=0", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "at the ends"), "%s", text);
    ck_assert_int_eq(run_row(with_v(v, 10), "n=10 edge=4", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "at the ends"), "no element between the ends: %s", text);
    v[5] += 1;
    ck_assert_int_eq(run_row(with_v(v, 10), "n=10 edge=1", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "at the ends") && strstr(text, "a float note"), "%s", text);
    row.note_when = (kit_when){KIT_AT(sq_data, is_int), 1, 0, 0};
    ck_assert_int_eq(run_row(with_v(v, 10), "n=10 edge=1", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "a float note"), "%s", text);
}
END_TEST

/* The squares restarted every p elements, on got's first lim. */
static int restarted(const void *data, const void *got, size_t lim, size_t p)
{
    (void)data;
    for (size_t i = 0; i < lim; i++)
        if (((const float *)got)[i] != (float)((i % p + 1) * (i % p + 1)))
            return 0;
    return 1;
}

/* A mistake tried for p = 2, 4 (on 2 p elements), said for the first that
 * fits; the note only where nothing explained the failure. */
START_TEST(a_mistake_and_the_last_resort_note)
{
    char text[2048];
    kit_check_output row = {.element = sq_element, .poison = KIT_POISON(0xFF), .note = "a race?",
                            .note_unexplained = 1};
    row.mistake.looks_like = restarted, row.mistake.p_from = 2, row.mistake.p_to = 4, row.mistake.span = 2;
    row.mistake.says = "restarted every %zu";
    float v[8] = {1, 4, 9, 16, 1, 4, 9, 16};
    ck_assert_int_eq(run_row(with_v(v, 8), "n=8", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "\nrestarted every 4\n") && !strstr(text, "a race?"), "%s", text);
    v[5] = 5; /* p = 4 is judged on 8 elements: no longer fits */
    ck_assert_int_eq(run_row(with_v(v, 8), "n=8", row, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "restarted") && strstr(text, "\na race?\n"), "%s", text);
    v[0] = 1, v[1] = 4, v[2] = 1, v[3] = 4; /* p = 2 on its first 4 */
    ck_assert_int_eq(run_row(with_v(v, 8), "n=8", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "\nrestarted every 2\n"), "%s", text);
    memset(v, 0xFF, sizeof v); /* every element unwritten: that is the explanation */
    ck_assert_int_eq(run_row(with_v(v, 8), "n=8", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no element of v was written") && !strstr(text, "a race?"), "%s", text);
    row.note_unexplained = 0;
    ck_assert_int_eq(run_row(with_v(v, 8), "n=8", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "a race?"), "%s", text);
}
END_TEST

/* kit_check.threads: at most n / per threads in all, from the trace. */
static int run_threads(const char *params, const char *kernels, const char *status, char *text, size_t len)
{
    kit_check lab = {.data_size = sizeof(sq_data), .generate = sq_generate, .release = sq_release};
    lab.out[0] = (kit_check_output){.name = "v", .type = KIT_T_F32, .len_of = KIT_AT(sq_data, n), .what = "sq"};
    lab.threads.count_of = KIT_AT(sq_data, n), lab.threads.per_of = KIT_AT(sq_data, per);
    lab.threads.why = "%s launched %lld threads for %d with per %d: at most %lld";
    kit_writer *w = with_v(RIGHT, 3);
    kit_writer_put_text(w, "trace.status", status);
    kit_writer_put_text(w, "trace.calls", "0\tsq\t1\t\n");
    kit_writer_put_text(w, "trace.kernels", kernels);
    return run(w, params, &lab, NULL, text, len);
}

START_TEST(threads_at_most_count_over_per)
{
    char text[1024];
    const char *two_by_one = "0\t2,1,1\t1,1,1\t100\tk()\n", *one_by_two = "0\t1,1,1\t2,1,1\t100\tk()\n";
    ck_assert_msg(run_threads("n=3 per=2", "0\t1,1,1\t1,1,1\t100\tk()\n", "ok", text, sizeof text) == 0, "%s",
                  text);
    ck_assert_int_eq(run_threads("n=3 per=2", two_by_one, "ok", text, sizeof text), 1);
    ck_assert_str_eq(text, "sq launched 2 threads for 3 with per 2: at most 1\n");
    ck_assert_int_eq(run_threads("n=3 per=2", one_by_two, "ok", text, sizeof text), 1);
    ck_assert_int_eq(run_threads("n=3 per=1", two_by_one, "ok", text, sizeof text), 0);
    ck_assert_int_eq(run_threads("n=3 per=2", "", "ok", text, sizeof text), 0); /* no kernel: the policy's to say */
    ck_assert_int_eq(run_threads("n=3 per=2", two_by_one, "unavailable", text, sizeof text), 0);
}
END_TEST

/* kit_check.fields: a call's answer {name, a, b} field by field against the
 * lab's reference, which it asks for itself (or cannot). */
typedef struct {
    char name[16];
    int32_t a;
    int64_t b;
} pair_ref;

static int truth_fails;
static int pair_truth(void *ref, char *err, size_t len)
{
    pair_ref *r = ref;
    snprintf(r->name, sizeof r->name, "gpu");
    r->a = 7, r->b = (int64_t)1 << 40;
    if (truth_fails)
        snprintf(err, len, "no device");
    return truth_fails ? -1 : 0;
}

static int run_fields(const char *name, int32_t a, int64_t b, const char *params, char *text, size_t len)
{
    kit_check lab = {.data_size = sizeof(sq_data), .generate = sq_generate, .release = sq_release};
    lab.fields.call = "q", lab.fields.source = "the truth", lab.fields.truth = pair_truth;
    lab.fields.size = sizeof(pair_ref), lab.fields.no_truth = "no reference (%s)";
    lab.fields.when = (kit_when){KIT_AT(sq_data, is_int), 0, 0, 0};
    lab.fields.f[0] = (kit_check_field){"name", KIT_T_TEXT, "name", offsetof(pair_ref, name)};
    lab.fields.f[1] = (kit_check_field){"a", KIT_T_I32, "a", offsetof(pair_ref, a)};
    lab.fields.f[2] = (kit_check_field){"b", KIT_T_I64, "b (bytes)", offsetof(pair_ref, b)};
    kit_writer *w = lct_open();
    if (name)
        kit_writer_put_text(w, "name", name);
    kit_writer_put(w, "a", KIT_T_I32, &a, 1);
    kit_writer_put(w, "b", KIT_T_I64, &b, 1);
    return run(w, params, &lab, NULL, text, len);
}

START_TEST(fields_against_a_reference)
{
    char text[1024];
    int64_t b = (int64_t)1 << 40;
    ck_assert_msg(run_fields("gpu", 7, b, "n=3", text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_fields("gpu", 6, b - 1, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "q: a is 6, the truth says 7\nq: b (bytes) is 1099511627775, the truth says 1099511627776\n");
    ck_assert_int_eq(run_fields("gpu", -1, b, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "q: a is -1, the truth says 7 (never set: still the kit's fill value)\n");
    ck_assert_int_eq(run_fields("\xff\xff", 7, b, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "q: name was never set, the truth says 'gpu'\n");
    ck_assert_int_eq(run_fields("g\tpu", 7, b, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "q: name is 'g?pu', the truth says 'gpu'\n");
    /* a field missing: named, nothing compared */
    ck_assert_int_eq(run_fields(NULL, 6, b, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "output 'name' missing\n");
    truth_fails = 1;
    ck_assert_int_eq(run_fields("gpu", 6, b, "n=3", text, sizeof text), 1);
    ck_assert_str_eq(text, "no reference (no device)\n");
    truth_fails = 0;
    ck_assert_msg(run_fields("gpu", 6, b, "n=3 type=int", text, sizeof text) == 0, "`when` fails: %s", text);
}
END_TEST

/* An int output the harness poisoned with -1 (unwritten_where): a wrong one
 * whose end still holds it where the reference does not gets the hint,
 * after the comparison's message, in the name it is shown as; every
 * element too; a wrong element before the end is no tail. */
static int run_tail(const int32_t *v, int n, const char *shown_as, char *text, size_t len)
{
    kit_check_output row = {.type = KIT_T_I32, .reference = sq_reference, .poison = KIT_POISON(0xFF),
                            .unwritten_where = 1, .shown_as = shown_as};
    char params[32];
    kit_writer *w = lct_open();
    kit_writer_put(w, "v", KIT_T_I32, v, (uint64_t)n);
    snprintf(params, sizeof params, "n=%d type=int", n);
    return run_row(w, params, row, text, len);
}

START_TEST(poisoned_tail_is_named)
{
    char text[1024];
    int32_t lost[4] = {1, 4, -1, -1}, wrong[4] = {1, 4, 9, -1}, none[4] = {-1, -1, -1, -1}, early[4] = {-1, 4, 9, 16};
    ck_assert_int_eq(run_tail(lost, 4, "V", text, sizeof text), 1);
    ck_assert_msg(strstr(text, "elements differ; first wrong index 2: expected 9, got -1"), "%s", text);
    ck_assert_msg(strstr(text, "\nthe last 2 outputs (V[2] to V[3]) still hold -1, the value the harness filled V "
                               "with before your call: were they ever written?\n"),
                  "%s", text);
    ck_assert_int_eq(run_tail(wrong, 4, "V", text, sizeof text), 1); /* the last one alone */
    ck_assert_msg(strstr(text, "the last 1 outputs (V[3] to V[3])"), "%s", text);
    ck_assert_int_eq(run_tail(none, 4, NULL, text, sizeof text), 1); /* every one; the record's name */
    ck_assert_msg(strstr(text, "the last 4 outputs (v[0] to v[3]) still hold -1") && !strstr(text, "no element"), "%s",
                  text);
    ck_assert_int_eq(run_tail(early, 4, "V", text, sizeof text), 1); /* not at the end: no hint */
    ck_assert_msg(!strstr(text, "still hold"), "%s", text);
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "still hold"), "%s", text); /* not declared: no hint */
}
END_TEST

/* ref_of: an integer reference the data already holds (w[i] = 10 (i + 1)),
 * compared exactly; a float row that names one is the kit's mistake. */
START_TEST(reference_held_by_the_data)
{
    char text[1024];
    kit_check_output row = {.type = KIT_T_U32, .ref_of = KIT_AT(sq_data, w)};
    uint32_t right[3] = {10, 20, 30}, wrong[3] = {10, 21, 30};
    kit_writer *w = lct_open();
    kit_writer_put(w, "v", KIT_T_U32, right, 3);
    ck_assert_msg(run_row(w, "n=3", row, text, sizeof text) == 0, "%s", text);
    w = lct_open();
    kit_writer_put(w, "v", KIT_T_U32, wrong, 3);
    ck_assert_int_eq(run_row(w, "n=3", row, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 1: expected 20, got 21"), "%s", text);
}
END_TEST

START_TEST(float_reference_held_by_the_data_is_refused)
{
    char text[1024];
    kit_check_output row = {.ref_of = KIT_AT(sq_data, x)};
    run_row(with_v(RIGHT, 3), "n=3", row, text, sizeof text);
}
END_TEST

/* timed_offset: one timed call (5) whose inputs got 100 added; v[0] and
 * v[2] sampled must be the reference's plus 100. */
static int run_offset(int32_t v2, char *text, size_t len)
{
    kit_check lab = KIT_CHECK;
    lab.timed = NULL;
    lab.timed_offset.fresh = "x", lab.timed_offset.element = "V", lab.timed_offset.per = 2;
    int32_t vi[3] = {1, 4, 9}, call = 5, val[2] = {101, v2};
    int64_t idx[2] = {0, 2}, shift = 100;
    double scale = 1;
    kit_writer *w = lct_open();
    kit_writer_put(w, "v", KIT_T_I32, vi, 3);
    lct_timed(w, &call, &shift, &scale, 1, idx, val, 2);
    return run(w, "n=3 type=int", &lab, NULL, text, len);
}

START_TEST(offset_timed_calls_are_the_reference_shifted)
{
    char text[1024];
    ck_assert_msg(run_offset(109, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_offset(9, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 5 of sq (fresh x each call): x shifted by 100: V[2] = 9, expected 109"),
                  "%s", text);
}
END_TEST

/* timed_xor: one timed call (6) on words rotated by 1 and XORed with mask;
 * V[0] and V[2] sampled.  Ints: the first row (a copy of the word); floats:
 * the second (the word plus one). */
static uint32_t plus_one(const void *data, uint32_t word) { return (void)data, word + 1; }

static int run_xor(const char *params, double mask, uint32_t v0, uint32_t v2, char *text, size_t len)
{
    kit_check lab = KIT_CHECK;
    lab.timed = NULL;
    lab.timed_xor[0] = (kit_check_xor){"sqx", "V", "words", KIT_AT(sq_data, w), KIT_AT(sq_data, n), 2, NULL,
                                       {KIT_AT(sq_data, is_int), 1, 0, 0}};
    lab.timed_xor[1] = (kit_check_xor){"sq", "V", "words", KIT_AT(sq_data, w), KIT_AT(sq_data, n), 2, plus_one,
                                       {0, 0, 0, 0}};
    int32_t vi[3] = {1, 4, 9}, call = 6;
    int64_t idx[2] = {0, 2}, shift = 1;
    uint32_t val[2] = {v0, v2};
    kit_writer *w = lct_open();
    if (strstr(params, "int"))
        kit_writer_put(w, "v", KIT_T_I32, vi, 3);
    else
        kit_writer_put(w, "v", KIT_T_F32, RIGHT, 3);
    lct_timed(w, &call, &shift, &mask, 1, idx, val, 2);
    return run(w, params, &lab, NULL, text, len);
}

START_TEST(xor_timed_calls_recomputed_by_the_row_that_holds)
{
    char text[1024];
    /* w rotated by 1: {20, 30, 10}; ^ 0xF0: V[0] from 20 ^ 240 = 228, V[2] from 10 ^ 240 = 250 */
    ck_assert_msg(run_xor("n=3", 240, 229, 251, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_xor("n=3", 240, 229, 250, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 6 of sq (fresh words each call): V[2] = 0xfa, expected 0xfb"), "%s", text);
    ck_assert_msg(run_xor("n=3 type=int", 240, 228, 250, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_xor("n=3 type=int", 240, 229, 251, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 6 of sqx (fresh words each call): V[0] = 0xe5"), "%s", text);
    ck_assert_msg(run_xor("n=3", 0, 21, 11, text, sizeof text) == 0, "a mask of 0: %s", text);
    ck_assert_int_eq(run_xor("n=3", 4294967296.0, 229, 251, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 6 of sq: its inputs were not recorded"), "%s", text);
}
END_TEST

/* A product declared as data (kit_check.product): mm, C = A B with A 2 x 3
 * and B 3 x 2 of small integers (exact), C the first output "c". */
typedef struct {
    int pad; /* no field at offset 0 */
    int m, n, k, a_count;
    float *a, *b;
} mm_data;

static float MM_A[6] = {1, 2, 3, 4, 5, 6}, MM_B[6] = {1, -1, 2, 0, 0, 3}, MM_C[4] = {5, 8, 14, 14};

static int mm_generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    mm_data *d = data;
    (void)p, (void)seed, (void)err, (void)errlen;
    d->m = 2, d->n = 2, d->k = 3, d->a_count = 6, d->a = MM_A, d->b = MM_B;
    return 0;
}

static void mm_explain(kit_check_ctx *ctx, const void *data, const kit_product *p, const kit_product_tally *t)
{
    (void)data, (void)p;
    kit_detail(ctx, "mm explains C[%d][%d]", t->fi, t->fj);
}

static const kit_check MM = {
    sizeof(mm_data), mm_generate, NULL,
    .out = {{"c", KIT_T_F32, 4, .what = "mm"}},
    .timed_sampled = {"A", 1, .shift_of = KIT_AT(mm_data, a_count)},
    .product = {KIT_AT(mm_data, m), KIT_AT(mm_data, n), KIT_AT(mm_data, k), KIT_AT(mm_data, a), KIT_AT(mm_data, b),
                "C", 1000, 1, 0, 1, 3, {0}, mm_explain}};

START_TEST(declared_product_is_judged_with_its_evidence)
{
    char text[1024];
    kit_check_ctx ctx;
    ck_assert_int_eq(run(with_v(MM_C, 4), "n=1", &MM, &ctx, text, sizeof text), 1); /* "v": no "c" */
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, MM_C, 4);
    ck_assert_int_eq(run(w, "n=1", &MM, &ctx, text, sizeof text), 0);
    ck_assert_msg(strstr(text, "note: 4 elements of C compared"), "%s", text);
    ck_assert(ctx.n_inputs == 1 && ctx.inputs[0].bytes == 48.0 && ctx.inputs[0].on_device); /* A and B */
    float wrong[4] = {5, 8, 15, 14};
    w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, wrong, 4);
    ck_assert_int_eq(run(w, "n=1", &MM, NULL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "C: 1 of 4 elements differ; first wrong C[1][0]: expected 14, got 15"), "%s", text);
    ck_assert_msg(strstr(text, "\nmm explains C[1][0]"), "%s", text);
}
END_TEST

/* One timed call, A's rows rotated by one and doubled: C'[0][1] = 2 C[1][1]. */
START_TEST(declared_product_recomputes_timed_calls)
{
    char text[1024];
    int32_t call = 4;
    int64_t shift = 3, idx = 1;
    double scale = 2;
    float right = 28, stale = 8;
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, MM_C, 4);
    lct_timed(w, &call, &shift, &scale, 1, &idx, &right, 1);
    ck_assert_msg(run(w, "n=1", &MM, NULL, text, sizeof text) == 0, "%s", text);
    w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, MM_C, 4);
    lct_timed(w, &call, &shift, &scale, 1, &idx, &stale, 1);
    ck_assert_int_eq(run(w, "n=1", &MM, NULL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 4 of mm (fresh A each call): c[1] = 8, expected 28"), "%s", text);
}
END_TEST

/* One case held open, checked three times: opened by the first run, its
 * inputs generated and its reference computed once, each run's verdict its
 * own outputs'; bad parameters open none and fail the run as kit_check_run
 * says it. */
START_TEST(a_case_held_open_makes_its_inputs_and_reference_once)
{
    char text[1024], err[256];
    kit_params kp;
    generated = referenced = 0;
    holding = 1, held = NULL;
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 0);
    ck_assert_ptr_nonnull(held);
    ck_assert_int_eq(run(with_v(WRONG, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "sq explains: v[1] is wrong"));
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=3", &KIT_CHECK, NULL, text, sizeof text), 0);
    ck_assert_str_eq(trail, "after judge timed ");
    ck_assert_int_eq(generated, 1);
    ck_assert_int_eq(referenced, 1);
    kit_check_case_close(held);
    held = NULL;
    ck_assert_int_eq(run(with_v(RIGHT, 3), "n=-1", &KIT_CHECK, NULL, text, sizeof text), 1);
    ck_assert_ptr_null(held);
    ck_assert_msg(strstr(text, "bad test parameters: n must be 0 <= n <= 100 (got '-1')"), "%s", text);
    holding = 0;
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
    tcase_add_test(t, reference_from_the_element_function);
    tcase_add_test(t, sums_of_magnitudes_made_bounds);
    tcase_add_test(t, unwritten_elements_named);
    tcase_add_test(t, unwritten_ints_only_all);
    tcase_add_test(t, wrong_at_the_ends_and_a_note);
    tcase_add_test(t, a_mistake_and_the_last_resort_note);
    tcase_add_test(t, threads_at_most_count_over_per);
    tcase_add_test(t, fields_against_a_reference);
    tcase_add_test(t, poisoned_tail_is_named);
    tcase_add_test(t, reference_held_by_the_data);
    tcase_add_exit_test(t, float_reference_held_by_the_data_is_refused, 2);
    tcase_add_test(t, offset_timed_calls_are_the_reference_shifted);
    tcase_add_test(t, xor_timed_calls_recomputed_by_the_row_that_holds);
    tcase_add_test(t, declared_product_is_judged_with_its_evidence);
    tcase_add_test(t, declared_product_recomputes_timed_calls);
    tcase_add_test(t, a_case_held_open_makes_its_inputs_and_reference_once);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(driver_suite)
