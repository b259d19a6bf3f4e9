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
} sq_data;

/* What the hooks saw, in order ("after judge timed"), and judge's ok. */
static char trail[256];
static int judged_ok = -1;

static void saw(const char *hook) { snprintf(trail + strlen(trail), sizeof trail - strlen(trail), "%s ", hook); }

static int sq_generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    sq_data *d = data;
    int ok = 1;
    (void)seed;
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
    int rc = kit_check_run(&ctx, lab);
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
    kit_check_output row = {.type = KIT_T_I32, .reference = sq_reference, .poison = KIT_POISON(0xFF),
                            .unwritten_where = 1};
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
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(driver_suite)
