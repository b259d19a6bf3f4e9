/* test_lock.c - the GPU lock and the CPU slots (lock.h): a timing run finds
 * a free core because builds and checkers take at most N slots; a slot is
 * waited for, not skipped; the wait for the GPU is measured (it is shown to
 * the student and is not part of the run's time limit). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "grading/engine_int.h"
#include "process/lock.h"
#include "util/fsutil.h"

static char tmpdir[256];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kit-test-lock-XXXXXX");
    ck_assert(mkdtemp(tmpdir) != NULL);
    setenv("KIT_LOCK_DIR", tmpdir, 1);
    setenv("KIT_CPU_SLOTS", "2", 1);
}

static void teardown(void)
{
    unsetenv("KIT_CPU_SLOTS");
    unsetenv("KIT_LOCK_DIR");
    ck_assert_int_eq(rm_rf(tmpdir), 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A child that takes a slot (every slot: `every`) and reports, through a
 * pipe, how long it waited (`inherited`: the parent's lock descriptors,
 * closed in the child: a flock belongs to the open file, which a forked
 * copy would keep held). */
static pid_t slot_taker(int fds[2], int inherited1, int inherited2, int every)
{
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        close(inherited1), close(inherited2);
        double t0 = now();
        cpu_slot s = {-1};
        cpu_slot_all all = {0};
        if (every)
            cpu_slots_acquire_all(&all);
        else
            cpu_slot_acquire(&s);
        double waited = now() - t0;
        int held = every ? all.n == 2 : s.fd >= 0;
        ssize_t n = write(fds[1], &waited, sizeof waited);
        cpu_slot_release(&s);
        cpu_slots_release_all(&all);
        _exit(held && n == sizeof waited ? 0 : 1);
    }
    close(fds[1]);
    return pid;
}

/* The taker's wait, once it has ended holding what it asked for. */
static double taker_waited(int fds[2], pid_t pid)
{
    double waited = -1;
    ck_assert_int_eq(read(fds[0], &waited, sizeof waited), (ssize_t)sizeof waited);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(fds[0]);
    return waited;
}

START_TEST(cpu_slots_bound_the_holders)
{
    cpu_slot a, b;
    cpu_slot_acquire(&a);
    cpu_slot_acquire(&b);
    ck_assert(a.fd >= 0 && b.fd >= 0);
    /* Both slots held: a third holder waits until one is released. */
    int fds[2];
    pid_t pid = slot_taker(fds, a.fd, b.fd, 0);
    usleep(300 * 1000);
    cpu_slot_release(&a);
    double waited = taker_waited(fds, pid);
    ck_assert_msg(waited >= 0.25, "the third holder waited only %.3f s", waited);
    cpu_slot_release(&b);

    /* A free slot is taken at once. */
    pid = slot_taker(fds, -1, -1, 0);
    waited = taker_waited(fds, pid);
    ck_assert_msg(waited < 1.0, "a free slot took %.3f s", waited); /* not waited for: polling is 10 ms */
}
END_TEST

/* host = alone: every slot is waited for (a build or checker running ends
 * first), and while they are held no build or checker starts. */
START_TEST(all_slots_keep_the_kit_out)
{
    cpu_slot one;
    cpu_slot_acquire(&one);
    int fds[2];
    pid_t pid = slot_taker(fds, one.fd, -1, 1);
    usleep(300 * 1000);
    cpu_slot_release(&one);
    double waited = taker_waited(fds, pid);
    ck_assert_msg(waited >= 0.25, "every slot taken after %.3f s, while one was held", waited);

    cpu_slot_all all;
    cpu_slots_acquire_all(&all);
    ck_assert_int_eq(all.n, 2);
    pid = slot_taker(fds, all.fd[0], all.fd[1], 0);
    usleep(300 * 1000);
    cpu_slots_release_all(&all);
    waited = taker_waited(fds, pid);
    ck_assert_msg(waited >= 0.25, "a checker's slot taken after %.3f s while every slot was held", waited);
}
END_TEST

START_TEST(gpu_wait_is_measured)
{
    gpu_lock held;
    ck_assert_int_eq(gpu_lock_acquire(&held, "GPU-test", 1, NULL), 0);
    ck_assert(held.waited_s < 0.2);
    int st;
    /* Released after 0.3 s: the waiter measures that. */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        close(held.fd);
        gpu_lock l;
        gpu_lock_acquire(&l, "GPU-test", 1, NULL);
        ssize_t n = write(fds[1], &l.waited_s, sizeof l.waited_s);
        _exit(n == sizeof l.waited_s ? 0 : 1);
    }
    close(fds[1]);
    usleep(300 * 1000);
    gpu_lock_release(&held);
    double waited = -1;
    ck_assert_int_eq(read(fds[0], &waited, sizeof waited), (ssize_t)sizeof waited);
    waitpid(pid, &st, 0);
    close(fds[0]);
    ck_assert_msg(waited >= 0.25, "waited_s %.3f", waited);
}
END_TEST

/* A timing run holds the GPU alone only inside its timing loop (serve.c
 * run_gated): a stand-in runner asks through the gate descriptor, and while
 * it has "go" no shared holder can get the lock, while after "ok" one can.
 * Its time limit does not count the wait for the lock. */
START_TEST(gated_timing_run)
{
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(e.gpu_uuid, sizeof e.gpu_uuid, "GPU-test");
    grading gr = {.e = &e};
    char script[2048];
    snprintf(script, sizeof script,
             "L=%s/kit-gpu-GPU-test.lock; "
             "flock -n -s $L true && echo shared-before-ok; "
             "echo exclusive >&%d; read -r a <&%d; [ \"$a\" = go ] || exit 9; "
             "flock -n -s $L true || echo alone-ok; "
             "echo shared >&%d; read -r a <&%d; [ \"$a\" = ok ] || exit 8; "
             "flock -n -s $L true && echo shared-after-ok",
             tmpdir, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD);
    const char *argv[] = {"/bin/bash", "-c", script, NULL};
    sandboxed sb;
    memset(&sb, 0, sizeof sb);
    /* another grading holds the GPU shared for a moment: "exclusive" waits */
    pid_t holder = fork();
    if (holder == 0) {
        gpu_lock l;
        gpu_lock_acquire(&l, "GPU-test", 0, NULL);
        usleep(600000);
        _exit(0);
    }
    usleep(100000);
    proc_result r;
    double waited = 0;
    run_gated(&gr, argv, &sb, 5, 0, &r, &waited);
    waitpid(holder, NULL, 0);
    ck_assert_msg(proc_ok(&r), "%s %s", sb_str(&r.out), sb_str(&r.err));
    ck_assert_str_eq(sb_str(&r.out), "shared-before-ok\nalone-ok\nshared-after-ok\n");
    ck_assert_msg(waited > 0.2, "waited %.3f s for the holder", waited);
    proc_result_free(&r);

    /* a runner that says anything else is ended, not obeyed */
    char bad_script[256];
    snprintf(bad_script, sizeof bad_script, "echo 'rm -rf /' >&%d; read -r a <&%d; echo obeyed", KIT_CTL_FD,
             KIT_CTL_FD);
    const char *bad[] = {"/bin/bash", "-c", bad_script, NULL};
    waited = 0;
    run_gated(&gr, bad, &sb, 5, 0, &r, &waited);
    ck_assert_msg(!strstr(sb_str(&r.out), "obeyed"), "%s", sb_str(&r.out));
    proc_result_free(&r);

    /* host = alone: while the runner has "go", no CPU slot is free (no build
     * or checker of the kit runs); after "ok" they are free again.  A runner
     * that asks for the GPU alone twice in a row (its code is the student's
     * too) gets "go" again: the slots it holds are not waited for anew. */
    e.gpu = 1;
    snprintf(script, sizeof script,
             "S=%s/kit-cpu-slot; "
             "flock -n $S.0 true && flock -n $S.1 true && echo slots-free-before; "
             "echo exclusive >&%d; read -r a <&%d; [ \"$a\" = go ] || exit 9; "
             "echo exclusive >&%d; read -r a <&%d; [ \"$a\" = go ] || exit 7; "
             "flock -n $S.0 true || flock -n $S.1 true || echo slots-held; "
             "echo shared >&%d; read -r a <&%d; [ \"$a\" = ok ] || exit 8; "
             "flock -n $S.0 true && flock -n $S.1 true && echo slots-free-after",
             tmpdir, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD, KIT_CTL_FD);
    waited = 0;
    run_gated(&gr, argv, &sb, 5, 1, &r, &waited);
    ck_assert_msg(proc_ok(&r), "%s %s", sb_str(&r.out), sb_str(&r.err));
    ck_assert_str_eq(sb_str(&r.out), "slots-free-before\nslots-held\nslots-free-after\n");
    proc_result_free(&r);
}
END_TEST

/* The deadlock seen on the H200 with batches side by side: a grading that
 * held the GPU shared (its case server) asked again (a sanitizer process)
 * while a timing run of another grading waited at the turnstile: the second
 * request waited for the timing run, which waited for the first hold.  A
 * grading now holds the GPU shared once for all its processes. */
START_TEST(one_shared_hold_per_grading)
{
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(e.gpu_uuid, sizeof e.gpu_uuid, "GPU-test");
    grading gr = {.e = &e};
    gpu_share(&gr);
    ck_assert_int_eq(gr.shared_held, 1);
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t timing = fork();
    if (timing == 0) { /* another grading's timing run */
        gpu_lock l;
        gpu_lock_acquire(&l, "GPU-test", 1, NULL);
        char c = 'x';
        if (write(p[1], &c, 1) != 1)
            _exit(2);
        _exit(0);
    }
    usleep(200000); /* it now waits, and new shared holds wait behind it */
    alarm(10);      /* a deadlock fails the test instead of hanging it */
    gpu_share(&gr);  /* the case server, a sanitizer process, a single run */
    gpu_share(&gr);
    alarm(0);
    ck_assert_int_eq(gr.shared_held, 1);
    gpu_unshare(&gr);
    char c;
    ck_assert_int_eq(read(p[0], &c, 1), 1); /* the timing run got the GPU */
    waitpid(timing, NULL, 0);
}
END_TEST

/* A child that takes the GPU lock (exclusive or shared) after `delay` s,
 * holds it `hold` s and writes when it got it and when it let go. */
static pid_t lock_taker(int fd, int exclusive, double delay, double hold)
{
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        usleep((useconds_t)(delay * 1e6));
        gpu_lock l;
        gpu_lock_acquire(&l, "GPU-test", exclusive, NULL);
        double times[2] = {now(), 0};
        usleep((useconds_t)(hold * 1e6));
        times[1] = now();
        gpu_lock_release(&l);
        _exit(write(fd, times, sizeof times) == sizeof times ? 0 : 1);
    }
    return pid;
}

/* Timing runs that queue while the GPU is shared time one after another
 * before any new shared hold: a course server's 50 checks waited 105 s each
 * when every timing run waited behind a new round of correctness phases. */
START_TEST(timing_runs_go_first)
{
    int p[4][2];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pipe(p[i]), 0);
    double t0 = now();
    pid_t pids[4] = {lock_taker(p[0][1], 0, 0, 0.4),    /* a grading's correctness phase */
                     lock_taker(p[1][1], 1, 0.1, 0.4),  /* a timing run waits for it, then times */
                     lock_taker(p[2][1], 1, 0.6, 0.2),  /* another timing run comes while it times, */
                     lock_taker(p[3][1], 0, 0.5, 0.6)}; /* after a new shared holder */
    double got[4][2];
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(read(p[i][0], got[i], sizeof got[i]), sizeof got[i]);
        waitpid(pids[i], NULL, 0);
    }
    ck_assert_msg(got[1][0] >= got[0][1] && got[2][0] >= got[0][1], "a timing run started before the shared holder ended");
    ck_assert_msg(got[3][0] >= got[1][1] && got[3][0] >= got[2][1],
                  "the later shared hold started %.2f s in, before both timing runs ended (%.2f, %.2f s)", got[3][0] - t0,
                  got[1][1] - t0, got[2][1] - t0);
}
END_TEST

/* A timing run between two timing loops shares the GPU again at once: it
 * waited behind every timing run queued meanwhile, once per case.  (The
 * queued timing run is the script's own child, as flock(1) calls: children
 * of the test process would be reaped by run_gated's clean-up.) */
START_TEST(back_to_sharing_without_a_wait)
{
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(e.gpu_uuid, sizeof e.gpu_uuid, "GPU-test");
    grading gr = {.e = &e};
    char script[2048];
    snprintf(script, sizeof script,
             "echo exclusive >&%d; read -r a <&%d; "
             "( flock -s 8; flock -x 9; sleep 1 ) 8>>%s/kit-gpu-GPU-test.writers 9>>%s/kit-gpu-GPU-test.lock & "
             "sleep 0.3; t0=$(date +%%s%%N); echo shared >&%d; read -r a <&%d; "
             "echo $(( ($(date +%%s%%N) - t0) / 1000000 ))",
             KIT_CTL_FD, KIT_CTL_FD, tmpdir, tmpdir, KIT_CTL_FD, KIT_CTL_FD);
    const char *argv[] = {"/bin/bash", "-c", script, NULL};
    sandboxed sb;
    memset(&sb, 0, sizeof sb);
    proc_result r;
    double waited = 0;
    run_gated(&gr, argv, &sb, 10, 0, &r, &waited);
    ck_assert_msg(r.out.len > 0, "%s %s", sb_str(&r.out), sb_str(&r.err));
    ck_assert_msg(atoi(sb_str(&r.out)) < 500, "waited %s ms to share the GPU again", sb_str(&r.out));
    proc_result_free(&r);
}
END_TEST

static Suite *lock_suite(void)
{
    Suite *s = suite_create("lock");
    TCase *tc = tcase_create("slots");
    tcase_set_timeout(tc, 30);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cpu_slots_bound_the_holders);
    tcase_add_test(tc, all_slots_keep_the_kit_out);
    tcase_add_test(tc, gpu_wait_is_measured);
    tcase_add_test(tc, gated_timing_run);
    tcase_add_test(tc, one_shared_hold_per_grading);
    tcase_add_test(tc, timing_runs_go_first);
    tcase_add_test(tc, back_to_sharing_without_a_wait);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lock_suite)
