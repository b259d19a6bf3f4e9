/* test_hardening.c - the grader against hostile submissions, piece by piece:
 * output floods (stderr keeps its head and its tail), a flood of files (the
 * disk watch), orphans that leave the process group, bubblewrap's way of
 * reporting a signal, long and odd student names (result file names,
 * gradebook formulas), folders a submission left without permissions.  The
 * whole pipeline is exercised by tests/run-cpu-submissions and
 * tests/hostile/run. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course/batch.h"
#include "grading/engine_int.h"
#include "kit/util.h"
#include "check_main.h"
#include "process/proc.h"
#include "output/report.h"
#include "process/sandbox.h"
#include "util/fsutil.h"

static char tmpdir[256];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kit-test-hardening-XXXXXX");
    ck_assert(mkdtemp(tmpdir) != NULL);
}

static void teardown(void) { ck_assert_int_eq(rm_rf(tmpdir), 0); }

static void run_sh(const char *script, const proc_opts *o, proc_result *r)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    proc_run(argv, o, r);
}

START_TEST(stderr_keeps_head_and_tail)
{
    proc_opts o = {0};
    o.timeout_s = 30;
    o.out_cap = 1000;
    o.err_cap = 1000;
    proc_result r;
    run_sh("echo first >&2; yes 'junk line' | head -c 5000000 >&2; echo 'the real error' >&2; "
           "yes out | head -c 100000",
           &o, &r);
    ck_assert(proc_ok(&r));
    ck_assert(r.err_capped && r.out_capped);
    ck_assert_uint_eq(r.err_total, 6u + 5000000u + 15u);
    ck_assert_uint_eq(r.out_total, 100000u);
    ck_assert_uint_eq(r.out.len, 1000u); /* stdout: the head only */
    ck_assert_msg(!strncmp(sb_str(&r.err), "first\n", 6), "%s", sb_str(&r.err));
    ck_assert_msg(strstr(sb_str(&r.err), "bytes not kept ...]"), "%s", sb_str(&r.err));
    size_t n = r.err.len;
    ck_assert_msg(n > 15 && !strcmp(sb_str(&r.err) + n - 15, "the real error\n"), "%s", sb_str(&r.err));
    /* the tail in order: whole lines of the flood, then the end */
    ck_assert_msg(strstr(sb_str(&r.err), "junk line\njunk line\nthe real error\n"), "%s", sb_str(&r.err));
    ck_assert_uint_lt(n, 1100u);
    proc_result_free(&r);

    /* Under the cap: everything, no marker. */
    run_sh("echo one >&2; echo two >&2", &o, &r);
    ck_assert_str_eq(sb_str(&r.err), "one\ntwo\n");
    ck_assert(!r.err_capped);
    proc_result_free(&r);
}
END_TEST

/* Empties dir before a watched run, outside it: removing ten thousand files
 * within the run took longer than the watch's first look on a busy machine,
 * which then saw the files of the run before and killed it. */
static void empty_dir(const char *dir)
{
    char script[1024];
    snprintf(script, sizeof script, "cd '%s' && find . -mindepth 1 -delete", dir);
    proc_opts o = {0};
    o.timeout_s = 60;
    proc_result r;
    run_sh(script, &o, &r);
    ck_assert_msg(proc_ok(&r), "%s", sb_str(&r.err));
    proc_result_free(&r);
}

START_TEST(flood_of_files_is_killed)
{
    char dir[512], script[1024];
    snprintf(dir, sizeof dir, "%s/run", tmpdir);
    ck_assert_int_eq(mkdirs(dir, 0755), 0);
    proc_opts o = {0};
    o.timeout_s = 60;
    o.watch_dir = dir;
    o.watch_max_bytes = 8 << 20;
    proc_result r;
    snprintf(script, sizeof script, "cd '%s' && i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); done",
             dir);
    run_sh(script, &o, &r);
    ck_assert(r.disk_exceeded);
    ck_assert(!proc_ok(&r));
    ck_assert(r.seconds < 30);
    strbuf d;
    sb_init(&d);
    proc_describe(&r, &d);
    ck_assert_msg(strstr(sb_str(&d), "wrote more files than allowed (over 8 MB"), "%s", sb_str(&d));
    sb_free(&d);
    proc_result_free(&r);

    /* Many empty files count too. */
    empty_dir(dir);
    snprintf(script, sizeof script, "cd '%s' && i=0; while :; do : > e$i; i=$((i+1)); done", dir);
    run_sh(script, &o, &r);
    ck_assert(r.disk_exceeded);
    proc_result_free(&r);

    /* Within the limit: untouched. */
    empty_dir(dir);
    snprintf(script, sizeof script, "cd '%s' && head -c 1048576 /dev/zero > ok", dir);
    run_sh(script, &o, &r);
    ck_assert(proc_ok(&r) && !r.disk_exceeded);
    proc_result_free(&r);
}
END_TEST

START_TEST(orphans_are_killed)
{
    proc_become_subreaper();
    char pidfile[512], script[2048];
    snprintf(pidfile, sizeof pidfile, "%s/daemon.pid", tmpdir);
    /* A daemon in its own session keeps stdout open and ignores SIGTERM. */
    snprintf(script, sizeof script,
             "setsid sh -c 'trap \"\" TERM HUP; echo $$ > %s; exec sleep 1000' & "
             "while [ ! -s %s ]; do sleep 0.05; done; echo started",
             pidfile, pidfile);
    proc_opts o = {0};
    o.timeout_s = 20;
    proc_result r;
    run_sh(script, &o, &r);
    ck_assert_msg(proc_ok(&r), "%s", sb_str(&r.err));
    ck_assert(r.seconds < 10);
    ck_assert_str_eq(sb_str(&r.out), "started\n");
    proc_result_free(&r);
    FILE *f = fopen(pidfile, "r");
    ck_assert_ptr_nonnull(f);
    int pid = 0;
    ck_assert_int_eq(fscanf(f, "%d", &pid), 1);
    fclose(f);
    ck_assert_msg(kill(pid, 0) != 0 && errno == ESRCH, "the daemon %d is still alive", pid);
}
END_TEST

START_TEST(timeout_kills_the_group)
{
    proc_opts o = {0};
    o.timeout_s = 1;
    proc_result r;
    run_sh("trap '' TERM; sleep 100 & sleep 100", &o, &r);
    ck_assert(r.timed_out && !proc_ok(&r));
    ck_assert(r.seconds < 5);
    strbuf d;
    sb_init(&d);
    proc_describe(&r, &d);
    ck_assert_str_eq(sb_str(&d), "killed after the 1 s time limit");
    sb_free(&d);
    proc_result_free(&r);
}
END_TEST

/* bubblewrap exits with 128 + N when its child died of signal N. */
START_TEST(bwrap_signal_status)
{
    char fake[512];
    snprintf(fake, sizeof fake, "%s/fake-bwrap", tmpdir);
    FILE *f = fopen(fake, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#!/bin/sh\nexit 139\n", f);
    fclose(f);
    chmod(fake, 0755);
    sandbox sb;
    memset(&sb, 0, sizeof sb);
    sb.use_bwrap = 1;
    sb.uid_fd = -1;
    snprintf(sb.bwrap, sizeof sb.bwrap, "%s", fake);
    proc_opts o = {0};
    o.timeout_s = 10;
    o.sb = &sb;
    proc_result r;
    const char *argv[] = {"/bin/true", NULL};
    proc_run(argv, &o, &r);
    ck_assert(r.signaled && r.signal == SIGSEGV && !proc_ok(&r));
    strbuf d;
    sb_init(&d);
    proc_describe(&r, &d);
    ck_assert_msg(strstr(sb_str(&d), "SIGSEGV"), "%s", sb_str(&d));
    sb_free(&d);
    proc_result_free(&r);
}
END_TEST

START_TEST(safe_names)
{
    char a[800], b[800];
    safe_file_name("alice", a, sizeof a);
    ck_assert_str_eq(a, "alice");
    safe_file_name(".hidden name,x", a, sizeof a);
    ck_assert_str_eq(a, "%2Ehidden%20name%2Cx");
    /* 120 two-byte characters: 720 bytes percent-encoded, more than a file
     * name may have; cut, with a digest that keeps different names apart. */
    char longname[256] = "";
    for (int i = 0; i < 120; i++)
        strcat(longname, "\xc3\xa9");
    safe_file_name(longname, a, sizeof a);
    longname[strlen(longname) - 2] = 0;
    strcat(longname, "\xc3\xa8");
    safe_file_name(longname, b, sizeof b);
    ck_assert_uint_le(strlen(a), 200);
    ck_assert_uint_le(strlen(b), 200);
    ck_assert_str_ne(a, b);
    ck_assert_msg(strchr(a, '~') && !strncmp(a, "%C3%A9%C3%A9", 12), "%s", a);
    /* A file of that name can be created. */
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.json", tmpdir, a);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    fclose(f);
}
END_TEST

START_TEST(gradebook_formulas)
{
    grade_result g[3], *list[3];
    const char *names[] = {"=HYPERLINK(\"http://x\",\"y\")", "-2+3", "bob"};
    for (int i = 0; i < 3; i++) {
        grade_result_init(&g[i]);
        snprintf(g[i].student, sizeof g[i].student, "%s", names[i]);
        g[i].build_ok = 1;
        g[i].gpu_ran = 1;
        list[i] = &g[i];
    }
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/gradebook.csv", tmpdir);
    ck_assert_int_eq(report_write_csv(path, list, 3, NULL, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    char text[4096] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(strstr(text, "\n'-2+3,"), "%s", text);
    ck_assert_msg(strstr(text, "\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\","), "%s", text);
    ck_assert_msg(strstr(text, "\nbob,"), "%s", text);
    for (int i = 0; i < 3; i++)
        grade_result_free(&g[i]);
}
END_TEST

START_TEST(remove_locked_folders)
{
    char dir[512], sub[600], file[700];
    snprintf(dir, sizeof dir, "%s/w", tmpdir);
    snprintf(sub, sizeof sub, "%s/locked", dir);
    snprintf(file, sizeof file, "%s/inside", sub);
    ck_assert_int_eq(mkdirs(sub, 0755), 0);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    char link[600];
    snprintf(link, sizeof link, "%s/to-etc", dir);
    ck_assert_int_eq(symlink("/etc", link), 0);
    chmod(sub, 0);
    ck_assert_int_eq(rm_rf(dir), 0);
    struct stat st;
    ck_assert(lstat(dir, &st) != 0);
    ck_assert(stat("/etc/passwd", &st) == 0); /* the link was removed, not followed */
}
END_TEST

/* The run folder and the checker's copy of a run's stdout: a failure to
 * make them is said (it was swallowed: the checker then judged a missing or
 * partial stdout, or the run failed in words that blamed the student). */
START_TEST(run_files_failures_said)
{
    workdirs w;
    memset(&w, 0, sizeof w);
    strbuf why;
    sb_init(&why);
    snprintf(w.sout, sizeof w.sout, "%s/missing/stdout.txt", tmpdir);
    ck_assert_int_eq(write_run_stdout(&w, "x\n", 2, &why), -1);
    ck_assert_msg(strstr(sb_str(&why), "internal error: cannot write the run's output"), "%s", sb_str(&why));
    sb_clear(&why);
    char path[600];
    snprintf(path, sizeof path, "%s/stdout.txt", tmpdir);
    snprintf(w.sout, sizeof w.sout, "%s", path);
    ck_assert_int_eq(mkdir(path, 0755), 0); /* not removable as a file */
    ck_assert_int_eq(write_run_stdout(&w, "x\n", 2, &why), -1);
    ck_assert_msg(strstr(sb_str(&why), "internal error: cannot remove"), "%s", sb_str(&why));
    ck_assert_int_eq(rmdir(path), 0);
    sb_clear(&why);
    ck_assert_int_eq(write_run_stdout(&w, "x\n", 2, &why), 0);
    size_t len = 0;
    char *text = kit_read_file(path, 0, &len);
    ck_assert(text && len == 2 && !memcmp(text, "x\n", 2));
    free(text);
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(path, sizeof path, "%s/file", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(w.run, sizeof w.run, "%s/file/run", tmpdir); /* under a file: cannot be made */
    ck_assert_int_eq(clean_run_dir(&e, &w), -1);
    ck_assert_int_eq(mkdirs(path, 0755), -1); /* a file in a folder's place is not that folder */
    ck_assert_int_eq(errno, ENOTDIR);
    snprintf(w.run, sizeof w.run, "%s/run", tmpdir);
    ck_assert_int_eq(clean_run_dir(&e, &w), 0);
    sb_free(&why);
}
END_TEST

/* A submission's process gets a minimal environment: the caller's OpenMP
 * wait policy (kitgrade sets PASSIVE unless given one: main.c) passes, other
 * variables of the grader's do not. */
static int env_has(const sandboxed *s, const char *entry)
{
    for (int i = 0; s->env[i]; i++)
        if (!strcmp(s->env[i], entry))
            return 1;
    return 0;
}

START_TEST(submission_env_passes_omp_policy)
{
    engine *e = calloc(1, sizeof *e);
    ck_assert_ptr_nonnull(e);
    sandboxed *s = malloc(sizeof *s);
    ck_assert_ptr_nonnull(s);
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    setenv("KIT_TEST_GRADER_ONLY", "1", 1);
    sandboxed_init(s, e, 1, tmpdir, tmpdir, tmpdir, NULL, NULL);
    ck_assert(env_has(s, "OMP_WAIT_POLICY=PASSIVE"));
    ck_assert(!env_has(s, "KIT_TEST_GRADER_ONLY=1"));
    unsetenv("OMP_WAIT_POLICY");
    sandboxed_init(s, e, 1, tmpdir, tmpdir, tmpdir, NULL, NULL);
    for (int i = 0; s->env[i]; i++)
        ck_assert_msg(strncmp(s->env[i], "OMP_", 4) != 0, "%s", s->env[i]);
    unsetenv("KIT_TEST_GRADER_ONLY");
    free(s);
    free(e);
}
END_TEST

static Suite *hardening_suite(void)
{
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("proc");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, run_files_failures_said);
    tcase_add_test(tc, stderr_keeps_head_and_tail);
    tcase_add_test(tc, flood_of_files_is_killed);
    tcase_add_test(tc, orphans_are_killed);
    tcase_add_test(tc, timeout_kills_the_group);
    tcase_add_test(tc, bwrap_signal_status);
    suite_add_tcase(s, tc);
    tc = tcase_create("names and files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, safe_names);
    tcase_add_test(tc, submission_env_passes_omp_policy);
    tcase_add_test(tc, gradebook_formulas);
    tcase_add_test(tc, remove_locked_folders);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(hardening_suite)
