/* test_labs.c - verdicts of the GPU integration run (tests/run-gpu).
 *
 * For each lab graded by run-gpu (KIT_GPU_OUT/<lab>/grades/results/):
 *  - the reference solution, and the solution of a stretch exercise
 *    (labs/<lab>/solution/stretch/, graded as "stretch"): every test passed with
 *    full points;
 *  - the starter: fails every test in its manifest's starter_fails, and every
 *    test it fails is in starter_fails or starter_may_fail (racy tests);
 *  - each known-bad submission labs/<lab>/tests/<name>/: the verdict
 *    its expect.ini states (keys: labs/lab03-dot/tests/README.md).
 * With KIT_RUN_WITHOUT_GPU=1 (tests/run-cpu-submissions: the `gpu = no`
 * cases graded on a machine without a GPU, where every run's CUDA calls
 * fail) only what holds without a device is checked: the build, the
 * `output` phrases and the `absent` phrases.
 * Prints one line per graded submission: scores, failed tests, speedups.
 */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "model/model.h"
#include "output/report.h"
#include "expect.h"

typedef struct {
    char lab[NAME_LEN];   /* the kit's lab */
    char batch[NAME_LEN]; /* the batch folder under KIT_GPU_OUT */
    char who[256];
} graded;

static graded runs[256];
static int n_runs;

static const char *out_dir(void)
{
    const char *o = getenv("KIT_GPU_OUT");
    return o ? o : "build/gpu-tests";
}

static int in_list(const expect_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->name[i], name))
            return 1;
    return 0;
}

/* What the run of `who` in `lab` must look like. */
static void expectation_for(const char *lab, const char *who, expectation *x)
{
    expect_defaults(x);
    char path[4096], err[1024];
    if (!strcmp(who, "solution") || !strcmp(who, "stretch"))
        return;
    if (!strcmp(who, "starter")) {
        manifest m;
        snprintf(path, sizeof path, "%s/labs/%s/kit/manifest.ini", kit_test_root(), lab);
        ck_assert_msg(manifest_load(path, &m, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < m.n_starter_fails; i++)
            expect_split(&x->must_fail, m.starter_fails[i]);
        for (int i = 0; i < m.n_starter_may_fail; i++)
            expect_split(&x->may_fail, m.starter_may_fail[i]);
        return;
    }
    snprintf(path, sizeof path, "%s/labs/%s/tests/%s/expect.ini", kit_test_root(), lab, who);
    ck_assert_msg(expect_load(path, x, err, sizeof err) == 0, "%s", err);
}

/* The overall speedup line of each performance test ("speedup 2.31x: full points ...");
 * *max gets the largest (0 when none). */
static void speedups(const grade_result *g, char *buf, size_t len, double *max)
{
    buf[0] = 0;
    *max = 0;
    for (int i = 0; i < g->n_tests; i++) {
        for (const char *s = strstr(sb_str(&g->tests[i].output), "speedup "); s; s = strstr(s + 1, "speedup ")) {
            double x;
            char colon[16];
            if (sscanf(s, "speedup %lfx%15[:] full points", &x, colon) == 2)
                snprintf(buf + strlen(buf), len - strlen(buf), ", %s %.2fx", g->tests[i].name, x);
            if (sscanf(s, "speedup %lfx%15[:] full points", &x, colon) == 2 && x > *max)
                *max = x;
        }
    }
}

/* KIT_RUN_WITHOUT_GPU=1: the runs' CUDA calls failed (see the header). */
static int without_gpu(void)
{
    const char *v = getenv("KIT_RUN_WITHOUT_GPU");
    return v && !strcmp(v, "1");
}

static int result_mentions(const grade_result *g, const char *phrase)
{
    if (strstr(sb_str(&g->build_log), phrase) || strstr(sb_str(&g->notes), phrase))
        return 1;
    for (int i = 0; i < g->n_tests; i++)
        if (strstr(sb_str(&g->tests[i].output), phrase))
            return 1;
    return 0;
}

START_TEST(verdict)
{
    const graded *r = &runs[_i];
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s/grades/results/%s.json", out_dir(), r->batch, r->who);
    grade_result g;
    ck_assert_msg(report_read_json(path, &g, err, sizeof err) == 0, "%s/%s: no result: %s", r->lab, r->who, err);
    expectation x;
    expectation_for(r->lab, r->who, &x);

    char fails[1024] = "", unexpected[1024] = "", missing[1024] = "", racy[1024] = "", absent[1024] = "";
    for (int i = 0; i < g.n_tests; i++) {
        const test_result *t = &g.tests[i];
        int failed = t->status != ST_PASS || t->score < t->max_score;
        int must = x.all_fail || in_list(&x.must_fail, t->name), may = in_list(&x.may_fail, t->name);
        if (failed)
            snprintf(fails + strlen(fails), sizeof fails - strlen(fails), " %s", t->name);
        if (failed && !must && !may && !without_gpu()) {
            snprintf(unexpected + strlen(unexpected), sizeof unexpected - strlen(unexpected), " %s", t->name);
            printf("%s/%s: %s fails unexpectedly (%g/%g):\n%s", r->lab, r->who, t->name, t->score, t->max_score,
                   sb_str(&t->output));
        }
        if (!failed && must)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", t->name);
        if (may)
            snprintf(racy + strlen(racy), sizeof racy - strlen(racy), " %s:%s", t->name, failed ? "failed" : "passed");
    }
    for (int k = 0; k < x.must_pass.n; k++) { /* graded at all: a known-good submission's point */
        int graded = 0;
        for (int i = 0; i < g.n_tests; i++)
            graded |= !strcmp(g.tests[i].name, x.must_pass.name[k]);
        if (!graded)
            snprintf(unexpected + strlen(unexpected), sizeof unexpected - strlen(unexpected), " %s(not graded)",
                     x.must_pass.name[k]);
    }
    for (int i = 0; i < x.n_output; i++)
        if (!result_mentions(&g, x.output[i]))
            snprintf(absent + strlen(absent), sizeof absent - strlen(absent), " \"%s\"", x.output[i]);
    char present[1024] = "";
    for (int i = 0; i < x.n_absent; i++)
        if (result_mentions(&g, x.absent[i]))
            snprintf(present + strlen(present), sizeof present - strlen(present), " \"%s\"", x.absent[i]);
    if (without_gpu()) { /* only the build and the phrases mean something */
        unexpected[0] = missing[0] = 0;
        ck_assert_msg(!x.needs_gpu, "%s/%s: graded without a GPU, but its expect.ini does not say gpu = no", r->lab,
                      r->who);
    }
    char sp[512];
    double max_sp;
    speedups(&g, sp, sizeof sp, &max_sp);
    char seen[1024] = ""; /* the expected phrases found: the verdict in words */
    for (int i = 0; i < x.n_output; i++)
        if (result_mentions(&g, x.output[i]))
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s\"%s\"", seen[0] ? ", " : " | says ",
                     x.output[i]);
    for (int i = 0; i < x.n_absent; i++)
        if (!result_mentions(&g, x.absent[i]))
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), " | never \"%s\"", x.absent[i]);
    if (without_gpu()) /* every run failed for want of a device: the list says nothing */
        snprintf(fails, sizeof fails, " (no GPU)");
    printf("%-18s %-24s %6g/%-4g build %-4s fails:%s%s%s%s%s\n", r->lab, r->who, g.score, g.max_score,
           g.build_ok ? "ok" : "FAIL", fails[0] ? fails : " none", racy[0] ? " | racy:" : "", racy, sp, seen);
    fflush(stdout);
    if (x.build >= 0)
        ck_assert_msg(g.build_ok == x.build, "%s/%s: build %s, expected %s:\n%s", r->lab, r->who,
                      g.build_ok ? "ok" : "failed", x.build ? "ok" : "a failure", sb_str(&g.build_log));
    ck_assert_msg(!unexpected[0], "%s/%s: fails tests it should pass:%s", r->lab, r->who, unexpected);
    ck_assert_msg(!missing[0], "%s/%s: passes tests it must fail:%s", r->lab, r->who, missing);
    ck_assert_msg(!absent[0], "%s/%s: the result does not mention:%s", r->lab, r->who, absent);
    if (x.max_speedup > 0 && !without_gpu())
        ck_assert_msg(max_sp > 0 && max_sp <= x.max_speedup, "%s/%s: speedup %.2fx, expected a measured one of at most %.2fx",
                      r->lab, r->who, max_sp, x.max_speedup);
    ck_assert_msg(!present[0], "%s/%s: the result mentions what it must not:%s", r->lab, r->who, present);
    grade_result_free(&g);
}
END_TEST

/* Every known-bad submission's expect.ini reads (CPU too): three of them had
 * lines too long for inih and were found only on the GPU, as "unreadable". */
START_TEST(expectations_read)
{
    glob_t g;
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/labs/*/tests/*/expect.ini", kit_test_root());
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_uint_gt(g.gl_pathc, 20);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        expectation x;
        char err[1024];
        ck_assert_msg(expect_load(g.gl_pathv[i], &x, err, sizeof err) == 0, "%s", err);
    }
    globfree(&g);
}
END_TEST

static int cmp_runs(const void *a, const void *b)
{
    const graded *x = a, *y = b;
    int c = strcmp(x->batch, y->batch);
    /* solution, starter, then the known-bad ones alphabetically */
    if (c)
        return c;
    int rx = !strcmp(x->who, "solution") ? 0 : !strcmp(x->who, "starter") ? 1 : 2;
    int ry = !strcmp(y->who, "solution") ? 0 : !strcmp(y->who, "starter") ? 1 : 2;
    return rx != ry ? rx - ry : strcmp(x->who, y->who);
}

/* KIT_GPU_BATCHES="lab03-dot+bad lab03-dot+alone-x": only these batch
 * folders (tests/run-gpu counts each part's verdicts on its own). */
static int batch_wanted(const char *name)
{
    const char *only = getenv("KIT_GPU_BATCHES");
    if (!only)
        return 1;
    size_t n = strlen(name);
    for (const char *p = only; *p;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len;
    }
    return 0;
}

static Suite *labs_suite(void)
{
    DIR *d = opendir(out_dir());
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "lab", 3) || !batch_wanted(e->d_name))
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s/submissions", out_dir(), e->d_name);
        DIR *s = opendir(sub);
        struct dirent *f;
        while (s && (f = readdir(s)) && n_runs < 256) {
            if (f->d_name[0] == '.')
                continue;
            /* batch folders: "<lab>" (solution, starter) and "<lab>+bad" (known-bad) */
            snprintf(runs[n_runs].lab, NAME_LEN, "%.*s", (int)strcspn(e->d_name, "+"), e->d_name);
            if (fmt_into(runs[n_runs].batch, sizeof runs[0].batch, "%s", e->d_name) ||
                fmt_into(runs[n_runs].who, sizeof runs[0].who, "%s", f->d_name))
                continue;
            n_runs++;
        }
        if (s)
            closedir(s);
    }
    if (d)
        closedir(d);
    qsort(runs, (size_t)n_runs, sizeof runs[0], cmp_runs);
    Suite *s = suite_create("gpu-labs");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, verdict, 0, n_runs);
    suite_add_tcase(s, tc);
    if (!getenv("KIT_GPU_BATCHES")) {
        tc = tcase_create("expectations");
        tcase_add_test(tc, expectations_read);
        suite_add_tcase(s, tc);
    }
    return s;
}

KIT_CHECK_MAIN(labs_suite)
