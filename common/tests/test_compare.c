/* test_compare.c - comparators, bounds and the student-facing description. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "kit/compare.h"

#define N 257

static char msg[512];

static const char *describe(const kit_cmp *r)
{
    kit_cmp_describe(r, msg, sizeof msg);
    return msg;
}

/* exp[i] = i/4 (exact in float), bound 1e-6 everywhere; got = exp. */
static void setup(float *got, double *exp, double *bound)
{
    for (int i = 0; i < N; i++) {
        exp[i] = i / 4.0;
        got[i] = (float)exp[i];
        bound[i] = 1e-6;
    }
}

START_TEST(accepts_within_bound)
{
    float got[N];
    double exp[N], bound[N];
    setup(got, exp, bound);
    got[7] = (float)(exp[7] + 0.9e-6); /* within (float rounds; still below 1e-6) */
    kit_cmp r;
    kit_cmp_f32(&r, got, N, exp, bound, N);
    ck_assert(kit_cmp_ok(&r));
    ck_assert_uint_eq(r.n_bad, 0);
    ck_assert_uint_eq(r.first_bad, SIZE_MAX);
    ck_assert(r.max_ratio < 1.0);
    ck_assert_msg(strstr(describe(&r), "all 257 elements within their bounds"), "%s", msg);
}
END_TEST

START_TEST(rejects_wrong_element)
{
    float got[N];
    double exp[N], bound[N];
    setup(got, exp, bound);
    exp[256] = 12.5;
    got[256] = 0;
    got[100] = 1000;
    got[200] = 50.0f + 1e-3f;
    kit_cmp r;
    kit_cmp_f32(&r, got, N, exp, bound, N);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.n_bad, 3);
    ck_assert_uint_eq(r.first_bad, 100);
    ck_assert_double_eq(r.first_expected, 25.0);
    ck_assert_double_eq(r.first_got, 1000.0);
    ck_assert_double_eq(r.first_bound, 1e-6);
    ck_assert_uint_eq(r.max_ratio_index, 100);
    ck_assert_double_eq_tol(r.max_ratio, 975.0 / 1e-6, 1e-3);
    ck_assert(!r.nan_seen && !r.length_mismatch && !r.exact);
    ck_assert_str_eq(describe(&r), "3 of 257 elements differ; first wrong index 100: expected 25, got 1000 "
                                   "(allowed error 1e-06); largest error 9.8e+08x its bound at index 100");
}
END_TEST

START_TEST(rejects_nan_and_inf)
{
    float got[N];
    double exp[N], bound[N];
    setup(got, exp, bound);
    for (int i = 0; i < N; i++)
        bound[i] = 1e300; /* no bound lets a NaN or an infinity through */
    float bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        float g[N];
        memcpy(g, got, sizeof g);
        g[42] = bad[k];
        kit_cmp r;
        kit_cmp_f32(&r, g, N, exp, bound, N);
        ck_assert(!kit_cmp_ok(&r));
        ck_assert(r.nan_seen);
        ck_assert_uint_eq(r.n_bad, 1);
        ck_assert_uint_eq(r.first_bad, 42);
        ck_assert(isinf(r.max_ratio));
        ck_assert_uint_eq(r.max_ratio_index, 42);
        describe(&r);
        ck_assert_msg(strstr(msg, "first wrong index 42: expected 10.5, got ") &&
                          (strstr(msg, "nan") || strstr(msg, "inf")),
                      "%s", msg);
    }
    /* f64 and scalar too */
    double gd[2] = {1.0, NAN}, ed[2] = {1.0, 2.0}, bd[2] = {1, 1};
    kit_cmp r;
    kit_cmp_f64(&r, gd, 2, ed, bd, 2);
    ck_assert(!kit_cmp_ok(&r) && r.nan_seen);
    kit_cmp_scalar(&r, INFINITY, 1.0, 1e308);
    ck_assert(!kit_cmp_ok(&r));
}
END_TEST

START_TEST(rejects_wrong_length)
{
    float got[N];
    double exp[N], bound[N];
    setup(got, exp, bound);
    kit_cmp r;
    kit_cmp_f32(&r, got, N - 1, exp, bound, N);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert(r.length_mismatch);
    ck_assert_uint_eq(r.expected_len, 257);
    ck_assert_uint_eq(r.got_len, 256);
    ck_assert_str_eq(describe(&r), "wrong length: expected 257 elements, got 256");
    /* longer is wrong too, and integers */
    int32_t gi[3] = {1, 2, 3};
    int64_t ei[2] = {1, 2};
    kit_cmp_i32(&r, gi, 3, ei, 2);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_str_eq(describe(&r), "wrong length: expected 2 elements, got 3");
    kit_cmp_i32(&r, gi, 0, ei, 1);
    ck_assert_str_eq(describe(&r), "wrong length: expected 1 element, got 0");
}
END_TEST

START_TEST(integer_exact)
{
    int32_t got[5] = {1, 2, 36, 4, 5};
    int64_t exp[5] = {1, 2, 36, 4, 5};
    kit_cmp r;
    kit_cmp_i32(&r, got, 5, exp, 5);
    ck_assert(kit_cmp_ok(&r) && r.exact);
    ck_assert_str_eq(describe(&r), "all 5 elements match");
    got[2] = 11;
    got[4] = 6;
    kit_cmp_i32(&r, got, 5, exp, 5);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.n_bad, 2);
    ck_assert_str_eq(describe(&r), "2 of 5 elements differ; first wrong index 2: expected 36, got 11");

    int64_t g64[2] = {INT64_MAX, -1}, e64[2] = {INT64_MAX, 1};
    kit_cmp_i64(&r, g64, 2, e64, 2);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.first_bad, 1);

    uint32_t gu[3] = {0, UINT32_MAX, 7};
    uint64_t eu[3] = {0, UINT32_MAX, 7};
    kit_cmp_u32(&r, gu, 3, eu, 3);
    ck_assert(kit_cmp_ok(&r));
    eu[2] = (uint64_t)UINT32_MAX + 8; /* differs from 7 only above 32 bits */
    kit_cmp_u32(&r, gu, 3, eu, 3);
    ck_assert(!kit_cmp_ok(&r));
    eu[2] = UINT64_MAX;
    kit_cmp_u32(&r, gu, 3, eu, 3);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.first_bad, 2);
}
END_TEST

START_TEST(f64_exact_when_no_bound)
{
    double got[3] = {1, 2, 3}, exp[3] = {1, 2, 3};
    kit_cmp r;
    kit_cmp_f64(&r, got, 3, exp, NULL, 3);
    ck_assert(kit_cmp_ok(&r) && r.exact);
    got[1] = nextafter(2.0, 3.0);
    kit_cmp_f64(&r, got, 3, exp, NULL, 3);
    ck_assert(!kit_cmp_ok(&r));
    /* %.9g would print "2" twice: the message shows enough digits to differ */
    ck_assert_str_eq(describe(&r), "1 of 3 elements differ; first wrong index 1: expected 2, got "
                                   "2.0000000000000004");
}
END_TEST

START_TEST(describe_shows_float_difference)
{
    float got[2] = {1.0f, nextafterf(1.0f, 2.0f)};
    double exp[2] = {1.0, 1.0}, bound[2] = {0, 0};
    kit_cmp r;
    kit_cmp_f32(&r, got, 2, exp, bound, 2);
    ck_assert(!kit_cmp_ok(&r));
    describe(&r);
    ck_assert_msg(strstr(msg, "expected 1, got 1.00000012 (allowed error 0)"), "%s", msg);
    /* snprintf semantics: short buffer terminated, full length returned */
    char small[10];
    int full = kit_cmp_describe(&r, small, sizeof small);
    ck_assert_int_eq(full, (int)strlen(msg));
    ck_assert_uint_eq(strlen(small), 9);
    ck_assert_int_eq(kit_cmp_describe(&r, NULL, 0), full);
}
END_TEST

START_TEST(scalar)
{
    kit_cmp r;
    kit_cmp_scalar(&r, 12.5 + 1e-7, 12.5, 1e-6);
    ck_assert(kit_cmp_ok(&r));
    kit_cmp_scalar(&r, 0.0, 12.5, 1.2e-6);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_str_eq(describe(&r), "wrong value: expected 12.5, got 0 (allowed error 1.2e-06)");
}
END_TEST

START_TEST(norm_check)
{
    double exp[4] = {3, 4, 0, 0}, got[4] = {3, 4, 0, 0};
    kit_cmp r;
    double rel = -1;
    kit_cmp_norm_f64(&r, got, exp, 4, 1e-12, &rel);
    ck_assert(kit_cmp_ok(&r));
    ck_assert_double_eq(rel, 0);
    got[1] = 4 + 5e-13; /* ||d|| / ||e|| = 1e-13 */
    kit_cmp_norm_f64(&r, got, exp, 4, 1e-12, &rel);
    ck_assert(kit_cmp_ok(&r));
    ck_assert_double_eq_tol(rel, 1e-13, 1e-15);
    got[3] = 1e-6;
    kit_cmp_norm_f64(&r, got, exp, 4, 1e-12, &rel);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.first_bad, 3);
    ck_assert(rel > 1e-7);
    got[3] = NAN;
    kit_cmp_norm_f64(&r, got, exp, 4, 1e-12, &rel);
    ck_assert(!kit_cmp_ok(&r) && r.nan_seen);
    ck_assert_uint_eq(r.first_bad, 3);
    /* many small errors: no single element over, the norm still fails */
    double e2[100], g2[100];
    for (int i = 0; i < 100; i++) {
        e2[i] = i == 0 ? 100.0 : 1.0; /* ||e||_inf = 100, ||e||_2 ~ 100.5 */
        g2[i] = e2[i] + 5e-11 * (i % 2 ? 1 : -1); /* each below 1e-12 * 100, norm 5e-10 */
    }
    kit_cmp_norm_f64(&r, g2, e2, 100, 1e-12, &rel);
    ck_assert(!kit_cmp_ok(&r));
    ck_assert_uint_eq(r.n_bad, 1);
    ck_assert_uint_ne(r.first_bad, SIZE_MAX);
}
END_TEST

START_TEST(gamma_and_sum_bound)
{
    double u = KIT_U_F32;
    ck_assert_double_eq_tol(kit_gamma(10, u), 10 * u / (1 - 10 * u), 1e-20);
    ck_assert(isinf(kit_gamma(1 << 24, u)));
    ck_assert(isinf(kit_gamma(1e9, u)));
    /* small n: the worst-case gamma bound is the smaller one */
    for (int n = 1; n <= 50; n++)
        ck_assert_double_eq(kit_sum_bound(n, 3.0, u), kit_gamma(n, u) * 3.0);
    /* monotone in the number of terms, up to and beyond 1/u */
    double prev = 0;
    for (double n = 1; n <= 1e12; n *= 1.5) {
        double b = kit_sum_bound(n, 1.0, u);
        ck_assert_msg(b >= prev, "bound decreased at n = %g", n);
        prev = b;
    }
    /* n = 2^26 terms in float: finite, below sum_abs, the probabilistic bound */
    double b = kit_sum_bound(1 << 26, 1.0, u);
    ck_assert(isfinite(b) && b > 0 && b < 1.0);
    ck_assert_double_eq_tol(b, KIT_LAMBDA * 8192.0 * u + 67108864.0 * u * u, 1e-18);
    /* linear in sum_abs, zero for zero */
    ck_assert_double_eq(kit_sum_bound(100, 0.0, u), 0.0);
    ck_assert_double_eq_tol(kit_sum_bound(100, 10.0, u), 10 * kit_sum_bound(100, 1.0, u), 1e-18);
    ck_assert(kit_sum_bound(100, 1.0, KIT_U_F64) < kit_sum_bound(100, 1.0, KIT_U_F32));
}
END_TEST

/* kit_sum_bounds (the bounds of a row of sums at once) gives kit_sum_bound's
 * values bit for bit: fixed and per-index terms, below, at and beyond where
 * the probabilistic bound takes over, past 1/u, zero and huge sums, in float
 * and double, and on threads (2^17 elements). */
START_TEST(sum_bounds_row)
{
    const double starts[] = {0, 1, 5, 60, 63, 64, 65, 100, 127, 128, 129, 1000, 16777215, 67108864, 1e9, 1e15};
    const double sums[] = {0.0, 1e-30, 0.75, 1.0, 3.0, 12345.678, 1e30};
    const double us[] = {KIT_U_F32, KIT_U_F64};
    size_t n = (size_t)1 << 17;
    double *b = malloc(n * sizeof *b);
    ck_assert(b);
    for (int k = 0; k < 2; k++)
        for (size_t s = 0; s < sizeof starts / sizeof *starts; s++)
            for (int per = 0; per <= 1; per++) {
                size_t len = s % 4 == 0 ? n : 300; /* the threaded path now and then */
                for (size_t i = 0; i < len; i++)
                    b[i] = sums[i % 7] * (1.0 + (double)i / 4096);
                kit_sum_bounds(b, len, starts[s], per, us[k]);
                for (size_t i = 0; i < len; i++) {
                    double t = starts[s] + (per ? (double)i : 0.0);
                    double want = kit_sum_bound(t, sums[i % 7] * (1.0 + (double)i / 4096), us[k]);
                    if (b[i] != want)
                        ck_abort_msg("terms %.17g sum_abs %.17g u %g: %.17g, kit_sum_bound %.17g", t,
                                     sums[i % 7] * (1.0 + (double)i / 4096), us[k], b[i], want);
                }
            }
    free(b);
}
END_TEST

/* kit_cmp_f64 and kit_cmp_f32 on a long mixture (right elements, errors
 * just inside and just outside their bounds, exact hits, zero bounds, NaN,
 * infinities, growing and falling ratios) against what cmp_one's rules say
 * element by element: the elements it skips cannot change the result. */
#define ROWS 20000
START_TEST(cmp_rows_match_rules)
{
    static double exp[ROWS], bound[ROWS], got[ROWS];
    static float gotf[ROWS];
    uint64_t x = 12345;
    for (int i = 0; i < ROWS; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int kind = (int)(x >> 59) % 16; /* mostly right, now and then not */
        double e = (double)(x >> 40) / 4096.0, b = i < ROWS / 2 ? 1e-3 * (1 + i % 97) : 1e-4;
        double err = b * ((double)((x >> 20) & 1023) / 1024.0); /* within */
        if (i < ROWS / 4) /* a new largest ratio at each element, by 2e-9 of it */
            kind = kind == 2 ? 2 : 0, err = b * (0.5 + 1e-9 * i);
        if (kind == 1) err = b * (1 + 1e-12); /* just outside */
        if (kind == 2) err = 0;
        if (kind == 3) b = 0;
        if (kind == 4 && i % 7 == 0) err = NAN;
        if (kind == 5 && i % 11 == 0) err = INFINITY;
        if (kind == 6) err = b * (1 - 1e-15); /* ratio just under 1 */
        exp[i] = e, bound[i] = b, got[i] = e + err, gotf[i] = (float)got[i];
    }
    for (int f = 0; f < 2; f++)
        for (int len = 1; len <= ROWS; len = len * 3 + 1) {
            kit_cmp r;
            double gd[ROWS];
            if (f)
                kit_cmp_f32(&r, gotf, (size_t)len, exp, bound, (size_t)len);
            else
                kit_cmp_f64(&r, got, (size_t)len, exp, bound, (size_t)len);
            /* the rules, one element at a time */
            size_t n_bad = 0, first = SIZE_MAX, worst = SIZE_MAX;
            double max_ratio = 0;
            int nan_seen = 0;
            for (int i = 0; i < len; i++) {
                gd[i] = f ? (double)gotf[i] : got[i];
                double err = fabs(gd[i] - exp[i]), ratio;
                int finite = isfinite(gd[i]), bad = !finite || !(err <= bound[i]);
                ratio = !finite ? INFINITY : bound[i] > 0 ? err / bound[i] : (err == 0 ? 0 : INFINITY);
                if (!finite && !nan_seen)
                    nan_seen = 1, max_ratio = INFINITY, worst = (size_t)i;
                else if (ratio > max_ratio || worst == SIZE_MAX)
                    max_ratio = ratio, worst = (size_t)i;
                if (bad && n_bad++ == 0)
                    first = (size_t)i;
            }
            ck_assert_uint_eq(r.n_bad, n_bad);
            ck_assert_uint_eq(r.first_bad, first);
            ck_assert_uint_eq(r.max_ratio_index, worst);
            ck_assert(r.max_ratio == max_ratio);
            ck_assert_int_eq(r.nan_seen, nan_seen);
            if (first != SIZE_MAX)
                ck_assert(r.first_got == gd[first] && r.first_expected == exp[first] && r.first_bound == bound[first]);
        }
}
END_TEST

static Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, accepts_within_bound);
    tcase_add_test(tc, rejects_wrong_element);
    tcase_add_test(tc, rejects_nan_and_inf);
    tcase_add_test(tc, rejects_wrong_length);
    tcase_add_test(tc, integer_exact);
    tcase_add_test(tc, f64_exact_when_no_bound);
    tcase_add_test(tc, describe_shows_float_difference);
    tcase_add_test(tc, scalar);
    tcase_add_test(tc, norm_check);
    tcase_add_test(tc, gamma_and_sum_bound);
    tcase_add_test(tc, sum_bounds_row);
    tcase_add_test(tc, cmp_rows_match_rules);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(compare_suite)
