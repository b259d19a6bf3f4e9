/* test_timing_decided.c - when the timed pairs decide a performance test's
 * score before all of them ran (timing_decided.c), on the CPU.  The bounds
 * are lab09's (full points from 3.0x, none at or below 1.0x) and the times
 * an H100's: kit_lu_step 278 ms a call, the reference 1.3 ms. */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "kit/timing_decided.h"

static const kit_decided lab09 = {1, 1.0, 3.0};

/* n pairs of the student at `ms` against a baseline of 278 ms. */
static void pairs(double *s, double *b, int n, double ms)
{
    for (int i = 0; i < n; i++)
        s[i] = ms, b[i] = 278.0;
}

START_TEST(decided_full)
{
    double s[9], b[9];
    pairs(s, b, 9, 1.3); /* 214x */
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, KIT_DECIDED_MIN_PAIRS), KIT_DECIDED_FULL);
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 9), KIT_DECIDED_FULL);
    /* at exactly full x margin (3.75x): decided; just under: not */
    for (int i = 0; i < 3; i++)
        s[i] = 1.0, b[i] = 3.0 * KIT_DECIDED_MARGIN;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_FULL);
    s[1] *= 1.001;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NOT);
}
END_TEST

START_TEST(decided_zero)
{
    double s[9], b[9];
    pairs(s, b, 9, 556.0); /* 0.5x: slower than the baseline */
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NONE);
    /* at exactly min / margin (0.8x): decided; just above: not */
    for (int i = 0; i < 4; i++)
        s[i] = KIT_DECIDED_MARGIN, b[i] = 1.0;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 4), KIT_DECIDED_NONE);
    s[3] *= 0.999;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 4), KIT_DECIDED_NOT);
    /* min_speedup 0: nothing is at or below it, so nothing is decided zero */
    kit_decided zero = {1, 0.0, 3.0};
    pairs(s, b, 9, 1e6);
    ck_assert_int_eq(kit_timing_decided(&zero, s, b, 9), KIT_DECIDED_NOT);
}
END_TEST

START_TEST(undecided_near_the_bounds)
{
    double s[9], b[9];
    double near[] = {3.1, 2.9, 3.6, 1.1, 0.95, 1.2, 3.7};
    for (size_t k = 0; k < sizeof near / sizeof *near; k++) {
        pairs(s, b, 9, 278.0 / near[k]);
        ck_assert_msg(kit_timing_decided(&lab09, s, b, 9) == KIT_DECIDED_NOT, "%gx decided", near[k]);
    }
    /* pairs on both sides of the range: neither bound for all of them */
    pairs(s, b, 9, 1.3);
    s[4] = 556.0;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 9), KIT_DECIDED_NOT);
}
END_TEST

START_TEST(one_outlier_prevents_the_stop)
{
    double s[9], b[9];
    /* a student near the threshold (3.2x) with one pair whose baseline call
     * a disturbance slowed fourfold: not decided on the others' word */
    pairs(s, b, 9, 278.0 / 3.2);
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NOT);
    b[0] *= 4;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NOT);
    /* and a fast student with one slow pair (a disturbance of its call) */
    pairs(s, b, 9, 1.3);
    s[2] = 278.0 / 3.5;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NOT);
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 9), KIT_DECIDED_NOT);
    /* a pair with no time (a clock that read 0) decides nothing */
    pairs(s, b, 9, 1.3);
    s[1] = 0;
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, 3), KIT_DECIDED_NOT);
}
END_TEST

START_TEST(fewer_than_the_minimum_pairs)
{
    double s[9], b[9];
    pairs(s, b, 9, 1.3);
    /* both orders of a pair (A B, B A) come before any stop */
    ck_assert_int_ge(KIT_DECIDED_MIN_PAIRS, 2);
    for (int n = 0; n < KIT_DECIDED_MIN_PAIRS; n++)
        ck_assert_msg(kit_timing_decided(&lab09, s, b, n) == KIT_DECIDED_NOT, "decided after %d pairs", n);
    ck_assert_int_eq(kit_timing_decided(&lab09, s, b, KIT_DECIDED_MIN_PAIRS), KIT_DECIDED_FULL);
}
END_TEST

START_TEST(bounds_absent)
{
    double s[9], b[9];
    pairs(s, b, 9, 1.3);
    kit_decided none = {0, 1.0, 3.0};
    ck_assert_int_eq(kit_timing_decided(&none, s, b, 9), KIT_DECIDED_NOT);
    ck_assert_int_eq(kit_timing_decided(NULL, s, b, 9), KIT_DECIDED_NOT);
    memset(&none, 0, sizeof none);
    pairs(s, b, 9, 1e6);
    ck_assert_int_eq(kit_timing_decided(&none, s, b, 9), KIT_DECIDED_NOT);
}
END_TEST

START_TEST(parse_the_bounds)
{
    kit_decided d = {0};
    char why[200];
    ck_assert_int_eq(kit_decided_parse("1,3", &d, why, sizeof why), 0);
    ck_assert(d.given && d.min_speedup == 1.0 && d.full == 3.0);
    ck_assert_str_eq(why, "");
    /* what the grader writes (%.17g) comes back exactly */
    char text[64];
    snprintf(text, sizeof text, "%.17g,%.17g", 1.05, 1.2);
    ck_assert_int_eq(kit_decided_parse(text, &d, why, sizeof why), 0);
    ck_assert(d.min_speedup == 1.05 && d.full == 1.2);
    ck_assert_int_eq(kit_decided_parse("0,0.7", &d, why, sizeof why), 0);
    const char *bad[] = {"", "3", "3,", ",3", "3,1", "2,2", "-1,3", "1,3,5", "1;3", "x,3", "1,nan", "1,inf", "1, 3x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kit_decided e = {0};
        ck_assert_msg(kit_decided_parse(bad[i], &e, why, sizeof why) == -1, "accepted '%s'", bad[i]);
        ck_assert_int_eq(e.given, 0);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "'%s'", bad[i]);
        ck_assert_msg(strstr(why, quoted) && strstr(why, "MIN,FULL") && !strchr(why, '\n'), "%s", why);
    }
}
END_TEST

static Suite *decided_suite(void)
{
    Suite *s = suite_create("timing_decided");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, decided_full);
    tcase_add_test(tc, decided_zero);
    tcase_add_test(tc, undecided_near_the_bounds);
    tcase_add_test(tc, one_outlier_prevents_the_stop);
    tcase_add_test(tc, fewer_than_the_minimum_pairs);
    tcase_add_test(tc, bounds_absent);
    tcase_add_test(tc, parse_the_bounds);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(decided_suite)
