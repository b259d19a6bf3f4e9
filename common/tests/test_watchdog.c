/* test_watchdog.c - a call that does not return ends the process with its
 * record; one that returns in time, or within its grace, does not; held
 * time (a context's teardown) counts only past its most; the skip list; the
 * record's line. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "kit/protocol.h"
#include "kit/watchdog.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/kit-watchdog-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* The record the child left, parsed (-1: none or not one). */
static int read_record(kit_hang_record *h)
{
    char path[128], line[512] = "";
    snprintf(path, sizeof path, "%s/%s", dir, KIT_HANG_FILE);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    return got ? kit_hang_parse(line, h) : -1;
}

static const char *kernel_name(void) { return "spin_kernel(float*)"; }

/* Runs body in a child process (the watchdog ends the process it is in; the
 * body _exits with its own verdict, 0 if it returns); the wait status. */
static int child_status(void (*body)(void))
{
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        body();
        _exit(0);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return st;
}

static void never_returns(void)
{
    kit_watchdog_setup(dir, 0.2, 1, 0);
    kit_watchdog_kernel_source(kernel_name);
    kit_watchdog_arm("dot_shared");
    sleep_s(20); /* "the kernel": the watchdog must end this */
}

/* A call that never returns: the child ends with KIT_EXIT_HUNG at its limit. */
START_TEST(a_call_that_never_returns_ends_the_run)
{
    make_dir();
    double t0 = now();
    int st = child_status(never_returns);
    double took = now() - t0;
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == KIT_EXIT_HUNG, "status %d", st);
    ck_assert_msg(took >= 0.2 && took < 5, "ended after %.2f s", took);
    kit_hang_record h;
    ck_assert_int_eq(read_record(&h), 0);
    ck_assert_str_eq(h.call, "dot_shared");
    ck_assert(h.limit_s > 0.19 && h.limit_s < 0.21);
    ck_assert(h.seconds >= 0.2);
    ck_assert_str_eq(h.kernel, "spin_kernel(float*)");
    remove_dir();
}
END_TEST

static void three_calls_in_time(void)
{
    kit_watchdog_setup(dir, 0.3, 1, 0);
    for (int i = 0; i < 3; i++) { /* each arm starts its own clock */
        kit_watchdog_arm("scan");
        sleep_s(0.15);
        double s = kit_watchdog_disarm();
        if (s < 0.14 || s > 0.29 || kit_watchdog_overran(s))
            _exit(10 + i);
    }
    sleep_s(0.6); /* nothing armed */
}

/* Calls that return in time leave no record, and disarming stops the clock:
 * the process lives on past the limit of a call that returned. */
START_TEST(calls_in_time_leave_nothing)
{
    make_dir();
    int st = child_status(three_calls_in_time);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
    kit_hang_record h;
    ck_assert_int_eq(read_record(&h), -1);
    remove_dir();
}
END_TEST

static void overruns_within_the_grace(void)
{
    kit_watchdog_setup(dir, 0.1, 5, 0);
    kit_watchdog_arm("scan_int");
    sleep_s(0.25);
    double s = kit_watchdog_disarm();
    _exit(kit_watchdog_overran(s) ? 0 : 1);
}

/* With a grace (the GPU shared), a call past its limit but within the grace
 * returns and counts as overrun; alone (grace 1) it would have been ended. */
START_TEST(within_the_grace_a_call_overruns)
{
    make_dir();
    int st = child_status(overruns_within_the_grace);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
    remove_dir();
}
END_TEST

static void held_then_own_time(void)
{
    kit_watchdog_setup(dir, 0.3, 1, 5);
    kit_watchdog_arm("dot_shared");
    sleep_s(0.05);
    kit_watchdog_hold(1);
    kit_watchdog_hold(1); /* the runtime's reset calls the driver's */
    sleep_s(0.3);
    kit_watchdog_hold(0);
    sleep_s(0.3); /* still inside the outer one */
    kit_watchdog_hold(0);
    kit_watchdog_hold(0); /* one too many: ignored */
    sleep_s(0.05);
    double s = kit_watchdog_disarm();
    if (s < 0.09 || s > 0.29)
        _exit(10);
    kit_watchdog_arm("dot_shared"); /* a new call: nothing held carries over */
    sleep_s(0.1);
    s = kit_watchdog_disarm();
    _exit(s >= 0.09 && s < 0.29 ? 0 : 11);
}

/* Time held (the driver tearing the context down) does not count: a call
 * with 0.6 s of it and 0.1 s of its own returns under its 0.3 s limit, its
 * counted seconds without the held ones; nested holds count once. */
START_TEST(held_time_does_not_count)
{
    make_dir();
    int st = child_status(held_then_own_time);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
    kit_hang_record h;
    ck_assert_int_eq(read_record(&h), -1);
    remove_dir();
}
END_TEST

static void held_forever(void)
{
    kit_watchdog_setup(dir, 0.2, 1, 0.4);
    kit_watchdog_arm("dot_shared");
    kit_watchdog_hold(1);
    sleep_s(20);
}

/* Held time beyond hold_max counts: a teardown that never ends is a hang,
 * ended at limit + hold_max. */
START_TEST(held_time_counts_past_its_most)
{
    make_dir();
    double t0 = now();
    int st = child_status(held_forever);
    double took = now() - t0;
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == KIT_EXIT_HUNG, "status %d", st);
    ck_assert_msg(took >= 0.6 && took < 5, "ended after %.2f s", took);
    kit_hang_record h;
    ck_assert_int_eq(read_record(&h), 0);
    ck_assert(h.seconds >= 0.2 && h.seconds < 1);
    remove_dir();
}
END_TEST

START_TEST(no_limit_no_watchdog)
{
    kit_watchdog_setup("/nonexistent", 0, 1, 0);
    kit_watchdog_arm("x");
    double s = kit_watchdog_disarm();
    ck_assert(s == 0);
    ck_assert_int_eq(kit_watchdog_overran(100), 0);
}
END_TEST

START_TEST(skip_list)
{
    kit_calls_skip("scan,scan_int,dot");
    ck_assert_int_eq(kit_call_skipped("scan_int"), 1);
    ck_assert_str_eq(kit_call_skipped_last(), "scan_int");
    ck_assert_int_eq(kit_call_skipped("scan"), 1);
    ck_assert_int_eq(kit_call_skipped("dot"), 1);
    ck_assert_int_eq(kit_call_skipped("sca"), 0);
    ck_assert_int_eq(kit_call_skipped("dot_shared"), 0);
    ck_assert_int_eq(kit_call_skipped(""), 0);
    kit_calls_skip("");
    ck_assert_int_eq(kit_call_skipped("scan"), 0);
    kit_calls_skip(NULL);
    ck_assert_int_eq(kit_call_skipped("scan"), 0);
}
END_TEST

START_TEST(record_lines)
{
    kit_hang_record h;
    ck_assert_int_eq(kit_hang_parse("scan\t2.000\t5.012\tvoid bk<int>(int*, int)\n", &h), 0);
    ck_assert_str_eq(h.call, "scan");
    ck_assert(h.limit_s == 2.0 && h.seconds > 5.0 && h.seconds < 5.02);
    ck_assert_str_eq(h.kernel, "void bk<int>(int*, int)");
    ck_assert_int_eq(kit_hang_parse("scan\t2\t5\t-", &h), 0);
    ck_assert_str_eq(h.kernel, "");
    static const char *bad[] = {"", "scan", "scan\t2\t5", "\t2\t5\tk", "scan\tx\t5\tk", "scan\t2\ty\tk",
                                "scan\t0\t5\tk", "scan\t2\t5\t", "scan\t-1\t5\tk"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(kit_hang_parse(bad[i], &h) == -1, "accepted '%s'", bad[i]);
}
END_TEST

static Suite *watchdog_suite(void)
{
    Suite *s = suite_create("watchdog");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, a_call_that_never_returns_ends_the_run);
    tcase_add_test(tc, calls_in_time_leave_nothing);
    tcase_add_test(tc, within_the_grace_a_call_overruns);
    tcase_add_test(tc, held_time_does_not_count);
    tcase_add_test(tc, held_time_counts_past_its_most);
    tcase_add_test(tc, no_limit_no_watchdog);
    tcase_add_test(tc, skip_list);
    tcase_add_test(tc, record_lines);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(watchdog_suite)
