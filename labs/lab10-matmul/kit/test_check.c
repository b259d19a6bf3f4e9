/* test_check.c - lab10's checker on the CPU: right products pass (also on
 * the sampled path for large sizes), the bugs the lab is about fail with a
 * message that names them. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "lab_check_test.h"

static const char *CALL = "0\tmatmul_tiled\t1\t\n";
static const char *CALL_NO_KERNEL = "0\tmatmul_tiled\t0\t\n"; /* the harness: no kernel needed (k = 0, empty C) */
static const char *KERNEL = "0\t2,2,1\t32,32,1\t9000\tmatmul_kernel(const float *, const float *, float *, int, int, int)\n";

/* C = A B in float, the way a GPU kernel sums (in order along k).  pad > 0
 * imitates clamp-to-edge loads with tiles of `pad`: the padded elements of
 * the last tile along k repeat a[i][k-1] b[k-1][j].  Returns m*n floats. */
static float *cpu_product(const char *params, uint64_t seed, int pad, int *m_out, int *n_out)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab10_data d;
    ck_assert_int_eq(lab10_generate(&p, seed, &d, err, sizeof err), 0);
    int kk = pad && d.k % pad ? (d.k / pad + 1) * pad : d.k;
    float *c = calloc((size_t)d.m * d.n + 1, sizeof *c);
    for (int i = 0; i < d.m; i++)
        for (int q = 0; q < kk; q++) {
            int p_ = q < d.k ? q : d.k - 1;
            float a = d.a[(size_t)i * d.k + p_];
            for (int j = 0; j < d.n; j++)
                c[(size_t)i * d.n + j] += a * d.b[(size_t)p_ * d.n + j];
        }
    *m_out = d.m, *n_out = d.n;
    lab10_free(&d);
    return c;
}

static int verdict(const char *params, uint64_t seed, const float *c, size_t count, const char *kernels, char *why,
                   size_t len)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, c, count);
    lct_trace(w, kernels[0] ? CALL : CALL_NO_KERNEL, kernels);
    return lct_run(w, params, seed, "", 0, 1, 1, 1, why, len);
}

START_TEST(right_product_passes)
{
    char why[1024];
    int m, n;
    const char *cases[] = {"m=33 n=47 k=70", "m=1 n=1 k=1", "m=1 n=513 k=7", "m=64 n=64 k=65 dist=positive"};
    for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
        float *c = cpu_product(cases[t], 11, 0, &m, &n);
        ck_assert_msg(verdict(cases[t], 11, c, (size_t)m * n, KERNEL, why, sizeof why) == 0, "%s: %s", cases[t], why);
        ck_assert_ptr_nonnull(strstr(why, "compared"));
        free(c);
    }
}
END_TEST

/* A benchmark's outputs for m=33 n=47 k=70: the checked C, then one timed
 * call on a fresh A (rows rotated by `rows`, plus `off` elements, scaled by
 * 2), sampled; `stale` makes the samples the checked call's C (left from an
 * earlier call).  Returns the verdict, why the text. */
static int timed_case(int64_t rows, int64_t off, int stale, char *why, size_t len)
{
    char err[128];
    const char *params = "m=33 n=47 k=70";
    int m, n;
    float *c = cpu_product(params, 11, 0, &m, &n);
    kit_params p;
    kit_params_parse(params, &p, err, sizeof err);
    lab10_data d;
    lab10_generate(&p, 11, &d, err, sizeof err);
    int64_t shift = rows * (int64_t)d.k + off, idx[LAB10_TIMED_SAMPLE];
    double scale = 2;
    float val[LAB10_TIMED_SAMPLE];
    int32_t call = 9;
    for (int j = 0; j < LAB10_TIMED_SAMPLE; j++) {
        idx[j] = (int64_t)((j * 7919LL) % ((int64_t)m * n));
        int64_t row = idx[j] / n, col = idx[j] % n, src = (row + rows) % m;
        double e = 0;
        for (int q = 0; q < d.k; q++)
            e += 2.0 * d.a[src * d.k + q] * d.b[(size_t)q * n + col];
        val[j] = stale ? c[idx[j]] : (float)e;
    }
    kit_writer *w = lct_open();
    kit_writer_put(w, "c", KIT_T_F32, c, (uint64_t)m * n);
    lct_timed(w, &call, &shift, &scale, 1, idx, val, LAB10_TIMED_SAMPLE);
    lct_trace(w, CALL, KERNEL);
    int rc = lct_run(w, params, 11, "", 0, 1, 1, 1, why, len);
    lab10_free(&d);
    free(c);
    return rc;
}

START_TEST(timed_calls_are_checked)
{
    char why[1024];
    ck_assert_msg(timed_case(5, 0, 0, why, sizeof why) == 0, "%s", why);
    /* the last row: a shift of 32 k = 2240 elements, beyond m n = 1551 (C's length) but within A's m k */
    ck_assert_msg(timed_case(32, 0, 0, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(timed_case(5, 0, 1, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timed call 9 of matmul_tiled"), "%s", why);
    /* a shift of no whole rows, or beyond A: never made by the kit */
    ck_assert_int_eq(timed_case(5, 1, 0, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timed call 9 of matmul_tiled"), "%s", why);
    ck_assert_int_eq(timed_case(33, 0, 0, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timed call 9 of matmul_tiled: its inputs were not recorded"), "%s", why);
}
END_TEST

START_TEST(clamped_loads_fail_with_hint)
{
    char why[1024];
    int m, n;
    const char *params = "m=64 n=64 k=65"; /* the starter's clamp with 16-wide tiles: 15 extra products */
    float *c = cpu_product(params, 5, 16, &m, &n);
    ck_assert_int_eq(verdict(params, 5, c, (size_t)m * n, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "first wrong C[0][0]"));
    ck_assert_ptr_nonnull(strstr(why, "15 extra copies of a[0][64] * b[64][0]"));
    free(c);
}
END_TEST

START_TEST(unwritten_edge_is_named)
{
    char why[1024];
    int m, n;
    const char *params = "m=40 n=40 k=8";
    float *c = cpu_product(params, 3, 0, &m, &n);
    /* a grid of n/16 x m/16 blocks: rows and columns from 32 on are never written */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (i >= 32 || j >= 32)
                c[(size_t)i * n + j] = NAN;
    ck_assert_int_eq(verdict(params, 3, c, (size_t)m * n, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "first wrong C[0][32]"));
    ck_assert_ptr_nonnull(strstr(why, "no thread wrote it"));
    /* the same elements written, but with a wrong value: the partial tiles are named */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (i >= 32 || j >= 32)
                c[(size_t)i * n + j] = 0.0f;
    ck_assert_int_eq(verdict(params, 3, c, (size_t)m * n, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "partial tile row or column (for 16 x 16 tiles)"));
    free(c);
}
END_TEST

START_TEST(empty_and_k_zero)
{
    char why[1024];
    float zeros[12] = {0};
    /* k = 0: C is all zeros; no kernel needed */
    ck_assert_msg(verdict("m=4 n=3 k=0", 1, zeros, 12, "", why, sizeof why) == 0, "%s", why);
    zeros[7] = 1e-30f;
    ck_assert_int_eq(verdict("m=4 n=3 k=0", 1, zeros, 12, "", why, sizeof why), 1);
    /* m = 0: nothing to compute, nothing to write */
    ck_assert_msg(verdict("m=0 n=5 k=5", 1, zeros, 0, "", why, sizeof why) == 0, "%s", why);
    /* a wrong number of elements */
    ck_assert_int_eq(verdict("m=4 n=3 k=2", 1, zeros, 11, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "expected m*n = 12"));
}
END_TEST

START_TEST(host_result_fails)
{
    char why[1024];
    int m, n;
    const char *params = "m=33 n=47 k=70";
    float *c = cpu_product(params, 8, 0, &m, &n);
    kit_writer *w = lct_open(); /* right values, computed on the host */
    kit_writer_put(w, "c", KIT_T_F32, c, (size_t)m * n);
    lct_trace(w, CALL, "");
    ck_assert_int_eq(lct_check(w, params, 8, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    ck_assert_int_eq(verdict(params, 8, c, (size_t)m * n,
                             "0\t1,1,1\t128,1,1\t9000\tvoid cutlass::Kernel<cutlass_80_tensorop_s1688gemm>()\n", why,
                             sizeof why),
                     1);
    free(c);
}
END_TEST

/* Above 2^27 multiply-adds the checker samples rows and columns and probes
 * the rest: a right product passes, and one wrong element anywhere fails. */
START_TEST(sampled_path)
{
    char why[1024];
    int m, n;
    const char *params = "m=600 n=520 k=480";
    float *c = cpu_product(params, 21, 0, &m, &n);
    ck_assert_msg(verdict(params, 21, c, (size_t)m * n, KERNEL, why, sizeof why) == 0, "%s", why);
    ck_assert_ptr_nonnull(strstr(why, "probed with random vectors"));
    c[(size_t)300 * n + 250] += 2.0f; /* about one product's worth x 8 */
    ck_assert_int_eq(verdict(params, 21, c, (size_t)m * n, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "300"));
    c[(size_t)300 * n + 250] = NAN;
    ck_assert_int_eq(verdict(params, 21, c, (size_t)m * n, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "C[300][250] is NaN"));
    free(c);
}
END_TEST

START_TEST(bad_parameters)
{
    char why[1024];
    float z = 0;
    ck_assert_int_eq(verdict("n=4", 1, &z, 1, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "m must be given"));
    ck_assert_int_eq(verdict("m=65536 n=65536 k=1", 1, &z, 1, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "at most 2^26 elements"));
    ck_assert_int_eq(verdict("m=4 dist=ones", 1, &z, 1, KERNEL, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "dist must be uniform or positive (got 'ones')"));
}
END_TEST

static Suite *lab10_suite(void)
{
    Suite *s = suite_create("lab10-check");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, right_product_passes);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, clamped_loads_fail_with_hint);
    tcase_add_test(tc, unwritten_edge_is_named);
    tcase_add_test(tc, empty_and_k_zero);
    tcase_add_test(tc, host_result_fails);
    tcase_add_test(tc, sampled_path);
    tcase_add_test(tc, bad_parameters);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab10_suite)
