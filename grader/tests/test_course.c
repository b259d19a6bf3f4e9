/* test_course.c - deadlines in the rubric, the late policy, picking a
 * student's version from the spool, answers.md, the results.json round trip
 * of the hand-in fields. */
#include <check.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_main.h"
#include "model/deadline.h"
#include "model/model.h"
#include "output/report.h"
#include "course/spool.h"
#include "util/fsutil.h"

static char tmp[256];

static void setup(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/kit-test-course-XXXXXX");
    ck_assert(mkdtemp(tmp) != NULL);
}

static void teardown(void) { rm_rf(tmp); }

static const char *put(const char *name, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(dates_parse)
{
    long long t;
    char err[300];
    ck_assert_int_eq(deadline_parse("2026-12-04 23:59 Z", &t, err, sizeof err), 0);
    ck_assert_int_eq(t, 1796428740LL);
    ck_assert_int_eq(deadline_parse("2026-12-04T23:59:00Z", &t, err, sizeof err), 0);
    ck_assert_int_eq(t, 1796428740LL);
    ck_assert_int_eq(deadline_parse("2026-12-05 00:59 +01:00", &t, err, sizeof err), 0);
    ck_assert_int_eq(t, 1796428740LL);
    ck_assert_int_eq(deadline_parse("2026-12-04 18:59:00 -05:00", &t, err, sizeof err), 0);
    ck_assert_int_eq(t, 1796428740LL);
    static const char *bad[] = {"2026-12-04 23:59", "2026-12-04", "tomorrow", "2026-02-30 10:00 Z",
                                "2026-13-01 10:00 Z", "2026-12-04 24:00 Z", "2026-12-04 23:59 CET", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(deadline_parse(bad[i], &t, err, sizeof err) == -1, "accepted '%s'", bad[i]);
        ck_assert_msg(strstr(err, "time zone") != NULL, "message for '%s': %s", bad[i], err);
    }
    char buf[32];
    deadline_format(1796428740LL, buf, sizeof buf);
    ck_assert_str_eq(buf, "2026-12-04T23:59:00Z");
}
END_TEST

START_TEST(late_policy_arithmetic)
{
    rubric r;
    memset(&r, 0, sizeof r);
    ck_assert_int_eq(deadline_late_days(&r, 2000000000LL), 0); /* no due date: never late */
    r.due = 1000000;
    r.late_penalty = 15;
    r.cutoff = r.due + 3 * 86400;
    ck_assert_int_eq(deadline_late_days(&r, r.due), 0);
    ck_assert_int_eq(deadline_late_days(&r, r.due + 1), 1);
    ck_assert_int_eq(deadline_late_days(&r, r.due + 86400), 1);
    ck_assert_int_eq(deadline_late_days(&r, r.due + 86401), 2);
    ck_assert(deadline_penalty_pct(&r, r.due + 2 * 86400) == 30);
    r.late_penalty = 60;
    ck_assert(deadline_penalty_pct(&r, r.due + 2 * 86400) == 100); /* never more than everything */
    ck_assert(!deadline_past_cutoff(&r, r.cutoff));
    ck_assert(deadline_past_cutoff(&r, r.cutoff + 1));
}
END_TEST

static const char rubric_head[] = "[rubric]\nlab = lab03-dot\n";
static const char one_test[] = "[test t]\npoints = 1\ncase = n=1\n";

START_TEST(rubric_deadline_keys)
{
    char text[1024], err[512];
    rubric r;
    snprintf(text, sizeof text, "%sdue = 2026-12-04 23:59 +01:00\nlate_penalty = 10\ncutoff = 2026-12-07 23:59 +01:00\n%s",
             rubric_head, one_test);
    ck_assert_msg(rubric_load(put("r.ini", text), &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.due, 1796428740LL - 3600);
    ck_assert_int_eq(r.cutoff, r.due + 3 * 86400);
    ck_assert(r.late_penalty == 10);
    rubric_free(&r);
    static const struct {
        const char *keys, *msg;
    } bad[] = {
        {"due = 2026-12-04 23:59\n", "r.ini:3: 'due': bad date '2026-12-04 23:59'"},
        {"late_penalty = 10\n", "r.ini:3: 'late_penalty' needs a 'due' date"},
        {"cutoff = 2026-12-04 23:59 Z\n", "r.ini:3: 'cutoff' needs a 'due' date"},
        {"due = 2026-12-04 23:59 Z\ncutoff = 2026-12-01 23:59 Z\n", "r.ini:4: 'cutoff' is before 'due' (line 3)"},
        {"due = 2026-12-04 23:59 Z\nlate_penalty = 150\n", "r.ini:4: 'late_penalty' must be a percentage"},
        {"due = 2026-12-04 23:59 Z\ndue = 2026-12-05 23:59 Z\n", "r.ini:4: 'due' given twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s%s", rubric_head, bad[i].keys, one_test);
        ck_assert_int_eq(rubric_load(put("r.ini", text), &r, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i].msg) != NULL, "case %zu: got '%s', want '%s'", i, err, bad[i].msg);
    }
}
END_TEST

/* A spool lab folder with one student and versions made now. */
static void make_version(const char *login, const char *version, const char *file_text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/lab03/%s/%s", tmp, login, version);
    ck_assert_int_eq(mkdirs(path, 0700), 0);
    snprintf(path, sizeof path, "lab03/%s/%s/dot.cu", login, version);
    put(path, file_text);
}

START_TEST(spool_picks_last_before_cutoff)
{
    char lab[512], err[256];
    snprintf(lab, sizeof lab, "%s/lab03", tmp);
    ck_assert_int_eq(mkdirs(lab, 0755), 0);
    ck_assert(!spool_is_lab_folder(lab));
    put("lab03/" SPOOL_MARKER, "lab03");
    ck_assert(spool_is_lab_folder(lab));
    struct passwd *me = getpwuid(getuid());
    ck_assert(me != NULL);
    char login[256];
    snprintf(login, sizeof login, "%s", me->pw_name);
    make_version(login, "20260101T000000Z", "v1");
    make_version(login, "20260101T000001Z", "v2");
    make_version("no-such-user-kc", "20260101T000000Z", "x");
    put("lab03/.tmp-half-written", "skipped");
    rubric r;
    memset(&r, 0, sizeof r);
    spool_pick *p = NULL;
    int n = spool_pick_versions(lab, &r, &p, err, sizeof err);
    ck_assert_int_eq(n, 2);
    int me_i = strcmp(p[0].login, login) ? 1 : 0;
    ck_assert_str_eq(p[me_i].login, login);
    ck_assert_int_eq(p[me_i].n_versions, 2);
    ck_assert_str_eq(p[me_i].version, "20260101T000001Z"); /* same second: the later name */
    ck_assert(p[me_i].dir[0]);
    ck_assert(p[1 - me_i].dir[0]); /* no account: graded (ownership cannot be checked) */
    /* a cut-off before everything: nothing to grade, and why */
    r.due = 1000;
    r.cutoff = 2000;
    free(p);
    n = spool_pick_versions(lab, &r, &p, err, sizeof err);
    ck_assert_int_eq(p[me_i].dir[0], 0);
    ck_assert_int_eq(p[me_i].n_after_cutoff, 2);
    ck_assert_msg(strstr(p[me_i].why, "all 2 hand-ins came after the cut-off") != NULL, "%s", p[me_i].why);
    free(p);
    /* someone else's folder under my login: not graded */
    if (getuid() == 0) {
        char mine[1024];
        snprintf(mine, sizeof mine, "%s/%s", lab, login);
        ck_assert_int_eq(chown(mine, 12345, 12345), 0);
        r.cutoff = 0;
        n = spool_pick_versions(lab, &r, &p, err, sizeof err);
        ck_assert_int_eq(p[me_i].dir[0], 0);
        ck_assert_msg(strstr(p[me_i].why, "belongs to uid 12345") != NULL, "%s", p[me_i].why);
        free(p);
    }
}
END_TEST

START_TEST(late_policy_applied_and_kept)
{
    rubric r;
    memset(&r, 0, sizeof r);
    r.due = 1000000;
    r.late_penalty = 10;
    spool_pick p;
    memset(&p, 0, sizeof p);
    snprintf(p.version, sizeof p.version, "20260101T000000Z");
    p.t = r.due + 86400 + 5; /* 2 days started */
    p.n_versions = 3;
    p.n_after_cutoff = 1;
    grade_result g;
    grade_result_init(&g);
    snprintf(g.student, sizeof g.student, "alice");
    test_result *t = grade_result_add(&g);
    snprintf(t->name, sizeof t->name, "a");
    t->score = 80, t->max_score = 100, t->status = ST_FAIL;
    grade_result_total(&g);
    g.build_ok = 1;
    spool_apply_late_policy(&p, &r, &g);
    ck_assert(g.score == 64);
    ck_assert(g.score_before_late == 80);
    ck_assert_int_eq(g.late_days, 2);
    ck_assert_msg(strstr(sb_str(&g.notes), "late: 2 days started after the due date") != NULL, "%s", sb_str(&g.notes));
    ck_assert_msg(strstr(sb_str(&g.notes), "1 later hand-in came after the cut-off") != NULL, "%s", sb_str(&g.notes));
    /* answers.md: read, sanitized; a symlink is not followed */
    ck_assert_int_eq(mkdirs(tmp, 0755), 0);
    put("answers.md", "## Question 1\nbecause \033[31m");
    spool_read_answers(tmp, &g);
    ck_assert_msg(strstr(sb_str(&g.answers), "because") && !strchr(sb_str(&g.answers), '\033'), "%s", sb_str(&g.answers));
    /* the round trip through results.json */
    char path[600], err[256];
    snprintf(path, sizeof path, "%s/r.json", tmp);
    ck_assert_int_eq(report_write_json(&g, path, err, sizeof err), 0);
    grade_result back;
    ck_assert_int_eq(report_read_json(path, &back, err, sizeof err), 0);
    ck_assert_str_eq(back.version, "20260101T000000Z");
    ck_assert_int_eq(back.late_days, 2);
    ck_assert(back.late_penalty_pct == 20 && back.score == 64 && back.score_before_late == 80);
    ck_assert_str_eq(sb_str(&back.answers), sb_str(&g.answers));
    grade_result_free(&back);
    snprintf(path, sizeof path, "%s/f.txt", tmp);
    ck_assert_int_eq(report_write_feedback(&g, path, err, sizeof err), 0);
    size_t len;
    char *fb = NULL;
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    fb = calloc(1, 65536);
    len = fread(fb, 1, 65535, f);
    fclose(f);
    ck_assert(len > 0);
    ck_assert_msg(strstr(fb, "Graded hand-in: version 20260101T000000Z") && strstr(fb, "---- answers.md"), "%s", fb);
    free(fb);
    /* a link named answers.md is not followed */
    char link_dir[600], link[700];
    snprintf(link_dir, sizeof link_dir, "%s/linked", tmp);
    ck_assert_int_eq(mkdir(link_dir, 0755), 0);
    snprintf(link, sizeof link, "%s/answers.md", link_dir);
    ck_assert_int_eq(symlink(put("target.md", "SECRET-OF-ANOTHER"), link), 0);
    sb_clear(&g.answers);
    spool_read_answers(link_dir, &g);
    ck_assert_int_eq((int)g.answers.len, 0);
    grade_result_free(&g);
}
END_TEST

static Suite *course_suite(void)
{
    Suite *s = suite_create("course");
    TCase *tc = tcase_create("deadlines");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, dates_parse);
    tcase_add_test(tc, late_policy_arithmetic);
    tcase_add_test(tc, rubric_deadline_keys);
    tcase_add_test(tc, spool_picks_last_before_cutoff);
    tcase_add_test(tc, late_policy_applied_and_kept);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(course_suite)
