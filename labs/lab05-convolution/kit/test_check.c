/* test_check.c - lab05's checker on the CPU: right outputs pass, the
 * mistakes the lab is about fail with a message that names them. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "kit/util.h"
#include "lab_check_test.h"

static const char *KERNEL = "0\t4,1,1\t256,1,1\t20000\tvoid conv_tiled<float>(const float *, float *, int, int)\n";

static void generate(const char *params, uint64_t seed, lab05_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_msg(lab05_generate(&p, seed, d, err, sizeof err) == 0, "%s", err);
}

static const char *call_line(const lab05_data *d)
{
    return d->halo ? "0\tconv1d_halo_global\t1\t\n" : d->is_int ? "0\tconv1d_tiled_int\t1\t\n" : "0\tconv1d_tiled\t1\t\n";
}

/* What a correct float kernel returns: the exact sums rounded to float.
 * drop_ends: as if in[0] and in[n-1] were outside the array (the starter). */
static float *float_result(lab05_data *d, int drop_ends)
{
    size_t n = (size_t)d->n;
    double *exact = malloc((n + 1) * sizeof *exact);
    float *out = malloc((n + 1) * sizeof *out);
    if (drop_ends && n > 0) {
        d->fin[0] = 0.0f;
        d->fin[n - 1] = 0.0f;
    }
    kit_ref_conv1d_f32(d->fin, n, d->fmask, d->mask_size, exact, NULL);
    for (size_t i = 0; i < n; i++)
        out[i] = (float)exact[i];
    free(exact);
    return out;
}

static int32_t *int_result(lab05_data *d, int drop_ends)
{
    size_t n = (size_t)d->n;
    int64_t *exact = malloc((n + 1) * sizeof *exact);
    int32_t *out = malloc((n + 1) * sizeof *out);
    if (drop_ends && n > 0) {
        d->iin[0] = 0;
        d->iin[n - 1] = 0;
    }
    kit_ref_conv1d_i32(d->iin, n, d->imask, d->mask_size, exact);
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)exact[i];
    free(exact);
    return out;
}

/* Runs the checker on `out` (count elements of d's type); returns 1 when it
 * failed, with the summary and all detail lines in text. */
static int run_check(const char *params, uint64_t seed, const lab05_data *d, const void *out, uint64_t count,
                     const char *kernels, char *text, size_t len)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", d->is_int ? KIT_T_I32 : KIT_T_F32, out, count);
    lct_trace(w, call_line(d), kernels);
    return lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
}

/* A benchmark's outputs: the checked convolution, then one timed call on
 * fresh contents, sampled; `stale` makes the sampled values the checked
 * call's (an output left from an earlier call). */
static int run_timed(const char *params, uint64_t seed, int stale, char *text, size_t len)
{
    lab05_data d;
    generate(params, seed, &d);
    int64_t n = d.n, shift = n / 3;
    double scale = 4;
    float *out = float_result(&d, 0);
    float *x = malloc((size_t)n * sizeof *x), *fresh = malloc((size_t)n * sizeof *fresh);
    double *exact = malloc((size_t)n * sizeof *exact);
    kit_fresh_apply_host(d.fin, x, n, shift, scale);
    kit_ref_conv1d_f32(x, (size_t)n, d.fmask, d.mask_size, exact, NULL);
    int64_t idx[LAB05_TIMED_SAMPLE];
    float val[LAB05_TIMED_SAMPLE];
    for (int j = 0; j < LAB05_TIMED_SAMPLE; j++) {
        idx[j] = (int64_t)((j * 7919LL) % n);
        val[j] = stale ? out[idx[j]] : (float)exact[idx[j]];
    }
    int32_t call = 17;
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_F32, out, (uint64_t)n);
    lct_timed(w, &call, &shift, &scale, 1, idx, val, LAB05_TIMED_SAMPLE);
    lct_trace(w, call_line(&d), KERNEL);
    int rc = lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
    free(out), free(x), free(fresh), free(exact);
    lab05_free(&d);
    return rc;
}

START_TEST(timed_calls_are_checked)
{
    char text[2048];
    const char *params = "type=float n=5001 mask=7";
    ck_assert_msg(run_timed(params, 9, 0, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run_timed(params, 9, 1, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 17 of conv1d_tiled"), "%s", text);
}
END_TEST

START_TEST(right_outputs_pass)
{
    static const char *cases[] = {"variant=tiled type=float n=1000 mask=21", "variant=halo type=float n=3 mask=11",
                                  "variant=tiled type=float n=1 mask=31", "variant=tiled type=int n=777 mask=15",
                                  "variant=tiled type=int n=2 mask=1"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[2048];
        lab05_data d;
        generate(cases[c], 40 + c, &d);
        void *out = d.is_int ? (void *)int_result(&d, 0) : (void *)float_result(&d, 0);
        ck_assert_msg(run_check(cases[c], 40 + c, &d, out, (uint64_t)d.n, KERNEL, text, sizeof text) == 0, "%s: %s",
                      cases[c], text);
        free(out);
        lab05_free(&d);
    }
}
END_TEST

START_TEST(worked_example_is_exact)
{
    char text[2048];
    const char *params = "data=example type=int";
    lab05_data d;
    generate(params, 1, &d);
    ck_assert_int_eq(d.n, 8);
    int32_t expected[8] = {11, 11, 15, 22, 32, 32, 26, 14};
    ck_assert_msg(run_check(params, 1, &d, expected, 8, KERNEL, text, sizeof text) == 0, "%s", text);
    expected[4] = 31;
    ck_assert_int_eq(run_check(params, 1, &d, expected, 8, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 4: expected 32, got 31") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "worked example") != NULL, "%s", text);
    lab05_free(&d);
    /* the float version of the example must come out exactly too */
    params = "data=example type=float variant=halo";
    generate(params, 1, &d);
    float fexp[8] = {11, 11, 15, 22, 32, 32, 26, 14};
    ck_assert_msg(run_check(params, 1, &d, fexp, 8, KERNEL, text, sizeof text) == 0, "%s", text);
    fexp[7] = 14.0f + 1.0f / 1024;
    ck_assert_int_eq(run_check(params, 1, &d, fexp, 8, KERNEL, text, sizeof text), 1);
    lab05_free(&d);
}
END_TEST

/* The starter: in[0] and in[n-1] treated as outside the array. */
START_TEST(dropped_end_elements_fail)
{
    char text[2048];
    const char *params = "variant=tiled type=float n=1000 mask=15";
    lab05_data d;
    generate(params, 2, &d);
    float *out = float_result(&d, 1);
    lab05_free(&d);
    generate(params, 2, &d); /* float_result changed the inputs */
    ck_assert_int_eq(run_check(params, 2, &d, out, 1000, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "conv1d_tiled: ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "first wrong index 0") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "ends of the array") != NULL, "%s", text);
    free(out);
    lab05_free(&d);
    params = "variant=tiled type=int n=300 mask=21";
    generate(params, 3, &d);
    int32_t *iout = int_result(&d, 1);
    lab05_free(&d);
    generate(params, 3, &d);
    ck_assert_int_eq(run_check(params, 3, &d, iout, 300, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "ends of the array") != NULL, "%s", text);
    free(iout);
    lab05_free(&d);
}
END_TEST

START_TEST(float_tolerance_follows_the_bound)
{
    char text[2048];
    const char *params = "variant=halo type=float n=500 mask=21";
    lab05_data d;
    generate(params, 4, &d);
    float *out = float_result(&d, 0);
    out[250] = nextafterf(nextafterf(out[250], INFINITY), INFINITY); /* two ulps: rounding noise */
    ck_assert_msg(run_check(params, 4, &d, out, 500, KERNEL, text, sizeof text) == 0, "%s", text);
    out[250] += 1e-3f; /* a real error */
    ck_assert_int_eq(run_check(params, 4, &d, out, 500, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "first wrong index 250") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "allowed error") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "ends of the array") == NULL, "%s", text);
    out[250] = NAN;
    ck_assert_int_eq(run_check(params, 4, &d, out, 500, KERNEL, text, sizeof text), 1);
    free(out);
    lab05_free(&d);
}
END_TEST

START_TEST(unwritten_output_is_named)
{
    char text[2048];
    const char *params = "variant=halo type=float n=100 mask=5";
    lab05_data d;
    generate(params, 5, &d);
    float poison[100];
    memset(poison, 0xFF, sizeof poison);
    ck_assert_int_eq(run_check(params, 5, &d, poison, 100, "", text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no kernel of its own") != NULL, "%s", text); /* the starter's stub */
    ck_assert_int_eq(run_check(params, 5, &d, poison, 100, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no output element was written") != NULL, "%s", text);
    lab05_free(&d);
    params = "variant=tiled type=int n=50 mask=3";
    generate(params, 5, &d);
    int32_t minus_one[50];
    memset(minus_one, 0xFF, sizeof minus_one);
    ck_assert_int_eq(run_check(params, 5, &d, minus_one, 50, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no output element was written") != NULL, "%s", text);
    lab05_free(&d);
}
END_TEST

START_TEST(length_empty_and_library)
{
    char text[2048];
    const char *params = "variant=tiled type=float n=300 mask=5";
    lab05_data d;
    generate(params, 6, &d);
    float *out = float_result(&d, 0);
    ck_assert_int_eq(run_check(params, 6, &d, out, 299, KERNEL, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "wrong length") != NULL, "%s", text);
    ck_assert_int_eq(run_check(params, 6, &d, out, 300,
                               "0\t1,1,1\t128,1,1\t5000\tvoid thrust::cuda_cub::core::_kernel_agent<float>()\n", text,
                               sizeof text),
                     1);
    ck_assert_msg(strstr(text, "Thrust") != NULL, "%s", text);
    free(out);
    lab05_free(&d);
    /* n = 0: nothing to compute, no kernel needed */
    params = "variant=tiled type=float n=0 mask=5";
    generate(params, 6, &d);
    kit_writer *w = lct_open();
    float none = 0;
    kit_writer_put(w, "out", KIT_T_F32, &none, 0);
    lct_trace(w, "0\tconv1d_tiled\t0\t\n", "");
    ck_assert_msg(lct_check(w, params, 6, text, sizeof text) == 0, "%s", text);
    lab05_free(&d);
}
END_TEST

START_TEST(bad_parameters_are_reported)
{
    char why[512];
    float x = 0;
    static const struct {
        const char *params, *phrase;
    } bad[] = {{"variant=halo type=int n=10", "float only"},
               {"n=10 mask=4", "mask must be odd"},
               {"n=10 mask=33", "mask must be odd"},
               {"n=10 variant=constant", "variant must be"},
               {"n=10 data=ones", "data must be"},
               {"mask=5", "n must be given"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        kit_writer *w = lct_open();
        kit_writer_put(w, "out", KIT_T_F32, &x, 1);
        lct_trace(w, "0\tconv1d_tiled\t1\t\n", KERNEL);
        ck_assert_int_eq(lct_check(w, bad[i].params, 1, why, sizeof why), 1);
        ck_assert_msg(strstr(why, bad[i].phrase) != NULL, "%s: %s", bad[i].params, why);
    }
}
END_TEST

START_TEST(int_data_has_no_zeros)
{
    lab05_data d;
    generate("type=int n=100000 mask=31", 7, &d);
    int seen_min = 0, seen_max = 0;
    for (int i = 0; i < d.n; i++) {
        ck_assert_int_ne(d.iin[i], 0);
        ck_assert(d.iin[i] >= -9 && d.iin[i] <= 9);
        seen_min |= d.iin[i] == -9;
        seen_max |= d.iin[i] == 9;
    }
    for (int j = 0; j < d.mask_size; j++)
        ck_assert(d.imask[j] != 0 && d.imask[j] >= -4 && d.imask[j] <= 4);
    ck_assert(seen_min && seen_max);
    lab05_free(&d);
}
END_TEST

static Suite *lab05_suite(void)
{
    Suite *s = suite_create("lab05-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_outputs_pass);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, worked_example_is_exact);
    tcase_add_test(tc, dropped_end_elements_fail);
    tcase_add_test(tc, float_tolerance_follows_the_bound);
    tcase_add_test(tc, unwritten_output_is_named);
    tcase_add_test(tc, length_empty_and_library);
    tcase_add_test(tc, bad_parameters_are_reported);
    tcase_add_test(tc, int_data_has_no_zeros);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab05_suite)
