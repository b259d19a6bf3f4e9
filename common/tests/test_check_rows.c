/* test_check_rows.c - the check driver's rows beyond a comparison with a
 * reference (kit/check_driver.h), on a lab of its own, "words": out[i] an
 * image of the data's word in[i].  A map row checks every element, or above
 * its size the sample (both ends, around the boundaries of an even split,
 * random ones), names the first wrong element it met and whether it still
 * holds the complement poison; a row `beside` is judged after the one
 * before it failed, no other is; an output without a reference fails when
 * its after fails it; copies rows hold a call's trace to its bytes each way. */
#include <string.h>

#include "check_main.h"
#include "kit/check_driver.h"
#include "kit/util.h"
#include "lab_check_test.h"

typedef struct {
    int pad; /* no field at offset 0 */
    int n, parts, cost, copy;
    uint32_t *in;
} words;

static int w_generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    words *d = data;
    (void)seed, (void)err, (void)errlen;
    d->n = (int)kit_params_ll(p, "n", 10, NULL);
    d->parts = (int)kit_params_ll(p, "parts", 1, NULL);
    d->cost = (int)kit_params_ll(p, "cost", 0, NULL);
    d->copy = (int)kit_params_ll(p, "copy", 0, NULL);
    d->in = kit_xmalloc((size_t)(d->n ? d->n : 1) * sizeof *d->in, "in");
    for (int i = 0; i < d->n; i++)
        d->in[i] = 2654435761u * (uint32_t)(i + 1);
    return 0;
}

static void w_release(void *data) { free(((words *)data)->in); }

static uint32_t twice(const void *data, uint32_t word) { return (void)data, 2 * word; }

/* What wrong() was told last, and how often it was called. */
static kit_check_wrong told;
static int wrongs;

static void w_wrong(kit_check_ctx *ctx, const void *data, const kit_check_wrong *w)
{
    (void)data;
    told = *w, wrongs++;
    kit_fail(ctx, "%s: %lld of %lld wrong, first [%lld] = %#x, expected %#x%s", w->out->name, w->bad, w->checked,
             w->at, w->got, w->want, w->unwritten ? " (never written)" : "");
}

#define F(member) KIT_AT(words, member)
/* The lab (lab_check's, in libkit): "out", twice each word (a copy with `copy`): every element up to 500
 * units of work (n * (1 + cost)), else 2 at each end, 4 around each of the
 * parts' boundaries and 3 random ones; poisoned with the complement. */
const kit_check KIT_CHECK = {
    sizeof(words), w_generate, w_release,
    .out = {{"out", KIT_T_U32, .len_of = F(n), .when = KIT_WHEN(words, copy, 0), .poison = KIT_POISON_COMPLEMENT,
             .map = {F(in), twice, 500, F(cost), F(parts), 2, 3, 7, w_wrong}},
            {"out", KIT_T_U32, .len_of = F(n), .when = KIT_WHEN(words, copy, 1), .map = {F(in), .wrong = w_wrong}}}};

/* The checker on out = the expected image, with out[i] = v at each (i, v) of
 * spoil (count of them); text gets the summary and details. */
static int run_words(const kit_check *lab, const char *params, const int *at, const uint32_t *v, int count,
                     char *text, size_t len)
{
    kit_params kp;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &kp, err, sizeof err), 0);
    words d;
    memset(&d, 0, sizeof d);
    w_generate(&kp, 0, &d, err, sizeof err);
    uint32_t *out = kit_xmalloc((size_t)(d.n ? d.n : 1) * sizeof *out, "out");
    for (int i = 0; i < d.n; i++)
        out[i] = d.copy ? d.in[i] : 2 * d.in[i];
    for (int k = 0; k < count; k++)
        out[at[k]] = v ? v[k] : ~d.in[at[k]];
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_U32, out, (uint64_t)d.n);
    lct_trace(w, "0\tf\t0\t\n", "");
    kit_writer_put_text(w, "trace.copies", "0\tH2D\t400\t0\t100\t7\n0\tD2H\t300\t200\t400\t7\n");
    free(out);
    w_release(&d);
    kit_writer_put_text(w, "runner.status", "ok");
    ck_assert_int_eq(kit_writer_close(w), 0);
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &kp, ctx.out = b, ctx.seed = 0x5eed;
    wrongs = 0;
    memset(&told, 0, sizeof told);
    kit_check_run(&ctx, lab);
    kit_blob_free(b);
    unlink(lct_path);
    return lct_said(&ctx, text, len);
}

START_TEST(map_checks_every_element_up_to_its_size)
{
    char text[1024];
    int at[2] = {3, 7};
    uint32_t v[2] = {5, 6};
    ck_assert_msg(run_words(&KIT_CHECK, "n=400", NULL, NULL, 0, text, sizeof text) == 0 && !wrongs, "%s", text);
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400", at, v, 2, text, sizeof text), 1);
    ck_assert_msg(wrongs == 1 && told.at == 3 && told.bad == 2 && told.checked == 400 && told.got == 5 &&
                      told.want == 2 * (2654435761u * 4) && !told.unwritten,
                  "%s", text);
    ck_assert_msg(strstr(text, "out: 2 of 400 wrong, first [3] = 0x5"), "%s", text);
    /* still the complement of its word: never written, where the row's poison says so */
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400", at + 1, NULL, 1, text, sizeof text), 1);
    ck_assert_msg(told.at == 7 && told.unwritten && strstr(text, "(never written)"), "%s", text);
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400 copy=1", at + 1, NULL, 1, text, sizeof text), 1);
    ck_assert_msg(told.at == 7 && !told.unwritten && told.want == 2654435761u * 8, "a copy, no poison: %s", text);
    ck_assert_msg(run_words(&KIT_CHECK, "n=400 copy=1", NULL, NULL, 0, text, sizeof text) == 0, "%s", text);
}
END_TEST

START_TEST(map_samples_above_its_size)
{
    char text[1024];
    /* n = 400, cost 1: 800 units of work > 500: sampled - 2 + 2 ends, 4 around
     * each of 3 boundaries (100, 200, 300), 3 random: 19 places */
    int last = 399, boundary[2] = {201, 150}, middle = 150;
    ck_assert_msg(run_words(&KIT_CHECK, "n=400 cost=1 parts=4", &middle, NULL, 1, text, sizeof text) == 0,
                  "element 150 is not in this sample: %s", text);
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400 cost=0 parts=4", &middle, NULL, 1, text, sizeof text), 1);
    ck_assert_msg(told.at == 150 && told.checked == 400, "cost 0: every element: %s", text);
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400 cost=1 parts=4", boundary, NULL, 2, text, sizeof text), 1);
    ck_assert_msg(told.at == 201 && told.bad == 1 && told.checked == 19, "beside a boundary: %s", text);
    int both[2] = {201, last};
    ck_assert_int_eq(run_words(&KIT_CHECK, "n=400 cost=1 parts=4", both, NULL, 2, text, sizeof text), 1);
    ck_assert_msg(told.at == 399 && told.bad == 2, "the ends first: %s", text);
}
END_TEST

START_TEST(map_of_another_type_is_refused)
{
    kit_check lab = KIT_CHECK;
    char text[256];
    lab.out[0].type = KIT_T_I32;
    run_words(&lab, "n=4", NULL, NULL, 0, text, sizeof text);
}
END_TEST

/* Two outputs judged after the first fails: "out" again, beside it, and a
 * third that is not: missing, never reported. */
START_TEST(beside_rows_are_judged_after_a_failure)
{
    char text[1024];
    int at = 2;
    uint32_t v = 9;
    kit_check lab = KIT_CHECK;
    lab.out[1] = lab.out[0], lab.out[1].beside = 1, lab.out[1].map.of = NULL;
    lab.out[2] = (kit_check_output){.name = "gone", .type = KIT_T_U32, .len = 1};
    ck_assert_int_eq(run_words(&lab, "n=4", &at, &v, 1, text, sizeof text), 1);
    ck_assert_msg(wrongs == 2 && kit_test_count(text, "out: 1 of 4 wrong, first [2] = 0x9") == 1 &&
                      kit_test_count(text, "out: 4 of 4 wrong") == 1 && !strstr(text, "gone"),
                  "%s", text);
    lab.out[1].beside = 0;
    ck_assert_int_eq(run_words(&lab, "n=4", &at, &v, 1, text, sizeof text), 1);
    ck_assert_msg(wrongs == 1, "without beside, one: %s", text);
}
END_TEST

/* An output without a reference, failed by its after: the loop ends there. */
static void refuse_all(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    (void)data;
    kit_fail(ctx, "%s refused", g->out->name);
}

static int judged = -1;
static void note_ok(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    (void)ctx, (void)data, (void)outs;
    judged = ok;
}

START_TEST(an_after_that_fails_ends_the_loop)
{
    char text[1024];
    kit_check lab = KIT_CHECK;
    lab.out[0] = (kit_check_output){"out", KIT_T_U32, .len_of = F(n), .after = refuse_all};
    lab.out[1] = (kit_check_output){.name = "gone", .type = KIT_T_U32, .len = 1};
    lab.judge = note_ok;
    ck_assert_int_eq(run_words(&lab, "n=4", NULL, NULL, 0, text, sizeof text), 1);
    ck_assert_msg(!strcmp(text, "out refused\n") && judged == 0, "%s", text);
    lab.out[0].after = NULL;
    ck_assert_int_eq(run_words(&lab, "n=4", NULL, NULL, 0, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "output 'gone' missing") && judged == 0, "without after it passes: %s", text);
}
END_TEST

/* copies: call f copied 400 bytes in (in 100 ns) and 300 out (in 200 ns). */
#define COPY(is) {.call = "f", .what = "the words", .count_of = F(n), .per = {4, 3},                       \
                  .when = KIT_WHEN(words, copy, is), .too_few = "%s: %llu in, %llu out, wanted %llu, %llu", \
                  .note = "%s: %.1f GB/s in, %.1f out"}
START_TEST(copies_held_to_their_bytes)
{
    char text[1024];
    kit_check lab = KIT_CHECK;
    lab.copies[0] = (kit_check_copy)COPY(0);
    lab.copies[1] = (kit_check_copy)COPY(1);
    ck_assert_msg(run_words(&lab, "n=100", NULL, NULL, 0, text, sizeof text) == 0, "%s", text);
    ck_assert_msg(!strcmp(text, "\nthe words: 4.0 GB/s in, 1.5 out\n"), "the row that holds, once: %s", text);
    ck_assert_int_eq(run_words(&lab, "n=101", NULL, NULL, 0, text, sizeof text), 1);
    ck_assert_msg(!strcmp(text, "the words: 400 in, 300 out, wanted 404, 303\n"), "%s", text);
    int at = 0;
    uint32_t v = 1;
    ck_assert_int_eq(run_words(&lab, "n=101", &at, &v, 1, text, sizeof text), 1);
    ck_assert_msg(!strstr(text, "wanted"), "not after a failure: %s", text);
}
END_TEST

static Suite *rows_suite(void)
{
    Suite *s = suite_create("check_rows");
    TCase *t = tcase_create("rows");
    tcase_add_test(t, map_checks_every_element_up_to_its_size);
    tcase_add_test(t, map_samples_above_its_size);
    tcase_add_exit_test(t, map_of_another_type_is_refused, 2);
    tcase_add_test(t, beside_rows_are_judged_after_a_failure);
    tcase_add_test(t, an_after_that_fails_ends_the_loop);
    tcase_add_test(t, copies_held_to_their_bytes);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(rows_suite)
