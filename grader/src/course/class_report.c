/* class_report.c - OUT/report.html (see class_report.h). */
#include "course/class_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/fsutil.h"
#include "model/deadline.h"
#include "output/report.h"
#include "course/similarity.h"
#include "kit/util.h"

#define TOP_FAILURES 12

/* ---- text ---- */

static void escn(strbuf *b, const char *s, size_t n)
{
    strbuf clean;
    sb_init(&clean);
    sb_add_sanitized(&clean, s ? s : "", s ? n : 0);
    for (const char *p = sb_str(&clean); *p; p++)
        switch (*p) {
        case '&': sb_add(b, "&amp;"); break;
        case '<': sb_add(b, "&lt;"); break;
        case '>': sb_add(b, "&gt;"); break;
        case '"': sb_add(b, "&quot;"); break;
        case '\'': sb_add(b, "&#39;"); break;
        default: sb_addn(b, p, 1);
        }
    sb_free(&clean);
}

static void esc(strbuf *b, const char *s) { escn(b, s, s ? strlen(s) : 0); }

/* The first line of text, at most `max` bytes. */
static void first_line(const char *text, char *out, size_t max)
{
    while (*text == '\n' || *text == ' ')
        text++;
    size_t n = strcspn(text, "\n");
    snprintf(out, max, "%.*s", (int)n, text);
}

/* The start of the line of text holding needle ("" when none). */
static const char *line_with(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p)
        return "";
    while (p > text && p[-1] != '\n')
        p--;
    return p;
}

/* Seeds, sizes and values differ between students: "#" for every number,
 * so that the same mistake groups together. */
static void normalize(const char *in, char *out, size_t max)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 2 < max;) {
        if ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')) {
            out[k++] = '#';
            p++;
            while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'x' || *p == 'e' || *p == '+' ||
                   (*p >= 'a' && *p <= 'f'))
                p++;
        } else
            out[k++] = *p++;
    }
    out[k] = 0;
}

/* ---- plots: inline SVG ---- */

/* Vertical bars (counts per bin). */
static void svg_bars(strbuf *b, const char *id, const char *caption, char labels[][32], const double *v, int n)
{
    double vmax = 1;
    for (int i = 0; i < n; i++)
        vmax = v[i] > vmax ? v[i] : vmax;
    int w = 60 + n * 48, h = 240, base = 200, top = 20;
    sb_printf(b, "<figure><svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
                 "aria-label=\"", id, w, h);
    esc(b, caption);
    sb_add(b, "\">\n");
    sb_printf(b, "<line x1=\"40\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", base, w - 10, base);
    for (int i = 0; i < n; i++) {
        double bh = (base - top) * v[i] / vmax;
        int x = 48 + i * 48;
        sb_printf(b, "<rect class=\"bar\" data-label=\"%s\" data-value=\"%g\" x=\"%d\" y=\"%.1f\" width=\"36\" "
                     "height=\"%.1f\" fill=\"#4a7ab5\"/>\n", labels[i], v[i], x, base - bh, bh);
        sb_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%g</text>\n", x + 18,
                  base - bh - 4, v[i]);
        sb_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x + 18, base + 16,
                  labels[i]);
    }
    sb_add(b, "</svg><figcaption>");
    esc(b, caption);
    sb_add(b, "</figcaption></figure>\n");
}

/* Horizontal bars, 0..100 %. */
static void svg_rates(strbuf *b, const char *id, const char *caption, char (*labels)[NAME_LEN], const double *pct, int n)
{
    int h = 30 + n * 24, w = 620;
    sb_printf(b, "<figure><svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
                 "aria-label=\"", id, w, h);
    esc(b, caption);
    sb_add(b, "\">\n");
    for (int i = 0; i < n; i++) {
        int y = 10 + i * 24;
        double bw = 360 * pct[i] / 100;
        sb_add(b, "<text x=\"150\" font-size=\"12\" text-anchor=\"end\" ");
        sb_printf(b, "y=\"%d\">", y + 14);
        esc(b, labels[i]);
        sb_add(b, "</text>\n<rect class=\"rate\" data-test=\"");
        esc(b, labels[i]);
        sb_printf(b, "\" data-value=\"%.0f\" x=\"160\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>\n", pct[i],
                  y, bw, pct[i] >= 80 ? "#4a9a5b" : pct[i] >= 50 ? "#c9a23a" : "#c0504d");
        sb_printf(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%.0f%%</text>\n", 166 + bw, y + 14, pct[i]);
    }
    sb_add(b, "</svg><figcaption>");
    esc(b, caption);
    sb_add(b, "</figcaption></figure>\n");
}

/* ---- data ---- */

typedef struct {
    grade_result g;
    int ok;          /* its results.json was read */
    double speedup;  /* performance tests' geometric-mean speedup, -1: none */
    const class_member *m;
} row;

static double speedup_of(const grade_result *g)
{
    for (int i = 0; i < g->n_tests; i++) {
        const char *o = sb_str(&g->tests[i].output);
        for (const char *l = o; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            double s;
            if (sscanf(l, "speedup %lfx: full points", &s) == 1)
                return s;
        }
    }
    return -1;
}

typedef struct {
    char test[NAME_LEN];
    char key[200], example[200];
    strbuf who;
    int count;
} failure;

static int cmp_failure(const void *x, const void *y) { return ((const failure *)y)->count - ((const failure *)x)->count; }

static void add_failure(failure **fs, int *nf, const char *test, const char *msg, const char *who)
{
    char key[200];
    normalize(msg, key, sizeof key);
    for (int i = 0; i < *nf; i++)
        if (!strcmp((*fs)[i].test, test) && !strcmp((*fs)[i].key, key)) {
            (*fs)[i].count++;
            sb_add(&(*fs)[i].who, ", ");
            esc(&(*fs)[i].who, who);
            return;
        }
    failure *n = realloc(*fs, (size_t)(*nf + 1) * sizeof *n);
    if (!n)
        return;
    *fs = n;
    failure *f = &n[(*nf)++];
    memset(f, 0, sizeof *f);
    snprintf(f->test, sizeof f->test, "%s", test);
    snprintf(f->key, sizeof f->key, "%s", key);
    snprintf(f->example, sizeof f->example, "%s", msg);
    sb_init(&f->who);
    esc(&f->who, who);
    f->count = 1;
}

/* Lines a..b of a file (1-based), escaped. */
static void passage(strbuf *b, const char *path, int from, int to)
{
    size_t len;
    char *text = kit_read_file(path, 1u << 20, &len);
    int line = 1;
    const char *p = text, *end = text ? text + len : NULL;
    while (p && p < end && line <= to) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (line >= from) {
            sb_printf(b, "%4d  ", line);
            escn(b, p, n);
            sb_add(b, "\n");
        }
        p += n + 1;
        line++;
    }
    free(text);
}

static const char css[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;"
    "vertical-align:top}th{background:#eee}pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}"
    ".side{display:grid;grid-template-columns:1fr 1fr;gap:.5em}figure{margin:.5em 0}"
    "figcaption{font-size:12px;color:#555}.late{color:#a33}.num{text-align:right}"
    ".banner{background:#fde8e8;border:2px solid #c0504d;padding:.5em}";

/* What the report is made of: every student's result as read back from
 * disk, and the class in numbers (read_rows). */
typedef struct {
    const engine *e;
    const class_member *m;
    row *rows;
    int n;
    double sim_threshold;
    int read, graded, not_graded_no_gpu;   /* results read; their scores are grades; built without a GPU */
    int builds_failed, late, full;         /* builds that failed; late; full marks */
    double sum, maxs, median;              /* of the grades; the largest maximum */
} class_data;

/* Reads every result into d->rows and counts the class; -1: out of memory. */
static int read_rows(class_data *d)
{
    const class_member *m = d->m;
    row *rows = d->rows;
    double *scores = calloc((size_t)d->n + 1, sizeof *scores);
    if (!scores)
        return -1;
    for (int i = 0; i < d->n; i++) {
        char rerr[256];
        rows[i].m = &m[i];
        rows[i].ok = report_read_json(m[i].result, &rows[i].g, rerr, sizeof rerr) == 0;
        rows[i].speedup = -1;
        if (!rows[i].ok)
            continue;
        grade_result *g = &rows[i].g;
        d->read++;
        d->maxs = g->max_score > d->maxs ? g->max_score : d->maxs;
        d->late += g->late_days > 0;
        d->not_graded_no_gpu += !strcmp(grade_result_status(g), "not graded (no GPU)");
        if (!grade_result_graded(g)) /* its points are no grade: out of every number below */
            continue;
        scores[d->graded++] = g->score;
        d->sum += g->score;
        d->builds_failed += !g->build_ok && g->n_tests;
        d->full += g->max_score > 0 && g->score >= g->max_score;
        rows[i].speedup = speedup_of(g);
    }
    d->median = d->graded ? kit_median(scores, (size_t)d->graded) : 0;
    free(scores);
    return 0;
}

/* The page's head: the lab, when, the deadline policy. */
static void section_head(strbuf *b, const class_data *d)
{
    const engine *e = d->e;
    char when[32], policy[300];
    deadline_format((long long)time(NULL), when, sizeof when);
    deadline_describe(&e->rub, policy, sizeof policy);
    sb_add(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Class report: ");
    esc(b, e->man.name);
    sb_printf(b, "</title><style>%s</style></head><body>\n<h1>Class report: ", css);
    esc(b, e->man.name);
    sb_add(b, "</h1>\n<p>Written ");
    sb_printf(b, "%s by kitgrade. ", when);
    if (policy[0]) {
        sb_add(b, "Deadline: ");
        esc(b, policy);
        sb_add(b, ".");
    }
    sb_add(b, "</p>\n");
    if (d->not_graded_no_gpu) /* build-only results: said before any number */
        sb_printf(b, "<p id=\"not-graded\" class=\"banner\"><b>Not graded: %d of %d results were built without a "
                     "GPU and no test ran</b> (--allow-no-gpu).  Their points are no grade: they are left out of "
                     "every number below and out of lms.csv.  Grade them again on a GPU node.</p>\n",
                  d->not_graded_no_gpu, d->read);
}

/* The class in six numbers. */
static void section_summary(strbuf *b, const class_data *d)
{
    char mean[64] = "none graded", median[32] = "-";
    if (d->graded) {
        snprintf(mean, sizeof mean, "%.2f / %g", d->sum / d->graded, d->maxs);
        snprintf(median, sizeof median, "%.2f", d->median);
    }
    sb_printf(b, "<section id=\"summary\"><h2>Summary</h2><table>"
                  "<tr><th>students</th><td id=\"n-students\" class=\"num\">%d</td></tr>"
                  "<tr><th>graded</th><td id=\"n-graded\" class=\"num\">%d</td></tr>"
                  "<tr><th>mean score</th><td id=\"mean\" class=\"num\">%s</td></tr>"
                  "<tr><th>median score</th><td id=\"median\" class=\"num\">%s</td></tr>"
                  "<tr><th>full marks</th><td id=\"n-full\" class=\"num\">%d</td></tr>"
                  "<tr><th>build failures</th><td id=\"n-build-failed\" class=\"num\">%d</td></tr>"
                  "<tr><th>late hand-ins</th><td id=\"n-late\" class=\"num\">%d</td></tr></table></section>\n",
              d->read, d->graded, mean, median, d->full, d->builds_failed, d->late);
}

/* Students per tenth of the maximum score. */
static void section_scores(strbuf *b, const class_data *d)
{
    const row *rows = d->rows;
    int n = d->n;
    char labels[12][32];
    double v[12] = {0};
    for (int k = 0; k < 10; k++)
        snprintf(labels[k], sizeof labels[k], "%d-%d%%", k * 10, k * 10 + 10);
    for (int i = 0; i < n; i++)
        if (rows[i].ok && rows[i].g.max_score > 0 && grade_result_graded(&rows[i].g)) {
            int k = (int)floor(10 * rows[i].g.score / rows[i].g.max_score);
            v[k < 0 ? 0 : k > 9 ? 9 : k]++;
        }
    sb_add(b, "<section id=\"scores\"><h2>Score distribution</h2>\n");
    svg_bars(b, "score-histogram", "students per score band (percent of the maximum)", labels, v, 10);
    sb_add(b, "</section>\n");
}

/* The share of students passing each test. */
static void section_tests(strbuf *b, const class_data *d)
{
    const engine *e = d->e;
    const row *rows = d->rows;
    int n = d->n;
    int nt = e->rub.n_tests;
    char (*tnames)[NAME_LEN] = calloc((size_t)nt + 1, sizeof *tnames);
    double *rate = calloc((size_t)nt + 1, sizeof *rate);
    sb_add(b, "<section id=\"tests\"><h2>Pass rate per test</h2>\n");
    for (int t = 0; tnames && rate && t < nt; t++) {
        int ran = 0, pass = 0;
        snprintf(tnames[t], NAME_LEN, "%s", e->rub.tests[t].name);
        for (int i = 0; i < n; i++)
            for (int j = 0; rows[i].ok && grade_result_graded(&rows[i].g) && j < rows[i].g.n_tests; j++)
                if (!strcmp(rows[i].g.tests[j].name, tnames[t])) {
                    ran++;
                    pass += rows[i].g.tests[j].status == ST_PASS;
                }
        rate[t] = ran ? 100.0 * pass / ran : 0;
    }
    if (!d->graded)
        sb_add(b, "<p id=\"no-pass-rates\">No result is graded: no test ran.</p>\n");
    else if (tnames && rate)
        svg_rates(b, "pass-rates", "percentage of students passing each test (a test that was not run counts as not "
                                    "passed)", tnames, rate, nt);
    free(tnames);
    free(rate);
    sb_add(b, "</section>\n");
}

/* Students per band of speedup against the baseline. */
static void section_speedups(strbuf *b, const class_data *d)
{
    const row *rows = d->rows;
    int n = d->n;
    sb_add(b, "<section id=\"speedups\"><h2>Speedup against the baseline</h2>\n");
    int ns = 0;
    double smax = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].speedup > 0) {
            ns++;
            smax = rows[i].speedup > smax ? rows[i].speedup : smax;
        }
    if (!ns)
        sb_add(b, d->graded ? "<p id=\"no-speedups\">No speedups were measured (no submission passed a performance "
                              "test).</p>\n"
                            : "<p id=\"no-speedups\">No speedups were measured: no result is graded, no test "
                              "ran.</p>\n");
    else {
        double step = smax > 4 ? 1.0 : 0.25, sv[12] = {0};
        char sl[12][32];
        for (int k = 0; k < 12; k++)
            snprintf(sl[k], sizeof sl[k], k == 11 ? "%g+" : "%g", k * step);
        for (int i = 0; i < n; i++)
            if (rows[i].speedup > 0) {
                int k = (int)(rows[i].speedup / step);
                sv[k > 11 ? 11 : k]++;
            }
        svg_bars(b, "speedup-histogram", "students per speedup band (x the baseline; band start)", sl, sv, 12);
    }
    sb_add(b, "</section>\n");
}

/* A figure of a result's profile (kitgrade batch --profile), -1 when it has none. */
static double figure_of(const grade_result *g, const char *name)
{
    for (int i = 0; i < g->n_tests; i++)
        for (int k = 0; k < g->tests[i].n_figures; k++)
            if (!strcmp(g->tests[i].figures[k].name, name))
                return g->tests[i].figures[k].value;
    return -1;
}

/* Beside the speedups, what the kernels achieved (the profiles' figures):
 * students per band of DRAM bandwidth, and of FP32 rate where measured,
 * and per student the speedup next to them. */
static void section_profile(strbuf *b, const class_data *d)
{
    static const struct {
        const char *figure, *id, *what;
    } kinds[] = {{"dram_gbs", "dram-histogram", "achieved DRAM bandwidth (GB/s)"},
                 {"gflops", "gflops-histogram", "achieved FP32 rate (GFLOP/s)"}};
    sb_add(b, "<section id=\"profile\"><h2>Achieved bandwidth and FLOP/s (profiles, never graded)</h2>\n");
    int any = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        double vmax = 0, count[10] = {0};
        int n = 0;
        for (int i = 0; i < d->n; i++) {
            double v = d->rows[i].ok ? figure_of(&d->rows[i].g, kinds[k].figure) : -1;
            if (v > 0)
                n++, vmax = v > vmax ? v : vmax;
        }
        if (!n)
            continue;
        any = 1;
        double raw = vmax / 10, p10 = pow(10, floor(log10(raw))), step = p10;
        while (step < raw) /* bands of 1, 2 or 5 times a power of ten */
            step = step == p10 ? 2 * p10 : step == 2 * p10 ? 5 * p10 : 10 * p10;
        char labels[10][32], caption[200];
        for (int j = 0; j < 10; j++)
            snprintf(labels[j], sizeof labels[j], "%g", j * step);
        for (int i = 0; i < d->n; i++) {
            double v = d->rows[i].ok ? figure_of(&d->rows[i].g, kinds[k].figure) : -1;
            if (v > 0)
                count[(int)(v / step) > 9 ? 9 : (int)(v / step)]++;
        }
        snprintf(caption, sizeof caption, "students per band of %s, %d profiled (band start)", kinds[k].what, n);
        svg_bars(b, kinds[k].id, caption, labels, count, 10);
    }
    if (!any) {
        sb_add(b, "<p id=\"no-profile\">No profiles: grade with <code>kitgrade batch --profile</code> (make grade "
                  "PROFILE=1) to see what the kernels achieved beside their speedups.</p>\n</section>\n");
        return;
    }
    sb_add(b, "<details><summary>per student</summary><table id=\"profile-table\"><tr><th>student</th>"
              "<th>speedup</th><th>DRAM GB/s</th><th>GFLOP/s</th></tr>\n");
    for (int i = 0; i < d->n; i++) {
        const row *r = &d->rows[i];
        double gbs = r->ok ? figure_of(&r->g, "dram_gbs") : -1, gf = r->ok ? figure_of(&r->g, "gflops") : -1;
        if (gbs <= 0 && gf <= 0)
            continue;
        sb_add(b, "<tr class=\"profiled\"><td>");
        esc(b, r->m->name);
        sb_add(b, "</td>");
        sb_printf(b, r->speedup > 0 ? "<td class=\"num\">%.2fx</td>" : "<td>-</td>", r->speedup);
        sb_printf(b, gbs > 0 ? "<td class=\"num\">%.0f</td>" : "<td>-</td>", gbs);
        sb_printf(b, gf > 0 ? "<td class=\"num\">%.0f</td></tr>\n" : "<td>-</td></tr>\n", gf);
    }
    sb_add(b, "</table></details></section>\n");
}

/* The failure messages most students share (numbers aside). */
static void section_failures(strbuf *b, const class_data *d)
{
    const class_member *m = d->m;
    const row *rows = d->rows;
    int n = d->n;
    failure *fs = NULL;
    int nf = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; rows[i].ok && rows[i].g.build_ok && j < rows[i].g.n_tests; j++) {
            const test_result *t = &rows[i].g.tests[j];
            if (t->status != ST_FAIL && t->status != ST_ERROR)
                continue;
            char msg[200];
            first_line(sb_str(&t->output), msg, sizeof msg);
            add_failure(&fs, &nf, t->name, msg[0] ? msg : "(no message)", m[i].name);
        }
    if (nf)
        qsort(fs, (size_t)nf, sizeof *fs, cmp_failure);
    sb_add(b, "<section id=\"failures\"><h2>Most common failures</h2>\n");
    if (!nf)
        sb_add(b, d->graded ? "<p>No test failed.</p>\n" : "<p>No result is graded: no test ran.</p>\n");
    else
        sb_add(b, "<table><tr><th>test</th><th>students</th><th>message (numbers vary)</th><th>who</th></tr>\n");
    for (int i = 0; i < nf; i++) {
        if (i < TOP_FAILURES) {
            sb_add(b, "<tr class=\"failure\"><td>");
            esc(b, fs[i].test);
            sb_printf(b, "</td><td class=\"num\">%d</td><td><code>", fs[i].count);
            esc(b, fs[i].example);
            sb_printf(b, "</code></td><td>%s</td></tr>\n", sb_str(&fs[i].who));
        }
        sb_free(&fs[i].who);
    }
    if (nf)
        sb_add(b, "</table>\n");
    free(fs);
    sb_add(b, "</section>\n");
}

/* The first error line of each build that failed. */
static void section_build_failures(strbuf *b, const class_data *d)
{
    const class_member *m = d->m;
    const row *rows = d->rows;
    int n = d->n;
    sb_add(b, "<section id=\"build-failures\"><h2>Build failures</h2>\n");
    if (!d->builds_failed)
        sb_add(b, "<p>Every graded submission built.</p>\n");
    for (int i = 0; i < n; i++) {
        const grade_result *g = &rows[i].g;
        if (!rows[i].ok || g->build_ok || !grade_result_graded(g))
            continue;
        const char *log = sb_str(&g->build_log), *errl = strstr(log, "error");
        while (errl && errl > log && errl[-1] != '\n')
            errl--;
        char line[300];
        first_line(errl ? errl : log[0] ? log : sb_str(&g->notes), line, sizeof line);
        sb_add(b, "<p class=\"build-failure\"><b>");
        esc(b, m[i].name);
        sb_add(b, "</b>: <code>");
        esc(b, line);
        sb_add(b, "</code></p>\n");
    }
    sb_add(b, "</section>\n");
}

/* Late hand-ins and hand-ins not graded, with why. */
static void section_late(strbuf *b, const class_data *d)
{
    const class_member *m = d->m;
    const row *rows = d->rows;
    int n = d->n;
    sb_add(b, "<section id=\"late\"><h2>Late hand-ins and hand-ins not graded</h2>\n<table><tr><th>student</th>"
               "<th>version graded</th><th>handed in</th><th>days late</th><th>penalty</th><th>notes</th></tr>\n");
    for (int i = 0; i < n; i++) {
        const grade_result *g = &rows[i].g;
        int not_graded = rows[i].ok && strstr(sb_str(&g->notes), "not graded: ");
        int after_cut = rows[i].ok && strstr(sb_str(&g->notes), "after the cut-off");
        if (!rows[i].ok || (!g->late_days && !not_graded && !after_cut))
            continue;
        sb_add(b, "<tr class=\"late\"><td>");
        esc(b, m[i].name);
        sb_add(b, "</td><td>");
        esc(b, g->version);
        sb_add(b, "</td><td>");
        esc(b, g->handed_in_at);
        sb_printf(b, "</td><td class=\"num\">%d</td><td class=\"num\">%g%%</td><td>", g->late_days,
                  g->late_penalty_pct);
        char note[400], more[400] = "";
        first_line(line_with(sb_str(&g->notes), not_graded ? "not graded: " : g->late_days ? "late: " : "after the cut"),
                   note, sizeof note);
        if (g->late_days && after_cut)
            first_line(line_with(sb_str(&g->notes), "after the cut"), more, sizeof more);
        if (more[0])
            snprintf(note + strlen(note), sizeof note - strlen(note), "; %.150s", more);
        esc(b, note);
        sb_add(b, "</td></tr>\n");
    }
    sb_add(b, "</table></section>\n");
}

/* Pairs of similar hand-ins (similarity.h), their passages side by side. */
static void section_similarity(strbuf *b, const class_data *d)
{
    const engine *e = d->e;
    const class_member *m = d->m;
    int n = d->n;
    const char **dirs = calloc((size_t)n + 1, sizeof *dirs);
    sim_report sr;
    memset(&sr, 0, sizeof sr);
    for (int i = 0; dirs && i < n; i++)
        dirs[i] = m[i].src;
    if (dirs)
        similarity_run(e, dirs, n, d->sim_threshold, &sr);
    sb_add(b, "<section id=\"similarity\"><h2>Similar hand-ins</h2>\n");
    if (!sr.available) {
        sb_add(b, "<p>Not checked: ");
        esc(b, sr.why);
        sb_add(b, "</p>\n");
    } else {
        sb_printf(b, "<p>%d hand-ins compared with sim_c (the starter's text discounted); pairs sharing at least %g%% "
                      "of one hand-in's own tokens: <span id=\"n-similar\">%d</span>.  Similar is not copied: read "
                      "the passages.</p>\n",
                  sr.n_compared, d->sim_threshold > 0 ? d->sim_threshold : SIMILARITY_DEFAULT_THRESHOLD, sr.n_pairs);
        for (int p = 0; p < sr.n_pairs; p++) {
            sim_pair *sp = &sr.pairs[p];
            sb_add(b, "<div class=\"pair\" data-a=\"");
            esc(b, m[sp->a].name);
            sb_add(b, "\" data-b=\"");
            esc(b, m[sp->b].name);
            sb_printf(b, "\" data-pct=\"%d\"><h3>", sp->pct);
            esc(b, m[sp->a].name);
            sb_add(b, " and ");
            esc(b, m[sp->b].name);
            sb_printf(b, ": %d%% (", sp->pct);
            esc(b, sp->file);
            sb_add(b, ")</h3>\n");
            char pa[4400], pb[4400];
            fmt_into(pa, sizeof pa, "%s/%s", m[sp->a].src, sp->file);
            fmt_into(pb, sizeof pb, "%s/%s", m[sp->b].src, sp->file);
            for (char *save = NULL, *l = strtok_r(sp->passages.s ? sp->passages.s : (char *)"", "\n", &save); l;
                 l = strtok_r(NULL, "\n", &save)) {
                int a1, a2, b1, b2;
                if (sscanf(l, "%d %d %d %d", &a1, &a2, &b1, &b2) != 4)
                    continue;
                sb_add(b, "<div class=\"side\"><pre>");
                passage(b, pa, a1, a2);
                sb_add(b, "</pre><pre>");
                passage(b, pb, b1, b2);
                sb_add(b, "</pre></div>\n");
            }
            sb_add(b, "</div>\n");
        }
    }
    similarity_free(&sr);
    free(dirs);
    sb_add(b, "</section>\n");
}

/* Every student: score, status, version, feedback file. */
static void section_students(strbuf *b, const class_data *d)
{
    const class_member *m = d->m;
    const row *rows = d->rows;
    int n = d->n;
    sb_add(b, "<section id=\"students\"><h2>Students</h2>\n<table><tr><th>student</th><th>score</th><th>status</th>"
               "<th>version</th><th>feedback</th></tr>\n");
    for (int i = 0; i < n; i++) {
        const grade_result *g = &rows[i].g;
        char safe[800];
        safe_file_name(m[i].name, safe, sizeof safe);
        sb_add(b, "<tr class=\"student\"><td>");
        esc(b, m[i].name);
        if (!rows[i].ok)
            sb_add(b, "</td><td colspan=\"4\">no result</td></tr>\n");
        else {
            if (grade_result_graded(g))
                sb_printf(b, "</td><td class=\"num\">%g / %g", g->score, g->max_score);
            else /* its points are no grade */
                sb_printf(b, "</td><td class=\"num\">- / %g", g->max_score);
            sb_printf(b, "</td><td>%s</td><td>", grade_result_status(g));
            esc(b, g->version);
            sb_add(b, "</td><td><a href=\"feedback/");
            esc(b, safe);
            sb_add(b, ".txt\">feedback</a></td></tr>\n");
        }
    }
    sb_add(b, "</table></section>\n");
}

/* Each student's answers to the handout's questions. */
static void section_answers(strbuf *b, const class_data *d)
{
    const class_member *m = d->m;
    const row *rows = d->rows;
    int n = d->n;
    sb_add(b, "<section id=\"answers\"><h2>Answers to the handout's questions</h2>\n");
    int na = 0;
    for (int i = 0; i < n; i++) {
        if (!rows[i].ok || !rows[i].g.answers.len)
            continue;
        na++;
        sb_add(b, "<details class=\"answers\"><summary>");
        esc(b, m[i].name);
        sb_add(b, "</summary><pre>");
        escn(b, rows[i].g.answers.s, rows[i].g.answers.len);
        sb_add(b, "</pre></details>\n");
    }
    if (!na)
        sb_add(b, "<p>No hand-in has an answers.md.</p>\n");
    sb_add(b, "</section>\n");
}

int class_report_write(const engine *e, const char *out_dir, const class_member *m, int n, double sim_threshold,
                       char *err, size_t errlen)
{
    class_data d = {.e = e, .m = m, .n = n, .sim_threshold = sim_threshold};
    d.rows = calloc((size_t)n + 1, sizeof *d.rows);
    if (!d.rows || read_rows(&d) != 0) {
        free(d.rows);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    strbuf b;
    sb_init(&b);
    static void (*const sections[])(strbuf *, const class_data *) = {
        section_head,     section_summary, section_scores,   section_tests,    section_speedups, section_profile,
        section_failures,
        section_build_failures, section_late, section_similarity, section_students, section_answers,
    };
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++)
        sections[k](&b, &d);
    sb_add(&b, "</body></html>\n");
    for (int i = 0; i < n; i++)
        if (d.rows[i].ok)
            grade_result_free(&d.rows[i].g);
    free(d.rows);
    char path[4096];
    snprintf(path, sizeof path, "%s/report.html", out_dir);
    int rc = write_file_atomic(path, sb_str(&b), b.len, err, errlen);
    sb_free(&b);
    return rc;
}
