/* test_check.c - lab06's checker on the CPU: right scans pass (whatever the
 * order of additions), the mistakes the lab is about fail with a message
 * that names them. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "kit/util.h"
#include "lab_check_test.h"

static const char *KERNEL = "0\t65,1,1\t1024,1,1\t30000\tvoid scan_blocks<float>(const float *, float *, float *, int)\n";

static void generate(const char *params, uint64_t seed, lab06_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_msg(lab06_generate(&p, seed, d, err, sizeof err) == 0, "%s", err);
}

static char *call_line(const lab06_data *d)
{
    static char line[64];
    snprintf(line, sizeof line, "0\t%s\t%d\t\n", lab06_function(d), d->n > 0);
    return line;
}

/* A float scan the way a GPU might do it: the scan of each block of
 * `block` elements in float, then each block's offset added in float;
 * local_only leaves the offsets out (block-local scans only). */
static float *float_scan(const lab06_data *d, int block, int local_only)
{
    size_t n = (size_t)d->n;
    float *out = malloc((n + 1) * sizeof *out);
    float offset = 0.0f, s = 0.0f;
    for (size_t i = 0; i < n; i++) {
        if (i % (size_t)block == 0) {
            offset = local_only ? 0.0f : (i ? out[i - 1] : 0.0f);
            s = 0.0f;
        }
        s += d->fin[i];
        out[i] = offset + s;
    }
    return out;
}

static int32_t *int_scan(const lab06_data *d, int block, int local_only)
{
    size_t n = (size_t)d->n;
    int32_t *out = malloc((n + 1) * sizeof *out);
    int32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (local_only && i % (size_t)block == 0)
            s = 0;
        s += d->iin[i];
        out[i] = s;
    }
    return out;
}

/* Runs the checker; 1 when it failed, summary and details in text. */
static int run_check(const char *params, uint64_t seed, const lab06_data *d, const void *out, uint64_t count,
                     const char *kernels, char *text, size_t len)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", d->is_int ? KIT_T_I32 : KIT_T_F32, out, count);
    lct_trace(w, call_line(d), kernels);
    return lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
}

/* A benchmark's outputs: the checked scan, then one timed call on fresh
 * contents, sampled; `stale` makes the sampled values the checked call's
 * (an output left from an earlier call), `off` adds off times the sum of
 * magnitudes |x_0| + ... + |x_i| to one sampled prefix (sample 7). */
static int run_timed(const char *params, uint64_t seed, int stale, double off, char *text, size_t len)
{
    lab06_data d;
    generate(params, seed, &d);
    int64_t n = d.n, shift = n / 3;
    double scale = -0.5;
    float *out = float_scan(&d, 1024, 0);
    float *x = malloc((size_t)n * sizeof *x);
    kit_fresh_apply_host(d.fin, x, n, shift, scale);
    int64_t idx[LAB06_TIMED_SAMPLE];
    float val[LAB06_TIMED_SAMPLE];
    for (int j = 0; j < LAB06_TIMED_SAMPLE; j++) {
        idx[j] = (int64_t)((j * 7919LL) % n);
        double sum = 0, sum_abs = 0;
        for (int64_t i = 0; i <= idx[j]; i++)
            sum += x[i], sum_abs += fabs(x[i]);
        val[j] = stale ? out[idx[j]] : (float)(sum + (j == 7 ? off * sum_abs : 0));
    }
    int32_t call = 42;
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_F32, out, (uint64_t)n);
    lct_timed(w, &call, &shift, &scale, 1, idx, val, LAB06_TIMED_SAMPLE);
    lct_trace(w, call_line(&d), KERNEL);
    int rc = lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
    free(out);
    free(x);
    lab06_free(&d);
    return rc;
}

START_TEST(timed_calls_are_checked)
{
    char text[2048];
    const char *params = "part=2 type=float n=5000";
    ck_assert_msg(run_timed(params, 3, 0, 0, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_timed(params, 3, 1, 0, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 42 of scan"), "%s", text);
}
END_TEST

/* A timed call's prefix is held to the same error bound as the checked
 * call's (kit_sum_bound of its terms), not to the sum of magnitudes that
 * bound is made from: a thousandth of that sum off is about 40 times the
 * float bound of sample 7's prefix (434 terms: about 434 u_float of it). */
START_TEST(timed_calls_have_the_float_bound)
{
    char text[2048];
    ck_assert_int_eq(run_timed("part=2 type=float n=5000", 4, 0, 1e-3, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 42 of scan"), "%s", text);
}
END_TEST

START_TEST(right_scans_pass)
{
    static const struct {
        const char *params;
        int block;
    } cases[] = {{"part=1 type=float n=1024", 1024},       {"part=1 type=int n=33", 1024},
                 {"part=2 type=float n=100003", 1024},     {"part=2 type=float n=100003 dist=positive", 32},
                 {"part=2 type=float n=200000 dist=positive", 1 << 30}, /* plain sequential float sum */
                 {"part=2 type=int n=70001", 256},          {"part=1 type=float n=1", 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[2048];
        lab06_data d;
        generate(cases[c].params, 60 + c, &d);
        void *out = d.is_int ? (void *)int_scan(&d, cases[c].block, 0) : (void *)float_scan(&d, cases[c].block, 0);
        ck_assert_msg(run_check(cases[c].params, 60 + c, &d, out, (uint64_t)d.n, KERNEL, text, sizeof text) == 0,
                      "%s: %s", cases[c].params, text);
        free(out);
        lab06_free(&d);
    }
}
END_TEST

/* The starter's Part 2: every block scanned on its own. */
START_TEST(block_local_scans_fail)
{
    char text[2048];
    const char *params = "part=2 type=int n=10000";
    lab06_data d;
    generate(params, 3, &d);
    int32_t *out = int_scan(&d, 1024, 1);
    ck_assert_int_eq(run_check(params, 3, &d, out, 10000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "scan_int: ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "block of 1024 elements") != NULL, "%s", text);
    free(out);
    lab06_free(&d);
    params = "part=2 type=float n=5000 dist=positive";
    generate(params, 4, &d);
    float *fout = float_scan(&d, 256, 1);
    ck_assert_int_eq(run_check(params, 4, &d, fout, 5000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 256") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "block of 256 elements") != NULL, "%s", text);
    free(fout);
    lab06_free(&d);
}
END_TEST

/* The in-place race: an element that read its neighbour after the
 * neighbour's update counts some inputs twice. */
START_TEST(race_corrupted_part1_fails)
{
    char text[2048];
    const char *params = "part=1 type=int n=1024";
    lab06_data d;
    generate(params, 5, &d);
    int32_t *out = int_scan(&d, 1024, 0);
    out[700] += d.iin[699] ? d.iin[699] : 1;
    ck_assert_int_eq(run_check(params, 5, &d, out, 1024, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "scan_block_int: 1 of 1024 elements differ; first wrong index 700") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "racecheck") != NULL, "%s", text);
    free(out);
    lab06_free(&d);
    params = "part=1 type=float n=1000";
    generate(params, 6, &d);
    float *fout = float_scan(&d, 1024, 0);
    fout[999] += 0.5f;
    ck_assert_int_eq(run_check(params, 6, &d, fout, 1000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 999") != NULL, "%s", text);
    free(fout);
    lab06_free(&d);
}
END_TEST

/* A student report's chunked block totals: one chunk's carry counted twice. */
START_TEST(doubled_carry_fails)
{
    char text[2048];
    const char *params = "part=2 type=int n=600000";
    lab06_data d;
    generate(params, 7, &d);
    int32_t *out = int_scan(&d, 1024, 0);
    int32_t carry = out[465 * 1024 - 1];
    for (int i = 465 * 1024; i < d.n; i++)
        out[i] += carry;
    ck_assert_int_eq(run_check(params, 7, &d, out, 600000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 476160") != NULL, "%s", text);
    free(out);
    lab06_free(&d);
}
END_TEST

START_TEST(float_bound_grows_with_the_prefix)
{
    char text[2048];
    const char *params = "part=2 type=float n=4096";
    lab06_data d;
    generate(params, 8, &d);
    float *out = float_scan(&d, 1024, 0);
    /* a few ulps on the last element are rounding; 1.0 is not (the bound
     * there is about 8 sqrt(4096) u sum|in|, some 0.06) */
    out[4095] = nextafterf(nextafterf(out[4095], INFINITY), INFINITY);
    ck_assert_msg(run_check(params, 8, &d, out, 4096, KERNEL, text, sizeof text) == 0, "%s", text);
    out[4095] += 1.0f;
    ck_assert_int_eq(run_check(params, 8, &d, out, 4096, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "allowed error") != NULL, "%s", text);
    /* but out[0] is one input: it must be exact */
    free(out);
    out = float_scan(&d, 1024, 0);
    out[0] = nextafterf(out[0], INFINITY);
    ck_assert_int_eq(run_check(params, 8, &d, out, 4096, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 0") != NULL, "%s", text);
    out[0] = NAN;
    ck_assert_int_eq(run_check(params, 8, &d, out, 4096, KERNEL, text, sizeof text), 1);
    free(out);
    lab06_free(&d);
}
END_TEST

START_TEST(unwritten_short_empty_library)
{
    char text[2048];
    const char *params = "part=2 type=float n=3000";
    lab06_data d;
    generate(params, 9, &d);
    float *poison = malloc(3000 * sizeof *poison);
    memset(poison, 0xFF, 3000 * sizeof *poison);
    ck_assert_int_eq(run_check(params, 9, &d, poison, 3000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no output element was written") != NULL, "%s", text);
    free(poison);
    float *out = float_scan(&d, 1024, 0);
    ck_assert_int_eq(run_check(params, 9, &d, out, 2999, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "wrong length") != NULL, "%s", text);
    ck_assert_int_eq(run_check(params, 9, &d, out, 3000, "", text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no kernel of its own") != NULL, "%s", text);
    ck_assert_int_eq(run_check(params, 9, &d, out, 3000,
                               "0\t1,1,1\t128,1,1\t5000\tvoid cub::CUB_300000_SM_900::DeviceScanKernel<float>()\n",
                               text, sizeof text),
                     1);
    ck_assert_msg(strstr(text, "CUB") != NULL, "%s", text);
    free(out);
    lab06_free(&d);
    params = "part=1 type=int n=0";
    generate(params, 9, &d);
    int32_t none = 0;
    ck_assert_msg(run_check(params, 9, &d, &none, 0, "", text, sizeof text) == 0, "%s", text);
    lab06_free(&d);
}
END_TEST

START_TEST(bad_parameters_are_reported)
{
    char why[512];
    float x = 0;
    static const struct {
        const char *params, *phrase;
    } bad[] = {{"part=1 n=1025", "<= 1024 for part 1"},
               {"part=3 n=10", "part must be 1 or 2"},
               {"part=2 n=10 type=double", "type must be"},
               {"part=2 n=10 dist=normal", "dist must be"},
               {"part=2", "n must be given"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kit_writer *w = lct_open();
        kit_writer_put(w, "out", KIT_T_F32, &x, 1);
        lct_trace(w, "0\tscan\t1\t\n", KERNEL);
        ck_assert_int_eq(lct_check(w, bad[i].params, 1, why, sizeof why), 1);
        ck_assert_msg(strstr(why, bad[i].phrase) != NULL, "%s: %s", bad[i].params, why);
    }
}
END_TEST

START_TEST(int_prefixes_fit)
{
    lab06_data d;
    generate("part=2 type=int n=100000", 10, &d);
    int lo = 0, hi = 0;
    for (int i = 0; i < d.n; i++) {
        ck_assert(d.iin[i] >= -8 && d.iin[i] <= 8);
        lo |= d.iin[i] == -8;
        hi |= d.iin[i] == 8;
    }
    ck_assert(lo && hi);
    lab06_free(&d);
}
END_TEST

/* Evidence that the kernels did the work: a right scan computed on the host behind a token
 * kernel fails on the copy of the input to the host; a hierarchical scan that
 * brings only its block totals back to the host passes. */
START_TEST(host_scan_behind_a_token_kernel_fails)
{
    char text[2048];
    const char *params = "part=2 type=float n=10^5";
    lab06_data d;
    generate(params, 11, &d);
    float *out = float_scan(&d, 1024, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_F32, out, (uint64_t)d.n);
    lct_trace(w, call_line(&d), "0\t1,1,1\t1,1,1\t2000\t1000\t3000\t7\t-\tvoid touch(const float *)\n");
    kit_writer_put_text(w, "trace.copies", "0\tD2H\t400000\t4000\t9000\t7\tpageable\n0\tH2D\t400000\t9000\t14000\t7\tdevice\n");
    ck_assert_int_eq(lct_run(w, params, 11, "", 0, 1, 1, 1, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "scan() copied 400.0 kB of device data to host memory"), "%s", text);
    w = lct_open(); /* the 98 block totals scanned on the host: 392 bytes, fine */
    kit_writer_put(w, "out", KIT_T_F32, out, (uint64_t)d.n);
    lct_trace(w, call_line(&d), "0\t98,1,1\t1024,1,1\t20000\t1000\t21000\t7\t-\tvoid scan_blocks<float>()\n"
                                "0\t98,1,1\t1024,1,1\t9000\t30000\t39000\t7\t-\tvoid add_offsets<float>()\n");
    kit_writer_put_text(w, "trace.copies", "0\tD2H\t392\t22000\t23000\t7\tpageable\n0\tH2D\t392\t24000\t25000\t7\tdevice\n");
    ck_assert_msg(lct_run(w, params, 11, "", 0, 1, 1, 1, text, sizeof text) == 0, "%s", text);
    free(out);
    lab06_free(&d);
}
END_TEST

static Suite *lab06_suite(void)
{
    Suite *s = suite_create("lab06-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_scans_pass);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, timed_calls_have_the_float_bound);
    tcase_add_test(tc, block_local_scans_fail);
    tcase_add_test(tc, race_corrupted_part1_fails);
    tcase_add_test(tc, doubled_carry_fails);
    tcase_add_test(tc, float_bound_grows_with_the_prefix);
    tcase_add_test(tc, unwritten_short_empty_library);
    tcase_add_test(tc, bad_parameters_are_reported);
    tcase_add_test(tc, int_prefixes_fit);
    tcase_add_test(tc, host_scan_behind_a_token_kernel_fails);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab06_suite)
