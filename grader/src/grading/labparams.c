/* labparams.c - case parameters checked by the lab's checker (see labparams.h). */
#include "grading/labparams.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/params.h"
#include "process/proc.h"

extern char **environ;

#define CHECK_TIMEOUT 60 /* seconds: the checker only parses */
#define MAX_LINES 500    /* --params per checker process */

/* Runs `check --validate --params L...`; bad[i] = 1 and why[i] for bad lines.
 * Returns the number of bad lines, or -1 (err says why). */
static int run_validate(const engine *e, const char *const *lines, int n, char **why, char *err, size_t errlen)
{
    char check[2048];
    snprintf(check, sizeof check, "%s/check", e->lab_build);
    const char **argv = calloc((size_t)(2 * n + 3), sizeof *argv);
    if (!argv) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int k = 0;
    argv[k++] = check;
    argv[k++] = "--validate";
    for (int i = 0; i < n; i++)
        argv[k++] = "--params", argv[k++] = lines[i];
    proc_opts o = {0};
    /* kit code, like the checker of a run (engine.c): the grader's own environment,
     * where LD_LIBRARY_PATH may be what finds cJSON on a machine with private packages */
    o.env = (const char *const *)environ;
    o.timeout_s = CHECK_TIMEOUT;
    o.out_cap = 1u << 20;
    proc_result r;
    proc_run(argv, &o, &r);
    free(argv);
    int bad = 0;
    if (!r.exited || (r.exit_code != 0 && r.exit_code != 1) || (r.exit_code == 1 && !r.out.len)) {
        strbuf d;
        sb_init(&d);
        proc_describe(&r, &d);
        snprintf(err, errlen, "the checker of %s (%s) %s; run 'make' in the kit's folder", e->man.name, check,
                 sb_str(&d));
        sb_free(&d);
        proc_result_free(&r);
        return -1;
    }
    char *save = NULL;
    for (char *line = strtok_r(r.out.s ? r.out.s : (char *)"", "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        int i = atoi(line);
        if (!tab || i < 0 || i >= n || why[i])
            continue;
        why[i] = strdup(tab + 1);
        bad++;
    }
    proc_result_free(&r);
    return bad;
}

int lab_params_check(const engine *e, const char *params, char *err, size_t errlen)
{
    char *why = NULL;
    int bad = run_validate(e, &params, 1, &why, err, errlen);
    if (bad > 0)
        snprintf(err, errlen, "bad parameters '%s' for %s: %s", params, e->man.name, why ? why : "?");
    free(why);
    return bad < 0 ? -1 : bad > 0 ? 1 : 0;
}

/* Where a bad "params + case" line went wrong: the line of the params or of
 * the case, whichever gave the parameter the lab's message names first
 * ("type must be one of ...", "unknown parameter 'm' ..."); the case's
 * line when the message names none of them. */
static int offending_line(const rubric_test *rt, int c, const char *why)
{
    int case_line = rt->case_lines ? rt->case_lines[c] : rt->line;
    kit_params pp, cp;
    char perr[200];
    if (!rt->params_line || kit_params_parse(rt->params, &pp, perr, sizeof perr) ||
        kit_params_parse(rt->cases[c], &cp, perr, sizeof perr))
        return case_line;
    const char *first = NULL;
    int line = case_line;
    for (int k = 0; k < pp.count + cp.count; k++) {
        const char *key = k < pp.count ? pp.items[k].key : cp.items[k - pp.count].key;
        size_t n = strlen(key);
        for (const char *at = strstr(why, key); at; at = strstr(at + 1, key)) {
            int starts = at == why || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
            int ends = !(isalnum((unsigned char)at[n]) || at[n] == '_');
            if (!starts || !ends)
                continue;
            if (!first || at < first) { /* a key the case gives is the case's, even if params has it too */
                first = at;
                line = kit_params_has(&cp, key) ? case_line : rt->params_line;
            }
            break;
        }
    }
    return line;
}

int lab_rubric_cases_check(const engine *e, char *err, size_t errlen)
{
    const rubric *rb = &e->rub;
    int n = 0;
    for (int t = 0; t < rb->n_tests; t++)
        n += rb->tests[t].n_cases;
    if (n == 0)
        return 0;
    if (n > MAX_LINES)
        n = MAX_LINES;
    char **lines = calloc((size_t)n, sizeof *lines), **why = calloc((size_t)n, sizeof *why);
    int *test_of = calloc((size_t)n, sizeof *test_of), k = 0, rc = 0;
    if (!lines || !why || !test_of) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto out;
    }
    for (int t = 0; t < rb->n_tests; t++)
        for (int c = 0; c < rb->tests[t].n_cases && k < n; c++, k++) {
            const rubric_test *rt = &rb->tests[t];
            size_t len = strlen(rt->params) + strlen(rt->cases[c]) + 2;
            lines[k] = malloc(len);
            if (lines[k]) /* the same line the engine gives the runner and the checker */
                snprintf(lines[k], len, "%s%s%s", rt->params, rt->params[0] ? " " : "", rt->cases[c]);
            test_of[k] = t;
        }
    int bad = run_validate(e, (const char *const *)lines, n, why, err, errlen);
    if (bad < 0) {
        rc = -1;
        goto out;
    }
    for (int i = 0; i < n && bad > 0; i++)
        if (why[i]) {
            const rubric_test *rt = &rb->tests[test_of[i]];
            char more[64] = "";
            if (bad > 1)
                snprintf(more, sizeof more, " (and %d more bad case%s)", bad - 1, bad > 2 ? "s" : "");
            int c = i;
            for (int t = 0; t < test_of[i]; t++)
                c -= rb->tests[t].n_cases;
            int line = offending_line(rt, c, why[i]);
            if (line == rt->params_line && line != (rt->case_lines ? rt->case_lines[c] : rt->line))
                snprintf(err, errlen, "%s:%d: [test %s] params '%s' (with case '%s'): %s%s", e->rubric_path, line,
                         rt->name, rt->params, rt->cases[c], why[i], more);
            else
                snprintf(err, errlen, "%s:%d: [test %s] case '%s': %s%s", e->rubric_path, line, rt->name, lines[i],
                         why[i], more);
            rc = -1;
            break;
        }
out:
    for (int i = 0; lines && i < n; i++)
        free(lines[i]);
    for (int i = 0; why && i < n; i++)
        free(why[i]);
    free(lines);
    free(why);
    free(test_of);
    return rc;
}
