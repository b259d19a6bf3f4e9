/* test_proc_session.c - a conversation with a child that serves many
 * requests (proc_start/proc_send/proc_receive/proc_end), as the grader has
 * with the runner's `serve` mode (serve.c): each answer comes with the
 * output written before it, each request has its own time limit, a child
 * that dies mid-request or floods its output is told apart from one that
 * answers, and the control descriptor reaches a child in the sandbox. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "process/proc.h"
#include "process/sandbox.h"

/* Answers "done" to every line on descriptor 3, printing "case LINE" first. */
static const char *echo_server = "echo ready >&3; while read -r l <&3; do echo \"case $l\"; echo \"note $l\" >&2; "
                                 "echo done >&3; done; echo bye";

static double sb_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static proc_session *start_sh(const char *script, const proc_opts *o, proc_result *r)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    return proc_start(argv, o, 3, r);
}

/* A child that closes its output before it exits (a checker, a runner
 * between cases) is reaped when it exits: the parent used to notice only at
 * its next 100 ms poll tick, 0.1 s per process run, seconds per check.  20
 * such runs against 20 of a child that keeps its output to the end, taken
 * in turn so that a busy machine slows both: the tick added >= 2 s; the
 * bound, half of that, holds however slow the machine is. */
static double runs_took(const char *script, int n)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    proc_opts o = {0};
    double t0 = sb_now();
    for (int i = 0; i < n; i++) {
        proc_result r;
        ck_assert_int_eq(proc_run(argv, &o, &r), 0);
        ck_assert_int_eq(r.exit_code, 3);
        proc_result_free(&r);
    }
    return sb_now() - t0;
}

START_TEST(an_exit_after_closed_output_is_seen_at_once)
{
    double closed = 0, open = 0;
    for (int i = 0; i < 20; i++) {
        closed += runs_took("exec >&- 2>&-; exit 3", 1);
        open += runs_took("exit 3", 1);
    }
    ck_assert_msg(closed - open < 1.0, "20 runs took %.2f s, 20 that kept their output %.2f s: the exits were noticed late",
                  closed, open);
}
END_TEST

/* A program left running beside other work (a checker, engine.c) is asked
 * whether it ended without a wait; one that writes more than a pipe holds
 * still ends (what it wrote is read meanwhile), and all of it is kept. */
START_TEST(asked_whether_it_ended_without_a_wait)
{
    /* sleeps first: not ended when asked, and the question waits for nothing */
    const char *argv[] = {"/bin/sh", "-c", "sleep 0.5; head -c 200000 /dev/zero | tr '\\0' x; exit 4", NULL};
    proc_opts o = {0};
    o.out_cap = 1 << 20;
    proc_result r;
    proc_session *s = proc_start(argv, &o, -1, &r);
    ck_assert_ptr_nonnull(s);
    double t0 = sb_now();
    ck_assert_int_eq(proc_exited(s), 0);
    ck_assert_msg(sb_now() - t0 < 0.2, "proc_exited waited %.2f s", sb_now() - t0);
    int ended = 0;
    for (int i = 0; i < 500 && !ended; i++) {
        ended = proc_exited(s);
        if (!ended)
            usleep(10000);
    }
    ck_assert_msg(ended, "a child writing more than a pipe holds did not end while asked");
    t0 = sb_now();
    proc_end(s, 10);
    ck_assert_msg(sb_now() - t0 < 0.5, "proc_end after the exit took %.2f s", sb_now() - t0);
    ck_assert(r.exited && r.exit_code == 4);
    ck_assert_uint_eq(r.out.len, 200000);
    proc_result_free(&r);
    ck_assert_int_eq(proc_exited(NULL), 1);
}
END_TEST

START_TEST(answers_in_order_with_their_output)
{
    proc_opts o = {0};
    proc_result r;
    proc_session *s = start_sh(echo_server, &o, &r);
    ck_assert_ptr_nonnull(s);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_str_eq(line, "ready");
    const char *cases[] = {"n=1 seed=0x2", "n=1000", "empty"};
    for (int i = 0; i < 3; i++) {
        size_t off = proc_stdout_len(s);
        char msg[64], want[64];
        snprintf(msg, sizeof msg, "%s\n", cases[i]);
        ck_assert_int_eq(proc_send(s, msg), 0);
        ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
        ck_assert_str_eq(line, "done");
        /* the case's stdout is complete when its answer arrives */
        snprintf(want, sizeof want, "case %s\n", cases[i]);
        ck_assert_uint_eq(proc_stdout_len(s) - off, strlen(want));
        ck_assert(!strncmp(sb_str(&r.out) + off, want, strlen(want)));
    }
    proc_end(s, 10);
    ck_assert(proc_ok(&r));
    ck_assert_str_eq(sb_str(&r.out), "case n=1 seed=0x2\ncase n=1000\ncase empty\nbye\n");
    ck_assert_msg(strstr(sb_str(&r.err), "note n=1000\n"), "%s", sb_str(&r.err));
    proc_result_free(&r);
}
END_TEST

START_TEST(each_request_has_its_time_limit)
{
    proc_opts o = {0};
    proc_result r;
    /* answers the first request, loops on the second */
    proc_session *s = start_sh("echo ready >&3; read -r l <&3; echo done >&3; read -r l <&3; sleep 100 & sleep 100", &o,
                               &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_int_eq(proc_send(s, "a\n"), 0);
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_int_eq(proc_send(s, "b\n"), 0);
    ck_assert_int_eq(proc_receive(s, 0.5, line, sizeof line), -1);
    ck_assert(r.timed_out);
    proc_end(s, 10);
    ck_assert(!proc_ok(&r) && r.timed_out);
    proc_result_free(&r);
}
END_TEST

START_TEST(a_child_that_dies_mid_request)
{
    proc_opts o = {0};
    proc_result r;
    proc_session *s = start_sh("echo ready >&3; read -r l <&3; echo 'illegal address' >&2; exit 4", &o, &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_int_eq(proc_send(s, "a\n"), 0);
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 0);
    proc_end(s, 10);
    ck_assert(r.exited && r.exit_code == 4 && !r.timed_out);
    ck_assert_msg(strstr(sb_str(&r.err), "illegal address"), "%s", sb_str(&r.err));
    proc_result_free(&r);
}
END_TEST

/* Programs run meanwhile (the checker between two cases) end and are
 * cleaned up without taking the server with them. */
START_TEST(survives_other_programs)
{
    proc_opts o = {0};
    proc_result r;
    proc_session *s = start_sh(echo_server, &o, &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    for (int i = 0; i < 3; i++) {
        proc_opts o2 = {0};
        o2.timeout_s = 10;
        proc_result r2;
        const char *argv[] = {"/bin/sh", "-c", "sleep 100 & echo checked", NULL}; /* leaves an orphan */
        proc_run(argv, &o2, &r2);
        ck_assert(proc_ok(&r2));
        proc_result_free(&r2);
        ck_assert_int_eq(proc_send(s, "again\n"), 0);
        ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
        ck_assert_str_eq(line, "done");
    }
    proc_end(s, 10);
    ck_assert(proc_ok(&r)); /* its own exit status, not lost to the other programs' clean-up */
    proc_result_free(&r);
}
END_TEST

/* Output past the cap is counted, not kept: the caller sees that a
 * request's output was cut (out_total grew more than the kept bytes). */
START_TEST(a_flood_is_seen_as_cut)
{
    proc_opts o = {0};
    o.out_cap = 1000;
    proc_result r;
    proc_session *s = start_sh("echo ready >&3; read -r l <&3; yes flood | head -c 5000; echo done >&3; read -r l <&3",
                               &o, &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    size_t off = proc_stdout_len(s), total = r.out_total;
    ck_assert_int_eq(proc_send(s, "a\n"), 0);
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_uint_eq(r.out_total - total, 5000u);
    ck_assert_uint_lt(proc_stdout_len(s) - off, 5000u);
    proc_end(s, 10);
    proc_result_free(&r);
}
END_TEST

/* Without ready, a request to a child that never reads is refused, not a hang. */
START_TEST(a_child_that_stops_reading)
{
    proc_opts o = {0};
    proc_result r;
    proc_session *s = start_sh("exec 3<&-; sleep 100", &o, &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 0.5, line, sizeof line), -1);
    proc_end(s, 10);
    ck_assert(r.timed_out);
    proc_result_free(&r);
}
END_TEST

/* The control descriptor passes through bubblewrap (where it works here). */
START_TEST(through_the_sandbox)
{
    sandbox sb;
    sandbox_detect(&sb);
    if (!sb.use_bwrap) {
        fprintf(stderr, "through_the_sandbox: bubblewrap does not work here (%s): not checked\n", sb.why);
        return;
    }
    proc_opts o = {0};
    o.sb = &sb;
    o.cwd = "/";
    proc_result r;
    proc_session *s = start_sh(echo_server, &o, &r);
    char line[64];
    ck_assert_int_eq(proc_receive(s, 20, line, sizeof line), 1);
    ck_assert_str_eq(line, "ready");
    ck_assert_int_eq(proc_send(s, "x\n"), 0);
    ck_assert_int_eq(proc_receive(s, 10, line, sizeof line), 1);
    ck_assert_str_eq(line, "done");
    proc_end(s, 10);
    ck_assert_msg(proc_ok(&r), "%s", sb_str(&r.err));
    ck_assert_str_eq(sb_str(&r.out), "case x\nbye\n");
    proc_result_free(&r);
}
END_TEST

static Suite *session_suite(void)
{
    Suite *s = suite_create("proc_session");
    TCase *tc = tcase_create("conversation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, an_exit_after_closed_output_is_seen_at_once);
    tcase_add_test(tc, answers_in_order_with_their_output);
    tcase_add_test(tc, asked_whether_it_ended_without_a_wait);
    tcase_add_test(tc, each_request_has_its_time_limit);
    tcase_add_test(tc, a_child_that_dies_mid_request);
    tcase_add_test(tc, survives_other_programs);
    tcase_add_test(tc, a_flood_is_seen_as_cut);
    tcase_add_test(tc, a_child_that_stops_reading);
    tcase_add_test(tc, through_the_sandbox);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(session_suite)
