/* test_cli.c - kitgrade as users run it: exit codes, bad input refused with
 * one line, printed commands that work when pasted.  Runs the built
 * $KIT_BUILD/bin/kitgrade (make test-unit sets KIT_BUILD and KIT_ROOT); the
 * GPU is hidden (KIT_NO_GPU=1) so the results are the same on every machine. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "util/exit_codes.h"
#include "util/strbuf.h"

static char tmpdir[256];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kit-test-cli-XXXXXX");
    ck_assert(mkdtemp(tmpdir) != NULL);
    chmod(tmpdir, 0755); /* the sandbox uid reads submissions copied here */
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static const char *build_dir(void)
{
    const char *b = getenv("KIT_BUILD");
    return b && *b ? b : "build";
}

/* Runs `sh -c CMD` with KG set to the kitgrade binary, ROOT to the kit and
 * T to the test's scratch folder; stdout+stderr into out.  Returns the exit
 * status (-1 when it did not exit). */
static int run(strbuf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(strbuf *out, const char *fmt, ...)
{
    char body[4096], cmd[6000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "cd '%s' && KIT_NO_GPU=1 KG='%s/bin/kitgrade' ROOT='%s' T='%s' NO_COLOR=1 KIT_GRADES='%s/kit-grades'; "
             "export KIT_NO_GPU KG ROOT T KIT_GRADES; { %s ; } 2>&1",
             kit_test_root(), build_dir(), kit_test_root(), tmpdir, tmpdir, body);
    sb_clear(out);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
        sb_addn(out, chunk, n);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int lines(const strbuf *b)
{
    int n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->s[i] == '\n';
    return n;
}

/* CMD (as run() takes it) says one line holding `says`, with status want. */
#define ONE_LINE(out, want, says, ...)                                                                             \
    do {                                                                                                           \
        int one_rc_ = run(out, __VA_ARGS__);                                                                       \
        ck_assert_msg(one_rc_ == (want) && lines(out) == 1 && strstr(sb_str(out), says), "rc %d, want %d, '%s': %s", \
                      one_rc_, (want), says, sb_str(out));                                                         \
    } while (0)

/* SEED=zzz was graded as seed 0, 12abc as 0xc, -1 as all ones, 1234 as
 * decimal, 0755 as octal: every one is refused in one line, nothing built. */
START_TEST(bad_seeds_refused)
{
    static const char *bad[] = {"zzz", "12abc", "-1", "1234", "0755", "0x", "0x12345678901234567"};
    strbuf out;
    sb_init(&out);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = run(&out, "\"$KG\" check lab03 labs/lab03-dot/solution --seed '%s'", bad[i]);
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE, "--seed %s: rc %d: %s", bad[i], rc, sb_str(&out));
        ck_assert_msg(lines(&out) == 1 && strstr(sb_str(&out), bad[i]) && strstr(sb_str(&out), "0x"),
                      "--seed %s: %s", bad[i], sb_str(&out));
        ck_assert_msg(!strstr(sb_str(&out), "build"), "--seed %s built: %s", bad[i], sb_str(&out));
        rc = run(&out, "SEED='%s' \"$KG\" check lab03 labs/lab03-dot/solution", bad[i]);
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1, "SEED=%s: rc %d: %s", bad[i], rc, sb_str(&out));
    }
    sb_free(&out);
}
END_TEST

/* --jobs x was read as 0 jobs (a batch that never starts), --per-gpu -3
 * as the default: refused in one line naming the value and the range. */
START_TEST(bad_counts_refused)
{
    static const char *bad[][2] = {{"--jobs", "x"}, {"--jobs", "0"}, {"--per-gpu", "-3"}, {"--per-gpu", "2x"},
                                   {"--jobs", "100000"}};
    strbuf out;
    sb_init(&out);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = run(&out, "\"$KG\" batch lab03 \"$T\" --out \"$T/out\" %s '%s'", bad[i][0], bad[i][1]);
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), bad[i][1]) &&
                          strstr(sb_str(&out), "1 to 256"),
                      "%s %s: rc %d: %s", bad[i][0], bad[i][1], rc, sb_str(&out));
    }
    sb_free(&out);
}
END_TEST

/* Like xv6's make grade: 0 only when everything ran and passed.  A build
 * error was exit 0; no GPU has a code of its own and shows no score. */
START_TEST(check_exit_codes)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "\"$KG\" check lab03 labs/lab03-dot/tests/build-error");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED, "build error: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "\"$KG\" check lab03 labs/lab03-dot/solution --seed 0x1");
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU, "no GPU: rc %d: %s", rc, sb_str(&out));
    ck_assert_msg(!strstr(sb_str(&out), "Score:") && strstr(sb_str(&out), "No score"), "%s", sb_str(&out));
    ck_assert_msg(strstr(sb_str(&out), "seed 0x1,"), "%s", sb_str(&out));
    /* a machine without the NVIDIA driver: said so, not "CUDA driver version is insufficient" */
    if (access("/proc/driver/nvidia/version", F_OK) != 0) {
        rc = run(&out, "\"$(dirname \"$KG\")/kit-devices\" --why");
        ck_assert_msg(rc == 1 && strstr(sb_str(&out), "no NVIDIA driver/GPU found") && !strstr(sb_str(&out), "insufficient"),
                      "rc %d: %s", rc, sb_str(&out));
        rc = run(&out, "env -u KIT_NO_GPU \"$KG\" check lab03 labs/lab03-dot/solution");
        ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU &&
                          strstr(sb_str(&out), "lab03-dot: no GPU (no NVIDIA driver/GPU found on this machine") &&
                          strstr(sb_str(&out), "): tests not run; your code compiled"),
                      "rc %d: %s", rc, sb_str(&out));
    }
    sb_free(&out);
}
END_TEST

/* A batch without a GPU wrote zeros that stuck (resume compared only the
 * source), and a rubric edit was ignored on rerun. */
START_TEST(batch_no_gpu_and_reuse)
{
    strbuf out;
    sb_init(&out);
    const char *prep = "mkdir -p \"$T/subs/alice\" && cp labs/lab03-dot/solution/dot.cu \"$T/subs/alice/\" && "
                       "cp labs/lab03-dot/kit/rubric.ini \"$T/r.ini\" && chmod -R a+rX \"$T\"";
    ck_assert_int_eq(run(&out, "%s", prep), 0);
    const char *batch = "\"$KG\" batch lab03 \"$T/subs\" --out \"$T/out\" --rubric \"$T/r.ini\" --jobs 1";
    int rc = run(&out, "%s", batch);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && lines(&out) == 1 && strstr(sb_str(&out), "--allow-no-gpu"), "rc %d: %s",
                  rc, sb_str(&out));
    ck_assert_int_eq(run(&out, "test -e \"$T/out\""), 1); /* nothing written */

    /* build-only results: marked "not graded (no GPU)" in every output, never a 0 */
    rc = run(&out, "%s --allow-no-gpu && grep -c 'No score: none of the tests ran (no GPU)' \"$T/out/feedback/alice.txt\" && "
                   "grep -c 'graded_without_gpu\":.*true' \"$T/out/results/alice.json\" && "
                   "grep -c '\"status\":.*\"not graded (no GPU)\"' \"$T/out/results/alice.json\" && "
                   "grep -c 'NOT GRADED: no GPU was available' \"$T/out/results/alice.json\" && "
                   "grep -x 'alice,,,,,90,not graded (no GPU)' \"$T/out/gradebook.csv\" && "
                   "grep -c 'id=\"not-graded\" class=\"banner\"' \"$T/out/report.html\" && "
                   "! grep -e 'mean score.*0.00' -e 'No test failed' -e '>0 / 90<' \"$T/out/report.html\"", batch);
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "0 graded now, 1 not graded") &&
                      strstr(sb_str(&out), " left: alice: not graded (no GPU)\n") &&
                      !strstr(sb_str(&out), "graded alice"),
                  "rc %d: %s", rc, sb_str(&out));
    /* same everything: kept */
    rc = run(&out, "%s --allow-no-gpu", batch);
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "0 graded now, 1 kept"), "rc %d: %s", rc, sb_str(&out));
    /* a rubric edit (points 10 -> 12): regraded, and the new maximum shows */
    rc = run(&out, "sed -i '0,/^points = 10/s//points = 12/' \"$T/r.ini\" && %s --allow-no-gpu && "
                   "cat \"$T/out/gradebook.csv\"", batch);
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "1 not graded") && strstr(sb_str(&out), ",92,"), "rc %d: %s", rc,
                  sb_str(&out));
    /* another --test selection: regraded */
    rc = run(&out, "%s --allow-no-gpu --test float-small", batch);
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "1 not graded"), "rc %d: %s", rc, sb_str(&out));
    /* on a "GPU" (KIT_RUN_WITHOUT_GPU makes the engine run every test): never the build-only result */
    rc = run(&out, "KIT_RUN_WITHOUT_GPU=1 %s --test float-small && "
                   "grep -c 'graded_without_gpu\":.*false' \"$T/out/results/alice.json\"", batch);
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "1 graded now"), "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* The lab's own rules for case parameters: validate accepted `case = m=31`,
 * n=abc, n=2^40 and type=double in lab03's rubric (students then failed at
 * grading time), and `make run-lab03 P="n=abc"` ran with a guessed n. */
START_TEST(case_parameters_by_the_labs_rules)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "\"$KG\" validate");
    ck_assert_msg(rc == 0 && !strstr(sb_str(&out), "FAIL"), "every lab's own rubric is valid: rc %d: %s", rc,
                  sb_str(&out));
    static const struct {
        const char *bad_case, *says;
    } cases[] = {{"m=31", "unknown parameter 'm' (this lab takes: n type dist variant)"},
                 {"n=abc", "n must be given, 0 <= n <= 2^27 (got 'abc')"},
                 {"n=2^40", "(got '2^40')"},
                 {"n=5 type=double", "type must be one of: float int (got 'double')"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* the lab's rubric with one more case in float-small (line 8: [test float-small]) */
        rc = run(&out, "sed 's/^case = n=0$/case = n=0\\ncase = %s/' labs/lab03-dot/kit/rubric.ini > \"$T/r.ini\" "
                       "&& grep -c 'case = %s' \"$T/r.ini\"", cases[i].bad_case, cases[i].bad_case);
        ck_assert_msg(rc == 0, "%s", sb_str(&out));
        /* reported at the bad case's own line (it was the section header's, line 8) */
        rc = run(&out, "\"$KG\" validate lab03 --rubric \"$T/r.ini\"; echo \"at r.ini:$(grep -n 'case = %s' \"$T/r.ini\" "
                       "| cut -d: -f1): [test float-small] case\"", cases[i].bad_case);
        char at[128];
        const char *want = strstr(sb_str(&out), "\nat ");
        ck_assert_msg(want != NULL, "%s", sb_str(&out));
        snprintf(at, sizeof at, "%.*s", (int)strcspn(want + 4, "\n"), want + 4);
        ck_assert_msg(strstr(sb_str(&out), "FAIL lab03") && strstr(sb_str(&out), at) && !strstr(at, "r.ini:8:") &&
                          strstr(sb_str(&out), cases[i].says),
                      "validate, case %s: expected '%s': %s", cases[i].bad_case, at, sb_str(&out));
        rc = run(&out, "\"$KG\" validate lab03 --rubric \"$T/r.ini\"");
        ck_assert_msg(rc == KITGRADE_EXIT_FAILED, "validate, case %s: rc %d: %s", cases[i].bad_case, rc, sb_str(&out));
        /* checked at grading start too: one line, nothing built */
        rc = run(&out, "\"$KG\" check lab03 labs/lab03-dot/solution --rubric \"$T/r.ini\"");
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), cases[i].says),
                      "check, case %s: rc %d: %s", cases[i].bad_case, rc, sb_str(&out));
    }
    /* every `make run-labNN P="..."` the handouts and READMEs print is valid
     * (a placeholder like per_row=K aside) */
    rc = run(&out, "grep -rhoE 'run-lab[0-9]+ P=\"[^\"]*\"' labs/*/handout.md README.md resources 2>/dev/null | sort -u | "
                   "grep -vE '=[A-Z]+( |\")' | while read t p; do lab=${t#run-}; p=${p#P=\\\"}; p=${p%%\\\"}; "
                   "d=$(ls -d \"$(dirname \"$(dirname \"$KG\")\")\"/labs/${lab}-* | head -n 1); echo \"$lab $p\"; "
                   "\"$d/check\" --validate --params \"$p\" || echo BAD; done");
    ck_assert_msg(rc == 0 && !strstr(sb_str(&out), "BAD") && strstr(sb_str(&out), "lab03 n=1000"), "%s", sb_str(&out));
    /* run P="...": refused before building */
    rc = run(&out, "\"$KG\" run lab03 labs/lab03-dot/solution n=abc");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), "(got 'abc')"), "rc %d: %s", rc,
                  sb_str(&out));
    rc = run(&out, "\"$KG\" run lab01 labs/lab01-print-tid/solution blocks=4 threads=3 n=3");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && strstr(sb_str(&out), "unknown parameter 'n'"), "rc %d: %s", rc,
                  sb_str(&out));
    rc = run(&out, "\"$KG\" run lab03 labs/lab03-dot/solution n=1000 type=int");
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), "lab03-dot: no GPU (KIT_NO_GPU is set): built, not run"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* `kitgrade grade lab03 DIR` wrote results.json into the student's own
 * folder: now under the user's folder (KIT_GRADES, default ~/kit-grades),
 * said in the output, and the submission folder is left as it was. */
START_TEST(grade_results_outside_the_submission)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/alice\" \"$T/home\" && cp labs/lab03-dot/solution/dot.cu \"$T/alice/\" && chmod -R a+rX \"$T\" && "
                       "\"$KG\" grade lab03 \"$T/alice\" --test float-small --allow-no-gpu > \"$T/log\"; echo rc=$?; ls -A \"$T/alice\"; "
                       "grep '^results: ' \"$T/log\"; test -s \"$T/kit-grades/lab03-dot/alice/results.json\" && echo written");
    const char *o = sb_str(&out);
    ck_assert_msg(rc == 0 && strstr(o, "rc=3\ndot.cu\nresults: ") && strstr(o, "/kit-grades/lab03-dot/alice/results.json\nwritten"),
                  "%s", o);
    /* without KIT_GRADES: under $HOME */
    rc = run(&out, "env -u KIT_GRADES HOME=\"$T/home\" \"$KG\" grade lab03 \"$T/alice\" --test float-small --allow-no-gpu | grep '^results: '; "
                   "ls -A \"$T/alice\"; test -s \"$T/home/kit-grades/lab03-dot/alice/results.json\" && echo written");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "results: ") && strstr(sb_str(&out), "/home/kit-grades/lab03-dot/alice/results.json\ndot.cu\nwritten"),
                  "%s", sb_str(&out));
    sb_free(&out);
}
END_TEST

/* Build-only results looked like grades: `kitgrade grade` without a GPU wrote
 * a score of 0 marked graded_without_gpu false (its --allow-no-gpu was
 * ignored), and `make merge` put such zeros into lms.csv, with max 10 for a
 * rostered student without a result.  Now grade writes nothing unless asked,
 * and what it writes says "not graded (no GPU)"; merge keeps the not graded
 * out of lms.csv unless --include-not-graded, with a status column in
 * final.csv. */
START_TEST(not_graded_is_never_a_score)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/subs/alice\" && cp labs/lab03-dot/solution/dot.cu \"$T/subs/alice/\" && chmod -R a+rX \"$T\" && "
                       "\"$KG\" grade lab03 \"$T/subs/alice\" --test float-small --out \"$T/a.json\"; echo rc=$?; ls \"$T\"");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "rc=3\n") && !strstr(sb_str(&out), "a.json") &&
                      strstr(sb_str(&out), "tests not run; the code compiled; no result written (--allow-no-gpu"),
                  "%s", sb_str(&out));
    rc = run(&out, "\"$KG\" grade lab03 \"$T/subs/alice\" --test float-small --out \"$T/a.json\" --allow-no-gpu; "
                   "echo rc=$?; grep -c 'graded_without_gpu\":.*true' \"$T/a.json\"; "
                   "grep -c '\"status\":.*\"not graded (no GPU)\"' \"$T/a.json\"");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "its result is marked 'not graded (no GPU)'") &&
                      strstr(sb_str(&out), "rc=3\n1\n1\n"),
                  "%s", sb_str(&out));
    /* an option of grade and batch only */
    rc = run(&out, "\"$KG\" check lab03 \"$T/subs/alice\" --allow-no-gpu");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), "--allow-no-gpu"), "rc %d: %s", rc,
                  sb_str(&out));
    /* merge: a build-only batch, a rostered student without a result */
    rc = run(&out, "\"$KG\" batch lab03 \"$T/subs\" --out \"$T/out\" --test float-small --allow-no-gpu --jobs 1 >/dev/null 2>&1 && "
                   "printf 'login,student_id,name,email\\nalice,1,Alice,a@x\\ncarol,3,Carol,c@x\\n' > \"$T/roster.csv\" && "
                   "\"$KG\" merge \"$T/out\" --roster \"$T/roster.csv\" --manual-max 10 && cat \"$T/out/final.csv\" && "
                   "echo LMS && cat \"$T/out/lms.csv\"");
    const char *o = sb_str(&out);
    ck_assert_msg(rc == 0 && strstr(o, "merge: tests not graded: alice (no GPU), carol (no result); left out of lms.csv") &&
                      strstr(o, ",comment,status\nalice,1,Alice,a@x,,,,20,0,,,not graded (no GPU)\n") &&
                      strstr(o, "carol,3,Carol,c@x,,,,20,0,,,no result\n") &&
                      strstr(o, "LMS\nStudent,ID,SIS User ID,SIS Login ID,Section,Email address,lab03-dot\n") &&
                      !strstr(o, "Alice,,1"),
                  "rc %d: %s", rc, o);
    rc = run(&out, "\"$KG\" merge \"$T/out\" --roster \"$T/roster.csv\" --include-not-graded && cat \"$T/out/lms.csv\"");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "Alice,,1,alice,,a@x,0\n") && strstr(sb_str(&out), "--include-not-graded"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A student's Dot.cu (for dot.cu) read "missing required file dot.cu" and
 * "your code did not compile": the file found is named, and it is a
 * hand-in problem (nothing was compiled), in the report and the gradebook. */
START_TEST(wrong_file_name_is_a_hand_in_problem)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/s/alice\" \"$T/s/bob\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/alice/Dot.cu\" && "
                       "cp labs/lab03-dot/solution/dot.cu \"$T/s/bob/dot_product.cu\" && chmod -R a+rX \"$T\" && "
                       "\"$KG\" check lab03 \"$T/s/alice\" --test float-small");
    const char *o = sb_str(&out);
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(o, "\nhand-in ...") &&
                      strstr(o, "missing required file dot.cu: the folder has Dot.cu instead (file names are "
                                "case-sensitive: rename it to dot.cu)") &&
                      strstr(o, "tests not run; a hand-in problem (above): nothing was compiled") &&
                      !strstr(o, "did not compile") && !strstr(o, "\nbuild ..."),
                  "rc %d: %s", rc, o);
    rc = run(&out, "\"$KG\" check lab03 \"$T/s/bob\" --test float-small");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED &&
                      strstr(sb_str(&out), "missing required file dot.cu (this lab takes: dot.cu; the folder has: "
                                           "dot_product.cu)"),
                  "rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "\"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" --test float-small --allow-no-gpu --jobs 1 "
                   ">/dev/null 2>&1; cat \"$T/out/gradebook.csv\" \"$T/out/results/alice.json\"");
    ck_assert_msg(strstr(sb_str(&out), "\nalice,0,0,0,0,10,hand-in problem\n") &&
                      strstr(sb_str(&out), "\"output\":\t\"Hand-in problem (nothing was compiled):\\nmissing required file dot.cu"),
                  "rc %d: %s", rc, sb_str(&out));
    /* on a GPU (KIT_RUN_WITHOUT_GPU: the engine runs every test) each test says why it did not run */
    rc = run(&out, "KIT_RUN_WITHOUT_GPU=1 \"$KG\" check lab03 \"$T/s/alice\" --test float-small");
    ck_assert_msg(strstr(sb_str(&out), "not run: nothing was compiled (a hand-in problem, above)") &&
                      !strstr(sb_str(&out), "not run: the build failed"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A submission built against its own changed copy of the kit's header
 * failed with the linker's words only: the grader builds with the kit's
 * copy, and now says so. */
START_TEST(changed_kit_header_in_a_submission_said)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/eve\" && sed 's/int n);/int n, int m);/' labs/lab03-dot/student/dot.h > \"$T/eve/dot.h\" && "
                       "sed 's/^float dot_shared(const float \\*d_a, const float \\*d_b, int n)/&, int m/; s/int n), int m/int n, int m)/' "
                       "labs/lab03-dot/solution/dot.cu > \"$T/eve/dot.cu\" && grep -c 'int n, int m)' \"$T/eve/dot.cu\" && chmod -R a+rX \"$T\" && "
                       "\"$KG\" grade lab03 \"$T/eve\" --test float-small --out \"$T/eve.json\"");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED &&
                      strstr(sb_str(&out), "your dot.h differs from the kit's, which the grader builds with (students "
                                           "must not change it)"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A bad value in a test's `params` was reported at the section header: now
 * at the params line, naming it; a case's own bad value stays at the case. */
START_TEST(params_errors_at_their_line)
{
    strbuf out;
    sb_init(&out);
    /* the first `params = type=float` of lab03's rubric (float-small's) becomes type=double */
    int rc = run(&out, "n=$(grep -n -m1 '^params = type=float$' labs/lab03-dot/kit/rubric.ini | cut -d: -f1) && "
                       "sed \"${n}s/type=float/type=double/\" labs/lab03-dot/kit/rubric.ini > \"$T/p.ini\" && "
                       "echo \"line $n\" && \"$KG\" validate lab03 --rubric \"$T/p.ini\"");
    char at[64];
    ck_assert_msg(!strncmp(sb_str(&out), "line ", 5), "%s", sb_str(&out));
    snprintf(at, sizeof at, "p.ini:%d: [test float-small] params 'type=double' (with case 'n=", atoi(sb_str(&out) + 5));
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(sb_str(&out), at) &&
                      strstr(sb_str(&out), "type must be one of: float int (got 'double')"),
                  "expected '%s': rc %d: %s", at, rc, sb_str(&out));
    /* a case overriding a good params value with a bad one: the case's line */
    rc = run(&out, "sed 's/^case = n=0$/case = n=0 type=double/' labs/lab03-dot/kit/rubric.ini > \"$T/c.ini\" && "
                   "echo \"line $(grep -n 'type=double' \"$T/c.ini\" | cut -d: -f1)\" && \"$KG\" validate lab03 --rubric \"$T/c.ini\"");
    snprintf(at, sizeof at, "c.ini:%d: [test float-small] case 'type=float n=0 type=double'", atoi(sb_str(&out) + 5));
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(sb_str(&out), at), "expected '%s': rc %d: %s", at, rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* `kitgrade validate bogus` exited 1 saying "(see grader/labs/)" while
 * `check lab99` exited 2: one answer for a lab that does not exist, the
 * words of `make lab99` (status 2, the labs listed), nothing else printed. */
START_TEST(unknown_lab_one_answer)
{
    strbuf out;
    sb_init(&out);
    static const char *cmds[] = {"validate bogus", "check lab99", "validate lab03 lab99", "grade lab3 labs/lab03-dot/solution",
                                 "run lab99 n=1", "batch bogus \"$T\" --out \"$T/out\"", "handin lab99"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        int rc = run(&out, "\"$KG\" %s > \"$T/o\" 2>&1; rc=$?; grep -v '^ok ' \"$T/o\"; exit $rc", cmds[i]);
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), "kitgrade: no such lab '") &&
                          strstr(sb_str(&out), "; the labs are lab01 lab02 ") && strstr(sb_str(&out), " lab11"),
                      "kitgrade %s: rc %d: %s", cmds[i], rc, sb_str(&out));
    }
    sb_free(&out);
}
END_TEST

/* `make grade` over a folder with no student folders said "0 submissions"
 * and exited 0.  Now: what was found and the layouts expected, exit 2. */
START_TEST(batch_layouts_refused)
{
    strbuf out;
    sb_init(&out);
    static const struct {
        const char *prep, *says;
    } cases[] = {{"mkdir -p \"$T/s\"", "is empty; expected a lab folder of the course spool"},
                 {"mkdir -p \"$T/s\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/\"",
                  "holds dot.cu itself: it looks like one student's own folder (grade it alone with: "},
                 {"mkdir -p \"$T/s\" && echo x > \"$T/s/notes.txt\"", "found 1 file (e.g. notes.txt); expected"},
                 {"mkdir -p \"$T/s/bob\" && echo x > \"$T/s/alice.zip\"", "mixes 1 folder and 1 archive"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert_int_eq(run(&out, "rm -rf \"$T/s\" \"$T/out\" && %s", cases[i].prep), 0);
        int rc = run(&out, "KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\"");
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), cases[i].says) &&
                          strstr(sb_str(&out), "/alice/dot.cu) or one .zip/.tar/.tar.gz per student"),
                      "case %zu: rc %d: %s", i, rc, sb_str(&out));
        ck_assert_int_eq(run(&out, "ls \"$T/out/results\" | wc -l | grep -qx 0"), 0);
        /* input before environment: without a GPU the layout is still what is reported */
        ck_assert_int_eq(run(&out, "rm -rf \"$T/out\""), 0);
        rc = run(&out, "\"$KG\" batch lab03 \"$T/s\" --out \"$T/out\"");
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), cases[i].says) &&
                          !strstr(sb_str(&out), "no GPU"),
                      "case %zu without a GPU: rc %d: %s", i, rc, sb_str(&out));
    }
    /* the grade command it prints for one student's folder works when pasted */
    int rc = run(&out, "rm -rf \"$T/s\" && mkdir -p \"$T/s\" && cp labs/lab03-dot/tests/build-error/dot.cu "
                       "\"$T/s/\" && KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" 2>&1 | "
                       "sed -n 's/.*grade it alone with: \\(.*\\)); expected.*/\\1/p' > \"$T/cmd\" && cat \"$T/cmd\" && "
                       "sh \"$T/cmd\"");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(sb_str(&out), "build ..") && strstr(sb_str(&out), "results:"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* kitgrade slurm with an unknown lab said "the merge failed (status 2):" and
 * then the batch's line: one line, as every other command says it. */
START_TEST(slurm_unknown_lab_one_line)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/s\" && \"$KG\" slurm lab99 \"$T/s\" --out \"$T/out\"");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), "no such lab 'lab99'; the labs are lab01"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A missing --rubric file or roster exited 1, where bad input is 2; a
 * rubric whose lab = names another lab was reported without its line. */
START_TEST(bad_input_files_say_so_with_status_2)
{
    strbuf out;
    sb_init(&out);
    ONE_LINE(&out, KITGRADE_EXIT_USAGE, "nope.ini: cannot read it", "\"$KG\" validate lab03 --rubric \"$T/nope.ini\"");
    int rc = run(&out, "sed 's/^lab = lab03-dot$/lab = lab05-convolution/' labs/lab03-dot/kit/rubric.ini > \"$T/r.ini\" && "
                   "\"$KG\" check lab03 labs/lab03-dot/solution --rubric \"$T/r.ini\"; echo rc=$?; "
                   "echo \"at r.ini:$(grep -n '^lab = ' \"$T/r.ini\" | cut -d: -f1): lab = lab05-convolution\"");
    const char *at = strstr(sb_str(&out), "\nat ");
    ck_assert_msg(at && strstr(sb_str(&out), "rc=2\n"), "%s", sb_str(&out));
    char want[128];
    snprintf(want, sizeof want, "%.*s", (int)strcspn(at + 4, "\n"), at + 4);
    ck_assert_msg(strstr(sb_str(&out), want) && strstr(sb_str(&out), "but this is lab03-dot's rubric"), "want '%s': %s",
                  want, sb_str(&out));
    rc = run(&out, "mkdir -p \"$T/alice\" \"$T/out/results\" && cp labs/lab03-dot/solution/dot.cu \"$T/alice/\" && chmod -R a+rX \"$T\" && "
                   "\"$KG\" grade lab03 \"$T/alice\" --test float-small --allow-no-gpu --out \"$T/out/results/alice.json\" >/dev/null; "
                   "\"$KG\" merge \"$T/out\" --roster \"$T/nope.csv\"");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && strstr(sb_str(&out), "nope.csv: cannot open"), "rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "\"$KG\" merge \"$T/out\" --manual \"$T/nope.csv\"");
    ck_assert_msg(rc == KITGRADE_EXIT_USAGE && strstr(sb_str(&out), "nope.csv: cannot open"), "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A folder the grader could not make (its scratch, OUT) went unchecked: the
 * run went on and failed later, or wrote nothing without a word. */
START_TEST(folders_that_cannot_be_made_are_said)
{
    strbuf out;
    sb_init(&out);
    ck_assert_int_eq(run(&out, "mkdir -p \"$T/s/alice\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/alice/\" && "
                               "chmod -R a+rX \"$T\" && touch \"$T/file\""), 0);
    ONE_LINE(&out, KITGRADE_EXIT_INTERNAL, "cannot create the folder ", "KIT_SCRATCH=\"$T/file/scratch\" \"$KG\" check lab03 \"$T/s/alice\"");
    ONE_LINE(&out, KITGRADE_EXIT_INTERNAL, "/file/out: Not a directory", "\"$KG\" batch lab03 \"$T/s\" --out \"$T/file/out\" --allow-no-gpu");
    ONE_LINE(&out, KITGRADE_EXIT_INTERNAL, "/file/out: Not a directory", "\"$KG\" slurm lab03 \"$T/s\" --out \"$T/file/out\" --allow-no-gpu");
    sb_free(&out);
}
END_TEST

/* A SLURM=1 run whose sbatch failed left an empty gradebook.csv and
 * report.html (its plan, a merge of no results, wrote them). */
START_TEST(slurm_failed_run_leaves_no_empty_gradebook)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/s/alice\" \"$T/bin\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/alice/\" && "
                       "chmod -R a+rX \"$T\" && printf '#!/bin/sh\\necho sbatch: error: no partition >&2\\nexit 1\\n' > \"$T/bin/sbatch\" && "
                       "printf '#!/bin/sh\\nexit 1\\n' > \"$T/bin/squeue\" && chmod +x \"$T/bin/\"* && "
                       "PATH=\"$T/bin:$PATH\" \"$KG\" slurm lab03 \"$T/s\" --out \"$T/out\" --allow-no-gpu; echo rc=$?; ls \"$T/out\"");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "sbatch failed") && strstr(sb_str(&out), "rc=4\n") &&
                      !strstr(sb_str(&out), "gradebook.csv\n") && !strstr(sb_str(&out), "report.html\n"),
                  "%s", sb_str(&out));
    sb_free(&out);
}
END_TEST

/* GPUs hidden from a batch (CUDA_VISIBLE_DEVICES= or =2,3) stay hidden: the
 * batch counted its GPUs with a kit-devices that did not get the variable,
 * saw every GPU of the machine, and handed its workers GPU 0 (the suite's
 * "GPU hidden" known-bad batch was timed on the GPU). */
START_TEST(batch_keeps_hidden_gpus_hidden)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/b\" \"$T/s/x\" && cp labs/lab03-dot/tests/build-error/dot.cu \"$T/s/x/\" && "
                       "printf '#!/bin/sh\\necho \"${CUDA_VISIBLE_DEVICES-unset}\" >> \"%%s/seen\"\\n"
                       "[ \"${CUDA_VISIBLE_DEVICES-x}\" = \"\" ] && exit 1\\n"
                       "printf \"0\\\\tGPU-00000000-1111-2222-3333-444444444444\\\\tFake\\\\t9.0\\\\n\"\\n' \"$T\" "
                       "> \"$T/fake-devices\" && chmod +x \"$T/fake-devices\" && "
                       "sed \"s|^kit_devices = .*|kit_devices = $T/fake-devices|\" '%s/kit.ini' > \"$T/b/kit.ini\" && "
                       "CUDA_VISIBLE_DEVICES= KIT_BUILD=\"$T/b\" KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" "
                       "--out \"$T/out\" --test float-small >/dev/null; cat \"$T/seen\"",
                 build_dir());
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "unset") == NULL && lines(&out) >= 1, "rc %d, kit-devices saw: %s", rc,
                  sb_str(&out));
    sb_free(&out);
}
END_TEST

/* A student's file that is a FIFO is refused at grading; the class report's
 * similarity check then opened it to compare it and waited for ever (where
 * similarity-tester is installed: the batch never ended). */
START_TEST(batch_report_survives_a_fifo)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/s/a\" \"$T/s/b\" && mkfifo \"$T/s/a/dot.cu\" && "
                       "cp labs/lab03-dot/tests/build-error/dot.cu \"$T/s/b/\" && "
                       "KIT_RUN_WITHOUT_GPU=1 timeout 120 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" --test float-small; "
                       "echo \"status $?\"");
    ck_assert_msg(rc == 0 && !strstr(sb_str(&out), "status 124") && strstr(sb_str(&out), "done: 2 graded"), "%s",
                  sb_str(&out));
    sb_free(&out);
}
END_TEST

/* Per-student archives (LMS exports): unpacked safely and graded, or the
 * batch refused with the archive and the reason; nothing lands outside. */
START_TEST(batch_archives)
{
    strbuf out;
    sb_init(&out);
    if (run(&out, "command -v bsdtar") != 0) {
        int rc = run(&out, "mkdir -p \"$T/s\" && echo x > \"$T/s/a.zip\" && \"$KG\" batch lab03 \"$T/s\" --out "
                           "\"$T/out\" --allow-no-gpu");
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && strstr(sb_str(&out), "libarchive-tools"), "rc %d: %s", rc, sb_str(&out));
        sb_free(&out);
        return;
    }
    int rc = run(&out, "mkdir -p \"$T/src/alice/lab03-dot\" \"$T/src/bob\" \"$T/s\" && "
                       "cp labs/lab03-dot/solution/dot.cu \"$T/src/alice/lab03-dot/\" && cp labs/lab03-dot/student/dot.cu \"$T/src/bob/\" && "
                       "mkdir -p \"$T/src/alice/__MACOSX/lab03-dot\" && echo junk > \"$T/src/alice/__MACOSX/lab03-dot/._dot.cu\" && "
                       "(cd \"$T/src/alice\" && bsdtar -a -cf \"$T/s/alice.zip\" lab03-dot __MACOSX) && "
                       "(cd \"$T/src/bob\" && bsdtar -czf \"$T/s/bob.tar.gz\" dot.cu) && chmod -R a+rX \"$T\" && "
                       "KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" --test float-small && "
                       "cmp \"$T/out/unpacked/alice/dot.cu\" labs/lab03-dot/solution/dot.cu && ls \"$T/out/results\"");
    ck_assert_msg(rc == 0 && strstr(sb_str(&out), "2 graded now") && strstr(sb_str(&out), "alice.json") &&
                      strstr(sb_str(&out), "bob.json") && strstr(sb_str(&out), "(archives, unpacked"),
                  "rc %d: %s", rc, sb_str(&out));
    static const struct {
        const char *make, *says;
    } bad[] = {{"ln -s /etc/passwd link && bsdtar -cf \"$T/s/eve.tar\" dot.cu link", "eve.tar: it holds a symbolic link"},
               {"bsdtar -cf \"$T/s/eve.tar\" -s ',^,../escape/,' dot.cu", "Path contains '..'"},
               {"head -c 80000000 /dev/zero > big && bsdtar -a -cf \"$T/s/eve.zip\" big", "unpacks to 76 MB (at most 64 MB)"},
               {"echo not-an-archive > \"$T/s/eve.zip\"", "eve.zip: not a readable archive"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc = run(&out, "rm -rf \"$T/e\" \"$T/s\"/eve.* && mkdir -p \"$T/e\" && cd \"$T/e\" && "
                       "cp \"$ROOT/labs/lab03-dot/solution/dot.cu\" . && %s", bad[i].make);
        ck_assert_msg(rc == 0, "%s", sb_str(&out));
        rc = run(&out, "KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" --test float-small");
        ck_assert_msg(rc == KITGRADE_EXIT_USAGE && lines(&out) == 1 && strstr(sb_str(&out), bad[i].says) &&
                          strstr(sb_str(&out), "1 of 3 archives refused, nothing graded"),
                      "case %zu: rc %d: %s", i, rc, sb_str(&out));
        ck_assert_int_eq(run(&out, "test -e \"$T/escape\" || test -e \"$T/out/escape\""), 1);
        /* without a GPU: the refused archive first (input before environment), nothing left in OUT */
        rc = run(&out, "rm -rf \"$T/out2\" && \"$KG\" batch lab03 \"$T/s\" --out \"$T/out2\" --test float-small; "
                       "echo \"status $?\"; ls -A \"$T/out2\" 2>/dev/null | wc -l");
        ck_assert_msg(strstr(sb_str(&out), bad[i].says) && strstr(sb_str(&out), "status 2\n0\n") &&
                          !strstr(sb_str(&out), "no GPU"),
                      "no GPU, case %zu: %s", i, sb_str(&out));
    }
    sb_free(&out);
}
END_TEST

/* The case server and the sanitizer processes (serve.c) change how a
 * grading runs, not what it says: with the
 * GPU present but unusable every run fails, and the report of each test is
 * the one of one process per case (KIT_SERVE=0), timings aside. */
START_TEST(served_reports_like_single_runs)
{
    strbuf out;
    sb_init(&out);
    const char *cmd = "KIT_LOCK_DIR=\"$T\" KIT_RUN_WITHOUT_GPU=1 KIT_SERVE=%s \"$KG\" grade lab03 labs/lab03-dot/tests/cache-result "
                      "--seed 0x5eed --no-color --out \"$T/r%s.json\" 2>&1 | sed -e 's/([ 0-9.]*s)//' "
                      "-e '/^lab03-dot: grading/d' -e '/^results: /d' > \"$T/served%s.txt\"";
    run(&out, cmd, "1", "1", "1");
    run(&out, cmd, "0", "0", "0");
    int rc = run(&out, "diff \"$T/served1.txt\" \"$T/served0.txt\" && grep -c 'rerun just this test' \"$T/served1.txt\"");
    ck_assert_msg(rc == 0 && atoi(sb_str(&out)) >= 4, "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* The rerun hint was `kitgrade grade lab03 DIR --test TEST=float-small
 * SEED=0x...` (make syntax after an option) and dropped --rubric.  Each
 * hint printed here is pasted into a shell and must rerun exactly that test
 * with the same seed and rubric.  The GPU is "present" but unusable
 * (KIT_RUN_WITHOUT_GPU=1): every test fails, so every hint is printed. */
START_TEST(printed_rerun_hints_work)
{
    strbuf out;
    sb_init(&out);
    /* instructor: an odd folder name, relative, and a private rubric */
    int rc = run(&out, "mkdir -p \"$T/o'brien x\" && cp labs/lab03-dot/solution/dot.cu \"$T/o'brien x/\" && "
                       "cp labs/lab03-dot/tests/rubric.ini \"$T/private.ini\" && chmod -R a+rX \"$T\" && cd \"$T\" && "
                       "KIT_RUN_WITHOUT_GPU=1 \"$KG\" grade lab03 \"o'brien x\" --rubric private.ini --seed 0xabc123 "
                       "--out r1.json > log1; grep -m1 'rerun just this test: ' log1 | sed 's/.*rerun just this test: //' "
                       "> cmd && cat cmd && cd / && KIT_RUN_WITHOUT_GPU=1 sh \"$T/cmd\"");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED, "rc %d: %s", rc, sb_str(&out));
    const char *o = sb_str(&out);
    ck_assert_msg(strstr(o, "--rubric ") && strstr(o, "--test float-small --seed 0xabc123") &&
                      strstr(o, "seed 0xabc123") && strstr(o, "float-small ....") && !strstr(o, "float-large ...."),
                  "%s", o);
    /* the rerun used the private rubric: its cases (n=1, n=257), not the lab's (n=31 ...) */
    ck_assert_msg(strstr(o, "case type=float n=257") && !strstr(o, "n=31 "), "%s", o);
    /* student, a folder make cannot pass (spaces, quotes): the kitgrade form */
    rc = run(&out, "KIT_RUN_WITHOUT_GPU=1 \"$KG\" check lab03 \"$T/o'brien x\" --seed 0x5eed > \"$T/log3\"; "
                   "grep -m1 'rerun just this test: ' \"$T/log3\" | sed 's/.*rerun just this test: //' > \"$T/cmd3\" && "
                   "cat \"$T/cmd3\" && KIT_RUN_WITHOUT_GPU=1 sh \"$T/cmd3\"");
    o = sb_str(&out);
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(o, " check lab03 '") && strstr(o, "--test float-small --seed 0x5eed") &&
                      strstr(o, "float-small ....") && !strstr(o, "float-large ...."),
                  "rc %d: %s", rc, o);
    /* student: `make lab03 DIR=... TEST=... SEED=...` as make expands it */
    rc = run(&out, "mkdir -p \"$T/plain\" && cp labs/lab03-dot/solution/dot.cu \"$T/plain/\" && chmod -R a+rX \"$T\" && "
                   "KIT_RUN_WITHOUT_GPU=1 \"$KG\" check lab03 \"$T/plain\" --seed 0x5eed > \"$T/log3\"; "
                   "grep -m1 'rerun just this test: ' \"$T/log3\" | sed 's/.*rerun just this test: //'");
    ck_assert_msg(strstr(sb_str(&out), "make lab03 DIR=/") && strstr(sb_str(&out), "TEST=float-small SEED=0x5eed"),
                  "%s", sb_str(&out));
    rc = run(&out, "hint=$(grep -m1 'rerun just this test: ' \"$T/log3\" | sed 's/.*rerun just this test: make //') && "
                   "eval \"set -- $hint\" && make -s -n BUILD=\"$(dirname \"$(dirname \"$KG\")\")\" \"$@\" | tail -n 1 > \"$T/cmd2\" && "
                   "cat \"$T/cmd2\" && KIT_RUN_WITHOUT_GPU=1 sh \"$T/cmd2\"");
    o = sb_str(&out);
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(o, "--test float-small --seed 0x5eed") && strstr(o, "seed 0x5eed,") &&
                      strstr(o, "float-small ....") && !strstr(o, "float-large ...."),
                  "rc %d: %s", rc, o);
    sb_free(&out);
}
END_TEST

/* Warnings of a build that worked were never shown (terminal or feedback);
 * errors named the sandbox's dot.cu, not the file the student edits. */
START_TEST(compiler_messages_for_the_student)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/w/alice\" && { cat labs/lab03-dot/solution/dot.cu; "
                       "printf 'int kit_test_unused(void) { int never_used; return 0; }\\n'; } > \"$T/w/alice/dot.cu\" && "
                       "chmod -R a+rX \"$T\" && \"$KG\" check lab03 \"$T/w/alice\"");
    const char *o = sb_str(&out);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && kit_test_count(o, "never_used\" was declared but never referenced") == 1, "rc %d: %s",
                  rc, o);
    ck_assert_msg(strstr(o, "/w/alice/dot.cu(") && !strstr(o, "    dot.cu("), "%s", o);
    rc = run(&out, "\"$KG\" batch lab03 \"$T/w\" --out \"$T/out\" --allow-no-gpu && cat \"$T/out/feedback/alice.txt\" "
                   "\"$T/out/results/alice.json\"");
    ck_assert_msg(rc == 0 && kit_test_count(sb_str(&out), "never_used\" was declared") == 1, "rc %d: %s", rc, sb_str(&out));
    /* the student's feedback and results.json: dot.cu(66), not the instructor's folder */
    ck_assert_msg(strstr(sb_str(&out), "\n    dot.cu(") && strstr(sb_str(&out), "\"build_log\":\t\"dot.cu(") &&
                      !strstr(sb_str(&out), "/w/alice"),
                  "%s", sb_str(&out));
    rc = run(&out, "\"$KG\" check lab03 labs/lab03-dot/tests/build-error");
    ck_assert_msg(rc == KITGRADE_EXIT_FAILED && strstr(sb_str(&out), "    labs/lab03-dot/tests/build-error/dot.cu(46): error"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* The feedback file a student gets: a header saying what graded it, and
 * hidden tests' details (their sizes) only where the rubric allows. */
START_TEST(feedback_for_the_student)
{
    strbuf out;
    sb_init(&out);
    int rc = run(&out, "mkdir -p \"$T/s/alice\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/alice/\" && chmod -R a+rX \"$T\" && "
                       "KIT_RUN_WITHOUT_GPU=1 \"$KG\" batch lab03 \"$T/s\" --out \"$T/out\" --seed 0x77 "
                       "--test float-small,float-hidden >/dev/null 2>&1; cat \"$T/out/feedback/alice.txt\"");
    const char *o = sb_str(&out);
    ck_assert_msg(rc == 0 && strstr(o, "student: alice\nlab:     lab03-dot\ndate:    20") == o, "%s", o);
    ck_assert_msg(strstr(o, "\nseed:    0x77\nGPU:     no GPU (KIT_RUN_WITHOUT_GPU=1)\nkit:     "), "%s", o);
    ck_assert_msg(strstr(o, "(a hidden test: float, other sizes: its details are not shown)") && !strstr(o, "4097"),
                  "%s", o);
    ck_assert_msg(strstr(o, "case type=float n=31"), "visible details stay: %s", o);
    sb_free(&out);
}
END_TEST

/* A second check of an unchanged file compiled it again: now it
 * reuses the build and says so; a file touched but unchanged is reused too;
 * a changed file, a changed nvcc flag in kit.ini, an entry whose copy of the
 * file differs, or an entry another user could have written builds again. */
START_TEST(unchanged_build_reused)
{
    strbuf out;
    sb_init(&out);
    const char *check = "export KIT_BUILD_CACHE=\"$T/cache\"; \"$KG\" check lab03 \"$T/s\"";
    const char *reused = "  reused: dot.cu unchanged\n";
    int rc = run(&out, "mkdir -p \"$T/s\" && cp labs/lab03-dot/solution/dot.cu \"$T/s/\" && chmod -R a+rX \"$T\" && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), "build ...") && !strstr(sb_str(&out), "reused"),
                  "first check: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "%s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), reused) && strstr(sb_str(&out), "your code compiled"),
                  "second check: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "touch -d '+1 minute' \"$T/s/dot.cu\" && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), reused), "touched: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "echo '// changed' >> \"$T/s/dot.cu\" && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "changed file: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "%s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), reused), "changed file, again: rc %d: %s", rc, sb_str(&out));
    /* the same kit with one more nvcc flag in its kit.ini */
    rc = run(&out, "mkdir -p \"$T/kb\" && sed 's/^\\[build\\]$/[build]\\nnvcc_flag = -DKIT_TEST_REBUILD/' "
                   "\"${KIT_BUILD:-build}/kit.ini\" > \"$T/kb/kit.ini\" && grep -q KIT_TEST_REBUILD \"$T/kb/kit.ini\" && "
                   "KIT_BUILD=\"$T/kb\" && export KIT_BUILD && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "changed flag: rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "KIT_BUILD=\"$T/kb\" && export KIT_BUILD && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && strstr(sb_str(&out), reused), "changed flag, again: rc %d: %s", rc, sb_str(&out));
    /* entries whose copy of the file differs: the digest finds an entry, the bytes decide */
    rc = run(&out, "for f in \"$T\"/cache/lab03-dot.*/src.0; do echo '// other' >> \"$f\"; done && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "other bytes: rc %d: %s", rc, sb_str(&out));
    /* an entry writable by others, or (root) owned by another user: never run */
    rc = run(&out, "chmod g+w \"$T\"/cache/lab03-dot.* && %s", check);
    ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "group-writable: rc %d: %s", rc, sb_str(&out));
    if (geteuid() == 0) {
        rc = run(&out, "chown -R 65534 \"$T\"/cache/lab03-dot.* && %s", check);
        ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "another uid's: rc %d: %s", rc, sb_str(&out));
        rc = run(&out, "chown 65534 \"$T/cache\" && %s", check);
        ck_assert_msg(rc == KITGRADE_EXIT_NO_GPU && !strstr(sb_str(&out), "reused"), "another uid's cache: rc %d: %s", rc,
                      sb_str(&out));
    }
    rc = run(&out, "ls \"$T/cache\" | grep -c '^lab03-dot\\.'");
    ck_assert_msg(atoi(sb_str(&out)) <= 6, "at most 6 entries a lab: %s", sb_str(&out));
    sb_free(&out);
}
END_TEST

/* Failures the grader once swallowed are said, with a non-zero exit: a
 * checker given a seed or nonce it cannot read (graded with seed 0 before),
 * or a stdout file it cannot read (judged as no output at all); a batch whose
 * output folders cannot be made (a file in their place was taken for one),
 * or whose results cannot be written (it ended with status 0);
 * a build whose work folder cannot be made (an empty "build failed"). */
START_TEST(swallowed_failures_reported)
{
    strbuf out;
    sb_init(&out);
    char check[1024];
    snprintf(check, sizeof check, "%s/labs/lab03-dot/check", build_dir());
    int rc = run(&out, "'%s' --params 'type=float n=5' --seed zzz --nonce 1 --out \"$T/x\"", check);
    ck_assert_msg(rc == 2 && strstr(sb_str(&out), "zzz") && lines(&out) == 1, "rc %d: %s", rc, sb_str(&out));
    rc = run(&out, "'%s' --params 'type=float n=5' --seed 0x1 --nonce 12abc --out \"$T/x\"", check);
    ck_assert_msg(rc == 2 && strstr(sb_str(&out), "--nonce '12abc'") && lines(&out) == 1, "rc %d: %s", rc,
                  sb_str(&out));
    rc = run(&out, "'%s' --params 'type=float n=5' --seed 0x1 --nonce 1 --out \"$T/x\" --stdout \"$T/none.txt\"", check);
    ck_assert_msg(rc == 2 && strstr(sb_str(&out), "none.txt: No such file") && lines(&out) == 1, "rc %d: %s", rc,
                  sb_str(&out));
    rc = run(&out, "mkdir -p \"$T/o\" && touch \"$T/o/results\" && \"$KG\" batch lab03 labs/lab03-dot/tests --allow-no-gpu --out \"$T/o\"");
    ck_assert_msg(rc == KITGRADE_EXIT_INTERNAL && strstr(sb_str(&out), "cannot create") && strstr(sb_str(&out), "o/results"),
                  "rc %d: %s", rc, sb_str(&out));
    /* a result that cannot be written (a folder in its place): the batch said it, and exited 0 */
    rc = run(&out, "mkdir -p \"$T/s/a\" \"$T/o2/results/a.json\" && cp labs/lab03-dot/tests/build-error/dot.cu "
                   "\"$T/s/a/\" && \"$KG\" batch lab03 \"$T/s\" --allow-no-gpu --out \"$T/o2\"");
    ck_assert_msg(rc == KITGRADE_EXIT_INTERNAL && strstr(sb_str(&out), "1 result could not be written"), "rc %d: %s",
                  rc, sb_str(&out));
    rc = run(&out, "touch \"$T/f\" && KIT_SCRATCH=\"$T/f\" \"$KG\" build lab03 labs/lab03-dot/solution");
    ck_assert_msg(rc == KITGRADE_EXIT_INTERNAL && lines(&out) == 1 && strstr(sb_str(&out), "cannot create the folder"),
                  "rc %d: %s", rc, sb_str(&out));
    sb_free(&out);
}
END_TEST

/* Two cases: the answers kitgrade gives before it compiles anything (a
 * few seconds), and the tests that build and grade lab03 with nvcc (about a
 * minute): tagged "nvcc", which make test-quick leaves out
 * (CK_EXCLUDE_TAGS=nvcc). */
static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("kitgrade");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, bad_seeds_refused);
    tcase_add_test(tc, bad_counts_refused);
    tcase_add_test(tc, check_exit_codes);
    tcase_add_test(tc, case_parameters_by_the_labs_rules);
    tcase_add_test(tc, params_errors_at_their_line);
    tcase_add_test(tc, unknown_lab_one_answer);
    tcase_add_test(tc, wrong_file_name_is_a_hand_in_problem);
    tcase_add_test(tc, batch_layouts_refused);
    tcase_add_test(tc, batch_keeps_hidden_gpus_hidden);
    tcase_add_test(tc, batch_report_survives_a_fifo);
    tcase_add_test(tc, slurm_unknown_lab_one_line);
    tcase_add_test(tc, slurm_failed_run_leaves_no_empty_gradebook);
    tcase_add_test(tc, bad_input_files_say_so_with_status_2);
    tcase_add_test(tc, folders_that_cannot_be_made_are_said);
    tcase_add_test(tc, swallowed_failures_reported);
    suite_add_tcase(s, tc);
    tc = tcase_create("kitgrade builds");
    tcase_set_tags(tc, "nvcc");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, batch_no_gpu_and_reuse);
    tcase_add_test(tc, grade_results_outside_the_submission);
    tcase_add_test(tc, not_graded_is_never_a_score);
    tcase_add_test(tc, changed_kit_header_in_a_submission_said);
    tcase_add_test(tc, batch_archives);
    tcase_add_test(tc, printed_rerun_hints_work);
    tcase_add_test(tc, served_reports_like_single_runs);
    tcase_add_test(tc, compiler_messages_for_the_student);
    tcase_add_test(tc, feedback_for_the_student);
    tcase_add_test(tc, unchanged_build_reused);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(cli_suite)
