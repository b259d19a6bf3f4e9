/* test_profiles.c - verdicts of the profile's GPU test (tests/run-profile).
 *
 * For each lab graded there with --profile (KIT_PROFILE_OUT/<lab>/grades/results/):
 *  - the reference solution ("solution"): its performance test has a
 *    profile (a header, its kernels, a line per check of the lab's
 *    profile.ini) that calls nothing uncoalesced and finds no bank
 *    conflicts, made in at most 10 s (the budget on an H100);
 *  - each submission of labs/<lab>/tests/ whose expect.ini has
 *    `profile` / `profile_absent` phrases: its profile says each of the
 *    first and none of the second;
 *  - every profile that could not run says so in exactly one line.
 * Where the GPU's counters are open to administrators only
 * (ERR_NVGPUCTRPERM: the driver's NVreg_RestrictProfilingToAdminUsers),
 * every profile must be that one line, and the rest is SKIPPED, loudly.
 * Prints one line per result: the profile's lines, its seconds.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "expect.h"
#include "model/model.h"
#include "output/report.h"

#define HEAD "profile (Nsight Compute; never graded)"
#define BUDGET_S 10.0

typedef struct {
    char lab[NAME_LEN];
    char who[256];
} graded;

static graded runs[64];
static int n_runs;

static const char *out_dir(void)
{
    const char *o = getenv("KIT_PROFILE_OUT");
    return o ? o : "build/profile-tests";
}

/* The profile's lines of the result's performance test (its header and the
 * lines indented under it), into b; the test into *perf. */
static void profile_text(const grade_result *g, strbuf *b, const test_result **perf)
{
    *perf = NULL;
    for (int i = 0; i < g->n_tests; i++) {
        const char *s = strstr(sb_str(&g->tests[i].output), HEAD);
        if (!s)
            continue;
        *perf = &g->tests[i];
        const char *end = s + strcspn(s, "\n");
        while (*end == '\n' && end[1] == ' ' && end[2] == ' ') /* its indented lines */
            end += 1 + strcspn(end + 1, "\n");
        sb_addn(b, s, (size_t)(end - s));
        return;
    }
}

static double figure(const test_result *t, const char *name)
{
    for (int i = 0; t && i < t->n_figures; i++)
        if (!strcmp(t->figures[i].name, name))
            return t->figures[i].value;
    return -1;
}

START_TEST(verdict)
{
    const graded *r = &runs[_i];
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s/grades/results/%s.json", out_dir(), r->lab, r->who);
    grade_result g;
    ck_assert_msg(report_read_json(path, &g, err, sizeof err) == 0, "%s/%s: no result: %s", r->lab, r->who, err);
    strbuf text;
    sb_init(&text);
    const test_result *perf;
    profile_text(&g, &text, &perf);
    const char *p = sb_str(&text);
    int lines = text.len ? 1 + kit_test_count(p, "\n") : 0;
    double seconds = figure(perf, "profile_seconds");
    printf("%-18s %-24s %4.1f s | %s\n", r->lab, r->who, seconds, text.len ? p : "(no profile)");
    fflush(stdout);
    ck_assert_msg(text.len, "%s/%s: no profile under its performance test", r->lab, r->who);
    int report = strstr(p, HEAD " of case") != NULL;
    ck_assert_msg(report || lines == 1, "%s/%s: a profile that did not run says so in one line, not %d:\n%s", r->lab,
                  r->who, lines, p);
    if (strstr(p, "ERR_NVGPUCTRPERM")) {
        ck_assert_msg(strstr(p, "NVreg_RestrictProfilingToAdminUsers=0"), "%s/%s: the permission line does not say "
                      "how an administrator opens the counters", r->lab, r->who);
        printf("SKIP: %s/%s: this GPU's counters are open to administrators only: nothing else can be checked here\n",
               r->lab, r->who);
        sb_free(&text);
        grade_result_free(&g);
        return;
    }
    if (!strcmp(r->who, "solution")) {
        ck_assert_msg(report, "%s/solution: the reference's profile did not run:\n%s", r->lab, p);
        ck_assert_msg(strstr(p, "\n  kernels: "), "%s/solution: no kernels named:\n%s", r->lab, p);
        ck_assert_msg(!strstr(p, "(uncoalesced)"), "%s/solution: the reference called uncoalesced:\n%s", r->lab, p);
        ck_assert_msg(!strstr(p, "-way bank conflicts"), "%s/solution: bank conflicts in the reference:\n%s", r->lab,
                      p);
        ck_assert_msg(seconds > 0 && seconds <= BUDGET_S, "%s/solution: the profile took %.1f s (at most %.0f s on an "
                      "H100)", r->lab, seconds, BUDGET_S);
        ck_assert_msg(perf->n_figures > 1, "%s/solution: no figures in results.json", r->lab);
    } else {
        expectation x;
        snprintf(path, sizeof path, "%s/labs/%s/tests/%s/expect.ini", kit_test_root(), r->lab, r->who);
        ck_assert_msg(expect_load(path, &x, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < x.n_profile; i++)
            ck_assert_msg(strstr(p, x.profile[i]), "%s/%s: its profile does not say \"%s\":\n%s", r->lab, r->who,
                          x.profile[i], p);
        for (int i = 0; i < x.n_profile_absent; i++)
            ck_assert_msg(!strstr(p, x.profile_absent[i]), "%s/%s: its profile says \"%s\":\n%s", r->lab, r->who,
                          x.profile_absent[i], p);
    }
    sb_free(&text);
    grade_result_free(&g);
}
END_TEST

static Suite *profiles_suite(void)
{
    DIR *d = opendir(out_dir());
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "lab", 3))
            continue;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s/submissions", out_dir(), e->d_name);
        DIR *s = opendir(dir);
        struct dirent *f;
        while (s && (f = readdir(s)) && n_runs < 64) {
            if (f->d_name[0] == '.')
                continue;
            if (fmt_into(runs[n_runs].lab, sizeof runs[0].lab, "%s", e->d_name) ||
                fmt_into(runs[n_runs].who, sizeof runs[0].who, "%s", f->d_name))
                continue;
            n_runs++;
        }
        if (s)
            closedir(s);
    }
    if (d)
        closedir(d);
    Suite *s = suite_create("gpu-profiles");
    TCase *tc = tcase_create("profiles");
    tcase_add_loop_test(tc, verdict, 0, n_runs);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(profiles_suite)
