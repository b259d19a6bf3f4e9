/* test_check.c - lab04's checker on the CPU: the right histogram passes, the
 * mistakes the lab is about fail with a message that names them. */
#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "lab_check_test.h"

static const char *CALL = "0\thistogram_shared\t1\t\n";
static const char *KERNEL = "0\t528,1,1\t256,1,1\t90000\thistogram_privatised(const int *, int, unsigned int *, int)\n";

/* The exact histogram of a case's inputs as the u32 counters a kernel returns. */
static uint32_t *right_bins(const char *params, uint64_t seed, lab04_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_int_eq(lab04_generate(&p, seed, d, err, sizeof err), 0);
    uint64_t *counts = malloc((size_t)d->bins * sizeof *counts);
    uint32_t *bins = malloc((size_t)d->bins * sizeof *bins);
    ck_assert_ptr_nonnull(counts);
    ck_assert_ptr_nonnull(bins);
    kit_ref_histogram(d->in, (size_t)d->n, d->bins, counts);
    for (int b = 0; b < d->bins; b++)
        bins[b] = (uint32_t)counts[b];
    free(counts);
    return bins;
}

static int check_bins(const char *params, uint64_t seed, const uint32_t *bins, int count, char *why, size_t len)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)count);
    lct_trace(w, CALL, KERNEL);
    return lct_check(w, params, seed, why, len);
}

START_TEST(right_histograms_pass)
{
    static const char *cases[] = {"bins=256 n=1000 dist=uniform", "bins=4096 n=5000 dist=skewed",
                                  "bins=777 n=300 dist=equal", "bins=1 n=17"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char why[1024];
        lab04_data d;
        uint32_t *bins = right_bins(cases[c], 11 + c, &d);
        ck_assert_msg(check_bins(cases[c], 11 + c, bins, d.bins, why, sizeof why) == 0, "%s: %s", cases[c], why);
        free(bins);
        lab04_free(&d);
    }
}
END_TEST

/* A benchmark's outputs: the checked histogram, then one timed call whose
 * values were shifted by 7 (the histogram rotates); `stale` records the
 * checked call's histogram instead (left from an earlier call). */
START_TEST(timed_calls_are_checked)
{
    char why[1024];
    const char *params = "bins=256 n=100000 dist=skewed";
    lab04_data d;
    uint32_t *bins = right_bins(params, 5, &d);
    uint32_t *rotated = malloc((size_t)d.bins * sizeof *rotated);
    for (int v = 0; v < d.bins; v++)
        rotated[(v + 7) % d.bins] = bins[v];
    int32_t call = 3;
    int64_t shift = 7;
    double one = 1;
    for (int stale = 0; stale < 2; stale++) {
        kit_writer *w = lct_open();
        kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)d.bins);
        lct_timed(w, &call, &shift, &one, 1, NULL, stale ? bins : rotated, (uint64_t)d.bins);
        lct_trace(w, CALL, KERNEL);
        int rc = lct_check(w, params, 5, why, sizeof why);
        if (!stale)
            ck_assert_msg(rc == 0, "%s", why);
        else {
            ck_assert_int_eq(rc, 1);
            ck_assert_msg(strstr(why, "timed call 3 of histogram_shared"), "%s", why);
        }
    }
    free(rotated);
    free(bins);
    lab04_free(&d);
}
END_TEST

START_TEST(skewed_data_has_a_hot_bin)
{
    lab04_data d;
    uint32_t *bins = right_bins("bins=4096 n=100000 dist=skewed", 3, &d);
    ck_assert_uint_gt(bins[d.hot], 89000); /* about 90% plus its uniform share */
    ck_assert_uint_lt(bins[d.hot], 91000);
    free(bins);
    lab04_free(&d);
    bins = right_bins("bins=4096 n=1000 dist=equal", 4, &d);
    ck_assert_uint_eq(bins[d.hot], 1000);
    free(bins);
    lab04_free(&d);
}
END_TEST

/* A student report's flush: one block, every global bin gets the block's count
 * of thread 0's value. */
START_TEST(same_count_in_every_bin_fails)
{
    char why[1024];
    const char *params = "bins=256 n=200 dist=skewed";
    lab04_data d;
    uint32_t *bins = right_bins(params, 5, &d);
    uint32_t first = bins[d.in[0]];
    for (int b = 0; b < d.bins; b++)
        bins[b] = first;
    kit_writer *w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)d.bins);
    lct_trace(w, CALL, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "histogram"));
    ck_assert_ptr_nonnull(strstr(why, "expected"));
    free(bins);
    lab04_free(&d);
}
END_TEST

/* The details name the pattern: run the checker by hand to read them. */
static char *details_of(const char *params, uint64_t seed, const uint32_t *bins, int count)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)count);
    lct_trace(w, CALL, KERNEL);
    kit_writer_put_text(w, "runner.status", "ok");
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_params p;
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &p;
    ctx.seed = seed;
    ctx.out = b;
    ctx.stdout_text = "";
    ck_assert_int_eq(lab_check(&ctx), 1);
    size_t len = strlen(ctx.summary) + (ctx.details ? strlen(ctx.details) : 0) + 2;
    char *all = malloc(len);
    snprintf(all, len, "%s\n%s", ctx.summary, ctx.details ? ctx.details : "");
    free(ctx.details);
    kit_blob_free(b);
    unlink(lct_path);
    return all;
}

START_TEST(patterns_are_named)
{
    const char *params = "bins=256 n=5000 dist=skewed";
    lab04_data d;
    uint32_t *right = right_bins(params, 8, &d);
    uint32_t *bins = malloc((size_t)d.bins * sizeof *bins);

    /* every bin the same (the starter's flush) */
    for (int b = 0; b < d.bins; b++)
        bins[b] = right[d.hot];
    char *text = details_of(params, 8, bins, d.bins);
    ck_assert_msg(strstr(text, "same count") != NULL, "%s", text);
    free(text);

    /* a counter never cleared: garbage on top of the right count */
    memcpy(bins, right, (size_t)d.bins * sizeof *bins);
    bins[d.bins - 1] += 0xC0DE0000u;
    text = details_of(params, 8, bins, d.bins);
    ck_assert_msg(strstr(text, "never set to zero") != NULL, "%s", text);
    free(text);

    /* lost updates on the hot bin (a non-atomic increment) */
    memcpy(bins, right, (size_t)d.bins * sizeof *bins);
    bins[d.hot] -= 1000;
    text = details_of(params, 8, bins, d.bins);
    ck_assert_msg(strstr(text, "atomicAdd") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "1000 increments are missing") != NULL, "%s", text);
    free(text);

    /* the right counts in the wrong bins */
    memcpy(bins, right, (size_t)d.bins * sizeof *bins);
    int other = (d.hot + 1) % d.bins;
    uint32_t t = bins[d.hot];
    bins[d.hot] = bins[other];
    bins[other] = t;
    text = details_of(params, 8, bins, d.bins);
    ck_assert_msg(strstr(text, "wrong bins") != NULL, "%s", text);
    free(text);

    free(bins);
    free(right);
    lab04_free(&d);
}
END_TEST

START_TEST(poisoned_or_short_output_fails)
{
    char why[1024];
    const char *params = "bins=4096 n=1000 dist=uniform";
    lab04_data d;
    uint32_t *bins = right_bins(params, 2, &d);
    /* one bin left as the harness's poison */
    uint32_t keep = bins[4095];
    bins[4095] = 0xFFFFFFFFu;
    ck_assert_int_eq(check_bins(params, 2, bins, d.bins, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "index 4095"));
    bins[4095] = keep;
    /* only 256 of the 4096 bins written back */
    ck_assert_int_eq(check_bins(params, 2, bins, 256, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "wrong length"));
    free(bins);
    lab04_free(&d);
}
END_TEST

START_TEST(empty_input_needs_zero_bins_only)
{
    char why[1024];
    uint32_t zeros[256] = {0};
    kit_writer *w = lct_open(); /* n = 0: all zero, set with cudaMemset, no kernel */
    kit_writer_put(w, "bins", KIT_T_U32, zeros, 256);
    lct_trace(w, "0\thistogram_shared\t0\t\n", "");
    ck_assert_msg(lct_check(w, "bins=256 n=0", 1, why, sizeof why) == 0, "%s", why);
    zeros[7] = 0xFFFFFFFFu; /* a bin that was never cleared */
    w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, zeros, 256);
    lct_trace(w, "0\thistogram_shared\t0\t\n", "");
    ck_assert_int_eq(lct_check(w, "bins=256 n=0", 1, why, sizeof why), 1);
}
END_TEST

START_TEST(cpu_or_library_results_fail)
{
    char why[1024];
    const char *params = "bins=256 n=1000 dist=skewed";
    lab04_data d;
    uint32_t *bins = right_bins(params, 6, &d);
    kit_writer *w = lct_open(); /* right counts, computed on the host */
    kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)d.bins);
    lct_trace(w, CALL, "");
    ck_assert_int_eq(lct_check(w, params, 6, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* right counts, from CUB */
    kit_writer_put(w, "bins", KIT_T_U32, bins, (uint64_t)d.bins);
    lct_trace(w, CALL,
              "0\t4,1,1\t256,1,1\t9000\tvoid cub::CUB_300000_SM_900::DeviceHistogramSweepKernel<int>()\n");
    ck_assert_int_eq(lct_check(w, params, 6, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "CUB"));
    w = lct_open(); /* no output at all */
    lct_trace(w, CALL, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 6, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "bins"));
    free(bins);
    lab04_free(&d);
}
END_TEST

START_TEST(bad_parameters_are_reported)
{
    char why[1024];
    uint32_t zero = 0;
    kit_writer *w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, &zero, 1);
    lct_trace(w, CALL, KERNEL);
    ck_assert_int_eq(lct_check(w, "bins=9000 n=10", 1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "bins must be"));
    w = lct_open();
    kit_writer_put(w, "bins", KIT_T_U32, &zero, 1);
    lct_trace(w, CALL, KERNEL);
    ck_assert_int_eq(lct_check(w, "bins=8 n=10 dist=sorted", 1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "dist must be"));
}
END_TEST

static Suite *lab04_suite(void)
{
    Suite *s = suite_create("lab04-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_histograms_pass);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, skewed_data_has_a_hot_bin);
    tcase_add_test(tc, same_count_in_every_bin_fails);
    tcase_add_test(tc, patterns_are_named);
    tcase_add_test(tc, poisoned_or_short_output_fails);
    tcase_add_test(tc, empty_input_needs_zero_bins_only);
    tcase_add_test(tc, cpu_or_library_results_fail);
    tcase_add_test(tc, bad_parameters_are_reported);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab04_suite)
