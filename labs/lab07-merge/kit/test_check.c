/* test_check.c - lab07's checker on the CPU: right merges and co-ranks pass;
 * the mistakes the lab is about (an incomplete co_rank, an unstable merge,
 * a lost last slice) fail with a message that names them. */
#include <stdlib.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "lab_check_test.h"

static const char *CALL_BASIC = "0\tmerge_basic\t1\t\n";
static const char *CALL_TILED_REC = "0\tmerge_tiled_rec\t1\t\n";
static const char *KERNEL = "0\t83,1,1\t256,1,1\t50000\tvoid merge_basic_kernel<int>(const int *, int, const int *, int, int *)\n";
static const char *KERNEL_REC =
    "0\t40,1,1\t256,1,1\t90000\tvoid merge_tiled_kernel<merge_rec>(const merge_rec *, int, const merge_rec *, int, "
    "const int *, merge_rec *)\n";

static void generate(const char *params, uint64_t seed, lab07_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_msg(lab07_generate(&p, seed, d, err, sizeof err) == 0, "%s", err);
}

/* The stable merge of the case's inputs (and where each element came from). */
static size_t reference(const lab07_data *d, int32_t **c, uint32_t **src)
{
    size_t total = (size_t)d->m + (size_t)d->n;
    *c = malloc((total ? total : 1) * sizeof **c);
    *src = malloc((total ? total : 1) * sizeof **src);
    kit_ref_merge_i32(d->a, (size_t)d->m, d->b, (size_t)d->n, *c, *src);
    return total;
}

/* An int merge's verdict for output c. */
static int check_ints(const char *params, uint64_t seed, const int32_t *c, size_t len, char *why, size_t wlen)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_I32, c, len);
    lct_trace(w, CALL_BASIC, KERNEL);
    return lct_check(w, params, seed, why, wlen);
}

START_TEST(right_merge_passes)
{
    char why[512];
    const char *cases[] = {"m=100 n=37 dist=uniform", "m=1000 n=999 dist=ties", "m=5 n=0",
                           "m=64 n=64 dist=equal", "m=33 n=31 dist=disjoint-rev"};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        lab07_data d;
        generate(cases[t], 11, &d);
        int32_t *c;
        uint32_t *src;
        size_t total = reference(&d, &c, &src);
        ck_assert_msg(check_ints(cases[t], 11, c, total, why, sizeof why) == 0, "%s: %s", cases[t], why);
        free(c), free(src);
        lab07_free(&d);
    }
}
END_TEST

/* The starter's co_rank returns min(k, m): every slice takes A first. */
/* A benchmark's outputs: the checked merge, then one timed merge whose keys
 * all had 12345 added, sampled; `stale` samples the checked call's output
 * instead (left from an earlier call). */
START_TEST(timed_calls_are_checked)
{
    char why[512];
    const char *params = "m=1000 n=999 dist=ties";
    lab07_data d;
    generate(params, 4, &d);
    int32_t *c;
    uint32_t *src;
    size_t total = reference(&d, &c, &src);
    int64_t idx[LAB07_TIMED_SAMPLE];
    int32_t val[LAB07_TIMED_SAMPLE], call = 8, offset = 12345;
    int64_t shift = offset;
    double one = 1;
    for (int stale = 0; stale < 2; stale++) {
        for (int j = 0; j < LAB07_TIMED_SAMPLE; j++) {
            idx[j] = (int64_t)((j * 7919LL) % (int64_t)total);
            val[j] = c[idx[j]] + (stale ? 0 : offset);
        }
        kit_writer *w = lct_open();
        kit_writer_put(w, "c", KIT_T_I32, c, total);
        lct_timed(w, &call, &shift, &one, 1, idx, val, LAB07_TIMED_SAMPLE);
        lct_trace(w, CALL_BASIC, KERNEL);
        int rc = lct_check(w, params, 4, why, sizeof why);
        if (!stale)
            ck_assert_msg(rc == 0, "%s", why);
        else {
            ck_assert_int_eq(rc, 1);
            ck_assert_msg(strstr(why, "timed call 8 of merge_basic (fresh keys each call)"), "%s", why);
        }
    }
    free(c);
    free(src);
    lab07_free(&d);
}
END_TEST

static int starter_co_rank(int k, int m) { return k < m ? k : m; }

START_TEST(incomplete_co_rank_fails)
{
    char why[512];
    const char *params = "op=corank m=257 n=129 dist=disjoint-rev";
    lab07_data d;
    generate(params, 5, &d);
    int32_t *got = malloc((size_t)d.nk * sizeof *got);
    for (int t = 0; t < d.nk; t++)
        got[t] = starter_co_rank(d.ks[t], d.m);
    kit_writer *w = lct_open();
    kit_writer_put(w, "corank", KIT_T_I32, got, (uint64_t)d.nk);
    lct_trace(w, "", "");
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "co_rank_host is wrong"));
    ck_assert_ptr_nonnull(strstr(why, "k=1 "));
    /* the right co-ranks: A's elements among the first k outputs */
    int32_t *c;
    uint32_t *src;
    reference(&d, &c, &src);
    int from_a = 0, t = 0;
    for (int k = 0; k <= d.m + d.n; k++) {
        ck_assert_int_eq(d.ks[t], k); /* every k, in order, for a small merge */
        got[t++] = from_a;
        if (k < d.m + d.n)
            from_a += src[k] < (uint32_t)d.m;
    }
    w = lct_open();
    kit_writer_put(w, "corank", KIT_T_I32, got, (uint64_t)d.nk);
    lct_trace(w, "", "");
    ck_assert_msg(lct_check(w, params, 5, why, sizeof why) == 0, "%s", why);
    free(c), free(src), free(got);
    lab07_free(&d);
}
END_TEST

/* A co_rank that breaks ties towards B is a valid split but not the stable one. */
START_TEST(unstable_co_rank_fails)
{
    char why[512];
    const char *params = "op=corank m=40 n=30 dist=equal";
    lab07_data d;
    generate(params, 8, &d);
    int32_t *got = malloc((size_t)d.nk * sizeof *got);
    for (int t = 0; t < d.nk; t++) /* all keys equal: B-first takes B up to its end */
        got[t] = d.ks[t] > d.n ? d.ks[t] - d.n : 0;
    kit_writer *w = lct_open();
    kit_writer_put(w, "corank", KIT_T_I32, got, (uint64_t)d.nk);
    lct_trace(w, "", "");
    ck_assert_int_eq(lct_check(w, params, 8, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "k=1 "));
    free(got);
    lab07_free(&d);
}
END_TEST

/* Records: keys right, but on ties B's element first. */
START_TEST(unstable_merge_fails)
{
    char why[512];
    const char *params = "op=merge impl=tiled type=rec m=500 n=400 dist=ties";
    lab07_data d;
    generate(params, 21, &d);
    size_t total = (size_t)d.m + (size_t)d.n;
    /* merge with "<" instead of "<=": B first on ties */
    int32_t *c = malloc(total * sizeof *c), *tag = malloc(total * sizeof *tag);
    size_t i = 0, j = 0, k = 0;
    while (i < (size_t)d.m || j < (size_t)d.n) {
        int take_a = j >= (size_t)d.n || (i < (size_t)d.m && d.a[i] < d.b[j]);
        if (take_a)
            c[k] = d.a[i], tag[k++] = (int32_t)i++;
        else
            c[k] = d.b[j], tag[k++] = (int32_t)(d.m + j++);
    }
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_I32, c, total);
    kit_writer_put(w, "tag", KIT_T_I32, tag, total);
    lct_trace(w, CALL_TILED_REC, KERNEL_REC);
    ck_assert_int_eq(lct_check(w, params, 21, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "not stable"));
    ck_assert_ptr_nonnull(strstr(why, "came from B["));
    /* the stable merge's tags pass */
    int32_t *ref;
    uint32_t *src;
    reference(&d, &ref, &src);
    for (k = 0; k < total; k++)
        tag[k] = (int32_t)src[k];
    w = lct_open();
    kit_writer_put(w, "c", KIT_T_I32, ref, total);
    kit_writer_put(w, "tag", KIT_T_I32, tag, total);
    lct_trace(w, CALL_TILED_REC, KERNEL_REC);
    ck_assert_msg(lct_check(w, params, 21, why, sizeof why) == 0, "%s", why);
    /* a missing tag array */
    w = lct_open();
    kit_writer_put(w, "c", KIT_T_I32, ref, total);
    lct_trace(w, CALL_TILED_REC, KERNEL_REC);
    ck_assert_int_eq(lct_check(w, params, 21, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "tag"));
    free(c), free(tag), free(ref), free(src);
    lab07_free(&d);
}
END_TEST

/* The starter's kernel skips the last slice when m + n is not a multiple of 8. */
START_TEST(lost_last_slice_fails)
{
    char why[512];
    const char *params = "impl=basic m=100 n=37 dist=uniform";
    lab07_data d;
    generate(params, 3, &d);
    int32_t *c;
    uint32_t *src;
    size_t total = reference(&d, &c, &src);
    for (size_t k = total / 8 * 8; k < total; k++)
        c[k] = -1; /* the harness's poison */
    ck_assert_int_eq(check_ints(params, 3, c, total, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "first wrong index 136"));
    free(c), free(src);
    lab07_free(&d);
}
END_TEST

START_TEST(wrong_length_and_policy)
{
    char why[512];
    const char *params = "impl=basic m=100 n=37";
    lab07_data d;
    generate(params, 4, &d);
    int32_t *c;
    uint32_t *src;
    size_t total = reference(&d, &c, &src);
    ck_assert_int_eq(check_ints(params, 4, c, total - 1, why, sizeof why), 1); /* one element short */
    ck_assert_ptr_nonnull(strstr(why, "expected m + n"));
    kit_writer *w = lct_open(); /* right answer, computed on the host */
    kit_writer_put(w, "c", KIT_T_I32, c, total);
    lct_trace(w, CALL_BASIC, "");
    ck_assert_int_eq(lct_check(w, params, 4, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* right answer from Thrust */
    kit_writer_put(w, "c", KIT_T_I32, c, total);
    lct_trace(w, CALL_BASIC, "0\t1,1,1\t256,1,1\t9000\tvoid thrust::cuda_cub::core::_kernel_agent<merge>()\n");
    ck_assert_int_eq(lct_check(w, params, 4, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "Thrust"));
    w = lct_open(); /* no output at all */
    lct_trace(w, CALL_BASIC, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 4, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "'c'"));
    free(c), free(src);
    lab07_free(&d);
}
END_TEST

START_TEST(empty_merge_needs_no_kernel)
{
    char why[512];
    int32_t none = 0;
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_I32, &none, 0);
    lct_trace(w, "0\tmerge_basic\t0\t\n", "");
    ck_assert_msg(lct_check(w, "impl=basic m=0 n=0", 1, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(bad_parameters_are_reported)
{
    char why[512];
    kit_writer *w = lct_open();
    lct_trace(w, CALL_BASIC, KERNEL);
    ck_assert_int_eq(lct_check(w, "m=10 n=10 dist=zipf", 1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "dist must be"));
}
END_TEST

static Suite *lab07_suite(void)
{
    Suite *s = suite_create("lab07-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_merge_passes);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, incomplete_co_rank_fails);
    tcase_add_test(tc, unstable_co_rank_fails);
    tcase_add_test(tc, unstable_merge_fails);
    tcase_add_test(tc, lost_last_slice_fails);
    tcase_add_test(tc, wrong_length_and_policy);
    tcase_add_test(tc, empty_merge_needs_no_kernel);
    tcase_add_test(tc, bad_parameters_are_reported);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab07_suite)
