/* test_timing_runs.c - the grader's side of a timing run: the runner's
 * arguments (cases.c, add_bench_args: the score's bounds for a performance
 * test of one case, so that the timing may stop once they decide it) and the
 * report's line for a timed case (engine.c, timing_line: how many calls were
 * timed, and why no more when the timing stopped early). */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "grading/engine_int.h"
#include "kit/timing_decided.h"

static rubric_test test;

static void setup(void) { memset(&test, 0, sizeof test); }

/* The index of `word` in argv (NULL-ended), or -1. */
static int arg_at(const char *const *argv, const char *word)
{
    for (int i = 0; argv[i]; i++)
        if (!strcmp(argv[i], word))
            return i;
    return -1;
}

START_TEST(timing_run_arguments)
{
    setup();
    char *one[] = {"impl=blocked matrix=dd n=2048"}, *two[] = {"n=2^20", "n=2^26"};
    test.kind = KIND_PERFORMANCE, test.cases = one, test.n_cases = 1;
    test.warmup = 2, test.reps = 9, test.threshold = 3.0, test.min_speedup = 1.05;
    const char *argv[16] = {"runner", "bench"};
    bench_args a;
    int n = add_bench_args(&test, &a, argv, 2);
    ck_assert_int_eq(n, 8);
    ck_assert_str_eq(argv[2], "--warmup");
    ck_assert_str_eq(argv[3], "2");
    ck_assert_str_eq(argv[4], "--reps");
    ck_assert_str_eq(argv[5], "9");
    ck_assert_str_eq(argv[6], "--decided");
    ck_assert_ptr_null(argv[8]);
    /* the rubric's very numbers, min first, as the runner reads them */
    kit_decided d;
    char why[200];
    ck_assert_int_eq(kit_decided_parse(argv[7], &d, why, sizeof why), 0);
    ck_assert(d.given && d.min_speedup == 1.05 && d.full == 3.0);
    /* several cases: the score is their geometric mean, which no one case decides */
    test.cases = two, test.n_cases = 2;
    n = add_bench_args(&test, &a, argv, 2);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(arg_at(argv, "--decided"), -1);
    ck_assert_int_eq(arg_at(argv, "--reps"), 4);
    /* not a performance test: timed in full */
    test.kind = KIND_CORRECTNESS, test.cases = one, test.n_cases = 1;
    n = add_bench_args(&test, &a, argv, 2);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(arg_at(argv, "--decided"), -1);
}
END_TEST

/* lab09's performance test: full points from 3.0x, none at or below 1.0x. */
static void lab09(void)
{
    setup();
    test.kind = KIND_PERFORMANCE, test.n_cases = 1;
    test.warmup = 2, test.reps = 9, test.threshold = 3.0, test.min_speedup = 1.0;
}

START_TEST(report_line_in_full)
{
    lab09();
    outcome c;
    outcome_init(&c);
    c.student_ms = 100.0, c.baseline_ms = 310.0, c.timed_pairs = 9;
    strbuf out;
    sb_init(&out);
    timing_line(&test, "n=2048", &c, &out);
    ck_assert_str_eq(sb_str(&out), "case n=2048: yours 100.000 ms, baseline 310.000 ms (medians of >= 9 interleaved "
                                   "calls, best round): speedup 3.10x\n");
    sb_free(&out);
    outcome_free(&c);
}
END_TEST

START_TEST(report_line_stopped_early)
{
    lab09();
    outcome c;
    outcome_init(&c);
    c.student_ms = 1.3, c.baseline_ms = 278.0, c.timed_pairs = 3, c.timed_decided = KIT_DECIDED_FULL;
    strbuf out;
    sb_init(&out);
    timing_line(&test, "n=2048", &c, &out);
    ck_assert_str_eq(sb_str(&out), "case n=2048: yours 1.300 ms, baseline 278.000 ms (medians of 3 interleaved calls, "
                                   "each pair's speedup at least 3.75x: more calls could not change the score, so the "
                                   "timing stopped there): speedup 213.85x\n");
    sb_free(&out);
    sb_init(&out);
    c.student_ms = 600.0, c.timed_decided = KIT_DECIDED_NONE;
    timing_line(&test, "n=2048", &c, &out);
    ck_assert_msg(strstr(sb_str(&out), "(medians of 3 interleaved calls, each pair's speedup at most 0.80x: ") &&
                      strstr(sb_str(&out), "speedup 0.46x\n"),
                  "%s", sb_str(&out));
    sb_free(&out);
    outcome_free(&c);
}
END_TEST

static Suite *timing_runs_suite(void)
{
    Suite *s = suite_create("timing_runs");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, timing_run_arguments);
    tcase_add_test(tc, report_line_in_full);
    tcase_add_test(tc, report_line_stopped_early);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(timing_runs_suite)
