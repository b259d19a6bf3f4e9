/* test_report.c - terminal report, results.json round trip, gradebook CSV,
 * atomic writes, and strbuf (sb_add_sanitized in particular). */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "output/report.h"

static char tmpdir[256];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kit-test-report-XXXXXX");
    ck_assert(mkdtemp(tmpdir) != NULL);
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    strbuf b;
    sb_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_addn(&b, chunk, n);
    fclose(f);
    if (len)
        *len = b.len;
    if (!b.s)
        sb_add(&b, "");
    return b.s;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* A typical result: build OK, one pass, one fail with details, one hidden skipped. */
static void sample(grade_result *g)
{
    grade_result_init(g);
    snprintf(g->student, sizeof g->student, "alice");
    snprintf(g->lab, sizeof g->lab, "lab03-dot");
    snprintf(g->source_hash, sizeof g->source_hash, "%s", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    snprintf(g->graded_at, sizeof g->graded_at, "2025-01-02T03:04:05Z");
    g->seed = 0x5eed0001ULL;
    g->build_ok = 1;
    g->build_seconds = 12.3;
    g->gpu_ran = 1;
    g->seconds = 20.5;
    sb_add(&g->notes, "no sandbox: bwrap is not installed\n");
    test_result *t = grade_result_add(g);
    snprintf(t->name, sizeof t->name, "float-small");
    snprintf(t->group, sizeof t->group, "correctness");
    snprintf(t->title, sizeof t->title, "float, small sizes");
    t->status = ST_PASS;
    t->score = 10;
    t->max_score = 10;
    t->seconds = 0.8;
    t = grade_result_add(g);
    snprintf(t->name, sizeof t->name, "float-large");
    snprintf(t->group, sizeof t->group, "correctness");
    t->status = ST_FAIL;
    t->score = 0;
    t->max_score = 10;
    t->seconds = 1.2;
    sb_add(&t->output, "n=1000001 type=float seed=0x5eed0001: 1 of 1 elements differ\nexpected 1.0, got 2.0\n");
    t = grade_result_add(g);
    snprintf(t->name, sizeof t->name, "racecheck");
    snprintf(t->group, sizeof t->group, "sanitizer");
    t->status = ST_ERROR;
    t->score = 0;
    t->max_score = 10;
    t->seconds = 4.1;
    t->vis = VIS_HIDDEN;
    sb_add(&t->output, "compute-sanitizer: Device not supported");
    grade_result_total(g);
}

static char *render(const grade_result *g, const report_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_terminal(f, g, o);
    fclose(f);
    return buf;
}

START_TEST(terminal_plain)
{
    grade_result g;
    sample(&g);
    report_opts o = {.color = 0, .student_mode = 1, .hidden_not_run = 2, .repro = "make lab03"};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "note: no sandbox: bwrap is not installed\n") == out, "%s", out);
    ck_assert_msg(strstr(out, "build .................................................. OK   (12.3s)\n"), "%s", out);
    ck_assert_msg(strstr(out, "float-small ............................................ OK   ( 0.8s)  10/10\n"), "%s",
                  out);
    ck_assert_msg(strstr(out, "float-large ............................................ FAIL ( 1.2s)   0/10\n"
                              "    n=1000001 type=float seed=0x5eed0001: 1 of 1 elements differ\n"
                              "    expected 1.0, got 2.0\n"
                              "racecheck "),
                  "%s", out);
    ck_assert_msg(strstr(out, "racecheck .............................................. ERROR ( 4.1s)   0/10\n"
                              "    compute-sanitizer: Device not supported\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "Score: 10/30  (estimated; hidden tests may differ: 2 hidden tests not run)\n"), "%s",
                  out);
    ck_assert_msg(strstr(out, "Reproduce a failure: make lab03 TEST=float-large SEED=0x5eed0001\n"), "%s", out);
    ck_assert(strchr(out, '\033') == NULL);
    free(out);
    o.repro = "kitgrade grade lab03 subs/alice --test";
    out = render(&g, &o);
    ck_assert_msg(strstr(out, "Reproduce a failure: kitgrade grade lab03 subs/alice --test float-large --seed 0x5eed0001\n"),
                  "%s", out);
    /* the passing test shows no details */
    ck_assert(strstr(out, "10/10\n    ") == NULL);
    free(out);

    /* every status word starts in the same column */
    o.student_mode = 0;
    out = render(&g, &o);
    for (char *line = out; *line; ) {
        char *nl = strchr(line, '\n');
        if (strncmp(line, "    ", 4) && strncmp(line, "note:", 5) && strncmp(line, "Score", 5) &&
            strncmp(line, "Reproduce", 9)) {
            ck_assert_msg(nl - line > 60, "%.*s", (int)(nl - line), line);
            ck_assert_msg(line[55] == '.' && line[56] == ' ' && line[57] != ' ', "%.*s", (int)(nl - line), line);
        }
        line = nl + 1;
    }
    ck_assert(strstr(out, "Score: 10/30\n"));
    free(out);
    grade_result_free(&g);
}
END_TEST

/* A passed performance test shows its numbers (students tune against them),
 * in the terminal and after a JSON round trip (a resumed batch's feedback). */
START_TEST(passed_test_shows_marked_output)
{
    grade_result g, r;
    sample(&g);
    test_result *t = &g.tests[0];
    sb_clear(&t->output);
    sb_add(&t->output, "speedup 2.31x: full points from 1.80x, none at or below 1.00x\n");
    report_opts o = {.color = 0, .student_mode = 1, .repro = "make lab03"};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "10/10\n    speedup") == NULL, "%s", out);
    free(out);
    t->show_output = 1;
    out = render(&g, &o);
    ck_assert_msg(strstr(out, "10/10\n    speedup 2.31x: full points from 1.80x"), "%s", out);
    free(out);
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.tests[0].show_output, 1);
    ck_assert_int_eq(r.tests[1].show_output, 0);
    grade_result_free(&r);
    grade_result_free(&g);
}
END_TEST

START_TEST(terminal_color)
{
    grade_result g;
    sample(&g);
    report_opts o = {.color = 1};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "float-small ............................................ \033[32mOK\033[0m   ( 0.8s)  10/10\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, " \033[31mFAIL\033[0m ( 1.2s)   0/10\n"), "%s", out);
    ck_assert_msg(strstr(out, " \033[33mERROR\033[0m ( 4.1s)"), "%s", out);
    ck_assert(strstr(out, "Score: 10/30"));
    free(out);
    grade_result_free(&g);
}
END_TEST

START_TEST(terminal_build_failed)
{
    grade_result g;
    grade_result_init(&g);
    g.build_ok = 0;
    g.build_seconds = 3.14;
    sb_add(&g.build_log, "dot.cu(12): error: identifier \"x\" is undefined\n1 error detected\n");
    test_result *t = grade_result_add(&g);
    snprintf(t->name, sizeof t->name, "float-small");
    t->status = ST_SKIP;
    t->max_score = 7.5;
    grade_result_total(&g);
    report_opts o = {0};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "build .................................................. FAIL ( 3.1s)\n"
                              "    dot.cu(12): error: identifier \"x\" is undefined\n"
                              "    1 error detected\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "SKIP ( 0.0s)    -/7.5\n"), "%s", out);
    ck_assert_msg(strstr(out, "Score: 0/7.5\n"), "%s", out);
    free(out);
    grade_result_free(&g);
}
END_TEST

static char *render_line(const test_result *t, const report_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_test_line(f, t, o);
    fclose(f);
    return buf;
}

START_TEST(test_line_without_points)
{
    test_result t;
    memset(&t, 0, sizeof t);
    sb_init(&t.output);
    snprintf(t.name, sizeof t.name, "build");
    t.status = ST_FAIL;
    t.seconds = 2;
    t.max_score = -1;
    sb_add(&t.output, "a.cu(1): error\n");
    report_opts o = {0};
    char *buf = render_line(&t, &o);
    ck_assert_str_eq(buf, "build .................................................. FAIL ( 2.0s)\n    a.cu(1): error\n");
    free(buf);
    sb_free(&t.output);
}
END_TEST

/* Built, but no GPU: the tests were skipped, so there is no score to
 * estimate ("Score: 0/80 (estimated)" read as a grade of zero). */
START_TEST(terminal_no_gpu_no_score)
{
    grade_result g;
    sample(&g);
    g.gpu_ran = 0;
    for (int i = 0; i < g.n_tests; i++) {
        g.tests[i].status = ST_SKIP;
        g.tests[i].score = 0;
    }
    grade_result_total(&g);
    report_opts o = {.color = 0, .student_mode = 1, .repro = "make lab03"};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "Score") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "estimated") == NULL, "%s", out);
    ck_assert_msg(strstr(out, "No score: none of the tests ran (no GPU)\n"), "%s", out);
    ck_assert_msg(strstr(out, "SKIP ( 0.8s)   -/10\n"), "%s", out);
    ck_assert_msg(strstr(out, "Reproduce") == NULL, "%s", out);
    free(out);
    grade_result_free(&g);
}
END_TEST

START_TEST(terminal_untrusted_output)
{
    grade_result g;
    sample(&g);
    sb_clear(&g.tests[1].output);
    sb_add(&g.tests[1].output, "\033[2Jcleared\r\nbad \xff byte");
    report_opts o = {0};
    char *out = render(&g, &o);
    ck_assert_msg(strstr(out, "    \\x1b[2Jcleared\n    bad \\xff byte\n"), "%s", out);
    free(out);
    grade_result_free(&g);
}
END_TEST

/* ---------- JSON ---------- */

static int valid_utf8_text(const char *s, size_t n)
{
    strbuf b;
    sb_init(&b);
    sb_add_sanitized(&b, s, n);
    int same = b.len == n && (n == 0 || memcmp(b.s, s, n) == 0);
    sb_free(&b);
    return same;
}

START_TEST(json_round_trip)
{
    grade_result g, r;
    sample(&g);
    /* odd characters everywhere */
    snprintf(g.student, sizeof g.student, "O'Brien, \"Pat\" \xc3\xa9\xe6\x95\xb0 \\ tab\there");
    sb_add(&g.build_log, "warning: \"quoted\"\nline2\t\\n literal\n\xe2\x9c\x93 ok\n");
    sb_clear(&g.tests[0].output);
    sb_add(&g.tests[0].output, "{\"json\": [1,2]}\n</script>\n\xf0\x9f\x98\x80");
    snprintf(g.tests[2].title, sizeof g.tests[2].title, "title with \"quotes\" and, commas");
    g.tests[0].score = 6.666666666666667;
    g.tests[0].seconds = 1e-9;
    g.tests[1].vis = VIS_AFTER_PUBLISHED;
    g.seed = 0xfedcba9876543210ULL;
    grade_result_total(&g);

    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(report_read_json(path, &r, err, sizeof err) == 0, "%s", err);

    ck_assert_str_eq(r.student, g.student);
    ck_assert_str_eq(r.lab, g.lab);
    ck_assert_str_eq(r.source_hash, g.source_hash);
    ck_assert_str_eq(r.graded_at, g.graded_at);
    ck_assert(r.seed == g.seed);
    ck_assert_int_eq(r.build_ok, 1);
    ck_assert(r.build_seconds == g.build_seconds);
    ck_assert_str_eq(sb_str(&r.build_log), sb_str(&g.build_log));
    ck_assert_str_eq(sb_str(&r.notes), sb_str(&g.notes));
    ck_assert_int_eq(r.gpu_ran, 1);
    ck_assert(r.score == g.score);
    ck_assert(r.max_score == g.max_score);
    ck_assert(r.seconds == g.seconds);
    ck_assert_int_eq(r.n_tests, g.n_tests);
    for (int i = 0; i < g.n_tests; i++) {
        ck_assert_str_eq(r.tests[i].name, g.tests[i].name);
        ck_assert_str_eq(r.tests[i].group, g.tests[i].group);
        ck_assert_str_eq(r.tests[i].title, g.tests[i].title);
        ck_assert_int_eq(r.tests[i].vis, g.tests[i].vis);
        ck_assert_int_eq(r.tests[i].status, g.tests[i].status);
        ck_assert(r.tests[i].score == g.tests[i].score);
        ck_assert(r.tests[i].max_score == g.tests[i].max_score);
        ck_assert(r.tests[i].seconds == g.tests[i].seconds);
        ck_assert_str_eq(sb_str(&r.tests[i].output), sb_str(&g.tests[i].output));
    }

    /* Gradescope's fields */
    size_t len;
    char *text = slurp(path, &len);
    ck_assert(valid_utf8_text(text, len));
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert(cJSON_GetObjectItem(root, "score")->valuedouble == g.score);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "visibility")->valuestring, "visible");
    ck_assert_str_eq(cJSON_GetObjectItem(root, "stdout_visibility")->valuestring, "hidden");
    ck_assert(cJSON_IsString(cJSON_GetObjectItem(root, "output")));
    cJSON *tests = cJSON_GetObjectItem(root, "tests");
    ck_assert_int_eq(cJSON_GetArraySize(tests), 3);
    cJSON *t1 = cJSON_GetArrayItem(tests, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "number")->valuestring, "2");
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "status")->valuestring, "failed");
    ck_assert_str_eq(cJSON_GetObjectItem(t1, "visibility")->valuestring, "after_published");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 0), "status")->valuestring, "passed");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 2), "visibility")->valuestring, "hidden");
    cJSON *x = cJSON_GetObjectItem(root, "extra_data");
    ck_assert_str_eq(cJSON_GetObjectItem(x, "seed")->valuestring, "0xfedcba9876543210");
    ck_assert(cJSON_GetObjectItem(x, "kit_version")->valuedouble == 1);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(x, "build_ok")));
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(t1, "extra_data"), "status")->valuestring, "FAIL");
    cJSON_Delete(root);
    free(text);
    ck_assert_int_eq(count_entries(tmpdir), 1);
    grade_result_free(&g);
    grade_result_free(&r);
}
END_TEST

START_TEST(json_invalid_utf8)
{
    grade_result g, r;
    sample(&g);
    snprintf(g.student, sizeof g.student, "bad\xff\xfename");
    sb_clear(&g.tests[1].output);
    /* invalid bytes, overlong '/', a surrogate, a truncated sequence, controls */
    static const char raw[] = "a\xc0\xaf b\xed\xa0\x80 c\x01\x7f d\0e \xe2\x82";
    sb_addn(&g.tests[1].output, raw, sizeof raw - 1);
    g.build_ok = 0;
    sb_add(&g.build_log, "\x80\x81 oops");
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    size_t len;
    char *text = slurp(path, &len);
    ck_assert_msg(valid_utf8_text(text, len), "%s", text);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    cJSON_Delete(root);
    free(text);
    ck_assert_msg(report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(r.student, "bad\\xff\\xfename");
    ck_assert_str_eq(sb_str(&r.tests[1].output), "a\\xc0\\xaf b\\xed\\xa0\\x80 c\\x01\\x7f d\\x00e \\xe2\\x82");
    ck_assert_str_eq(sb_str(&r.build_log), "\\x80\\x81 oops");
    ck_assert_int_eq(r.build_ok, 0);
    grade_result_free(&g);
    grade_result_free(&r);
}
END_TEST

START_TEST(json_read_errors)
{
    char path[512], err[256] = "";
    grade_result r;
    snprintf(path, sizeof path, "%s/missing.json", tmpdir);
    ck_assert_int_eq(report_read_json(path, &r, err, sizeof err), -1);
    ck_assert(strstr(err, "cannot open"));
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    ck_assert_int_eq(write_file_atomic(path, "{\"score\": 1,", 12, err, sizeof err), 0);
    ck_assert_int_eq(report_read_json(path, &r, err, sizeof err), -1);
    ck_assert(strstr(err, "not valid JSON"));
    ck_assert_int_eq(write_file_atomic(path, "{\"score\": 1, \"tests\": []}", 25, err, sizeof err), 0);
    ck_assert_int_eq(report_read_json(path, &r, err, sizeof err), -1);
    ck_assert(strstr(err, "not a results.json written by the kit"));
    grade_result_free(&r);
}
END_TEST

/* The top-level "output" Gradescope shows (notes, build, no GPU) and a hand-in's fields. */
START_TEST(json_output_text_and_hand_in)
{
    grade_result g, r;
    sample(&g);
    sb_clear(&g.notes);
    sb_add(&g.notes, "no sandbox"); /* no newline at its end */
    sb_add(&g.build_log, "dot.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n");
    g.gpu_ran = 0;
    snprintf(g.version, sizeof g.version, "3");
    snprintf(g.handed_in_at, sizeof g.handed_in_at, "2026-01-01T00:00:00Z");
    g.late_days = 2;
    g.late_penalty_pct = 20;
    g.score_before_late = 12.5;
    sb_add(&g.answers, "1. because\n");
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    char *text = slurp(path, NULL);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "output")->valuestring,
                     "no sandbox\nBuild OK (12.3s)\n"
                     "dot.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n"
                     "NOT GRADED: no GPU was available, so no test ran (only the build was checked); the score is "
                     "no grade.\n");
    /* the result's status, for whoever reads results.json (not a 0 that looks like a grade) */
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "extra_data"), "status")->valuestring,
                     "not graded (no GPU)");
    cJSON_Delete(root);
    free(text);
    ck_assert_msg(report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(r.version, "3");
    ck_assert_str_eq(r.handed_in_at, "2026-01-01T00:00:00Z");
    ck_assert_int_eq(r.late_days, 2);
    ck_assert(r.late_penalty_pct == 20);
    ck_assert(r.score_before_late == 12.5);
    ck_assert_str_eq(sb_str(&r.answers), "1. because\n");
    ck_assert_int_eq(r.gpu_ran, 0);
    grade_result_free(&r);

    /* a failed build: its log whole, after the words */
    g.build_ok = 0;
    sb_clear(&g.build_log);
    sb_add(&g.build_log, "dot.cu:3:1: error: oops\n");
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    text = slurp(path, NULL);
    root = cJSON_Parse(text);
    ck_assert_str_eq(cJSON_GetObjectItem(root, "output")->valuestring,
                     "no sandbox\nBuild FAILED (12.3s):\ndot.cu:3:1: error: oops\n");
    cJSON_Delete(root);
    free(text);
    grade_result_free(&g);
}
END_TEST

/* A results.json from elsewhere: entries that are not tests are passed over, a test without the kit's
 * extra_data takes Gradescope's status, and max_score defaults to the tests' sum. */
START_TEST(json_read_foreign_tests)
{
    char path[512], err[256] = "";
    grade_result r;
    snprintf(path, sizeof path, "%s/r.json", tmpdir);
    static const char not_array[] = "{\"tests\": {}, \"extra_data\": {\"kit_version\": 1}}";
    ck_assert_int_eq(write_file_atomic(path, not_array, sizeof not_array - 1, err, sizeof err), 0);
    ck_assert_int_eq(report_read_json(path, &r, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "r.json: 'tests' is not an array") != NULL, "%s", err);
    grade_result_free(&r);

    static const char foreign[] = "{\"score\": 3, \"extra_data\": {\"kit_version\": 1},\n"
                                  " \"tests\": [7, \"x\",\n"
                                  "  {\"name\": \"a\", \"score\": 3, \"max_score\": 4, \"status\": \"passed\"},\n"
                                  "  {\"name\": \"b\", \"score\": 0, \"max_score\": 6, \"status\": \"failed\",\n"
                                  "   \"visibility\": \"after_published\"}]}";
    ck_assert_int_eq(write_file_atomic(path, foreign, sizeof foreign - 1, err, sizeof err), 0);
    ck_assert_msg(report_read_json(path, &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.n_tests, 2);
    ck_assert_str_eq(r.tests[0].name, "a");
    ck_assert_int_eq(r.tests[0].status, ST_PASS);
    ck_assert_int_eq(r.tests[0].vis, VIS_VISIBLE);
    ck_assert_int_eq(r.tests[1].status, ST_FAIL);
    ck_assert_int_eq(r.tests[1].vis, VIS_AFTER_PUBLISHED);
    ck_assert(r.score == 3);
    ck_assert(r.max_score == 10);
    grade_result_free(&r);
}
END_TEST

/* ---------- CSV ---------- */

static void mini(grade_result *g, const char *student, double c1, double c2, double s1, int build_ok, int gpu)
{
    grade_result_init(g);
    snprintf(g->student, sizeof g->student, "%s", student);
    g->build_ok = build_ok;
    g->gpu_ran = gpu;
    static const char *names[] = {"a", "b", "race"}, *groups[] = {"correctness", "correctness", "sanitizer"};
    double sc[] = {c1, c2, s1};
    for (int i = 0; i < 3; i++) {
        test_result *t = grade_result_add(g);
        snprintf(t->name, sizeof t->name, "%s", names[i]);
        snprintf(t->group, sizeof t->group, "%s", groups[i]);
        t->score = sc[i];
        t->max_score = 10;
    }
    grade_result_total(g);
}

START_TEST(csv_gradebook)
{
    rubric r;
    memset(&r, 0, sizeof r);
    rubric_test tests[4];
    memset(tests, 0, sizeof tests);
    snprintf(tests[0].name, NAME_LEN, "a");
    snprintf(tests[0].group, NAME_LEN, "correctness");
    snprintf(tests[1].name, NAME_LEN, "race");
    snprintf(tests[1].group, NAME_LEN, "sanitizer");
    snprintf(tests[2].name, NAME_LEN, "b");
    snprintf(tests[2].group, NAME_LEN, "correctness");
    snprintf(tests[3].name, NAME_LEN, "perf");
    snprintf(tests[3].group, NAME_LEN, "performance");
    r.tests = tests;
    r.n_tests = 4;

    grade_result g[4];
    mini(&g[0], "zed", 10, 5, 2.5, 1, 1);
    mini(&g[1], "doe, jane", 10, 10, 10, 1, 0);
    mini(&g[2], "say \"hi\"", 0, 0, 0, 0, 0);
    mini(&g[3], "multi\nline", 1, 2, 3, 1, 1);
    grade_result *list[] = {&g[0], &g[1], &g[2], &g[3]};

    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/grades.csv", tmpdir);
    ck_assert_msg(report_write_csv(path, list, 4, &r, err, sizeof err) == 0, "%s", err);
    char *text = slurp(path, NULL);
    ck_assert_str_eq(text, "student,correctness,sanitizer,performance,total,max,status\n"
                           "\"doe, jane\",,,,,30,not graded (no GPU)\n" /* points that are no grade: empty */
                           "\"multi\nline\",3,3,0,6,30,ok\n"
                           "\"say \"\"hi\"\"\",0,0,0,0,30,build failed\n"
                           "zed,15,2.5,0,17.5,30,ok\n");
    free(text);
    ck_assert_int_eq(count_entries(tmpdir), 1);

    /* no rubric: groups from the results */
    ck_assert_int_eq(report_write_csv(path, list, 1, NULL, err, sizeof err), 0);
    text = slurp(path, NULL);
    ck_assert_str_eq(text, "student,correctness,sanitizer,total,max,status\nzed,15,2.5,17.5,30,ok\n");
    free(text);
    /* nobody */
    ck_assert_int_eq(report_write_csv(path, list, 0, &r, err, sizeof err), 0);
    text = slurp(path, NULL);
    ck_assert_str_eq(text, "student,correctness,sanitizer,performance,total,max,status\n");
    free(text);
    for (int i = 0; i < 4; i++)
        grade_result_free(&g[i]);
}
END_TEST

/* Results without a group take the rubric's; a name a spreadsheet would run as a formula gets a quote. */
START_TEST(csv_groups_from_rubric_and_formula_names)
{
    rubric r;
    memset(&r, 0, sizeof r);
    rubric_test tests[3];
    memset(tests, 0, sizeof tests);
    snprintf(tests[0].name, NAME_LEN, "a");
    snprintf(tests[0].group, NAME_LEN, "correctness");
    snprintf(tests[1].name, NAME_LEN, "b");
    snprintf(tests[1].group, NAME_LEN, "correctness");
    snprintf(tests[2].name, NAME_LEN, "race");
    tests[2].kind = KIND_SANITIZER; /* no group: the kind's name */
    r.tests = tests;
    r.n_tests = 3;
    grade_result g[4];
    mini(&g[0], "=HYPERLINK(\"x\")", 1, 2, 3, 1, 1);
    mini(&g[1], "+1", 1, 1, 1, 1, 1);
    mini(&g[2], "@me", 0, 0, 0, 1, 1);
    mini(&g[3], "-x", 0, 0, 0, 1, 1);
    for (int i = 0; i < 4; i++) {
        g[i].tests[0].group[0] = '\0'; /* from the rubric: correctness */
        g[i].tests[2].group[0] = '\0'; /* none there either: in the total, in no group's column */
    }
    grade_result *list[] = {&g[0], &g[1], &g[2], &g[3]};
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/grades.csv", tmpdir);
    ck_assert_msg(report_write_csv(path, list, 4, &r, err, sizeof err) == 0, "%s", err);
    char *text = slurp(path, NULL);
    ck_assert_str_eq(text, "student,correctness,sanitizer,total,max,status\n"
                           "'+1,2,0,3,30,ok\n"
                           "'-x,0,0,0,30,ok\n"
                           "\"'=HYPERLINK(\"\"x\"\")\",3,0,6,30,ok\n"
                           "'@me,0,0,0,30,ok\n");
    free(text);
    for (int i = 0; i < 4; i++)
        grade_result_free(&g[i]);
}
END_TEST

START_TEST(feedback_file)
{
    grade_result g;
    sample(&g);
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/feedback.txt", tmpdir);
    ck_assert_msg(report_write_feedback(&g, path, err, sizeof err) == 0, "%s", err);
    char *text = slurp(path, NULL);
    ck_assert(strstr(text, "float-large ............................................ FAIL ( 1.2s)   0/10\n"));
    ck_assert(strstr(text, "Score: 10/30\n"));
    ck_assert(strchr(text, '\033') == NULL);
    free(text);
    grade_result_free(&g);
}
END_TEST

/* Feedback files had no header, and a hidden test's details (its cases,
 * sizes, expected values) reached the student whatever the rubric said. */
START_TEST(feedback_header_and_hidden_details)
{
    grade_result g;
    sample(&g);
    snprintf(g.gpu, sizeof g.gpu, "NVIDIA H200");
    snprintf(g.kit_version, sizeof g.kit_version, "v1.2-3-gabcdef");
    test_result *t = &g.tests[2]; /* racecheck: hidden, ERROR with details */
    snprintf(t->title, sizeof t->title, "racecheck, other sizes");
    t->details_hidden = 1;
    sb_clear(&t->output);
    sb_add(&t->output, "case n=123457 type=float: secret sizes\n");
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/feedback.txt", tmpdir);
    ck_assert_msg(report_write_feedback(&g, path, err, sizeof err) == 0, "%s", err);
    char *text = slurp(path, NULL);
    ck_assert_msg(strstr(text, "student: alice\nlab:     lab03-dot\ndate:    2025-01-02T03:04:05Z\n"
                               "seed:    0x5eed0001\nGPU:     NVIDIA H200\nkit:     v1.2-3-gabcdef\n\n") == text,
                  "%s", text);
    ck_assert_msg(!strstr(text, "secret sizes"), "%s", text);
    ck_assert_msg(strstr(text, "racecheck .............................................. ERROR ( 4.1s)   0/10\n"
                               "    (a hidden test: racecheck, other sizes: its details are not shown)\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "expected 1.0, got 2.0"), "visible details stay: %s", text);
    free(text);
    /* the rubric allows them (show_details = yes): shown; and the flag survives results.json */
    t->details_hidden = 0;
    ck_assert_int_eq(report_write_feedback(&g, path, err, sizeof err), 0);
    text = slurp(path, NULL);
    ck_assert_msg(strstr(text, "secret sizes"), "%s", text);
    free(text);
    t->details_hidden = 1;
    snprintf(path, sizeof path, "%s/r.json", tmpdir);
    ck_assert_int_eq(report_write_json(&g, path, err, sizeof err), 0);
    grade_result back;
    ck_assert_int_eq(report_read_json(path, &back, err, sizeof err), 0);
    ck_assert_int_eq(back.tests[2].details_hidden, 1);
    ck_assert_int_eq(back.tests[1].details_hidden, 0);
    ck_assert_str_eq(back.gpu, "NVIDIA H200");
    ck_assert_str_eq(back.kit_version, "v1.2-3-gabcdef");
    /* read back, the kit has the whole text; Gradescope's "output" (what a student sees) has not */
    ck_assert(strstr(sb_str(&back.tests[2].output), "secret sizes"));
    size_t jlen = 0;
    char *json = slurp(path, &jlen);
    cJSON *root = cJSON_Parse(json);
    const cJSON *jt = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "tests"), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(jt, "output")->valuestring,
                     "(a hidden test: racecheck, other sizes: its details are not shown)\n");
    ck_assert(strstr(cJSON_GetObjectItem(cJSON_GetObjectItem(jt, "extra_data"), "details")->valuestring, "secret"));
    cJSON_Delete(root);
    free(json);
    grade_result_free(&back);
    grade_result_free(&g);
}
END_TEST

START_TEST(atomic_writes)
{
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/out.txt", tmpdir);
    for (int i = 0; i < 20; i++) {
        char data[64];
        int n = snprintf(data, sizeof data, "version %d\n", i);
        ck_assert_int_eq(write_file_atomic(path, data, (size_t)n, err, sizeof err), 0);
    }
    char *text = slurp(path, NULL);
    ck_assert_str_eq(text, "version 19\n");
    free(text);
    ck_assert_int_eq(count_entries(tmpdir), 1);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    /* empty file */
    ck_assert_int_eq(write_file_atomic(path, "", 0, err, sizeof err), 0);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    /* a folder that does not exist */
    char bad[600];
    snprintf(bad, sizeof bad, "%s/no/such/file", tmpdir);
    ck_assert_int_eq(write_file_atomic(bad, "x", 1, err, sizeof err), -1);
    ck_assert(strstr(err, "no/such/file"));
    /* the target is a folder: rename fails, the temp file is removed */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/adir", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    char inner[700];
    snprintf(inner, sizeof inner, "%s/x", dir);
    ck_assert_int_eq(write_file_atomic(inner, "x", 1, err, sizeof err), 0);
    ck_assert_int_eq(write_file_atomic(dir, "x", 1, err, sizeof err), -1);
    ck_assert_int_eq(count_entries(tmpdir), 2);
    /* relative path (current folder) */
    char cwd[4096];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmpdir), 0);
    int rc = write_file_atomic("rel.txt", "r", 1, err, sizeof err);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(count_entries(tmpdir), 3);
}
END_TEST

/* ---------- strbuf ---------- */

static char *san(const char *s, size_t n)
{
    static char out[512];
    strbuf b;
    sb_init(&b);
    sb_add_sanitized(&b, s, n);
    snprintf(out, sizeof out, "%s", sb_str(&b));
    sb_free(&b);
    return out;
}
#define SAN(lit) san(lit, sizeof lit - 1)

START_TEST(sanitize_cases)
{
    ck_assert_str_eq(SAN(""), "");
    ck_assert_str_eq(SAN("plain text, tabs\tand\nnewlines\n"), "plain text, tabs\tand\nnewlines\n");
    ck_assert_str_eq(SAN("crlf\r\nlone\rcr\r"), "crlf\nlone\\x0dcr\\x0d");
    ck_assert_str_eq(SAN("\033[31mred\033[0m"), "\\x1b[31mred\\x1b[0m");
    ck_assert_str_eq(SAN("nul\0byte"), "nul\\x00byte");
    ck_assert_str_eq(SAN("del\x7f"), "del\\x7f");
    /* valid UTF-8: 2, 3, 4 bytes, and the edges */
    ck_assert_str_eq(SAN("\xc3\xa9 \xe6\x95\xb0 \xf0\x9f\x98\x80"), "\xc3\xa9 \xe6\x95\xb0 \xf0\x9f\x98\x80");
    ck_assert_str_eq(SAN("\xc2\xa0\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"),
                     "\xc2\xa0\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
    /* overlongs */
    ck_assert_str_eq(SAN("\xc0\xaf"), "\\xc0\\xaf");
    ck_assert_str_eq(SAN("\xc1\xbf"), "\\xc1\\xbf");
    ck_assert_str_eq(SAN("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
    ck_assert_str_eq(SAN("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");
    /* surrogates, beyond U+10FFFF, bad lead bytes */
    ck_assert_str_eq(SAN("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    ck_assert_str_eq(SAN("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");
    ck_assert_str_eq(SAN("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
    ck_assert_str_eq(SAN("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
    ck_assert_str_eq(SAN("\xff\xfe"), "\\xff\\xfe");
    /* stray continuation, truncated sequences (also at the very end) */
    ck_assert_str_eq(SAN("a\x80z"), "a\\x80z");
    ck_assert_str_eq(SAN("\xe2\x82z"), "\\xe2\\x82z");
    ck_assert_str_eq(SAN("end\xe2\x82"), "end\\xe2\\x82");
    ck_assert_str_eq(SAN("end\xf0\x9f\x98"), "end\\xf0\\x9f\\x98");
    ck_assert_str_eq(SAN("\xc3"), "\\xc3");
    /* a valid sequence right after an invalid byte is kept */
    ck_assert_str_eq(SAN("\xe2\xc3\xa9"), "\\xe2\xc3\xa9");
    /* C1 controls (U+0080..U+009F) are escaped too */
    ck_assert_str_eq(SAN("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
    ck_assert_str_eq(SAN("back\\slash \\x41"), "back\\slash \\x41");
    /* only the first n bytes */
    strbuf b;
    sb_init(&b);
    sb_add_sanitized(&b, "abcdef", 3);
    ck_assert_str_eq(sb_str(&b), "abc");
    ck_assert_uint_eq(b.len, 3);
    sb_add_sanitized(&b, "\x01", 1);
    ck_assert_str_eq(sb_str(&b), "abc\\x01");
    ck_assert_uint_eq(b.len, 7);
    sb_free(&b);
}
END_TEST

START_TEST(strbuf_basics)
{
    strbuf b;
    sb_init(&b);
    ck_assert_str_eq(sb_str(&b), "");
    ck_assert_uint_eq(b.len, 0);
    sb_add(&b, NULL);
    sb_add(&b, "");
    ck_assert_str_eq(sb_str(&b), "");
    sb_add(&b, "hello");
    sb_addn(&b, ", world!!!", 7);
    ck_assert_str_eq(sb_str(&b), "hello, world");
    sb_printf(&b, " %d %s", 42, "x");
    ck_assert_str_eq(sb_str(&b), "hello, world 42 x");
    ck_assert_uint_eq(b.len, strlen(b.s));
    /* long printf (over the internal first try) */
    char big[5000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sb_clear(&b);
    ck_assert_str_eq(sb_str(&b), "");
    sb_printf(&b, "[%s]", big);
    ck_assert_uint_eq(b.len, sizeof big + 1);
    ck_assert_int_eq(b.s[0], '[');
    ck_assert_int_eq(b.s[b.len - 1], ']');
    ck_assert_int_eq(b.s[b.len], '\0');
    for (int i = 0; i < 10000; i++)
        sb_addn(&b, "z", 1);
    ck_assert_uint_eq(b.len, sizeof big + 1 + 10000);
    ck_assert_uint_eq(strlen(b.s), b.len);
    sb_free(&b);
    ck_assert_ptr_null(b.s);
    ck_assert_str_eq(sb_str(&b), "");
}
END_TEST

START_TEST(model_helpers)
{
    ck_assert_str_eq(test_kind_name(KIND_CORRECTNESS), "correctness");
    ck_assert_str_eq(test_kind_name(KIND_SANITIZER), "sanitizer");
    ck_assert_str_eq(test_kind_name(KIND_PERFORMANCE), "performance");
    ck_assert_str_eq(visibility_name(VIS_VISIBLE), "visible");
    ck_assert_str_eq(visibility_name(VIS_HIDDEN), "hidden");
    ck_assert_str_eq(visibility_name(VIS_AFTER_DUE_DATE), "after_due_date");
    ck_assert_str_eq(visibility_name(VIS_AFTER_PUBLISHED), "after_published");
    ck_assert_str_eq(test_status_name(ST_PASS), "PASS");
    ck_assert_str_eq(test_status_name(ST_FAIL), "FAIL");
    ck_assert_str_eq(test_status_name(ST_SKIP), "SKIP");
    ck_assert_str_eq(test_status_name(ST_ERROR), "ERROR");
    grade_result g;
    grade_result_init(&g);
    for (int i = 0; i < 50; i++) {
        test_result *t = grade_result_add(&g);
        ck_assert_int_eq(t->status, ST_SKIP);
        ck_assert_uint_eq(t->output.len, 0);
        t->score = i;
        t->max_score = 50;
        sb_printf(&t->output, "test %d", i);
    }
    grade_result_total(&g);
    ck_assert(g.score == 49 * 50 / 2);
    ck_assert(g.max_score == 2500);
    ck_assert_str_eq(sb_str(&g.tests[49].output), "test 49");
    grade_result_free(&g);
    ck_assert_int_eq(g.n_tests, 0);
    ck_assert_ptr_null(g.tests);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("terminal");
    tcase_add_test(tc, terminal_plain);
    tcase_add_test(tc, terminal_color);
    tcase_add_test(tc, terminal_build_failed);
    tcase_add_test(tc, terminal_untrusted_output);
    tcase_add_test(tc, terminal_no_gpu_no_score);
    tcase_add_test(tc, test_line_without_points);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, json_round_trip);
    tcase_add_test(tc, passed_test_shows_marked_output);
    tcase_add_test(tc, json_invalid_utf8);
    tcase_add_test(tc, json_read_errors);
    tcase_add_test(tc, json_output_text_and_hand_in);
    tcase_add_test(tc, json_read_foreign_tests);
    tcase_add_test(tc, csv_gradebook);
    tcase_add_test(tc, csv_groups_from_rubric_and_formula_names);
    tcase_add_test(tc, feedback_file);
    tcase_add_test(tc, feedback_header_and_hidden_details);
    tcase_add_test(tc, atomic_writes);
    suite_add_tcase(s, tc);
    tc = tcase_create("strbuf");
    tcase_add_test(tc, sanitize_cases);
    tcase_add_test(tc, strbuf_basics);
    tcase_add_test(tc, model_helpers);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(report_suite)
