/* test_hang.c - a student call that did not return, grader side (hang.c):
 * the call's limit from what the case needs, the runner's arguments, a run
 * read as hung or not, the grace, the skipped call's line. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "grading/engine_int.h"
#include "kit/protocol.h"

/* A grading of nothing: what hang.c reads of one. */
static engine eng;
static grading gr;
static rubric_test test;

static void setup(void)
{
    memset(&eng, 0, sizeof eng);
    memset(&gr, 0, sizeof gr);
    memset(&test, 0, sizeof test);
    eng.rub.call_limit_s = 2;
    snprintf(eng.gpu_uuid, sizeof eng.gpu_uuid, "GPU-test");
    gr.e = &eng;
    snprintf(test.name, sizeof test.name, "float-large");
    test.timeout_s = 20;
}

START_TEST(limit_from_what_the_case_needs)
{
    setup();
    /* nothing measured: the rubric's floor */
    ck_assert(call_limit(&gr, "type=float n=2^26") == 2);
    /* a case whose baseline needs 0.4 ms: still the floor */
    snprintf(gr.baselines[0].params, sizeof gr.baselines[0].params, "type=float n=2^26");
    gr.baselines[0].ms = 0.4;
    /* one that needs 275 ms: CALL_MARGIN times that */
    snprintf(gr.baselines[1].params, sizeof gr.baselines[1].params, "impl=blocked n=2048");
    gr.baselines[1].ms = 275;
    /* one with no baseline (the lab has none, or it failed) */
    snprintf(gr.baselines[2].params, sizeof gr.baselines[2].params, "n=5");
    gr.baselines[2].ms = -1;
    gr.n_baselines = 3;
    ck_assert(call_limit(&gr, "type=float n=2^26") == 2);
    ck_assert(call_limit(&gr, "impl=blocked n=2048") > CALL_MARGIN * 0.275 - 1e-9);
    ck_assert(call_limit(&gr, "impl=blocked n=2048") < CALL_MARGIN * 0.275 + 1e-9);
    ck_assert(call_limit(&gr, "n=5") == 2);
    /* the next run's limit after one found too short */
    gr.next_limit = 7.5;
    ck_assert(call_limit(&gr, "type=float n=2^26") == 7.5);
    /* the backstop: the kit's share, grace x the call, and the held time the
     * watchdog may leave out (a cudaDeviceReset under load must not reach it) */
    ck_assert(run_limit(&test, 2, CALL_GRACE) == 20 + CALL_GRACE * 2 + KIT_CALL_HOLD_MAX_S);
    ck_assert(run_limit(&test, 2, 1) == 20 + 2 + KIT_CALL_HOLD_MAX_S);
}
END_TEST

START_TEST(runner_arguments)
{
    setup();
    const char *argv[16] = {"runner", "run"};
    call_args a;
    int n = add_call_args(&gr, 2.5, CALL_GRACE, &a, argv, 2);
    ck_assert_int_eq(n, 6);
    ck_assert_str_eq(argv[2], "--call-limit");
    ck_assert_str_eq(argv[3], "2.500");
    ck_assert_str_eq(argv[4], "--call-grace");
    ck_assert_str_eq(argv[5], "4");
    ck_assert_ptr_null(argv[6]);
    /* after calls did not return: they are not made again */
    snprintf(gr.hung[0].call, sizeof gr.hung[0].call, "scan");
    snprintf(gr.hung[1].call, sizeof gr.hung[1].call, "scan_int");
    gr.n_hung = 2;
    n = add_call_args(&gr, 2, 1, &a, argv, 2);
    ck_assert_int_eq(n, 8);
    ck_assert_str_eq(argv[6], "--skip-calls");
    ck_assert_str_eq(argv[7], "scan,scan_int");
    ck_assert_ptr_null(argv[8]);
}
END_TEST

static char dir[64];

static void record(const char *line)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, KIT_HANG_FILE);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(line, f);
    fclose(f);
}

START_TEST(a_run_read_as_hung)
{
    snprintf(dir, sizeof dir, "/tmp/kit-hang-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    proc_result r;
    memset(&r, 0, sizeof r);
    kit_hang_record h;
    r.exited = 1, r.exit_code = KIT_EXIT_HUNG;
    ck_assert_int_eq(run_hung(&r, dir, &h), 0); /* no record: not read as a hang */
    record("dot_shared\t2.000\t5.004\tvoid dot_kernel<float>(float const*, float const*, float*, int)\n");
    ck_assert_int_eq(run_hung(&r, dir, &h), 1);
    ck_assert_str_eq(h.call, "dot_shared");
    ck_assert_str_eq(h.kernel, "void dot_kernel<float>(float const*, float const*, float*, int)");
    /* other ends are not hangs, whatever file the submission left */
    memset(&r, 0, sizeof r);
    r.exited = 1, r.exit_code = 0;
    ck_assert_int_eq(run_hung(&r, dir, &h), 0);
    r.exit_code = KIT_EXIT_STUDENT_CUDA;
    ck_assert_int_eq(run_hung(&r, dir, &h), 0);
    memset(&r, 0, sizeof r);
    r.signaled = 1, r.signal = SIGABRT;
    ck_assert_int_eq(run_hung(&r, dir, &h), 0);
    /* a record that is no record, or a link planted in its place */
    r.signaled = 0, r.exited = 1, r.exit_code = KIT_EXIT_HUNG;
    record("garbage\n");
    ck_assert_int_eq(run_hung(&r, dir, &h), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, KIT_HANG_FILE);
    unlink(path);
    ck_assert_int_eq(symlink("/etc/passwd", path), 0);
    ck_assert_int_eq(run_hung(&r, dir, &h), 0);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* The grace: alone none; with no other holder of the GPU's lock only the
 * grading's own sanitizer runs beside (CALL_GRACE_OWN); with one, CALL_GRACE. */
START_TEST(grace_from_the_gpus_other_users)
{
    setup();
    char dir[] = "/tmp/kit-grace-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("KIT_LOCK_DIR", dir, 1);
    ck_assert(call_grace(&gr, 1) == 1);
    ck_assert(call_grace(&gr, 0) == CALL_GRACE_OWN);
    gpu_lock mine;
    ck_assert_int_eq(gpu_lock_acquire(&mine, eng.gpu_uuid, 0, NULL), 0); /* this process's own hold */
    ck_assert(call_grace(&gr, 0) == CALL_GRACE_OWN);
    pid_t pid = fork(); /* another grading's shared hold */
    if (pid == 0) {
        gpu_lock other;
        if (gpu_lock_acquire(&other, eng.gpu_uuid, 0, NULL) != 0)
            _exit(1);
        sleep(30);
        _exit(0);
    }
    int others = 0;
    for (int i = 0; i < 500 && (others = gpu_lock_others(eng.gpu_uuid)) < 1; i++)
        usleep(10000);
    ck_assert_int_eq(others, 1);
    ck_assert(call_grace(&gr, 0) == CALL_GRACE);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    ck_assert_int_eq(gpu_lock_others(eng.gpu_uuid), 0);
    gpu_lock_release(&mine);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(skipped_runs_point_at_the_hang)
{
    setup();
    snprintf(gr.hung[0].call, sizeof gr.hung[0].call, "dot_shared");
    snprintf(gr.hung[0].test, sizeof gr.hung[0].test, "float-large");
    snprintf(gr.hung[0].params, sizeof gr.hung[0].params, "type=float n=2^24+1");
    gr.n_hung = 1;
    outcome c;
    outcome_init(&c);
    hang_skipped(&gr, "dot_shared", &c);
    ck_assert_int_eq(c.pass, 0);
    ck_assert_int_eq(c.skipped, 1);
    ck_assert_str_eq(sb_str(&c.text),
                     "not run: dot_shared() did not return in test float-large (case type=float n=2^24+1)\n");
    outcome_free(&c);

    proc_result r;
    memset(&r, 0, sizeof r);
    sb_init(&r.err);
    sb_add(&r.err, "some output\n" KIT_SKIPPED_LINE "dot_shared\n");
    char call[64];
    ck_assert_int_eq(skipped_call_of(&r, call, sizeof call), 0); /* not the skip's status */
    r.exited = 1, r.exit_code = KIT_EXIT_SKIPPED;
    ck_assert_int_eq(skipped_call_of(&r, call, sizeof call), 1);
    ck_assert_str_eq(call, "dot_shared");
    sb_free(&r.err);
}
END_TEST

/* A call that did not return while other kernels shared the GPU is no
 * verdict: it runs again alone with the same limit (a slow right call
 * beside fifty checks was judged hung).  Alone, it is judged and recorded;
 * a case that needs more than the limit is cut short either way; a
 * sanitizer run is judged where it ran. */
START_TEST(judged_only_alone)
{
    setup();
    /* the case's baseline is known (nothing measured here): 0.67 ms */
    snprintf(gr.baselines[0].params, sizeof gr.baselines[0].params, "type=float n=2^26");
    gr.baselines[0].ms = 0.67;
    gr.n_baselines = 1;
    kit_hang_record h;
    memset(&h, 0, sizeof h);
    snprintf(h.call, sizeof h.call, "dot_shared");
    h.limit_s = 2, h.seconds = 8;
    outcome c;
    outcome_init(&c);
    ck_assert_int_eq(hang_judge(&gr, &test, "type=float n=2^26", 1, &h, 1, 0, &c), 0);
    ck_assert(gr.next_limit == 2);                     /* again, alone, the same limit */
    ck_assert_int_eq(c.hung, 0);
    ck_assert_int_eq(c.text.len, 0);
    ck_assert_int_eq(gr.n_hung, 0);                    /* nothing recorded: later runs make the call */
    gr.next_limit = 0;
    h.seconds = 2;
    ck_assert_int_eq(hang_judge(&gr, &test, "type=float n=2^26", 1, &h, 0, 0, &c), 1);
    ck_assert_int_eq(c.hung, 1);
    ck_assert_int_eq(c.pass, 0);
    ck_assert_int_eq(gr.n_hung, 1);
    ck_assert_str_eq(gr.hung[0].call, "dot_shared");
    ck_assert_ptr_nonnull(strstr(sb_str(&c.text), "dot_shared() did not return within 2.0 s (its limit: 2 s"));
    outcome_free(&c);

    /* a case that needs 275 ms a call: cut short, shared or alone */
    snprintf(gr.baselines[1].params, sizeof gr.baselines[1].params, "impl=blocked n=2048");
    gr.baselines[1].ms = 275;
    gr.n_baselines = 2;
    outcome_init(&c);
    ck_assert_int_eq(hang_judge(&gr, &test, "impl=blocked n=2048", 1, &h, 0, 0, &c), 0);
    ck_assert(gr.next_limit > CALL_MARGIN * 0.275 - 1e-9);
    gr.next_limit = 0;
    ck_assert_int_eq(hang_judge(&gr, &test, "impl=blocked n=2048", 1, &h, 1, 0, &c), 0);
    ck_assert(gr.next_limit > CALL_MARGIN * 0.275 - 1e-9);
    ck_assert_int_eq(c.hung, 0);
    outcome_free(&c);

    /* under compute-sanitizer: judged where it ran, not recorded */
    gr.next_limit = 0;
    outcome_init(&c);
    ck_assert_int_eq(hang_judge(&gr, &test, "type=float n=2^26", 1, &h, 0, 1, &c), 1);
    ck_assert_int_eq(c.hung, 1);
    ck_assert_ptr_nonnull(strstr(sb_str(&c.text), "under compute-sanitizer"));
    ck_assert_int_eq(gr.n_hung, 1);
    outcome_free(&c);
}
END_TEST

static Suite *hang_suite(void)
{
    Suite *s = suite_create("hang");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, limit_from_what_the_case_needs);
    tcase_add_test(tc, runner_arguments);
    tcase_add_test(tc, a_run_read_as_hung);
    tcase_add_test(tc, skipped_runs_point_at_the_hang);
    tcase_add_test(tc, grace_from_the_gpus_other_users);
    tcase_add_test(tc, judged_only_alone);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(hang_suite)
