/* test_ref.c - every CPU reference on small cases computed by hand. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "kit/gen.h"
#include "kit/ref.h"

/* The references run on several threads; every output element keeps its
 * sequential order of operations, so the bits do not depend on the number
 * of threads (the dot product's fixed pieces neither). */
static void crout_on(int threads, const double *a, int n, double *l, double *u, int *rc)
{
    char t[8];
    snprintf(t, sizeof t, "%d", threads);
    setenv("KIT_THREADS", t, 1);
    *rc = kit_ref_crout(a, n, l, u, 0, NULL);
    unsetenv("KIT_THREADS");
}

START_TEST(threads_give_the_same_bits)
{
    int n = 400;
    size_t nn = (size_t)n * n;
    double *a = malloc(nn * sizeof *a), *l1 = malloc(nn * sizeof *l1), *u1 = malloc(nn * sizeof *u1),
           *l5 = malloc(nn * sizeof *l5), *u5 = malloc(nn * sizeof *u5);
    ck_assert(a && l1 && u1 && l5 && u5);
    kit_rng r;
    kit_rng_seed(&r, 99, 0);
    kit_gen_diag_dominant(&r, a, n);
    int rc1, rc5;
    crout_on(1, a, n, l1, u1, &rc1);
    crout_on(5, a, n, l5, u5, &rc5);
    ck_assert_int_eq(rc1, rc5);
    ck_assert_msg(!memcmp(l1, l5, nn * sizeof *l1) && !memcmp(u1, u5, nn * sizeof *u1), "Crout differs on 5 threads");

    size_t m = (1u << 20) + 3;
    float *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
    ck_assert(x && y);
    kit_gen_uniform_f32(&r, x, m, -1, 1);
    kit_gen_uniform_f32(&r, y, m, -1, 1);
    double d[2], abs_[2];
    for (int k = 0; k < 2; k++) {
        setenv("KIT_THREADS", k ? "3" : "1", 1);
        d[k] = kit_ref_dot_f32(x, y, m, &abs_[k]);
    }
    unsetenv("KIT_THREADS");
    ck_assert(d[0] == d[1] && abs_[0] == abs_[1]);
    /* the scan: the same bits on 1 and 3 threads, and the sequential sums
     * within a few units of the last place */
    double *s1 = malloc(m * sizeof *s1), *s3 = malloc(m * sizeof *s3);
    ck_assert(s1 && s3);
    setenv("KIT_THREADS", "1", 1);
    kit_ref_scan_f32(x, m, s1, NULL);
    setenv("KIT_THREADS", "3", 1);
    kit_ref_scan_f32(x, m, s3, NULL);
    unsetenv("KIT_THREADS");
    ck_assert(!memcmp(s1, s3, m * sizeof *s1));
    double run = 0, run_abs = 0;
    for (size_t i = 0; i < m; i++) {
        run += x[i], run_abs += fabs(x[i]);
        ck_assert_msg(fabs(s1[i] - run) <= 1e-12 * run_abs + 1e-300, "scan[%zu] = %.17g, sequential %.17g", i, s1[i], run);
    }
    free(s1), free(s3);
    free(a), free(l1), free(u1), free(l5), free(u5), free(x), free(y);
}
END_TEST

START_TEST(vadd)
{
    float a[3] = {1.5f, 16777216.0f, -2.0f}, b[3] = {2.25f, 1.0f, 2.0f};
    double c[3];
    kit_ref_vadd_f32(a, b, c, 3);
    ck_assert_double_eq(c[0], 3.75);
    ck_assert_double_eq(c[1], 16777217.0); /* exact in double, not representable in float */
    ck_assert_double_eq(c[2], 0.0);
}
END_TEST

START_TEST(dot)
{
    float a[4] = {1, 2, 3, -4}, b[4] = {5, -6, 7, 8};
    double abs;
    ck_assert_double_eq(kit_ref_dot_f32(a, b, 4, &abs), -18.0); /* 5 - 12 + 21 - 32 */
    ck_assert_double_eq(abs, 70.0);
    ck_assert_double_eq(kit_ref_dot_f32(a, b, 0, &abs), 0.0);
    ck_assert_double_eq(abs, 0.0);
    /* cancellation: the reference keeps the 1 that float summation loses */
    float c[3] = {1e8f, 1.0f, -1e8f}, ones[3] = {1, 1, 1};
    ck_assert_double_eq(kit_ref_dot_f32(c, ones, 3, NULL), 1.0);
    int32_t ia[4] = {1, 2, 3, -4}, ib[4] = {5, -6, 7, 8};
    ck_assert_int_eq(kit_ref_dot_i32(ia, ib, 4), -18);
    int32_t big[2] = {INT32_MAX, INT32_MAX};
    ck_assert_int_eq(kit_ref_dot_i32(big, big, 2), 2 * (int64_t)INT32_MAX * INT32_MAX);
}
END_TEST

START_TEST(histogram)
{
    int32_t in[9] = {0, 1, 1, 3, -1, 4, 7, 3, 3};
    uint64_t counts[4] = {99, 99, 99, 99};
    ck_assert_uint_eq(kit_ref_histogram(in, 9, 4, counts), 3); /* -1, 4, 7 */
    ck_assert_uint_eq(counts[0], 1);
    ck_assert_uint_eq(counts[1], 2);
    ck_assert_uint_eq(counts[2], 0);
    ck_assert_uint_eq(counts[3], 3);
    ck_assert_uint_eq(kit_ref_histogram(in, 0, 4, counts), 0);
    ck_assert_uint_eq(counts[3], 0); /* cleared */
}
END_TEST

/* The worked example of the convolution lab: boundary terms ignored.
 *   out[2] = 3*1 + 1*2 + 0*3 + 2*2 + 6*1 = 15
 *   out[3] = 1*1 + 0*2 + 2*3 + 6*2 + 3*1 = 22
 *   out[5] = 2*1 + 6*2 + 3*3 + 4*2 + 1*1 = 32 */
static const int32_t conv_in[8] = {3, 1, 0, 2, 6, 3, 4, 1};
static const int32_t conv_mask[5] = {1, 2, 3, 2, 1};
static const int64_t conv_out[8] = {11, 11, 15, 22, 32, 32, 26, 14};

START_TEST(conv1d_int)
{
    int64_t out[8];
    kit_ref_conv1d_i32(conv_in, 8, conv_mask, 5, out);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(out[i] == conv_out[i], "out[%d] = %lld, expected %lld", i, (long long)out[i],
                      (long long)conv_out[i]);
}
END_TEST

START_TEST(conv1d_float)
{
    float in[8], mask[5];
    for (int i = 0; i < 8; i++)
        in[i] = (float)conv_in[i];
    for (int j = 0; j < 5; j++)
        mask[j] = (float)conv_mask[j];
    double out[8], abs[8];
    kit_ref_conv1d_f32(in, 8, mask, 5, out, abs);
    for (int i = 0; i < 8; i++) {
        ck_assert_double_eq(out[i], (double)conv_out[i]);
        ck_assert_double_eq(abs[i], (double)conv_out[i]); /* all terms positive */
    }
    /* signs: out_abs sums magnitudes; out_abs may be NULL */
    in[3] = -2;
    kit_ref_conv1d_f32(in, 8, mask, 5, out, abs);
    ck_assert_double_eq(out[4], 32 - 2 * 2 * 2); /* in[3] has weight 2 in out[4] */
    ck_assert_double_eq(abs[4], 32);
    kit_ref_conv1d_f32(in, 8, mask, 5, out, NULL);
    /* a mask longer than the input: every term but the in-range ones ignored */
    float one[1] = {2}, m3[3] = {1, 10, 100};
    double o1[1];
    kit_ref_conv1d_f32(one, 1, m3, 3, o1, NULL);
    ck_assert_double_eq(o1[0], 20);
}
END_TEST

START_TEST(scan)
{
    float in[5] = {3, -1, 4, -1, 5};
    double out[5], abs[5];
    kit_ref_scan_f32(in, 5, out, abs);
    const double want[5] = {3, 2, 6, 5, 10}, want_abs[5] = {3, 4, 8, 9, 14};
    for (int i = 0; i < 5; i++) {
        ck_assert_double_eq(out[i], want[i]);
        ck_assert_double_eq(abs[i], want_abs[i]);
    }
    int32_t iin[5] = {3, -1, 4, -1, 5};
    int64_t iout[5];
    kit_ref_scan_i32(iin, 5, iout);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(iout[i], (int64_t)want[i]);
}
END_TEST

/* A scan, whole or of each block alone: the first element that is not. */
START_TEST(scan_first_wrong)
{
    const float in[6] = {3, -1, 4, -1, 5, 9};
    float whole[6] = {3, 2, 6, 5, 10, 19}, blocks[6] = {3, 2, 4, 3, 5, 14};
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, whole, 6, 0), 6);
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, blocks, 6, 0), 2);
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, blocks, 6, 2), 6);
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, whole, 6, 2), 2);
    const float threes[6] = {3, 2, 6, -1, 4, 13};
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, threes, 6, 3), 6);
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, threes, 6, 0), 3);
    whole[4] = nextafterf(10, 11); /* within the bound of 5 terms */
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, whole, 6, 0), 6);
    whole[4] = 10.001f;
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, whole, 6, 0), 4);
    whole[4] = NAN;
    ck_assert_uint_eq(kit_scan_first_wrong_f32(in, whole, 6, 0), 4);
    const int32_t iin[6] = {3, -1, 4, -1, 5, 9};
    int32_t iwhole[6] = {3, 2, 6, 5, 10, 19}, iblocks[6] = {3, 2, 4, 3, 5, 14};
    ck_assert_uint_eq(kit_scan_first_wrong_i32(iin, iwhole, 6, 0), 6);
    ck_assert_uint_eq(kit_scan_first_wrong_i32(iin, iblocks, 6, 2), 6);
    ck_assert_uint_eq(kit_scan_first_wrong_i32(iin, iblocks, 6, 0), 2);
    iwhole[5] = 20;
    ck_assert_uint_eq(kit_scan_first_wrong_i32(iin, iwhole, 6, 0), 5);
}
END_TEST

START_TEST(merge_with_ties)
{
    int32_t a[4] = {1, 3, 3, 5}, b[5] = {2, 3, 4, 5, 6}, c[9];
    uint32_t src[9];
    kit_ref_merge_i32(a, 4, b, 5, c, src);
    const int32_t want_c[9] = {1, 2, 3, 3, 3, 4, 5, 5, 6};
    /* ties: a's 3s (a1, a2) before b's 3 (b1 = 4 + 1); a's 5 (a3) before b's (b3 = 4 + 3) */
    const uint32_t want_src[9] = {0, 4, 1, 2, 5, 6, 3, 7, 8};
    for (int k = 0; k < 9; k++) {
        ck_assert_int_eq(c[k], want_c[k]);
        ck_assert_uint_eq(src[k], want_src[k]);
    }
    kit_ref_merge_i32(a, 4, b, 5, c, NULL); /* src may be NULL */
    ck_assert_int_eq(c[8], 6);
}
END_TEST

START_TEST(merge_empty_sides)
{
    int32_t a[3] = {-1, 0, 7}, c[3];
    uint32_t src[3];
    kit_ref_merge_i32(NULL, 0, a, 3, c, src); /* empty A: c = B, src = 0 + j */
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(c[k], a[k]);
        ck_assert_uint_eq(src[k], (uint32_t)k);
    }
    kit_ref_merge_i32(a, 3, NULL, 0, c, src); /* empty B: c = A, src = i */
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(c[k], a[k]);
        ck_assert_uint_eq(src[k], (uint32_t)k);
    }
    kit_ref_merge_i32(NULL, 0, NULL, 0, c, src);
}
END_TEST

/* The 4x4 example of the SpMV lab, with an empty row 2:
 *   [2 0 0 1]       x = [1 -2 3 -4]
 *   [0 4 7 5]       y = [2-4, -8+21-20, 0, 3+6] = [-2, -7, 0, 9]
 *   [0 0 0 0]
 *   [3 0 2 0] */
START_TEST(spmv_example)
{
    static const int row_ptr[5] = {0, 2, 5, 5, 7}, col[7] = {0, 3, 1, 2, 3, 0, 2};
    static const float val[7] = {2, 1, 4, 7, 5, 3, 2};
    kit_csr A;
    char err[128];
    ck_assert_int_eq(kit_csr_from_arrays(&A, 4, 4, row_ptr, col, val, err, sizeof err), 0);
    float x[4] = {1, -2, 3, -4};
    double y[4], y_abs[4];
    kit_ref_spmv_csr(&A, x, y, y_abs);
    const double want[4] = {-2, -7, 0, 9}, want_abs[4] = {6, 49, 0, 9};
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq(y[i], want[i]);
        ck_assert_double_eq(y_abs[i], want_abs[i]);
    }
    kit_ref_spmv_csr(&A, x, y, NULL);
    kit_csr_free(&A);
}
END_TEST

static int all_finite(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* L and unit-upper U chosen by hand (binary fractions: every step exact):
 *   L = [ 2 0 0 ]   U = [ 1 2 -1  ]   A = L U = [  2 4 -2  ]
 *       [ 1 3 0 ]       [ 0 1 0.5 ]             [  1 5 0.5 ]
 *       [-1 2 4 ]       [ 0 0 1   ]             [ -1 0 6   ] */
START_TEST(crout_known_factors)
{
    const double A[9] = {2, 4, -2, 1, 5, 0.5, -1, 0, 6};
    const double L[9] = {2, 0, 0, 1, 3, 0, -1, 2, 4};
    const double U[9] = {1, 2, -1, 0, 1, 0.5, 0, 0, 1};
    double l[9], u[9];
    int fail = 123;
    ck_assert_int_eq(kit_ref_crout(A, 3, l, u, 0, &fail), KIT_LU_OK);
    ck_assert_int_eq(fail, -1);
    for (int i = 0; i < 9; i++) {
        ck_assert_msg(l[i] == L[i], "l[%d] = %g, expected %g", i, l[i], L[i]);
        ck_assert_msg(u[i] == U[i], "u[%d] = %g, expected %g", i, u[i], U[i]);
    }
}
END_TEST

/* Leading 2x2 minor [[1 2] [2 4]] singular: l_11 = 4 - 2*2 = 0. */
START_TEST(crout_singular_minor)
{
    const double A[9] = {1, 2, 3, 2, 4, 5, 1, 1, 1};
    double l[9], u[9];
    int fail = -7;
    ck_assert_int_eq(kit_ref_crout(A, 3, l, u, 0, &fail), KIT_LU_SINGULAR);
    ck_assert_int_eq(fail, 1);
    ck_assert(all_finite(l, 9) && all_finite(u, 9));
    /* column 0 of L and row 0 of U are complete; nothing after column 1 */
    ck_assert_double_eq(l[0], 1);
    ck_assert_double_eq(l[3], 2);
    ck_assert_double_eq(l[6], 1);
    ck_assert_double_eq(u[1], 2);
    ck_assert_double_eq(u[2], 3);
    ck_assert_double_eq(u[5], 0); /* u_12 never computed */
    ck_assert_double_eq(u[4], 0); /* u_11 not set: row 1 of U was not reached */
    ck_assert_double_eq(l[8], 0);

    /* a zero in the very first pivot */
    const double B[4] = {0, 1, 1, 0};
    ck_assert_int_eq(kit_ref_crout(B, 2, l, u, 0, &fail), KIT_LU_SINGULAR);
    ck_assert_int_eq(fail, 0);
    ck_assert(all_finite(l, 4) && all_finite(u, 4));
}
END_TEST

/* Crout in the textbook's order, one entry at a time: kit_ref_crout sums
 * four rows of L side by side and subtracts four rows of U a pass, and must
 * give these bits (sizes around the groups of four, and their remainders). */
static void crout_textbook(const double *a, int n, double *l, double *u)
{
    memset(l, 0, (size_t)n * n * sizeof *l);
    memset(u, 0, (size_t)n * n * sizeof *u);
    for (int j = 0; j < n; j++) {
        for (int i = j; i < n; i++) {
            double s = a[i * n + j];
            for (int k = 0; k < j; k++)
                s -= l[i * n + k] * u[k * n + j];
            l[i * n + j] = s;
        }
        u[j * n + j] = 1;
        for (int k = j + 1; k < n; k++) {
            double s = a[j * n + k];
            for (int m = 0; m < j; m++)
                s -= l[j * n + m] * u[m * n + k];
            u[j * n + k] = s / l[j * n + j];
        }
    }
}

START_TEST(crout_in_the_textbook_order)
{
    const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 64, 67};
    double a[67 * 67], l[67 * 67], u[67 * 67], lt[67 * 67], ut[67 * 67];
    kit_rng r;
    kit_rng_seed(&r, 2024, 0);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        size_t nn = (size_t)n * n;
        kit_gen_diag_dominant(&r, a, n);
        ck_assert_int_eq(kit_ref_crout(a, n, l, u, 0, NULL), KIT_LU_OK);
        crout_textbook(a, n, lt, ut);
        ck_assert_msg(!memcmp(l, lt, nn * sizeof *l) && !memcmp(u, ut, nn * sizeof *u), "n = %d", n);
    }
}
END_TEST

/* [[0.1 0.3] [0.3 0.9]] is singular, but in double l_11 comes out as
 * 1.1e-16, not 0: only a relative threshold catches it. */
START_TEST(crout_relative_threshold)
{
    const double A[4] = {0.1, 0.3, 0.3, 0.9};
    double l[4], u[4];
    int fail = -1;
    ck_assert_int_eq(kit_ref_crout(A, 2, l, u, 0, &fail), KIT_LU_SINGULAR);
    ck_assert_int_eq(fail, 1);
    ck_assert(l[3] != 0.0); /* the rejected pivot was rounding noise, not an exact zero */
    ck_assert(all_finite(l, 4) && all_finite(u, 4));
    /* a caller-chosen tolerance: 1e-17 lets the noise through */
    ck_assert_int_eq(kit_ref_crout(A, 2, l, u, 1e-17, &fail), KIT_LU_OK);
    ck_assert_int_eq(kit_ref_crout(A, 2, l, u, 0, NULL), KIT_LU_SINGULAR); /* fail_col may be NULL */
}
END_TEST

START_TEST(crout_poisson)
{
    enum { G = 5, NN = G * G };
    static double a[NN * NN], l[NN * NN], u[NN * NN];
    kit_gen_poisson2d(a, G);
    int fail;
    ck_assert_int_eq(kit_ref_crout(a, NN, l, u, 0, &fail), KIT_LU_OK);
    double worst = 0;
    for (int i = 0; i < NN; i++)
        for (int j = 0; j < NN; j++) {
            double s = 0;
            for (int k = 0; k < NN; k++)
                s += l[i * NN + k] * u[k * NN + j];
            worst = fmax(worst, fabs(s - a[i * NN + j]));
            if (j > i)
                ck_assert_double_eq(l[i * NN + j], 0);
            if (j < i)
                ck_assert_double_eq(u[i * NN + j], 0);
        }
    ck_assert_double_lt(worst, 1e-13);
}
END_TEST

static Suite *ref_suite(void)
{
    Suite *s = suite_create("ref");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, threads_give_the_same_bits);
    tcase_add_test(tc, vadd);
    tcase_add_test(tc, dot);
    tcase_add_test(tc, histogram);
    tcase_add_test(tc, conv1d_int);
    tcase_add_test(tc, conv1d_float);
    tcase_add_test(tc, scan);
    tcase_add_test(tc, scan_first_wrong);
    tcase_add_test(tc, merge_with_ties);
    tcase_add_test(tc, merge_empty_sides);
    tcase_add_test(tc, spmv_example);
    tcase_add_test(tc, crout_known_factors);
    tcase_add_test(tc, crout_in_the_textbook_order);
    tcase_add_test(tc, crout_singular_minor);
    tcase_add_test(tc, crout_relative_threshold);
    tcase_add_test(tc, crout_poisson);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(ref_suite)
