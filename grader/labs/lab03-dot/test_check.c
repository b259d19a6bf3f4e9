/* test_check.c - lab03's checker on the CPU: right answers pass, the
 * mistakes the lab is about fail with a message that names them. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "lab_check_test.h"

static const char *CALL_F = "0\tdot_shared\t1\t\n";
static const char *CALL_I = "0\tdot_shared_int\t1\t\n";
static const char *KERNEL = "0\t1024,1,1\t256,1,1\t150000\tdot_partial<float>(const float *, const float *, float *, int)\n";

/* The float dot product of the case's inputs, summed in double and rounded
 * (what a correct kernel gets, to within the bound); `drop` leaves out the
 * last `drop` elements, like a kernel that loses the final partial block. */
static float float_result(const char *params, uint64_t seed, int drop)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab03_data d;
    ck_assert_int_eq(lab03_generate(&p, seed, &d, err, sizeof err), 0);
    double s = 0, abs_sum;
    s = kit_ref_dot_f32(d.fa, d.fb, (size_t)(d.n - drop), &abs_sum);
    lab03_free(&d);
    return (float)s;
}

START_TEST(right_float_passes)
{
    char why[512];
    const char *params = "type=float n=257";
    float r = float_result(params, 42, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_msg(lct_check(w, params, 42, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(lost_element_fails)
{
    char why[512];
    const char *params = "type=float n=257 dist=positive";
    float r = float_result(params, 7, 1);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 7, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "dot_shared"));
    ck_assert_ptr_nonnull(strstr(why, "expected"));
}
END_TEST

START_TEST(nan_and_empty_input)
{
    char why[512];
    float nan = NAN, zero = 0;
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &nan, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, "type=float n=31", 3, why, sizeof why), 1);
    /* n = 0: the answer is exactly 0, and no kernel is required. */
    w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &zero, 1);
    lct_trace(w, "0\tdot_shared\t0\t\n", "");
    ck_assert_msg(lct_check(w, "type=float n=0", 3, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(int_must_be_exact)
{
    char why[512], err[128];
    kit_params p;
    kit_params_parse("type=int n=1000", &p, err, sizeof err);
    lab03_data d;
    lab03_generate(&p, 9, &d, err, sizeof err);
    int exact = (int)kit_ref_dot_i32(d.ia, d.ib, (size_t)d.n);
    lab03_free(&d);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &exact, 1);
    lct_trace(w, CALL_I, KERNEL);
    ck_assert_msg(lct_check(w, "type=int n=1000", 9, why, sizeof why) == 0, "%s", why);
    int off = exact + 1;
    w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &off, 1);
    lct_trace(w, CALL_I, KERNEL);
    ck_assert_int_eq(lct_check(w, "type=int n=1000", 9, why, sizeof why), 1);
    /* The starter's stub: returns 0 and launches nothing. */
    int zero = 0;
    w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &zero, 1);
    lct_trace(w, CALL_I, "");
    ck_assert_int_eq(lct_check(w, "type=int n=1000", 9, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
}
END_TEST

START_TEST(cpu_or_library_results_fail)
{
    char why[512];
    const char *params = "type=float n=1000";
    float r = float_result(params, 5, 0);
    kit_writer *w = lct_open(); /* right value, computed on the host */
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, "");
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* right value, from CUB */
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, "0\t1,1,1\t256,1,1\t9000\tvoid cub::CUB_300000_SM_900::DeviceReduceSingleTileKernel<float>()\n");
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "CUB"));
    w = lct_open(); /* a missing output */
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "result"));
}
END_TEST

/* variant=ladder (make run-lab03 only): its parameters are checked, with
 * one line naming the value and what is allowed. */
START_TEST(ladder_parameters)
{
    char err[256];
    kit_params p;
    lab03_data d;
    ck_assert_int_eq(kit_params_parse("variant=ladder", &p, err, sizeof err), 0);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), 0);
    ck_assert_int_eq(d.ladder, 1);
    ck_assert_int_eq(d.n, 1 << 24); /* the default size */
    lab03_free(&d);
    kit_params_parse("variant=ladder n=1000", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "multiple of 512 (got n=1000)"));
    kit_params_parse("variant=ladder n=1024 type=int", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    kit_params_parse("variant=tree n=1024", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    ck_assert_str_eq(err, "variant must be dot or ladder (got 'tree')");
}
END_TEST

static Suite *lab03_suite(void)
{
    Suite *s = suite_create("lab03-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_float_passes);
    tcase_add_test(tc, lost_element_fails);
    tcase_add_test(tc, nan_and_empty_input);
    tcase_add_test(tc, int_must_be_exact);
    tcase_add_test(tc, cpu_or_library_results_fail);
    tcase_add_test(tc, ladder_parameters);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab03_suite)
