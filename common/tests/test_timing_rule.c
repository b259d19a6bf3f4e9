/* test_timing_rule.c - the order of the calls in a round and the end of the
 * warm-up (timing_rule.c), on the CPU: what the grader's kit_time_pair
 * decides with. */
#include "check_main.h"
#include "kit/timing_rule.h"

/* The grader's rule (timing.cu's warm_up) with the score's bounds given or not. */
static const kit_warm_rule graded = {1, 250.0, 2.0, 0, 0.5};
static const kit_warm_rule bounded = {1, 250.0, 2.0, 50.0, 0.5};

START_TEST(two_rows_alternate)
{
    /* kit_time_pair's pairs: A B, B A, A B, ... */
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(kit_rotated(i, 0, 2), i % 2);
        ck_assert_int_eq(kit_rotated(i, 1, 2), 1 - i % 2);
    }
}
END_TEST

START_TEST(each_round_every_row_once_starting_later)
{
    for (int round = 0; round < 12; round++) {
        int seen[5] = {0};
        for (int j = 0; j < 5; j++)
            seen[kit_rotated(round, j, 5)]++;
        for (int r = 0; r < 5; r++)
            ck_assert_int_eq(seen[r], 1);
        ck_assert_int_eq(kit_rotated(round, 0, 5), round % 5);
    }
}
END_TEST

/* A ring of probe times: the older window at `older`, the newer at `newer`. */
static void ring(double *p, double older, double newer)
{
    for (int i = 0; i < KIT_STABLE_WINDOW; i++)
        p[i] = older, p[KIT_STABLE_WINDOW + i] = newer;
}

START_TEST(settles_within_two_percent)
{
    double p[KIT_PROBE_RING];
    ring(p, 102.0, 100.0); /* exactly 2% */
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING, 0.3, p, 1.0), 1);
    ring(p, 102.5, 100.0); /* the clocks still moving */
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING, 0.3, p, 1.0), 0);
    ring(p, 1.0, 1.0); /* settled, but one window short */
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING - 1, 0.3, p, 1.0), 0);
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING, 0.2499, p, 1.0), 0); /* not KIT_WARMUP_MS yet */
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING, 0.25, p, 1.0), 1);
    ring(p, 0, 0); /* no time measured: never settled */
    ck_assert_int_eq(kit_warm_done(&graded, KIT_PROBE_RING, 1.9, p, 0), 0);
}
END_TEST

START_TEST(the_ring_wraps)
{
    double p[KIT_PROBE_RING];
    /* after 20 sweeps the newest window is [12..15] and [0..3], the one before [4..11] */
    for (int i = 0; i < KIT_PROBE_RING; i++)
        p[i] = 1.0;
    for (int i = 4; i < 12; i++)
        p[i] = 1.5;
    ck_assert_int_eq(kit_warm_done(&graded, 20, 0.3, p, 1.0), 0);
    ck_assert_int_eq(kit_warm_done(&graded, 28, 0.3, p, 1.0), 0); /* newest [4..11]: 1.5 against 1.0 */
    for (int i = 4; i < 12; i++)
        p[i] = 1.0;
    ck_assert_int_eq(kit_warm_done(&graded, 20, 0.3, p, 1.0), 1);
}
END_TEST

START_TEST(at_most_max_s_at_least_min_calls)
{
    double p[KIT_PROBE_RING];
    ring(p, 2.0, 1.0);
    ck_assert_int_eq(kit_warm_done(&graded, 3, 1.99, p, 1.0), 0);
    ck_assert_int_eq(kit_warm_done(&graded, 3, 2.0, p, 1.0), 1);
    kit_warm_rule many = graded;
    many.min_calls = 10; /* the spec's warmup calls come first, however long */
    ck_assert_int_eq(kit_warm_done(&many, 9, 5.0, p, 1.0), 0);
    ck_assert_int_eq(kit_warm_done(&many, 10, 5.0, p, 1.0), 1);
}
END_TEST

START_TEST(slow_probe_only_with_bounds)
{
    double p[KIT_PROBE_RING];
    ring(p, 2.0, 1.0); /* never settled */
    ck_assert_int_eq(kit_warm_done(&bounded, 2, 0.5, p, 50.0), 1);
    ck_assert_int_eq(kit_warm_done(&bounded, 2, 0.49, p, 50.0), 0);
    ck_assert_int_eq(kit_warm_done(&bounded, 2, 0.5, p, 49.9), 0);
    ck_assert_int_eq(kit_warm_done(&graded, 2, 0.5, p, 278.0), 0); /* no bounds: the full 2 s */
}
END_TEST

static Suite *rule_suite(void)
{
    Suite *s = suite_create("timing_rule");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, two_rows_alternate);
    tcase_add_test(tc, each_round_every_row_once_starting_later);
    tcase_add_test(tc, settles_within_two_percent);
    tcase_add_test(tc, the_ring_wraps);
    tcase_add_test(tc, at_most_max_s_at_least_min_calls);
    tcase_add_test(tc, slow_probe_only_with_bounds);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(rule_suite)
