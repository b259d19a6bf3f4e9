/* test_rubric.c - loading and validating rubric.ini and manifest.ini. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "model/model.h"

static char tmpdir[256];
static char labdir[512];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kit-test-rubric-XXXXXX");
    ck_assert(mkdtemp(tmpdir) != NULL);
    /* a lab's kit files: labs/<lab>/kit/ (model/labdir.h) */
    snprintf(labdir, sizeof labdir, "%s/lab03-dot", tmpdir);
    ck_assert_int_eq(mkdir(labdir, 0755), 0);
    snprintf(labdir, sizeof labdir, "%s/lab03-dot/kit", tmpdir);
    ck_assert_int_eq(mkdir(labdir, 0755), 0);
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static const char *write_file(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", labdir, name);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char good_rubric[] =
    "; lab03 rubric\n"                                      /* 1 */
    "[rubric]\n"                                            /* 2 */
    "lab = lab03-dot                 ; must be present\n"   /* 3 */
    "timeout = 20\n"                                        /* 4 */
    "memory_mb = 4096\n"                                    /* 5 */
    "\n"                                                    /* 6 */
    "[test float-small]\n"                                  /* 7 */
    "title = float dot product, small and edge sizes\n"     /* 8 */
    "kind = correctness\n"                                  /* 9 */
    "points = 10\n"                                         /* 10 */
    "params = type=float\n"                                 /* 11 */
    "case = n=1\n"                                          /* 12 */
    "case = n=31\n"                                         /* 13 */
    "case = n=2^20+1   ; big\n"                             /* 14 */
    "partial = yes\n"                                       /* 15 */
    "\n"                                                    /* 16 */
    "[test hidden.one]\n"                                   /* 17 */
    "points = 2.5\n"                                        /* 18 */
    "visibility = hidden\n"                                 /* 19 */
    "group = extra\n"                                       /* 20 */
    "case = n=5 type=int\n"                                 /* 21 */
    "timeout = 3\n"                                         /* 22 */
    "repeat = 4\n"                                          /* 23 */
    "gpu = alone\n"                                         /* 24 */
    "[test racecheck]\n"                                    /* 25 */
    "kind = sanitizer\n"                                    /* 26 */
    "tool = racecheck\n"                                    /* 27 */
    "points = 10\n"                                         /* 28 */
    "case = n=257\n"                                        /* 29 */
    "\n"                                                    /* 30 */
    "[test performance]\n"                                  /* 31 */
    "kind = performance\n"                                  /* 32 */
    "points = 20\n"                                         /* 33 */
    "case = n=2^26 type=float\n"                            /* 34 */
    "threshold = 2.0\n"                                     /* 35 */
    "visibility = after_due_date\n"                         /* 36 */
    "show_details = yes\n"                                  /* 37 */
    "host = alone\n";                                       /* 38 */

START_TEST(good_rubric_loads)
{
    const char *path = write_file("rubric.ini", good_rubric);
    rubric r;
    char err[512] = "";
    ck_assert_msg(rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(r.lab, "lab03-dot");
    ck_assert(r.timeout_s == 20);
    ck_assert(r.build_timeout_s == 180);
    ck_assert(r.sanitizer_timeout_s == 120);
    ck_assert(r.call_limit_s == 2); /* the default floor of a student call's limit */
    ck_assert_int_eq(r.memory_mb, 4096);
    ck_assert_int_eq(r.max_processes, 256);
    ck_assert_int_eq(r.output_kb, 256);
    ck_assert_int_eq(r.file_mb, 2048);
    ck_assert_int_eq(r.n_tests, 4);

    const rubric_test *t = rubric_find(&r, "float-small");
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->title, "float dot product, small and edge sizes");
    ck_assert_int_eq(t->kind, KIND_CORRECTNESS);
    ck_assert_str_eq(t->group, "correctness");
    ck_assert(t->points == 10);
    ck_assert_int_eq(t->vis, VIS_VISIBLE);
    ck_assert_str_eq(t->params, "type=float");
    ck_assert_int_eq(t->n_cases, 3);
    ck_assert_str_eq(t->cases[0], "n=1");
    ck_assert_str_eq(t->cases[1], "n=31");
    ck_assert_str_eq(t->cases[2], "n=2^20+1");
    ck_assert(t->timeout_s == 20); /* the [rubric] default */
    ck_assert_int_eq(t->repeat, 1);
    ck_assert_int_eq(t->partial, 1);
    ck_assert_int_eq(t->line, 7);

    t = rubric_find(&r, "hidden.one");
    ck_assert_ptr_nonnull(t);
    ck_assert(t->points == 2.5);
    ck_assert_int_eq(t->vis, VIS_HIDDEN);
    ck_assert_str_eq(t->group, "extra");
    ck_assert(t->timeout_s == 3);
    ck_assert_int_eq(t->repeat, 4);
    ck_assert_int_eq(t->partial, 0);
    ck_assert_int_eq(t->gpu_alone, 1);
    ck_assert_int_eq(rubric_find(&r, "float-small")->gpu_alone, 0); /* default: shared, in the case server */

    t = rubric_find(&r, "racecheck");
    ck_assert_int_eq(t->kind, KIND_SANITIZER);
    ck_assert_str_eq(t->tool, "racecheck");
    ck_assert_str_eq(t->group, "sanitizer");
    ck_assert(t->timeout_s == 120); /* sanitizer_timeout */

    t = rubric_find(&r, "performance");
    ck_assert_int_eq(t->kind, KIND_PERFORMANCE);
    ck_assert(t->threshold == 2.0);
    ck_assert(t->min_speedup == 1.0);
    ck_assert_int_eq(t->warmup, 3);
    ck_assert_int_eq(t->reps, 15);
    ck_assert_int_eq(t->vis, VIS_AFTER_DUE_DATE);
    ck_assert_int_eq(t->line, 31);
    ck_assert_int_eq(t->show_details, 1);
    ck_assert_int_eq(rubric_find(&r, "hidden.one")->show_details, 0); /* default: title and points only */
    ck_assert_int_eq(t->host_alone, 1);
    ck_assert_int_eq(rubric_find(&r, "hidden.one")->host_alone, 0); /* default: builds and checks go on */

    ck_assert_ptr_null(rubric_find(&r, "nope"));
    ck_assert(rubric_max_points(&r, 0) == 42.5);
    ck_assert(rubric_max_points(&r, 1) == 20);
    rubric_free(&r);
    ck_assert_int_eq(r.n_tests, 0);
}
END_TEST

/* A minimal valid rubric with `extra` put in [test t] (after line 5). */
#define HEAD "[rubric]\nlab = lab03-dot\n\n[test t]\npoints = 1\n"

static const struct {
    const char *text;
    const char *expect;
} bad_rubrics[] = {
    {HEAD "pionts = 3\ncase = n=1\n", "rubric.ini:6: unknown key 'pionts' in [test t]"},
    {HEAD "\n[test x]\npoints = 1\n", "rubric.ini:4: test 't' has no case"},
    {HEAD "case = n=1\n[test x]\npoints = 1\n", "rubric.ini:7: test 'x' has no case"},
    {"[rubric]\nlab = lab03-dot\n[test t]\npoints = ten\ncase = n=1\n", "rubric.ini:4: 'points' is not a number: 'ten'"},
    {HEAD "case = n=1\n[test t]\npoints = 1\ncase = n=1\n", "rubric.ini:7: duplicate test 't' (first at line 4)"},
    {HEAD "case = n=1\nkind = sanitizer\n", "rubric.ini:4: sanitizer test 't' has no 'tool'"},
    {HEAD "case = n=1\nkind = sanitizer\ntool = leakcheck\n", "rubric.ini:8: unknown tool 'leakcheck'"},
    {HEAD "case = n=1\nthreshold = 2\n", "rubric.ini:7: 'threshold' is only for performance tests"},
    {HEAD "case = n=1\nreps = 2\n", "rubric.ini:7: 'reps' is only for performance tests"},
    {HEAD "case = n=1\ntool = memcheck\n", "rubric.ini:7: 'tool' is only for sanitizer tests"},
    {HEAD "case = n=1\nkind = performance\n", "rubric.ini:4: performance test 't' has no 'threshold'"},
    {HEAD "case = n=1\nkind = performance\nthreshold = 0.5\n",
     "rubric.ini:8: min_speedup (1) must be less than threshold (0.5)"},
    {HEAD "case = n=1\nkind = performance\nthreshold = 2\nmin_speedup = 2\n",
     "rubric.ini:9: min_speedup (2) must be less than threshold (2)"},
    {HEAD "case = n=1\nkind = performance\nthreshold = 0\n", "rubric.ini:8: 'threshold' must be > 0"},
    {HEAD "case = n=1\nkind = speed\n", "rubric.ini:7: unknown kind 'speed'"},
    {HEAD "case = n=1\nvisibility = secret\n", "rubric.ini:7: unknown visibility 'secret'"},
    {HEAD "case = n=1\npartial = maybe\n", "rubric.ini:7: 'partial' must be yes or no: 'maybe'"},
    {HEAD "case = n=1\nshow_details = perhaps\n", "rubric.ini:7: 'show_details' must be yes or no: 'perhaps'"},
    {HEAD "case = n=1\ngpu = exclusive\n", "rubric.ini:7: 'gpu' must be shared or alone: 'exclusive'"},
    {HEAD "case = n=1\nkind = sanitizer\ntool = racecheck\ngpu = alone\n",
     "rubric.ini:9: 'gpu' is only for correctness tests (test 't' is sanitizer)"},
    {HEAD "case = n=1\nkind = performance\nthreshold = 2\nhost = quiet\n",
     "rubric.ini:9: 'host' must be shared or alone: 'quiet'"},
    {HEAD "case = n=1\nhost = alone\n", "rubric.ini:7: 'host' is only for performance tests (test 't' is correctness)"},
    {HEAD "case = n=1\nrepeat = 0\n", "rubric.ini:7: 'repeat' must be >= 1"},
    {HEAD "case = n=1\nrepeat = 1.5\n", "rubric.ini:7: 'repeat' is not a whole number: '1.5'"},
    {HEAD "case = n=1\ntimeout = -1\n", "rubric.ini:7: 'timeout' must be > 0"},
    {HEAD "case = n=1\npoints = 2\n", "rubric.ini:7: 'points' given twice in [test t] (first at line 5)"},
    {"[rubric]\nlab = lab03-dot\n[test t]\npoints = -1\ncase = n=1\n", "rubric.ini:4: 'points' must be >= 0"},
    {HEAD "case = n\n", "rubric.ini:6: bad case 'n' in [test t]"},
    {HEAD "case =\n", "rubric.ini:6: empty case in [test t]"},
    {HEAD "case = n=1\nmin_speedup = -1\n", "rubric.ini:7: 'min_speedup' must be >= 0: '-1'"},
    {HEAD "case = n=1\nwarmup = -1\n", "rubric.ini:7: 'warmup' must be >= 0: '-1'"},
    {HEAD "case = n=1\nreps = 1000001\n", "rubric.ini:7: 'reps' must be >= 1: '1000001'"},
    {"[rubric]\nlab = lab03-dot\n[test t]\ncase = n=1\n", "rubric.ini:3: test 't' has no 'points'"},
    /* params and a case that are each valid but together too many (kit/params.h: at most 32) */
    {HEAD "params = a1=1 a2=1 a3=1 a4=1 a5=1 a6=1 a7=1 a8=1 a9=1 a10=1 a11=1 a12=1 a13=1 a14=1 a15=1 a16=1 a17=1 "
          "a18=1 a19=1 a20=1\ncase = b1=1 b2=1 b3=1 b4=1 b5=1 b6=1 b7=1 b8=1 b9=1 b10=1 b11=1 b12=1 b13=1\n",
     "rubric.ini:7: case 'b1=1 b2=1 b3=1 b4=1 b5=1 b6=1 b7=1 b8=1 b9=1 b10=1 b11=1 b12=1 b13=1' with params "
     "'a1=1 a2=1 a3=1 a4=1 a5=1 a6=1 a7=1 a8=1 a9=1 a10=1 a11=1 a12=1 a13=1 a14=1 a15=1 a16=1 a17=1 a18=1 a19=1 "
     "a20=1' in [test t]: too many parameters (at most 32)"},
    {HEAD "params = type\ncase = n=1\n", "rubric.ini:6: bad params 'type'"},
    {HEAD "case = n=1\ngroup = two words\n", "rubric.ini:7: bad group name 'two words'"},
    {"[rubric]\nlab = lab03-dot\n[test bad/name]\npoints = 1\ncase = n=1\n", "rubric.ini:3: bad test name 'bad/name'"},
    {"[rubric]\nlab = lab03-dot\n[test]\npoints = 1\ncase = n=1\n", "rubric.ini:3: section [test] needs a name"},
    {"[rubric]\nlab = lab03-dot\n[tests x]\n", "rubric.ini:3: unknown section [tests x]"},
    {"[rubric]\nlab = lab03-dot\npoints = 3\n", "rubric.ini:3: unknown key 'points' in [rubric]"},
    {"[rubric]\nlab = lab03-dot\ntimeout = soon\n", "rubric.ini:3: 'timeout' is not a number: 'soon'"},
    {"[rubric]\nlab = lab03-dot\nmemory_mb = 0\n", "rubric.ini:3: 'memory_mb' must be > 0"},
    {"[rubric]\nlab = lab03-dot\ncall_limit = 0\n", "rubric.ini:3: 'call_limit' must be > 0 seconds: '0'"},
    {"[rubric]\nlab = lab03-dot\ncall_limit = 2s\n", "rubric.ini:3: 'call_limit' is not a number: '2s'"},
    {"[rubric]\nlab = lab03-dot\n[rubric]\n", "rubric.ini:3: duplicate section [rubric] (first at line 1)"},
    {"lab = lab03-dot\n[rubric]\n", "rubric.ini:1: 'lab' outside a section"},
    {"; nothing\n[test t]\npoints = 1\ncase = n=1\n", "rubric.ini: no [rubric] section"},
    {"[rubric]\ntimeout = 5\n\n[test t]\npoints = 1\ncase = n=1\n", "rubric.ini:1: [rubric] has no 'lab'"},
    {"[rubric]\nlab = lab03-dot\n", "rubric.ini: no tests"},
    {HEAD "case = n=1\nthis line has no equals sign\n", "rubric.ini:7: syntax error"},
    {HEAD "case = n=1\n[test y\n", "rubric.ini:7: syntax error"},
    {HEAD "title = "
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
          "case = n=1\n",
     "rubric.ini:6: line too long"},
    {HEAD "title = "
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxx\ncase = n=1\n",
     "rubric.ini:6: 'title' is too long"},
};

START_TEST(bad_rubric_rejected)
{
    const char *path = write_file("rubric.ini", bad_rubrics[_i].text);
    rubric r;
    char err[512] = "";
    int rc = rubric_load(path, &r, err, sizeof err);
    ck_assert_msg(rc == -1, "case %d accepted:\n%s", _i, bad_rubrics[_i].text);
    ck_assert_msg(strstr(err, bad_rubrics[_i].expect) != NULL, "case %d: expected '%s', got '%s'", _i,
                  bad_rubrics[_i].expect, err);
    /* the message starts with the path as given */
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "case %d: '%s'", _i, err);
    ck_assert_int_eq(r.n_tests, 0);
    ck_assert_ptr_null(r.tests);
}
END_TEST

/* Every visibility word, and the lower bounds a performance test may use. */
START_TEST(rubric_visibility_words_and_bounds)
{
    static const struct {
        const char *word;
        visibility vis;
    } words[] = {{"visible", VIS_VISIBLE},
                 {"hidden", VIS_HIDDEN},
                 {"after_due_date", VIS_AFTER_DUE_DATE},
                 {"after_published", VIS_AFTER_PUBLISHED}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 HEAD "case = n=1\nvisibility = %s\nkind = performance\nthreshold = 2\nmin_speedup = 0\n"
                      "warmup = 0\nreps = 1000000\n",
                 words[i].word);
        const char *path = write_file("rubric.ini", text);
        rubric r;
        char err[512] = "";
        ck_assert_msg(rubric_load(path, &r, err, sizeof err) == 0, "%s: %s", words[i].word, err);
        ck_assert_int_eq(r.tests[0].vis, words[i].vis);
        ck_assert(r.tests[0].min_speedup == 0);
        ck_assert_int_eq(r.tests[0].warmup, 0);
        ck_assert_int_eq(r.tests[0].reps, 1000000);
        ck_assert_str_eq(r.tests[0].group, "performance");
        ck_assert(r.tests[0].timeout_s == 10); /* the built-in default */
        rubric_free(&r);
    }
}
END_TEST

START_TEST(rubric_missing_file)
{
    rubric r;
    char err[512] = "";
    char path[600];
    snprintf(path, sizeof path, "%s/none.ini", labdir);
    ck_assert_int_eq(rubric_load(path, &r, err, sizeof err), -1);
    ck_assert(strstr(err, "none.ini: cannot open") != NULL);
    /* NULL err is allowed */
    ck_assert_int_eq(rubric_load(path, &r, NULL, 0), -1);
}
END_TEST

START_TEST(rubric_crlf_and_bom)
{
    const char *path = write_file("rubric.ini", "\xEF\xBB\xBF[rubric]\r\nlab = lab03-dot\r\n[test a]\r\npoints = 1\r\n"
                                                "case = n=1 type=float\r\n");
    rubric r;
    char err[512] = "";
    ck_assert_msg(rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.n_tests, 1);
    ck_assert_str_eq(r.tests[0].cases[0], "n=1 type=float");
    rubric_free(&r);
}
END_TEST

START_TEST(kit_rubrics_load)
{
    /* every lab of the kit: manifest and rubric valid, names agree */
    char path[4096];
    static const char *labs[] = {"lab03-dot"};
    for (size_t i = 0; i < sizeof labs / sizeof labs[0]; i++) {
        manifest m;
        rubric r;
        char err[512] = "";
        snprintf(path, sizeof path, "%s/labs/%s/kit/manifest.ini", kit_test_root(), labs[i]);
        if (access(path, R_OK) != 0)
            continue;
        ck_assert_msg(manifest_load(path, &m, err, sizeof err) == 0, "%s", err);
        ck_assert_str_eq(m.name, labs[i]);
        snprintf(path, sizeof path, "%s/labs/%s/kit/rubric.ini", kit_test_root(), labs[i]);
        ck_assert_msg(rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
        ck_assert_str_eq(r.lab, m.name);
        for (int j = 0; j < m.n_starter_fails; j++)
            ck_assert_msg(rubric_find(&r, m.starter_fails[j]), "starter_fails: no test '%s'", m.starter_fails[j]);
        for (int j = 0; j < m.n_starter_may_fail; j++)
            ck_assert_msg(rubric_find(&r, m.starter_may_fail[j]), "starter_may_fail: no test '%s'",
                          m.starter_may_fail[j]);
        rubric_free(&r);
    }
}
END_TEST

/* ---------- manifest ---------- */

START_TEST(good_manifest_loads)
{
    write_file("harness.cu", "");
    write_file("dataset.c", "");
    write_file("check.c", "");
    write_file("dot.h", "");
    const char *path = write_file("manifest.ini",
                                  "; lab03\n"
                                  "[lab]\n"
                                  "title = Dot product (shared-memory reduction)\n"
                                  "student_files = dot.cu  helper.cu   ; the ONLY files taken\n"
                                  "interface = dot.h\n"
                                  "require_kernel = no\n"
                                  "forbid_libraries = yes\n"
                                  "evidence = kernel-time            ; host-copy off\n"
                                  "host_copy_share = 0.5\n"
                                  "nvcc_flags =                      ; optional\n"
                                  "starter_fails = racecheck int-exact performance\n"
                                  "starter_may_fail = float-large\n");
    manifest m;
    char err[512] = "";
    ck_assert_msg(manifest_load(path, &m, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(m.id, "lab03");
    ck_assert_str_eq(m.name, "lab03-dot");
    ck_assert_str_eq(m.title, "Dot product (shared-memory reduction)");
    ck_assert_int_eq(m.n_student_files, 2);
    ck_assert_str_eq(m.student_files[0], "dot.cu");
    ck_assert_str_eq(m.student_files[1], "helper.cu");
    ck_assert_str_eq(m.interface, "dot.h");
    ck_assert_int_eq(m.require_kernel, 0);
    ck_assert_int_eq(m.forbid_libraries, 1);
    ck_assert_str_eq(m.evidence, "kernel-time");
    ck_assert(m.host_copy_share == 0.5);
    ck_assert_str_eq(m.nvcc_flags, "");
    ck_assert_int_eq(m.n_starter_fails, 3);
    ck_assert_str_eq(m.starter_fails[2], "performance");
    ck_assert_int_eq(m.n_starter_may_fail, 1);
    ck_assert_str_eq(m.starter_may_fail[0], "float-large");
    /* kit sources default to the folder's .c/.cu except check.c, sorted */
    ck_assert_int_eq(m.n_kit_sources, 2);
    ck_assert_str_eq(m.kit_sources[0], "dataset.c");
    ck_assert_str_eq(m.kit_sources[1], "harness.cu");
}
END_TEST

START_TEST(manifest_defaults)
{
    const char *path = write_file("manifest.ini", "[lab]\ntitle = T\nstudent_files = a.cu\ninterface = a.h\n"
                                                  "kit_sources = harness.cu\n");
    manifest m;
    char err[512] = "";
    ck_assert_msg(manifest_load(path, &m, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(m.require_kernel, 1);
    ck_assert_int_eq(m.forbid_libraries, 1);
    ck_assert_str_eq(m.evidence, "host-copy kernel-time");
    ck_assert(m.host_copy_share == 0.125);
    ck_assert_int_eq(m.n_starter_fails, 0);
    ck_assert_int_eq(m.n_kit_sources, 1);
    ck_assert_str_eq(m.kit_sources[0], "harness.cu");
}
END_TEST

#define MH "[lab]\ntitle = T\ninterface = a.h\n"
static const struct {
    const char *text;
    const char *expect;
} bad_manifests[] = {
    {MH "student_files = ../x.cu\n", "manifest.ini:4: 'student_files': bad file name '../x.cu'"},
    {MH "student_files = dir/x.cu\n", "manifest.ini:4: 'student_files': bad file name 'dir/x.cu'"},
    {MH "student_files = .hidden.cu\n", "manifest.ini:4: 'student_files': bad file name '.hidden.cu'"},
    {MH "student_files = ..\n", "manifest.ini:4: 'student_files': bad file name '..'"},
    {MH "student_files = a.cu a.cu\n", "manifest.ini:4: 'student_files': 'a.cu' is listed twice"},
    {MH "student_files =\n", "manifest.ini:4: [lab] has no 'student_files'"},
    {MH, "manifest.ini:1: [lab] has no 'student_files'"},
    {"[lab]\nstudent_files = a.cu\ninterface = a.h\n", "manifest.ini:1: [lab] has no 'title'"},
    {"[lab]\ntitle = T\nstudent_files = a.cu\n", "manifest.ini:1: [lab] has no 'interface'"},
    {MH "student_files = a.cu\nsolution = b.cu\n", "manifest.ini:5: unknown key 'solution' in [lab]"},
    {MH "student_files = a.cu\n[build]\n", "manifest.ini:5: unknown section [build]"},
    {MH "student_files = a.cu\nrequire_kernel = sometimes\n", "manifest.ini:5: 'require_kernel' must be yes or no"},
    {MH "student_files = a.cu\nevidence = host-copy kernel-speed\n",
     "manifest.ini:5: evidence 'kernel-speed' unknown (allowed: host-copy, kernel-time, none)"},
    {MH "student_files = a.cu\nhost_copy_share = 12%\n", "manifest.ini:5: 'host_copy_share' must be a number from 0 to 1: '12%'"},
    {MH "student_files = a.cu\nhost_copy_share = 1.5\n", "manifest.ini:5: 'host_copy_share' must be a number from 0 to 1"},
    {MH "student_files = a.cu\ntitle = U\n", "manifest.ini:5: 'title' given twice in [lab] (first at line 2)"},
    {MH "student_files = a.cu\nstarter_fails = ok bad!name\n", "manifest.ini:5: 'starter_fails': bad test name 'bad!name'"},
    {"[lab]\ntitle = T\ninterface = ../a.h\nstudent_files = a.cu\n", "manifest.ini:3: 'interface' must be a plain file name"},
    {"title = T\n", "manifest.ini:1: 'title' outside a section"},
    {"[lab]\n  [lab2]\ntitle = T\n",
     "manifest.ini:3: section headers must start at the beginning of the line ([lab2])"},
    {"[lab]\ntitle = "
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxx\n",
     "manifest.ini:2: 'title' is too long (at most 127 characters)"},
    {MH "student_files = a.cu\nevidence = "
        "host-copy host-copy host-copy host-copy host-copy host-copy host-copy host-copy host-copy host-copy "
        "host-copy host-copy host-copy\n",
     "manifest.ini:5: 'evidence' is too long (at most 127 characters)"},
    {MH "student_files = a.cu\nkit_sources = dataset.c sub/x.cu\n",
     "manifest.ini:5: 'kit_sources': bad file name 'sub/x.cu'"},
    {MH "student_files = a.cu\nstarter_may_fail = a a\n", "manifest.ini:5: 'starter_may_fail': 'a' is listed twice"},
    {MH "student_files = a.cu\nforbid_libraries = often\n", "manifest.ini:5: 'forbid_libraries' must be yes or no"},
    {"", "manifest.ini: no [lab] section"},
};

/* An empty evidence list is stored as "none"; nvcc_flags as given. */
START_TEST(manifest_evidence_none_and_flags)
{
    const char *path = write_file("manifest.ini", "[lab]\ntitle = T\nstudent_files = a.cu\ninterface = a.h\n"
                                                  "kit_sources = harness.cu\nevidence =\nnvcc_flags = -O3 -lineinfo\n"
                                                  "host_copy_share = 0\n");
    manifest m;
    char err[512] = "";
    ck_assert_msg(manifest_load(path, &m, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(m.evidence, "none");
    ck_assert_str_eq(m.nvcc_flags, "-O3 -lineinfo");
    ck_assert(m.host_copy_share == 0);
}
END_TEST

START_TEST(bad_manifest_rejected)
{
    const char *path = write_file("manifest.ini", bad_manifests[_i].text);
    manifest m;
    char err[512] = "";
    ck_assert_msg(manifest_load(path, &m, err, sizeof err) == -1, "case %d accepted", _i);
    ck_assert_msg(strstr(err, bad_manifests[_i].expect) != NULL, "case %d: expected '%s', got '%s'", _i,
                  bad_manifests[_i].expect, err);
}
END_TEST

/* A manifest at DIR/kit/manifest.ini (DIR under tmpdir, made here): manifest_load's status. */
static int load_in(const char *dir, const char *kit, manifest *m, char *err, size_t errlen)
{
    char path[800];
    snprintf(path, sizeof path, "%s/%s", tmpdir, dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/%s", tmpdir, dir, kit);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/%s/manifest.ini", tmpdir, dir, kit);
    FILE *f = fopen(path, "w");
    fputs("[lab]\ntitle = T\nstudent_files = a.cu\ninterface = a.h\n", f);
    fclose(f);
    return manifest_load(path, m, err, errlen);
}

START_TEST(manifest_folder_names)
{
    manifest m;
    char err[512] = "";
    /* a folder without an id part is its own id */
    ck_assert_msg(load_in("lab07", "kit", &m, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(m.id, "lab07");
    ck_assert_str_eq(m.name, "lab07");
    /* a relative path "manifest.ini" takes the name of the folder above the current one */
    char cwd[4096], dir[800];
    snprintf(dir, sizeof dir, "%s/lab07/kit", tmpdir);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(dir), 0);
    int rc = manifest_load("manifest.ini", &m, err, sizeof err);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_str_eq(m.name, "lab07");
    /* "-dot": no id */
    ck_assert_int_eq(load_in("-dot", "kit", &m, err, sizeof err), -1);
    /* a manifest outside a kit/ folder (the old layout, grader/labs/<lab>/) is refused, saying where it goes */
    ck_assert_int_eq(load_in("lab08-spmv", "grader", &m, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "manifest.ini: not in a lab's kit/ folder (a lab's manifest is labs/<lab>/kit/manifest.ini)"),
                  "%s", err);
}
END_TEST

static Suite *rubric_suite(void)
{
    Suite *s = suite_create("rubric");
    TCase *tc = tcase_create("rubric");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, good_rubric_loads);
    tcase_add_loop_test(tc, bad_rubric_rejected, 0, (int)(sizeof bad_rubrics / sizeof bad_rubrics[0]));
    tcase_add_test(tc, rubric_visibility_words_and_bounds);
    tcase_add_test(tc, rubric_missing_file);
    tcase_add_test(tc, rubric_crlf_and_bom);
    tcase_add_test(tc, kit_rubrics_load);
    suite_add_tcase(s, tc);
    tc = tcase_create("manifest");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, good_manifest_loads);
    tcase_add_test(tc, manifest_defaults);
    tcase_add_test(tc, manifest_evidence_none_and_flags);
    tcase_add_loop_test(tc, bad_manifest_rejected, 0, (int)(sizeof bad_manifests / sizeof bad_manifests[0]));
    tcase_add_test(tc, manifest_folder_names);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(rubric_suite)
