/* test_check.c - lab12's checker on the CPU: the right output passes, an
 * element never written (the NaN poison) and a wrong one fail, naming the
 * index. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "lab_check_test.h"

static const char *CALL = "0\ttoeplitz_matvec\t1\t\n";
static const char *KERNEL = "0\t4,1,1\t256,1,1\t150000\ttoeplitz_matvec_kernel(const float *, float *, int)\n";

/* The case's right output; `broken` >= 0: that element NaN (never written). */
static kit_writer *output(const char *params, uint64_t seed, int broken)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab12_data d;
    ck_assert_int_eq(lab12_generate(&p, seed, &d, err, sizeof err), 0);
    float *out = malloc((d.n ? (size_t)d.n : 1) * sizeof *out);
    for (int i = 0; i < d.n; i++)
        out[i] = i == broken ? NAN : d.in[i] * d.in[i] + 1.0f;
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_F32, out, (uint64_t)d.n);
    lct_trace(w, CALL, KERNEL);
    free(out);
    lab12_free(&d);
    return w;
}

START_TEST(right_output_passes)
{
    char why[512];
    ck_assert_int_eq(lct_check(output("n=257", 7, -1), "n=257", 7, why, sizeof why), 0);
    ck_assert_int_eq(lct_check(output("n=0", 7, -1), "n=0", 7, why, sizeof why), 0);
}
END_TEST

START_TEST(unwritten_element_fails)
{
    char why[512];
    ck_assert_int_eq(lct_check(output("n=257", 7, 256), "n=257", 7, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "256"), "%s", why);
}
END_TEST

START_TEST(other_seed_fails)
{
    char why[512];
    ck_assert_int_eq(lct_check(output("n=1000", 7, -1), "n=1000", 8, why, sizeof why), 1);
}
END_TEST

static Suite *check_suite(void)
{
    Suite *s = suite_create("lab12 check");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, right_output_passes);
    tcase_add_test(tc, unwritten_element_fails);
    tcase_add_test(tc, other_seed_fails);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(check_suite)
