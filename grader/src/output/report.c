/* report.c - the terminal report, results.json, the gradebook CSV and the
 * feedback file (see report.h). */
#include "output/report.h"
#include "output/buildlog.h"
#include "kit/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATUS_COL 57 /* the status word starts in this column */

#define ANSI_GREEN "\033[32m"
#define ANSI_RED "\033[31m"
#define ANSI_YELLOW "\033[33m"
#define ANSI_BOLD "\033[1m"
#define ANSI_RESET "\033[0m"

/* Points for people: 10, 6.67, 0.5 (at most two decimals). */
static void fmt_points(char *buf, size_t cap, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "%g", v);
        return;
    }
    snprintf(buf, cap, "%.2f", v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
    if (!strcmp(buf, "-0"))
        snprintf(buf, cap, "0");
}

/* Writes text indented by 4 spaces, one output line per line; untrusted
 * bytes are made printable first. */
static void put_indented(FILE *f, const char *text, size_t len)
{
    if (!len)
        return;
    strbuf clean;
    sb_init(&clean);
    sb_add_sanitized(&clean, text, len);
    const char *s = sb_str(&clean);
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        fputs("    ", f);
        fwrite(s, 1, n, f);
        fputc('\n', f);
        s += n + (nl ? 1 : 0);
    }
    sb_free(&clean);
}

/* "name ........ STATUS (  1.2s)" plus the points column when given. */
static void put_status_line(FILE *f, const char *name, const char *status, const char *color, double seconds,
                            const char *points, const char *note, const report_opts *o)
{
    strbuf nm;
    sb_init(&nm);
    sb_add_sanitized(&nm, name, strlen(name));
    int col = fprintf(f, "%s ", sb_str(&nm));
    sb_free(&nm);
    int dots = STATUS_COL - 1 - col;
    if (dots < 3)
        dots = 3;
    for (int i = 0; i < dots; i++)
        fputc('.', f);
    fputc(' ', f);
    int pad = 4 - (int)strlen(status);
    if (o && o->color && color)
        fprintf(f, "%s%s%s", color, status, ANSI_RESET);
    else
        fputs(status, f);
    fprintf(f, "%*s (%4.1fs)", pad > 0 ? pad : 0, "", seconds >= 0 && isfinite(seconds) ? seconds : 0.0);
    if (points)
        fprintf(f, "  %s", points);
    if (note && *note)
        fprintf(f, "  %s", note);
    fputc('\n', f);
}

static const char *status_word(test_status s)
{
    return s == ST_PASS ? "OK" : test_status_name(s);
}

static const char *status_color(test_status s)
{
    switch (s) {
    case ST_PASS: return ANSI_GREEN;
    case ST_FAIL: return ANSI_RED;
    default: return ANSI_YELLOW;
    }
}

/* What a student sees of a hidden test's details. */
static void hidden_note(strbuf *b, const test_result *t)
{
    sb_printf(b, "(a hidden test%s%s: its details are not shown)\n", t->title[0] ? ": " : "", t->title);
}

void report_test_line(FILE *f, const test_result *t, const report_opts *o)
{
    char sc[32], mx[32], pts[80];
    fmt_points(sc, sizeof sc, t->score);
    fmt_points(mx, sizeof mx, t->max_score);
    if (t->status == ST_SKIP) /* not run: no score, not a zero */
        snprintf(sc, sizeof sc, "-");
    snprintf(pts, sizeof pts, "%*s/%s", (int)strlen(mx), sc, mx);
    put_status_line(f, t->name, status_word(t->status), status_color(t->status), t->seconds,
                    t->max_score < 0 ? NULL : pts, t->note, o);
    /* details: under failures, skips, errors and partial credit */
    int details = t->output.len &&
                  (t->show_output || t->status != ST_PASS || t->score < t->max_score || t->max_score < 0);
    if (details && o && o->feedback && t->details_hidden) {
        strbuf brief;
        sb_init(&brief);
        hidden_note(&brief, t);
        put_indented(f, brief.s, brief.len);
        sb_free(&brief);
    } else if (details)
        put_indented(f, t->output.s, t->output.len);
    fflush(f);
}

void report_terminal(FILE *f, const grade_result *g, const report_opts *o)
{
    /* notes first */
    if (g->notes.len) {
        strbuf clean;
        sb_init(&clean);
        sb_add_sanitized(&clean, g->notes.s, g->notes.len);
        const char *s = sb_str(&clean);
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t n = nl ? (size_t)(nl - s) : strlen(s);
            if (n) {
                if (o && o->color)
                    fprintf(f, "%snote:%s ", ANSI_YELLOW, ANSI_RESET);
                else
                    fputs("note: ", f);
                fwrite(s, 1, n, f);
                fputc('\n', f);
            }
            s += n + (nl ? 1 : 0);
        }
        sb_free(&clean);
    }
    put_status_line(f, g->handin_bad ? "hand-in" : "build", g->build_ok ? "OK" : "FAIL", g->build_ok ? ANSI_GREEN : ANSI_RED,
                    g->build_seconds, NULL, NULL, o);
    if (!g->build_ok || buildlog_has_warning(sb_str(&g->build_log))) /* errors, or the warnings of an OK build */
        put_indented(f, g->build_log.s, g->build_log.len);
    for (int i = 0; i < g->n_tests; i++)
        report_test_line(f, &g->tests[i], o);
    report_summary(f, g, o);
}

void report_summary(FILE *f, const grade_result *g, const report_opts *o)
{
    char sc[32], mx[32];
    if (g->build_ok && !g->gpu_ran) { /* nothing ran: a score of 0 would be a guess */
        fprintf(f, "No score: none of the tests ran (no GPU)\n");
        fflush(f);
        return;
    }
    fmt_points(sc, sizeof sc, g->score);
    fmt_points(mx, sizeof mx, g->max_score);
    if (o && o->color)
        fprintf(f, "%sScore: %s/%s%s", ANSI_BOLD, sc, mx, ANSI_RESET);
    else
        fprintf(f, "Score: %s/%s", sc, mx);
    if (o && o->student_mode) {
        if (o->hidden_not_run > 0)
            fprintf(f, "  (estimated; hidden tests may differ: %d hidden test%s not run)", o->hidden_not_run,
                    o->hidden_not_run == 1 ? "" : "s");
        else
            fputs("  (estimated)", f);
    }
    fputc('\n', f);
    if (o && o->repro) {
        for (int i = 0; i < g->n_tests; i++)
            if (g->tests[i].status == ST_FAIL || g->tests[i].status == ST_ERROR) {
                /* "make lab03" takes make variables; "kitgrade ... --test" options */
                size_t n = strlen(o->repro);
                int opt = n >= 6 && !strcmp(o->repro + n - 6, "--test");
                fprintf(f,
                        opt ? "Reproduce a failure: %s %s --seed 0x%llx\n"
                            : "Reproduce a failure: %s TEST=%s SEED=0x%llx\n",
                        o->repro, g->tests[i].name, (unsigned long long)g->seed);
                break;
            }
    }
    fflush(f);
}

/* ---------- files ---------- */

int write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t cap = strlen(path) + 16;
    char *tmp = malloc(cap);
    if (!tmp) {
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* ".NAME.XXXXXX" next to the target: same file system, so rename is atomic */
    snprintf(tmp, cap, "%.*s.%s.XXXXXX", (int)dlen, path, path + dlen);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        kit_set_err(err, errlen, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    const char *what = NULL;
    int e = 0;
    size_t done = 0;
    if (fchmod(fd, 0644) != 0) {
        what = "chmod";
        e = errno;
    }
    while (!what && done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            what = "write";
            e = errno;
        } else
            done += (size_t)w;
    }
    if (!what && fsync(fd) != 0) {
        what = "fsync";
        e = errno;
    }
    if (close(fd) != 0 && !what) {
        what = "close";
        e = errno;
    }
    if (!what && rename(tmp, path) != 0) {
        what = "rename";
        e = errno;
    }
    if (what) {
        unlink(tmp);
        kit_set_err(err, errlen, "%s: %s failed: %s", path, what, strerror(e));
        free(tmp);
        return -1;
    }
    free(tmp);
    /* make the rename itself durable (best effort) */
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", dlen ? (int)dlen : 1, dlen ? path : ".");
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}

/* ---------- results.json ---------- */

static cJSON *add_text(cJSON *obj, const char *key, const char *s, size_t n)
{
    strbuf b;
    sb_init(&b);
    sb_add_sanitized(&b, s ? s : "", s ? n : 0);
    cJSON *item = cJSON_AddStringToObject(obj, key, sb_str(&b));
    sb_free(&b);
    return item;
}

static cJSON *add_cstr(cJSON *obj, const char *key, const char *s)
{
    return add_text(obj, key, s, s ? strlen(s) : 0);
}

/* results.json's top-level "output", shown above the tests: the notes, the build (its log when it failed
 * or warned) and whether the tests ran. */
static void put_summary_output(strbuf *out, const grade_result *g)
{
    if (g->notes.len) {
        sb_addn(out, g->notes.s, g->notes.len);
        if (g->notes.s[g->notes.len - 1] != '\n')
            sb_add(out, "\n");
    }
    if (g->build_ok) {
        sb_printf(out, "Build OK (%.1fs)\n", g->build_seconds);
        if (buildlog_has_warning(sb_str(&g->build_log)))
            sb_addn(out, sb_str(&g->build_log), g->build_log.len);
    } else {
        if (g->handin_bad) /* a file the lab takes is missing or unusable: nothing was compiled */
            sb_add(out, "Hand-in problem (nothing was compiled):\n");
        else
            sb_printf(out, "Build FAILED (%.1fs):\n", g->build_seconds);
        sb_addn(out, sb_str(&g->build_log), g->build_log.len);
    }
    if (g->build_ok && !g->gpu_ran)
        sb_add(out, "NOT GRADED: no GPU was available, so no test ran (only the build was checked); the score is "
                    "no grade.\n");
}

/* A test's "extra_data": what the kit reads back (report_read_json), a hidden test's details included. */
static void add_test_extra(cJSON *jt, const test_result *t)
{
    cJSON *x = cJSON_AddObjectToObject(jt, "extra_data");
    if (!x)
        return;
    add_cstr(x, "group", t->group);
    cJSON_AddStringToObject(x, "status", test_status_name(t->status));
    cJSON_AddNumberToObject(x, "seconds", t->seconds);
    add_cstr(x, "title", t->title);
    cJSON_AddBoolToObject(x, "details_hidden", t->details_hidden != 0);
    if (t->details_hidden)
        add_text(x, "details", sb_str(&t->output), t->output.len);
    if (t->show_output)
        cJSON_AddBoolToObject(x, "show_output", 1);
    cJSON *figs = t->n_figures ? cJSON_AddObjectToObject(x, "profile") : NULL; /* --profile's figures, never scored */
    for (int i = 0; figs && i < t->n_figures; i++)
        cJSON_AddNumberToObject(figs, t->figures[i].name, t->figures[i].value);
}

/* Test NUMBER (from 1) as an entry of "tests"; -1 when it could not be added. */
static int add_test_json(cJSON *tests, const test_result *t, int number)
{
    char buf[64];
    cJSON *jt = cJSON_CreateObject();
    if (!jt || !cJSON_AddItemToArray(tests, jt))
        return -1;
    add_cstr(jt, "name", t->name);
    cJSON_AddNumberToObject(jt, "score", t->score);
    cJSON_AddNumberToObject(jt, "max_score", t->max_score);
    cJSON_AddStringToObject(jt, "status", t->status == ST_PASS ? "passed" : "failed");
    /* Gradescope shows "output" to students (after the due date for
     * after_due_date tests): a hidden test's details only where the
     * rubric allows; the kit keeps them in extra_data for itself. */
    if (t->details_hidden) {
        strbuf brief;
        sb_init(&brief);
        hidden_note(&brief, t);
        add_text(jt, "output", sb_str(&brief), brief.len);
        sb_free(&brief);
    } else
        add_text(jt, "output", sb_str(&t->output), t->output.len);
    cJSON_AddStringToObject(jt, "visibility", visibility_name(t->vis));
    snprintf(buf, sizeof buf, "%d", number);
    cJSON_AddStringToObject(jt, "number", buf);
    add_test_extra(jt, t);
    return 0;
}

/* The grading's "extra_data": what the kit reads back; NULL when out of memory. */
static cJSON *add_grade_extra(cJSON *root, const grade_result *g)
{
    char buf[64];
    cJSON *x = cJSON_AddObjectToObject(root, "extra_data");
    if (!x)
        return NULL;
    add_cstr(x, "student", g->student);
    add_cstr(x, "lab", g->lab);
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)g->seed);
    cJSON_AddStringToObject(x, "seed", buf);
    add_cstr(x, "source_hash", g->source_hash);
    cJSON_AddBoolToObject(x, "build_ok", g->build_ok != 0);
    cJSON_AddBoolToObject(x, "handin_problem", g->handin_bad != 0);
    cJSON_AddNumberToObject(x, "build_seconds", g->build_seconds);
    add_text(x, "build_log", sb_str(&g->build_log), g->build_log.len);
    add_text(x, "notes", sb_str(&g->notes), g->notes.len);
    cJSON_AddBoolToObject(x, "gpu_ran", g->gpu_ran != 0);
    add_cstr(x, "graded_at", g->graded_at);
    add_cstr(x, "grading_key", g->grading_key);
    add_cstr(x, "gpu", g->gpu);
    add_cstr(x, "kit_build", g->kit_version);
    add_cstr(x, "conditions", g->conditions);
    cJSON_AddBoolToObject(x, "graded_without_gpu", g->no_gpu != 0);
    cJSON_AddStringToObject(x, "status", grade_result_status(g));
    cJSON_AddNumberToObject(x, "max_score", g->max_score);
    if (g->version[0]) { /* a hand-in from the course spool */
        add_cstr(x, "version", g->version);
        add_cstr(x, "handed_in_at", g->handed_in_at);
        cJSON_AddNumberToObject(x, "late_days", g->late_days);
        cJSON_AddNumberToObject(x, "late_penalty_pct", g->late_penalty_pct);
        cJSON_AddNumberToObject(x, "score_before_late", g->score_before_late);
    }
    if (g->answers.len)
        add_text(x, "answers", sb_str(&g->answers), g->answers.len);
    cJSON_AddNumberToObject(x, "kit_version", 1);
    return x;
}

int report_write_json(const grade_result *g, const char *path, char *err, size_t errlen)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) {
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    cJSON_AddNumberToObject(root, "score", g->score);
    cJSON_AddNumberToObject(root, "execution_time", g->seconds);
    strbuf out;
    sb_init(&out);
    put_summary_output(&out, g);
    add_text(root, "output", sb_str(&out), out.len);
    sb_free(&out);
    cJSON_AddStringToObject(root, "visibility", "visible");
    cJSON_AddStringToObject(root, "stdout_visibility", "hidden");

    cJSON *tests = cJSON_AddArrayToObject(root, "tests");
    for (int i = 0; tests && i < g->n_tests; i++)
        if (add_test_json(tests, &g->tests[i], i + 1) != 0)
            break;
    cJSON *x = add_grade_extra(root, g);

    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text || !tests || !x) {
        free(text);
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t n = strlen(text);
    text[n] = '\n'; /* cJSON leaves no newline at the end; replace the NUL */
    int rc = write_file_atomic(path, text, n + 1, err, errlen);
    free(text);
    return rc;
}

static void get_str(const cJSON *obj, const char *key, char *dst, size_t cap)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char *s = cJSON_IsString(it) ? it->valuestring : "";
    snprintf(dst, cap, "%s", s ? s : "");
}

static void get_sb(const cJSON *obj, const char *key, strbuf *b)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    sb_clear(b);
    if (cJSON_IsString(it) && it->valuestring)
        sb_add(b, it->valuestring);
}

static double get_num(const cJSON *obj, const char *key, double def)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(it) ? it->valuedouble : def;
}

static int get_bool(const cJSON *obj, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsBool(it))
        return cJSON_IsTrue(it);
    return cJSON_IsNumber(it) ? it->valuedouble != 0 : 0;
}

static char *read_all(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        kit_set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    strbuf b;
    sb_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n > max) {
            kit_set_err(err, errlen, "%s: too large (over %zu bytes)", path, max);
            sb_free(&b);
            fclose(f);
            return NULL;
        }
        sb_addn(&b, chunk, n);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        kit_set_err(err, errlen, "%s: read error", path);
        sb_free(&b);
        return NULL;
    }
    *len = b.len;
    if (!b.s)
        sb_add(&b, "");
    return b.s;
}

/* PATH parsed; NULL (with err) unless it is a results.json the kit wrote: extra_data.kit_version, and
 * "tests" an array where present. */
static cJSON *parse_kit_json(const char *path, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = read_all(path, (size_t)256 << 20, &len, err, errlen);
    if (!text)
        return NULL;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!root) {
        kit_set_err(err, errlen, "%s: not valid JSON", path);
        return NULL;
    }
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "extra_data");
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
    if (!cJSON_IsObject(root) || !cJSON_IsObject(x) ||
        !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(x, "kit_version"))) {
        kit_set_err(err, errlen, "%s: not a results.json written by the kit (no extra_data.kit_version)", path);
        cJSON_Delete(root);
        return NULL;
    }
    if (tests && !cJSON_IsArray(tests)) {
        kit_set_err(err, errlen, "%s: 'tests' is not an array", path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* The grading's fields from its extra_data (add_grade_extra); max_score is read last, by the caller. */
static void read_grade_extra(const cJSON *x, grade_result *g)
{
    get_str(x, "student", g->student, sizeof g->student);
    get_str(x, "lab", g->lab, sizeof g->lab);
    char seed[64];
    get_str(x, "seed", seed, sizeof seed);
    g->seed = strtoull(seed, NULL, 16);
    get_str(x, "source_hash", g->source_hash, sizeof g->source_hash);
    g->build_ok = get_bool(x, "build_ok");
    g->handin_bad = get_bool(x, "handin_problem");
    g->build_seconds = get_num(x, "build_seconds", 0);
    get_sb(x, "build_log", &g->build_log);
    get_sb(x, "notes", &g->notes);
    g->gpu_ran = get_bool(x, "gpu_ran");
    get_str(x, "graded_at", g->graded_at, sizeof g->graded_at);
    get_str(x, "grading_key", g->grading_key, sizeof g->grading_key);
    get_str(x, "gpu", g->gpu, sizeof g->gpu);
    get_str(x, "kit_build", g->kit_version, sizeof g->kit_version);
    get_str(x, "conditions", g->conditions, sizeof g->conditions);
    g->no_gpu = get_bool(x, "graded_without_gpu");
    get_str(x, "version", g->version, sizeof g->version);
    get_str(x, "handed_in_at", g->handed_in_at, sizeof g->handed_in_at);
    g->late_days = (int)get_num(x, "late_days", 0);
    g->late_penalty_pct = get_num(x, "late_penalty_pct", 0);
    g->score_before_late = get_num(x, "score_before_late", 0);
    get_sb(x, "answers", &g->answers);
}

/* A test's status: the kit's word from its extra_data (tx), else Gradescope's passed/failed. */
static test_status read_test_status(const cJSON *jt, const cJSON *tx)
{
    char s[32];
    get_str(tx, "status", s, sizeof s);
    if (!s[0]) {
        char gs[16];
        get_str(jt, "status", gs, sizeof gs);
        snprintf(s, sizeof s, "%s", !strcmp(gs, "passed") ? "PASS" : "FAIL");
    }
    return !strcmp(s, "PASS")    ? ST_PASS
           : !strcmp(s, "SKIP")  ? ST_SKIP
           : !strcmp(s, "ERROR") ? ST_ERROR
                                 : ST_FAIL;
}

/* One entry of "tests" (add_test_json): a hidden test's whole details come from its extra_data. */
static void read_test(const cJSON *jt, test_result *t)
{
    const cJSON *tx = cJSON_GetObjectItemCaseSensitive(jt, "extra_data");
    get_str(jt, "name", t->name, sizeof t->name);
    t->score = get_num(jt, "score", 0);
    t->max_score = get_num(jt, "max_score", 0);
    get_sb(jt, "output", &t->output);
    char s[32];
    get_str(jt, "visibility", s, sizeof s);
    t->vis = !strcmp(s, "hidden") ? VIS_HIDDEN
             : !strcmp(s, "after_due_date") ? VIS_AFTER_DUE_DATE
             : !strcmp(s, "after_published") ? VIS_AFTER_PUBLISHED
                                             : VIS_VISIBLE;
    t->show_output = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tx, "show_output"));
    t->status = read_test_status(jt, tx);
    get_str(tx, "group", t->group, sizeof t->group);
    get_str(tx, "title", t->title, sizeof t->title);
    t->seconds = get_num(tx, "seconds", 0);
    t->details_hidden = get_bool(tx, "details_hidden");
    if (t->details_hidden && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(tx, "details")))
        get_sb(tx, "details", &t->output); /* the whole text, as graded */
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(tx, "profile"))
    {
        if (cJSON_IsNumber(f) && f->string && t->n_figures < MAX_FIGURES) {
            snprintf(t->figures[t->n_figures].name, sizeof t->figures[0].name, "%.39s", f->string);
            t->figures[t->n_figures++].value = f->valuedouble;
        }
    }
}

int report_read_json(const char *path, grade_result *g, char *err, size_t errlen)
{
    grade_result_init(g);
    cJSON *root = parse_kit_json(path, err, errlen);
    if (!root)
        return -1;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "extra_data");
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
    g->score = get_num(root, "score", 0);
    g->seconds = get_num(root, "execution_time", 0);
    read_grade_extra(x, g);

    const cJSON *jt;
    double max_sum = 0;
    cJSON_ArrayForEach(jt, tests)
    {
        if (!cJSON_IsObject(jt))
            continue;
        test_result *t = grade_result_add(g);
        read_test(jt, t);
        max_sum += t->max_score;
    }
    g->max_score = get_num(x, "max_score", max_sum);
    cJSON_Delete(root);
    return 0;
}

int report_write_feedback(const grade_result *g, const char *path, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    report_opts o = {0};
    o.feedback = 1;
    char seed[32];
    snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)g->seed);
    strbuf head;
    sb_init(&head);
    sb_printf(&head, "student: %s\nlab:     %s\ndate:    %s\nseed:    %s\nGPU:     %s\nkit:     %s\n\n", g->student,
              g->lab, g->graded_at, seed, g->gpu[0] ? g->gpu : "none (the tests did not run)",
              g->kit_version[0] ? g->kit_version : "unknown");
    strbuf clean; /* a folder name may hold anything */
    sb_init(&clean);
    sb_add_sanitized(&clean, sb_str(&head), head.len);
    fputs(sb_str(&clean), f);
    sb_free(&clean);
    sb_free(&head);
    report_terminal(f, g, &o);
    if (g->version[0])
        fprintf(f, "Graded hand-in: version %s, handed in %s%s\n", g->version, g->handed_in_at,
                g->late_days ? " (late)" : " (on time)");
    if (g->answers.len) { /* for the person grading the questions by hand */
        fputs("\n---- answers.md (questions, graded by hand) ----\n", f);
        fwrite(g->answers.s, 1, g->answers.len, f);
        if (g->answers.s[g->answers.len - 1] != '\n')
            fputc('\n', f);
    }
    if (fclose(f) != 0) {
        free(buf);
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = write_file_atomic(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

/* ---------- gradebook CSV ---------- */

void report_csv_field(strbuf *b, const char *s)
{
    strbuf clean;
    sb_init(&clean);
    sb_add_sanitized(&clean, s, strlen(s));
    s = sb_str(&clean);
    if (strpbrk(s, ",\"\r\n")) {
        sb_add(b, "\"");
        for (; *s; s++) {
            if (*s == '"')
                sb_add(b, "\"");
            sb_addn(b, s, 1);
        }
        sb_add(b, "\"");
    } else
        sb_add(b, s);
    sb_free(&clean);
}

static int cmp_student(const void *a, const void *b)
{
    const grade_result *x = *(const grade_result *const *)a, *y = *(const grade_result *const *)b;
    return strcmp(x->student, y->student);
}

/* The gradebook's group columns, in order of first appearance. */
typedef struct {
    char (*names)[NAME_LEN];
    int n, cap;
} group_list;

/* NAME as a column unless it is empty or there already; -1 when out of memory. */
static int add_group(group_list *l, const char *name)
{
    for (int k = 0; k < l->n; k++)
        if (!strcmp(l->names[k], name))
            return 0;
    if (!*name)
        return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        void *p = realloc(l->names, (size_t)cap * sizeof *l->names);
        if (!p)
            return -1;
        l->names = p;
        l->cap = cap;
    }
    snprintf(l->names[l->n++], NAME_LEN, "%s", name);
    return 0;
}

/* The columns: the rubric's groups (a test without one is in its kind's) or, without a rubric, the
 * results' groups; -1 when out of memory. */
static int collect_groups(group_list *l, grade_result *const *results, int n, const rubric *r)
{
    if (r) {
        for (int i = 0; i < r->n_tests; i++)
            if (add_group(l, r->tests[i].group[0] ? r->tests[i].group : test_kind_name(r->tests[i].kind)))
                return -1;
        return 0;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < results[i]->n_tests; j++)
            if (add_group(l, results[i]->tests[j].group))
                return -1;
    return 0;
}

static void put_csv_header(strbuf *b, const group_list *l)
{
    sb_add(b, "student");
    for (int k = 0; k < l->n; k++) {
        sb_add(b, ",");
        report_csv_field(b, l->names[k]);
    }
    sb_add(b, ",total,max,status\n");
}

/* A folder name is untrusted: "=HYPERLINK(...)" must stay text in a
 * spreadsheet (OWASP's CSV injection advice: a leading quote). */
static void put_csv_student(strbuf *b, const grade_result *g)
{
    if (g->student[0] && strchr("=+-@\t\r", g->student[0])) {
        char quoted[sizeof g->student + 1];
        snprintf(quoted, sizeof quoted, "'%s", g->student);
        report_csv_field(b, quoted);
    } else
        report_csv_field(b, g->student);
}

/* One student's row: the points per group (a result's test without a group takes the rubric's), the
 * total, the maximum and the status.  sums has room for a number per group. */
static void put_csv_row(strbuf *b, const grade_result *g, const group_list *l, double *sums, const rubric *r)
{
    for (int k = 0; k < l->n; k++)
        sums[k] = 0;
    for (int j = 0; j < g->n_tests; j++) {
        const test_result *t = &g->tests[j];
        const char *gname = t->group;
        if (!*gname && r) {
            const rubric_test *rt = rubric_find(r, t->name);
            gname = rt ? rt->group : "";
        }
        for (int k = 0; k < l->n; k++)
            if (!strcmp(l->names[k], gname))
                sums[k] += t->score;
    }
    put_csv_student(b, g);
    if (!grade_result_graded(g)) { /* its points are no grade: empty cells, the status says why */
        for (int k = 0; k < l->n; k++)
            sb_add(b, ",");
        sb_printf(b, ",,%g,%s\n", g->max_score, grade_result_status(g));
        return;
    }
    for (int k = 0; k < l->n; k++)
        sb_printf(b, ",%g", sums[k]);
    sb_printf(b, ",%g,%g,%s\n", g->score, g->max_score, grade_result_status(g));
}

int report_write_csv(const char *path, grade_result *const *results, int n, const rubric *r, char *err,
                     size_t errlen)
{
    group_list groups = {NULL, 0, 0};
    if (collect_groups(&groups, results, n, r) != 0) {
        free(groups.names);
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    grade_result **sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
    double *sums = malloc((size_t)(groups.n > 0 ? groups.n : 1) * sizeof *sums);
    if (!sorted || !sums) {
        free(sorted);
        free(sums);
        free(groups.names);
        kit_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (int i = 0; i < n; i++)
        sorted[i] = results[i];
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_student);

    strbuf b;
    sb_init(&b);
    put_csv_header(&b, &groups);
    for (int i = 0; i < n; i++)
        put_csv_row(&b, sorted[i], &groups, sums, r);
    free(sorted);
    free(sums);
    free(groups.names);
    int rc = write_file_atomic(path, sb_str(&b), b.len, err, errlen);
    sb_free(&b);
    return rc;
}
