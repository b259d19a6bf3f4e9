/* test_beside.c - a grading's work beside other work (engine.c, serve.c),
 * with a stand-in runner and checker (shell scripts: no GPU, no nvcc); the
 * whole of grade_tests runs as in a check (the case server, a gated timing
 * run, the checkers, a call that does not return), and what it produces is
 * compared with the same grading done one step after the other:
 * - a performance test run before its other tests, against KIT_PERF_FIRST=0
 *   (the rubric's order throughout): the same results in the rubric's
 *   order, the performance test's verdict from its own checker, which ran
 *   beside the other tests and read files of its own, and the other tests
 *   not skipped for a call that did not return in it;
 * - a correctness case's checker beside the case server's next cases,
 *   against KIT_CHECKS_BESIDE=0 (each checker before the next case): the
 *   same results and failures in the same order, each checker on its own
 *   run's files, their folders gone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "grading/build.h"
#include "grading/engine_int.h"
#include "kit/protocol.h"

static char dir[64], logpath[128];

/* The runner: modes run, bench and serve (case lines on KIT_CTL_FD), each
 * run logged; the result file and stdout say the run's nonce (wrong=yes:
 * the result file does not; link=yes: a link is planted in its place).  A
 * case with hang=yes calls stuck(), which does not return (the watchdog's
 * record, KIT_EXIT_HUNG); a run told --skip-calls stuck skips every case.
 * A server logs its end ("serve-end" and its last case) once told it is done.
 * No gate words: a timing run that says none simply ends (run_gated). */
static const char *runner_sh =
    "#!/bin/bash\n"
    "mode=$1; shift; params= out= nonce= skip=\n"
    "while [ $# -gt 0 ]; do case $1 in --params) params=$2; shift;; --out) out=$2; shift;;\n"
    "  --nonce) nonce=$2; shift;; --skip-calls) skip=$2; shift;; esac; shift; done\n"
    "one() { # params nonce: 0 done, 6 hung, 8 skipped\n"
    "  if [ -n \"$skip\" ]; then echo \"" KIT_SKIPPED_LINE "stuck\" >&2; return 8; fi\n"
    "  case \" $1 \" in *' hang=yes '*) printf 'stuck\\t2.000\\t5.000\\tstuck_kernel\\n' > " KIT_HANG_FILE
    "; return 6;; esac\n"
    "  case \" $1 \" in *' link=yes '*) rm -f \"$out\"; ln -s /etc/hostname \"$out\"; echo \"stdout $2\"; return 0;;\n"
    "    *' wrong=yes '*) echo wrong > \"$out\"; echo \"stdout $2\"; return 0;; esac\n"
    "  echo \"$2\" > \"$out\"; echo \"stdout $2\"; return 0; }\n"
    "echo \"$mode $params\" >> LOG\n"
    "case $mode in\n"
    "  run|bench) one \"$params\" \"$nonce\"; exit $?;;\n"
    "  serve) echo " KIT_SERVE_READY " >&" KIT_CTL_FD_S "\n"
    "    while read -r w seed n limit p <&" KIT_CTL_FD_S "; do echo \"case $p\" >> LOG\n"
    "      last=$p; one \"$p\" \"$n\"; rc=$?\n"
    "      [ $rc = 8 ] && { echo '" KIT_SERVE_SKIPPED " stuck' >&" KIT_CTL_FD_S "; continue; }\n"
    "      [ $rc = 0 ] || exit $rc; echo " KIT_SERVE_DONE " >&" KIT_CTL_FD_S "; done\n"
    "    echo \"serve-end $last\" >> LOG;;\n"
    "  *) exit 1;;\n"
    "esac\n";

/* The checker: passes a run whose result file and stdout are its own
 * (its nonce); slow=yes takes 0.4 s first; a timing run's (perf=yes)
 * takes 1 s first, and its times make a speedup of 3x. */
static const char *check_sh =
    "#!/bin/bash\n"
    "while [ $# -gt 0 ]; do case $1 in --params) params=$2; shift;; --out) out=$2; shift;;\n"
    "  --nonce) nonce=$2; shift;; --stdout) sout=$2; shift;; esac; shift; done\n"
    "echo \"check-start $params\" >> LOG\n"
    "metrics=\n"
    "case \" $params \" in *' slow=yes '*) sleep 0.4;; esac\n"
    "case \" $params \" in *' perf=yes '*) sleep 1; metrics='\"" KIT_KEY_STUDENT_MS "\": 1.0, \"" KIT_KEY_BASELINE_MS
    "\": 3.0';; esac\n"
    "if [ \"$(cat \"$out\")\" = \"$nonce\" ] && grep -qx \"stdout $nonce\" \"$sout\"; then pass=true; else pass=false; fi\n"
    "echo \"check-end $params $pass\" >> LOG\n"
    "echo \"{\\\"" KIT_VERDICT_PASS "\\\": $pass, \\\"" KIT_VERDICT_SUMMARY
    "\\\": \\\"not this run's files\\\", \\\"" KIT_VERDICT_METRICS "\\\": {$metrics}}\"\n";

/* compute-sanitizer: runs the program it is given, and finds nothing. */
static const char *sanitizer_sh = "#!/bin/bash\n"
                                  "while [ $# -gt 0 ] && [ \"${1##*/}\" != runner ]; do shift; done\n"
                                  "exec \"$@\"\n";

/* Writes text to path (executable), each LOG in it replaced by the log's path. */
static void write_script(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    const char *p = text, *at;
    for (; (at = strstr(p, "LOG")); p = at + 3)
        fprintf(f, "%.*s%s", (int)(at - p), p, logpath);
    fputs(p, f);
    fclose(f);
    ck_assert_int_eq(chmod(path, 0755), 0);
}

static engine eng;
static grading gr;
static rubric_test tests[3];
static char *cases_a[] = {"n=1", "n=2"}, *cases_hang[] = {"n=1", "hang=yes n=2"}, *cases_p[] = {"perf=yes n=3"},
            *cases_p_hang[] = {"perf=yes hang=yes n=3"};

static void make_test(rubric_test *t, const char *name, test_kind kind, char **cases, int n)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->group, sizeof t->group, "%s", test_kind_name(kind));
    t->kind = kind, t->points = 10, t->cases = cases, t->n_cases = n, t->timeout_s = 20, t->repeat = 1;
    t->threshold = 2.0, t->min_speedup = 1.0, t->warmup = 1, t->reps = 3, t->partial = 1;
}

/* A folder with the runner and the checker, and an engine that grades with
 * them: the rubric's tests t[0..n). */
static void setup(rubric_test *t, int n)
{
    snprintf(dir, sizeof dir, "/tmp/kit-perf-first-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(logpath, sizeof logpath, "%s/log", dir);
    char path[256];
    snprintf(path, sizeof path, "%s/locks", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    setenv("KIT_LOCK_DIR", path, 1);
    setenv("KIT_CPU_SLOTS", "2", 1);
    memset(&eng, 0, sizeof eng);
    eng.gpu = 1;
    snprintf(eng.gpu_uuid, sizeof eng.gpu_uuid, "%s", KIT_NO_GPU_UUID);
    eng.sanitizers_beside = 1;
    eng.seed = 0x5eed;
    eng.rub.timeout_s = 20, eng.rub.call_limit_s = 2, eng.rub.output_kb = 256, eng.rub.file_mb = 64;
    eng.rub.tests = t, eng.rub.n_tests = n;
    snprintf(eng.man.evidence, sizeof eng.man.evidence, "none");
    snprintf(eng.lab_build, sizeof eng.lab_build, "%s", dir);
    snprintf(path, sizeof path, "%s/check", dir);
    write_script(path, check_sh);
    snprintf(eng.conf.compute_sanitizer, sizeof eng.conf.compute_sanitizer, "%s/compute-sanitizer", dir);
    write_script(eng.conf.compute_sanitizer, sanitizer_sh);
    memset(&gr, 0, sizeof gr);
    gr.e = &eng;
    ck_assert_int_eq(prepare_dirs(&eng, (snprintf(path, sizeof path, "%s/work", dir), path), &gr.w), 0);
    write_script(gr.w.runner, runner_sh);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Grades with the environment variable `var` set to value into g (report
 * lines and timings into *report); the runs' and checkers' log into *log
 * (both malloc'ed). */
static void grade_env(const char *var, const char *value, grade_result *g, char **report, char **log)
{
    setenv(var, value, 1);
    unlink(logpath);
    size_t len;
    eng.log = open_memstream(report, &len);
    eng.timings = 1;
    workdirs w = gr.w; /* a fresh grading in the same work folder */
    memset(&gr, 0, sizeof gr);
    gr.e = &eng, gr.w = w;
    grade_result_init(g);
    g->build_ok = 1;
    grade_tests(&gr, g);
    fclose(eng.log);
    eng.log = NULL;
    FILE *f = fopen(logpath, "r");
    ck_assert_ptr_nonnull(f);
    *log = calloc(1, 1 << 16);
    ck_assert_uint_gt(fread(*log, 1, (1 << 16) - 1, f), 0);
    fclose(f);
}

/* The same with KIT_PERF_FIRST=first. */
static void grade(const char *first, grade_result *g, char **report, char **log)
{
    grade_env("KIT_PERF_FIRST", first, g, report, log);
}

/* The same results, test by test in the rubric's order: all but the seconds. */
static void same_results(const grade_result *a, const grade_result *b)
{
    ck_assert_int_eq(a->n_tests, b->n_tests);
    ck_assert_int_eq(a->n_tests, eng.rub.n_tests);
    for (int i = 0; i < a->n_tests; i++) {
        ck_assert_str_eq(a->tests[i].name, eng.rub.tests[i].name);
        ck_assert_str_eq(b->tests[i].name, eng.rub.tests[i].name);
        ck_assert_int_eq(a->tests[i].status, b->tests[i].status);
        ck_assert(a->tests[i].score == b->tests[i].score);
        ck_assert_int_eq(a->tests[i].show_output, b->tests[i].show_output);
        ck_assert_str_eq(sb_str(&a->tests[i].output), sb_str(&b->tests[i].output));
    }
}

/* Two gradings of the rubric [test a] (cases a) and [test performance]
 * (case p): its performance test first, and in the rubric's order
 * (KIT_PERF_FIRST=0); the same results in both. */
typedef struct {
    grade_result first, before;
    char *report, *log, *report0, *log0;
} both;

static void grade_both(char **a, int n_a, char **p, both *b)
{
    make_test(&tests[0], "a", KIND_CORRECTNESS, a, n_a);
    make_test(&tests[1], "performance", KIND_PERFORMANCE, p, 1);
    setup(tests, 2);
    grade("1", &b->first, &b->report, &b->log);
    grade("0", &b->before, &b->report0, &b->log0);
    same_results(&b->first, &b->before);
}

static void both_free(both *b)
{
    grade_result_free(&b->first), grade_result_free(&b->before);
    free(b->report), free(b->log), free(b->report0), free(b->log0);
    teardown();
}

/* Where `line` starts a line of log, or NULL. */
static const char *log_at(const char *log, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, line, n) && (p[n] == '\n' || p[n] == ' '))
            return p;
    return NULL;
}

START_TEST(first_and_beside_with_the_same_results)
{
    both b;
    grade_both(cases_a, 2, cases_p, &b);
    /* its own checker's verdict, on its own files (the correctness runs wrote theirs meanwhile) */
    ck_assert_int_eq(b.first.tests[1].status, ST_PASS);
    ck_assert_msg(strstr(sb_str(&b.first.tests[1].output), "speedup 3.00x"), "%s", sb_str(&b.first.tests[1].output));
    ck_assert_int_eq(b.first.tests[0].status, ST_PASS);
    /* the timing run first; its checker beside the correctness runs, ended after one of them */
    ck_assert_msg(!strncmp(b.log, "bench perf=yes n=3\n", 19), "%s", b.log);
    const char *start = log_at(b.log, "check-start perf=yes n=3"), *end = log_at(b.log, "check-end perf=yes n=3 true");
    const char *served = log_at(b.log, "case n=1");
    ck_assert_msg(start && end && served && served < end, "%s", b.log);
    /* the rubric's order without it: the timing run after the correctness runs */
    ck_assert_msg(log_at(b.log0, "case n=2") < log_at(b.log0, "bench perf=yes n=3"), "%s", b.log0);
    /* the report's lines in the rubric's order, and what ran where */
    const char *a = strstr(b.report, "a ...."), *p = strstr(b.report, "performance ....");
    ck_assert_msg(a && p && a < p, "%s", b.report);
    ck_assert_msg(strstr(p, "time: ran first, before the other tests: runner ") &&
                      strstr(p, "beside the tests above, waited for "),
                  "%s", b.report);
    ck_assert_msg(!strstr(b.report0, "ran first"), "%s", b.report0);
    ck_assert_str_eq(sb_str(&b.first.notes), ""); /* nothing left it could not remove */
    /* its run folder is gone with its checker */
    char path[2200];
    snprintf(path, sizeof path, "%s/run-first-1", gr.w.root);
    ck_assert_int_ne(access(path, F_OK), 0);
    both_free(&b);
}
END_TEST

/* A call that did not return in a correctness test: the performance test
 * would have skipped it at its turn, so its runs made first are dropped and
 * it runs at its turn, as without them. */
START_TEST(a_call_hung_before_its_turn)
{
    both b;
    grade_both(cases_hang, 2, cases_p, &b);
    ck_assert_int_eq(b.first.tests[1].status, ST_FAIL);
    ck_assert_msg(strstr(sb_str(&b.first.tests[1].output), "not run: stuck() did not return in test a (case hang=yes n=2)"),
                  "%s", sb_str(&b.first.tests[1].output));
    ck_assert_msg(!strncmp(b.log, "bench perf=yes n=3\n", 19), "%s", b.log);
    ck_assert_int_eq(kit_test_count(b.log, "bench perf=yes n=3\n"), 2); /* first, then at its turn */
    ck_assert_msg(!strstr(b.report, "ran first"), "%s", b.report);
    both_free(&b);
}
END_TEST

/* The performance run's call does not return: judged there as at its turn,
 * and the correctness test before it in the rubric still runs its cases. */
START_TEST(a_call_hung_in_the_run_first)
{
    both b;
    grade_both(cases_a, 2, cases_p_hang, &b);
    ck_assert_int_eq(b.first.tests[0].status, ST_PASS);
    ck_assert_msg(strstr(sb_str(&b.first.tests[1].output), "stuck() did not return within 5.0 s"), "%s",
                  sb_str(&b.first.tests[1].output));
    ck_assert_msg(!strncmp(b.log, "bench perf=yes hang=yes n=3\n", 28), "%s", b.log);
    ck_assert_msg(log_at(b.log, "case n=2"), "%s", b.log);
    both_free(&b);
}
END_TEST

/* The rubric's order where running first could change a result: a test
 * after the performance test, several submissions per GPU (no sanitizer
 * sessions beside), one test alone. */
START_TEST(the_rubrics_order_where_it_could_matter)
{
    make_test(&tests[0], "a", KIND_CORRECTNESS, cases_a, 2);
    make_test(&tests[1], "performance", KIND_PERFORMANCE, cases_p, 1);
    make_test(&tests[2], "b", KIND_CORRECTNESS, cases_a, 1);
    setup(tests, 3);
    grade_result g;
    char *report, *log;
    grade("1", &g, &report, &log);
    ck_assert_msg(log_at(log, "case n=2") < log_at(log, "bench perf=yes n=3"), "%s", log);
    grade_result_free(&g), free(report), free(log);
    eng.rub.n_tests = 2;
    eng.sanitizers_beside = 0;
    grade("1", &g, &report, &log);
    ck_assert_msg(log_at(log, "case n=2") < log_at(log, "bench perf=yes n=3"), "%s", log);
    ck_assert_int_eq(g.tests[1].status, ST_PASS);
    grade_result_free(&g), free(report), free(log);
    eng.sanitizers_beside = 1;
    eng.only_test = "performance";
    grade("1", &g, &report, &log);
    ck_assert_int_eq(g.n_tests, 1);
    ck_assert_int_eq(g.tests[0].status, ST_PASS);
    ck_assert_msg(!strstr(report, "ran first"), "%s", report);
    grade_result_free(&g), free(report), free(log);
    teardown();
}
END_TEST

static char *cases_san[] = {"san=yes n=9"};

/* Two gradings of the rubric [test a] (cases), [test memcheck] (a sanitizer
 * session beside test a): each case's checker beside the next cases, and
 * each before the next (KIT_CHECKS_BESIDE=0); the same results in both. */
static void grade_beside(char **cases, int n, both *b)
{
    make_test(&tests[0], "a", KIND_CORRECTNESS, cases, n);
    make_test(&tests[1], "memcheck", KIND_SANITIZER, cases_san, 1);
    snprintf(tests[1].tool, sizeof tests[1].tool, "memcheck");
    setup(tests, 2);
    grade_env("KIT_CHECKS_BESIDE", "1", &b->first, &b->report, &b->log);
    grade_env("KIT_CHECKS_BESIDE", "0", &b->before, &b->report0, &b->log0);
    unsetenv("KIT_CHECKS_BESIDE");
    same_results(&b->first, &b->before);
}

/* Entries of the grading's work folder named check-*: left behind. */
static int check_dirs_left(void)
{
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "ls -d %s/check-* >/dev/null 2>&1", gr.w.root);
    return system(cmd) == 0;
}

static char *cases_beside[] = {"slow=yes n=1", "wrong=yes n=2", "slow=yes n=3",
                               "link=yes n=4", "n=5",           "slow=yes wrong=yes n=6"};

START_TEST(checkers_beside_the_next_cases)
{
    both b;
    grade_beside(cases_beside, 6, &b);
    /* 3 of 6 right, the others described in the cases' order */
    ck_assert_int_eq(b.first.tests[0].status, ST_FAIL);
    ck_assert(b.first.tests[0].score == 5);
    const char *out = sb_str(&b.first.tests[0].output);
    const char *w2 = strstr(out, "case wrong=yes n=2"), *l4 = strstr(out, "case link=yes n=4"),
               *w6 = strstr(out, "case slow=yes wrong=yes n=6");
    ck_assert_msg(w2 && l4 && w6 && w2 < l4 && l4 < w6, "%s", out);
    ck_assert_msg(strstr(l4, "replaced by a symbolic link") < w6, "%s", out);
    /* case 1's slow checker ended after case 2 was served; one at a time, before */
    const char *e1 = log_at(b.log, "check-end slow=yes n=1 true"), *c2 = log_at(b.log, "case wrong=yes n=2");
    ck_assert_msg(e1 && c2 && c2 < e1, "%s", b.log);
    ck_assert_msg(log_at(b.log0, "check-end slow=yes n=1 true") < log_at(b.log0, "case wrong=yes n=2"), "%s", b.log0);
    ck_assert_int_eq(kit_test_count(b.log, "check-start"), 5); /* not for the link: the grader refused it */
    ck_assert_msg(strstr(b.report, "(beside the next runs)") && !strstr(b.report0, "beside the next runs"), "%s\n%s",
                  b.report, b.report0);
    ck_assert(!check_dirs_left());
    ck_assert_msg(log_at(b.log, "case san=yes n=9"), "%s", b.log); /* the session beside */
    /* --timings: the session had answered its one quick case long before
     * it was collected at its turn, after the last slow checker (0.4 s) */
    const char *t = strstr(b.report, "\nmemcheck ");
    t = t ? strstr(t, "time: runner ") : NULL;
    double held = 0, answered = 0;
    ck_assert_msg(t && sscanf(t, "time: runner %lf s (all cases, beside the correctness tests; all answered after %lf s)",
                              &held, &answered) == 2, "%s", b.report);
    ck_assert_msg(answered > 0 && answered < held - 0.3, "%s", b.report);
    /* ... and told then that it was done: it ended before the last slow checker */
    const char *end_san = log_at(b.log, "serve-end san=yes n=9");
    ck_assert_msg(end_san && end_san < log_at(b.log, "check-end slow=yes wrong=yes n=6 false"), "%s", b.log);
    /* no session beside: the grading gives its GPU hold back while each checker runs */
    grade_result g;
    char *report, *log;
    eng.rub.n_tests = 1;
    grade_env("KIT_CHECKS_BESIDE", "1", &g, &report, &log);
    ck_assert_msg(!strstr(report, "beside the next runs"), "%s", report);
    ck_assert_msg(log_at(log, "check-end slow=yes n=1 true") < log_at(log, "case wrong=yes n=2"), "%s", log);
    ck_assert_int_eq(g.tests[0].status, b.before.tests[0].status);
    ck_assert_str_eq(sb_str(&g.tests[0].output), sb_str(&b.before.tests[0].output));
    grade_result_free(&g), free(report), free(log);
    unsetenv("KIT_CHECKS_BESIDE");
    both_free(&b);
}
END_TEST

/* A call that does not return among checkers still running: judged as one
 * at a time would, the cases after it skipped alike. */
START_TEST(checkers_beside_a_call_that_does_not_return)
{
    static char *cases[] = {"slow=yes n=1", "slow=yes n=2", "hang=yes n=3", "slow=yes n=4", "n=5"};
    both b;
    grade_beside(cases, 5, &b);
    const char *out = sb_str(&b.first.tests[0].output);
    ck_assert_msg(strstr(out, "case hang=yes n=3") && strstr(out, "stuck() did not return"), "%s", out);
    /* the two before it right, the two after it not made */
    ck_assert_msg(b.first.tests[0].score == 4, "%g %s", b.first.tests[0].score, out);
    ck_assert_msg(strstr(out, "case slow=yes n=4") > strstr(out, "case hang=yes n=3"), "%s", out);
    ck_assert(!check_dirs_left());
    both_free(&b);
}
END_TEST

/* The next correctness test's first runs while the last checkers of the
 * one before run: the same results as one checker after the other, each
 * test's runs under its own --timings line. */
START_TEST(the_next_tests_runs_beside_the_last_checkers)
{
    static char *cases_a2[] = {"n=1", "slow=yes n=2"}, *cases_b[] = {"n=11", "wrong=yes n=12", "slow=yes n=13"};
    make_test(&tests[0], "a", KIND_CORRECTNESS, cases_a2, 2);
    make_test(&tests[1], "b", KIND_CORRECTNESS, cases_b, 3);
    make_test(&tests[2], "memcheck", KIND_SANITIZER, cases_san, 1);
    snprintf(tests[2].tool, sizeof tests[2].tool, "memcheck");
    setup(tests, 3);
    both b;
    grade_env("KIT_CHECKS_BESIDE", "1", &b.first, &b.report, &b.log);
    grade_env("KIT_CHECKS_BESIDE", "0", &b.before, &b.report0, &b.log0);
    unsetenv("KIT_CHECKS_BESIDE");
    same_results(&b.first, &b.before);
    ck_assert_int_eq(b.first.tests[0].status, ST_PASS);
    ck_assert_msg(strstr(sb_str(&b.first.tests[1].output), "case wrong=yes n=12"), "%s",
                  sb_str(&b.first.tests[1].output));
    /* b's first two cases served while a's slow checker ran; not so one at a time */
    const char *end_a = log_at(b.log, "check-end slow=yes n=2 true");
    ck_assert_msg(end_a && log_at(b.log, "case n=11") < end_a && log_at(b.log, "case wrong=yes n=12") < end_a, "%s",
                  b.log);
    ck_assert_msg(log_at(b.log0, "check-end slow=yes n=2 true") < log_at(b.log0, "case n=11"), "%s", b.log0);
    /* each test's runs counted under its own line */
    const char *la = !strncmp(b.report, "a ", 2) ? b.report : strstr(b.report, "\na "), *lb = strstr(b.report, "\nb ");
    ck_assert_msg(la && lb && strstr(la, "2 runs") && strstr(la, "2 runs") < lb && strstr(lb, "3 runs"), "%s",
                  b.report);
    ck_assert(!check_dirs_left());
    both_free(&b);
}
END_TEST

/* A run that takes the GPU alone ends the grading's other GPU processes: a
 * sanitizer session that had answered its cases keeps its verdict for its
 * turn, with the same results as without sessions beside (one at a time). */
START_TEST(a_run_alone_keeps_a_finished_sessions_verdict)
{
    static char *cases_alone[] = {"n=21"}, *cases_a2[] = {"n=1", "slow=yes n=2"}; /* the session done by then */
    make_test(&tests[0], "a", KIND_CORRECTNESS, cases_a2, 2);
    make_test(&tests[1], "b", KIND_CORRECTNESS, cases_alone, 1);
    tests[1].gpu_alone = 1;
    make_test(&tests[2], "memcheck", KIND_SANITIZER, cases_san, 1);
    snprintf(tests[2].tool, sizeof tests[2].tool, "memcheck");
    setup(tests, 3);
    both b;
    grade_env("KIT_CHECKS_BESIDE", "1", &b.first, &b.report, &b.log);
    unsetenv("KIT_CHECKS_BESIDE");
    eng.sanitizers_beside = 0; /* each session at its turn */
    grade_env("KIT_CHECKS_BESIDE", "1", &b.before, &b.report0, &b.log0);
    unsetenv("KIT_CHECKS_BESIDE");
    same_results(&b.first, &b.before);
    /* its one case served once: the session was not started again at its turn */
    ck_assert_msg(kit_test_count(b.log, "case san=yes n=9\n") == 1, "%s", b.log);
    both_free(&b);
}
END_TEST

static Suite *beside_suite(void)
{
    Suite *s = suite_create("beside");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, first_and_beside_with_the_same_results);
    tcase_add_test(tc, a_call_hung_before_its_turn);
    tcase_add_test(tc, a_call_hung_in_the_run_first);
    tcase_add_test(tc, the_rubrics_order_where_it_could_matter);
    tcase_add_test(tc, checkers_beside_the_next_cases);
    tcase_add_test(tc, checkers_beside_a_call_that_does_not_return);
    tcase_add_test(tc, the_next_tests_runs_beside_the_last_checkers);
    tcase_add_test(tc, a_run_alone_keeps_a_finished_sessions_verdict);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(beside_suite)
