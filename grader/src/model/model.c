/* model.c - small helpers of the grader's data model (see model.h). */
#include "model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *test_kind_name(test_kind k)
{
    switch (k) {
    case KIND_CORRECTNESS: return "correctness";
    case KIND_SANITIZER: return "sanitizer";
    case KIND_PERFORMANCE: return "performance";
    }
    return "unknown";
}

const char *visibility_name(visibility v)
{
    switch (v) {
    case VIS_VISIBLE: return "visible";
    case VIS_HIDDEN: return "hidden";
    case VIS_AFTER_DUE_DATE: return "after_due_date";
    case VIS_AFTER_PUBLISHED: return "after_published";
    }
    return "visible";
}

const char *test_status_name(test_status s)
{
    switch (s) {
    case ST_PASS: return "PASS";
    case ST_FAIL: return "FAIL";
    case ST_SKIP: return "SKIP";
    case ST_ERROR: return "ERROR";
    }
    return "ERROR";
}

const rubric_test *rubric_find(const rubric *r, const char *name)
{
    if (!r || !name)
        return NULL;
    for (int i = 0; i < r->n_tests; i++)
        if (strcmp(r->tests[i].name, name) == 0)
            return &r->tests[i];
    return NULL;
}

double rubric_max_points(const rubric *r, int visible_only)
{
    double sum = 0;
    if (!r)
        return 0;
    for (int i = 0; i < r->n_tests; i++)
        if (!visible_only || r->tests[i].vis == VIS_VISIBLE)
            sum += r->tests[i].points;
    return sum;
}

void grade_result_init(grade_result *g)
{
    memset(g, 0, sizeof *g);
    sb_init(&g->build_log);
    sb_init(&g->notes);
    sb_init(&g->answers);
    g->tests = NULL;
}

void grade_result_free(grade_result *g)
{
    for (int i = 0; i < g->n_tests; i++)
        sb_free(&g->tests[i].output);
    free(g->tests);
    sb_free(&g->build_log);
    sb_free(&g->notes);
    sb_free(&g->answers);
    grade_result_init(g);
}

/* The returned pointer is valid until the next grade_result_add. */
test_result *grade_result_add(grade_result *g)
{
    test_result *t = realloc(g->tests, (size_t)(g->n_tests + 1) * sizeof *t);
    if (!t) {
        fputs("kitgrade: out of memory\n", stderr);
        abort();
    }
    g->tests = t;
    t = &g->tests[g->n_tests++];
    memset(t, 0, sizeof *t);
    sb_init(&t->output);
    t->status = ST_SKIP;
    return t;
}

void grade_result_total(grade_result *g)
{
    double s = 0, m = 0;
    for (int i = 0; i < g->n_tests; i++) {
        s += g->tests[i].score;
        m += g->tests[i].max_score;
    }
    g->score = s;
    g->max_score = m;
}

const char *grade_result_status(const grade_result *g)
{
    if (strstr(sb_str(&g->notes), "not graded: "))
        return "not graded";
    if (!g->build_ok)
        return g->handin_bad ? "hand-in problem" : "build failed";
    return g->gpu_ran ? "ok" : "not graded (no GPU)";
}

int grade_result_graded(const grade_result *g) { return strncmp(grade_result_status(g), "not graded", 10) != 0; }
