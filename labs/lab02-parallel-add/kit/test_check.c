/* test_check.c - lab02's checker on the CPU: right sums pass; the mistakes
 * the lab is about (a result never copied back, a grid that does not cover
 * n, one thread per element where exercise 2 asks for several) fail with a
 * message that names them. */
#include <math.h>
#include <stdint.h>

#include "check_main.h"
#include "dataset.h"
#include "lab_check_test.h"

static const char *CALL_HOST = "0\tvector_add\t1\t\n";
static const char *CALL_DEV = "0\tvector_add_device\t1\t\n";

/* The kernel of a grid-stride launch: 4224 blocks of 256 threads. */
static const char *STRIDE_KERNEL = "0\t4224,1,1\t256,1,1\t90000\tadd_kernel(const float *, const float *, float *, int)\n";

/* c = a + b for the case, rounded to float as a correct kernel computes it;
 * entries [from, n) are set to the harness's NaN fill (never written). */
static float *sums(const char *params, uint64_t seed, int from, int *n_out)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab02_data d;
    ck_assert_int_eq(lab02_generate(&p, seed, &d, err, sizeof err), 0);
    float *c = malloc((size_t)(d.n ? d.n : 1) * sizeof *c);
    for (int i = 0; i < d.n; i++)
        c[i] = d.a[i] + d.b[i];
    if (from >= 0 && from < d.n)
        memset(c + from, 0xFF, (size_t)(d.n - from) * sizeof *c);
    *n_out = d.n;
    lab02_free(&d);
    return c;
}

static kit_writer *run_with(const float *c, int n, const char *calls, const char *kernels)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, c, (uint64_t)n);
    lct_trace(w, calls, kernels);
    return w;
}

START_TEST(right_sums_pass)
{
    char why[1024];
    int n;
    const char *params = "entry=host n=1025";
    float *c = sums(params, 42, -1, &n);
    ck_assert_msg(lct_check(run_with(c, n, CALL_HOST, "0\t5,1,1\t256,1,1\t3000\tadd_kernel()\n"), params, 42, why,
                            sizeof why) == 0,
                  "%s", why);
    free(c);
    params = "entry=device n=2^22+1 per_thread=2";
    c = sums(params, 3, -1, &n);
    ck_assert_msg(lct_check(run_with(c, n, CALL_DEV, STRIDE_KERNEL), params, 3, why, sizeof why) == 0, "%s", why);
    free(c);
}
END_TEST

/* A benchmark's outputs: the checked c, then one timed call on fresh a and
 * b, sampled; `stale` makes the samples the checked call's c (left from an
 * earlier call). */
START_TEST(timed_calls_are_checked)
{
    char why[1024], err[128];
    const char *params = "entry=device n=2^22+1 per_thread=2";
    int n;
    float *c = sums(params, 3, -1, &n);
    kit_params p;
    kit_params_parse(params, &p, err, sizeof err);
    lab02_data d;
    lab02_generate(&p, 3, &d, err, sizeof err);
    int64_t shift = 12345, idx[LAB02_TIMED_SAMPLE];
    double scale = 0.125;
    float val[LAB02_TIMED_SAMPLE];
    int32_t call = 5;
    for (int stale = 0; stale < 2; stale++) {
        for (int j = 0; j < LAB02_TIMED_SAMPLE; j++) {
            idx[j] = (int64_t)((j * 104729LL) % n);
            int64_t q = (idx[j] + shift) % n;
            val[j] = stale ? c[idx[j]] : (float)(scale * d.a[q]) + (float)(scale * d.b[q]);
        }
        kit_writer *w = run_with(c, n, CALL_DEV, STRIDE_KERNEL);
        lct_timed(w, &call, &shift, &scale, 1, idx, val, LAB02_TIMED_SAMPLE);
        int rc = lct_check(w, params, 3, why, sizeof why);
        if (!stale)
            ck_assert_msg(rc == 0, "%s", why);
        else {
            ck_assert_int_eq(rc, 1);
            ck_assert_msg(strstr(why, "timed call 5 of vector_add_device"), "%s", why);
        }
    }
    lab02_free(&d);
    free(c);
}
END_TEST

START_TEST(result_not_copied_back_fails)
{
    char why[1024];
    int n;
    const char *params = "entry=host n=1000";
    float *c = sums(params, 5, 0, &n); /* the starter: h_c untouched */
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST, "0\t1,1,1\t1000,1,1\t3000\tadd_kernel()\n"), params, 5, why,
                               sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "h_c was never written"));
    ck_assert_ptr_nonnull(strstr(why, "copied back"));
    free(c);
}
END_TEST

START_TEST(grid_too_small_fails)
{
    char why[1024];
    int n;
    /* one block of 1024 threads for 1025 elements: the last one is never written */
    const char *params = "entry=device n=1025";
    float *c = sums(params, 8, 1024, &n);
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_DEV, "0\t1,1,1\t1024,1,1\t3000\tadd_kernel()\n"), params, 8, why,
                               sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "element 1024 of c was never written"));
    ck_assert_ptr_nonnull(strstr(why, "cover all 1025"));
    free(c);
    /* n / 256 blocks, rounded down: the tail 768..999 is missing */
    params = "entry=host n=1000";
    c = sums(params, 8, 768, &n);
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST, "0\t3,1,1\t256,1,1\t3000\tadd_kernel()\n"), params, 8, why,
                               sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "elements 768..999 of c were never written"));
    free(c);
}
END_TEST

START_TEST(wrong_values_fail)
{
    char why[1024];
    int n;
    const char *params = "entry=host n=1000";
    float *c = sums(params, 11, -1, &n);
    c[700] = nextafterf(c[700], INFINITY) + 1e-3f; /* beyond one rounding */
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST, STRIDE_KERNEL), params, 11, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "first wrong index 700"));
    free(c);
    c = sums(params, 11, -1, &n);
    c[3] = NAN; /* a NaN the student computed, not the fill */
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST, STRIDE_KERNEL), params, 11, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "index 3"));
    free(c);
    /* c = a only (b forgotten) */
    kit_params p;
    char err[64];
    kit_params_parse(params, &p, err, sizeof err);
    lab02_data d;
    lab02_generate(&p, 11, &d, err, sizeof err);
    ck_assert_int_eq(lct_check(run_with(d.a, d.n, CALL_HOST, STRIDE_KERNEL), params, 11, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "1000 elements differ"));
    lab02_free(&d);
}
END_TEST

START_TEST(scattered_unwritten_elements_are_named)
{
    char why[1024];
    int n;
    const char *params = "entry=device n=3000";
    float *c = sums(params, 2, -1, &n);
    memset(c + 10, 0xFF, sizeof *c); /* two holes: an overlap elsewhere left them out */
    memset(c + 2000, 0xFF, sizeof *c);
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_DEV, STRIDE_KERNEL), params, 2, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "2 of 3000 elements of c were never written"));
    ck_assert_ptr_nonnull(strstr(why, "index 10"));
    /* nothing written at all by vector_add_device */
    free(c);
    c = sums(params, 2, 0, &n);
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_DEV, STRIDE_KERNEL), params, 2, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no element of c was written"));
    free(c);
}
END_TEST

START_TEST(wrong_length_and_empty_input)
{
    char why[1024];
    int n;
    const char *params = "entry=host n=1024";
    float *c = sums(params, 4, -1, &n);
    ck_assert_int_eq(lct_check(run_with(c, n - 1, CALL_HOST, STRIDE_KERNEL), params, 4, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "1023 elements, expected 1024"));
    kit_writer *w = lct_open(); /* no output at all */
    lct_trace(w, CALL_HOST, STRIDE_KERNEL);
    ck_assert_int_eq(lct_check(w, params, 4, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "'c' missing"));
    free(c);
    /* n = 0: nothing to add, no kernel needed */
    float none = 0;
    ck_assert_msg(lct_check(run_with(&none, 0, "0\tvector_add\t0\t\n", ""), "entry=host n=0", 4, why, sizeof why) == 0,
                  "%s", why);
}
END_TEST

START_TEST(host_or_library_sums_fail)
{
    char why[1024];
    int n;
    const char *params = "entry=host n=1000";
    float *c = sums(params, 6, -1, &n);
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST, ""), params, 6, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_HOST,
                                        "0\t4,1,1\t256,1,1\t3000\tvoid thrust::cuda_cub::core::_kernel_agent<>()\n"),
                               params, 6, why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "Thrust"));
    free(c);
}
END_TEST

START_TEST(one_thread_per_element_fails_exercise_2)
{
    char why[1024];
    int n;
    const char *params = "entry=device n=2^24+3 per_thread=2";
    float *c = sums(params, 9, -1, &n);
    /* right sums, but 65537 blocks of 256: one thread per element */
    ck_assert_int_eq(lct_check(run_with(c, n, CALL_DEV, "0\t65537,1,1\t256,1,1\t90000\tadd_kernel()\n"), params, 9, why,
                               sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "launched 16777472 threads for n = 16777219"));
    ck_assert_ptr_nonnull(strstr(why, "at most 8388609 threads"));
    /* the same launch is fine where the test does not ask for exercise 2 */
    ck_assert_msg(lct_check(run_with(c, n, CALL_DEV, "0\t65537,1,1\t256,1,1\t90000\tadd_kernel()\n"),
                            "entry=device n=2^24+3", 9, why, sizeof why) == 0,
                  "%s", why);
    /* without a trace it cannot be judged: a note, not a failure */
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, c, (uint64_t)n);
    kit_writer_put_text(w, "trace.status", "unavailable: runner built without CUPTI");
    kit_writer_put_text(w, "trace.calls", CALL_DEV);
    kit_writer_put_text(w, "trace.kernels", "");
    ck_assert_msg(lct_check(w, params, 9, why, sizeof why) == 0, "%s", why);
    free(c);
}
END_TEST

START_TEST(bad_parameters)
{
    char why[1024];
    float none = 0;
    ck_assert_int_eq(lct_check(run_with(&none, 0, CALL_HOST, STRIDE_KERNEL), "entry=gpu n=10", 1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "entry must be one of: host device"));
    ck_assert_int_eq(lct_check(run_with(&none, 0, CALL_HOST, STRIDE_KERNEL), "entry=host", 1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "n must be given"));
}
END_TEST

static Suite *lab02_suite(void)
{
    Suite *s = suite_create("lab02-check");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 30); /* 2^24 elements generated twice */
    tcase_add_test(tc, right_sums_pass);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, result_not_copied_back_fails);
    tcase_add_test(tc, grid_too_small_fails);
    tcase_add_test(tc, wrong_values_fail);
    tcase_add_test(tc, scattered_unwritten_elements_are_named);
    tcase_add_test(tc, wrong_length_and_empty_input);
    tcase_add_test(tc, host_or_library_sums_fail);
    tcase_add_test(tc, one_thread_per_element_fails_exercise_2);
    tcase_add_test(tc, bad_parameters);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab02_suite)
