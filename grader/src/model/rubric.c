/* rubric.c - loading and validating labs/<lab>/kit/rubric.ini (see model.h).
 *
 * inih does the INI syntax.  The packaged inih is built without line numbers
 * in the handler, so the file is fed to ini_parse_stream through our own
 * reader (ini_lines.c), which counts lines (one call per physical line) and announces each
 * section header, so that every message can say "rubric.ini:LINE: ..." and
 * an empty [test x] section is still seen.
 */
#include "model/deadline.h"
#include "util/ini_lines.h"
#include "model/model.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/params.h"

/* Where each key of a test was set (0: not set), for messages. */
enum {
    K_TITLE, K_KIND, K_GROUP, K_POINTS, K_VIS, K_PARAMS, K_TIMEOUT, K_REPEAT, K_PARTIAL, K_TOOL,
    K_THRESHOLD, K_MIN_SPEEDUP, K_WARMUP, K_REPS, K_SHOW_DETAILS, K_GPU, K_HOST, K_NKEYS
};
static const char *const test_keys[K_NKEYS] = {
    "title", "kind", "group", "points", "visibility", "params", "timeout", "repeat", "partial", "tool",
    "threshold", "min_speedup", "warmup", "reps", "show_details", "gpu", "host",
};

enum { R_LAB, R_TIMEOUT, R_BUILD_TIMEOUT, R_SAN_TIMEOUT, R_CALL_LIMIT, R_MEMORY, R_PROCS, R_OUTPUT, R_FILE, R_DUE,
       R_CUTOFF, R_LATE_PENALTY, R_NKEYS };
static const char *const rubric_keys[R_NKEYS] = {
    "lab", "timeout", "build_timeout", "sanitizer_timeout", "call_limit", "memory_mb", "max_processes", "output_kb",
    "file_mb", "due", "cutoff", "late_penalty",
};

typedef struct {
    int key_line[K_NKEYS];
} test_meta;

typedef struct {
    ini_error e;
    ini_lines in; /* the file, line by line */
    rubric *r;
    test_meta *meta;
    int meta_cap;
    enum { SEC_NONE, SEC_RUBRIC, SEC_TEST, SEC_BAD } sec;
    int cur;                /* current test index */
    int rubric_line;
    int rkey_line[R_NKEYS];
} rctx;

/* The load's first error (ini_lines.h); later ones are dropped. */
#define fail(c, ...) ini_fail(&(c)->e, __VA_ARGS__)

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= NAME_LEN)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

static int parse_double(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(d))
        return -1;
    *out = d;
    return 0;
}

static int parse_long(const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno)
        return -1;
    *out = x;
    return 0;
}

static int parse_yesno(const char *v, int *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) {
        *out = 1;
        return 0;
    }
    if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) {
        *out = 0;
        return 0;
    }
    return -1;
}

static int copy_str(rctx *c, char *dst, size_t cap, const char *key, const char *v)
{
    size_t n = strlen(v);
    if (n >= cap) {
        fail(c, c->in.lineno, "'%s' is too long (%zu characters, at most %zu)", key, n, cap - 1);
        return -1;
    }
    memcpy(dst, v, n + 1);
    return 0;
}

/* ---------- sections (called by the reader) ---------- */

static void begin_section(rctx *c, const char *name, int line)
{
    c->sec = SEC_BAD;
    if (!strcmp(name, "rubric")) {
        if (c->rubric_line) {
            fail(c, line, "duplicate section [rubric] (first at line %d)", c->rubric_line);
            return;
        }
        c->rubric_line = line;
        c->sec = SEC_RUBRIC;
        return;
    }
    if (strncmp(name, "test", 4) != 0 || (name[4] && name[4] != ' ' && name[4] != '\t')) {
        fail(c, line, "unknown section [%s] (expected [rubric] or [test NAME])", name);
        return;
    }
    const char *t = name + 4;
    while (*t == ' ' || *t == '\t')
        t++;
    char tname[256];
    snprintf(tname, sizeof tname, "%s", t);
    size_t n = strlen(tname);
    while (n && isspace((unsigned char)tname[n - 1]))
        tname[--n] = '\0';
    if (!n) {
        fail(c, line, "section [test] needs a name: [test NAME]");
        return;
    }
    if (!valid_name(tname)) {
        fail(c, line, "bad test name '%s' (letters, digits, '_', '.', '-'; at most %d characters)", tname,
             NAME_LEN - 1);
        return;
    }
    rubric *r = c->r;
    for (int i = 0; i < r->n_tests; i++)
        if (!strcmp(r->tests[i].name, tname)) {
            fail(c, line, "duplicate test '%s' (first at line %d)", tname, r->tests[i].line);
            return;
        }
    if (r->n_tests == c->meta_cap) {
        int cap = c->meta_cap ? 2 * c->meta_cap : 8;
        rubric_test *nt = realloc(r->tests, (size_t)cap * sizeof *nt);
        if (nt)
            r->tests = nt;
        test_meta *nm = realloc(c->meta, (size_t)cap * sizeof *nm);
        if (nm)
            c->meta = nm;
        if (!nt || !nm) {
            fail(c, line, "out of memory");
            return;
        }
        c->meta_cap = cap;
    }
    rubric_test *rt = &r->tests[r->n_tests];
    memset(rt, 0, sizeof *rt);
    memset(&c->meta[r->n_tests], 0, sizeof c->meta[0]);
    memcpy(rt->name, tname, n + 1);
    rt->kind = KIND_CORRECTNESS;
    rt->vis = VIS_VISIBLE;
    rt->repeat = 1;
    rt->min_speedup = 1.0;
    rt->warmup = 3;
    rt->reps = 15;
    rt->line = line;
    c->cur = r->n_tests++;
    c->sec = SEC_TEST;
}

/* ---------- keys ---------- */

static int find_key(const char *const *keys, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(keys[i], name))
            return i;
    return -1;
}

/* The index of key NAME in KEYS, its line recorded in key_line; -1 (after the message) when the key is
 * unknown or already given in this section.  SECTION names it in messages: "[rubric]", "[test NAME]". */
static int claim_key(rctx *c, const char *const *keys, int n, int *key_line, const char *name,
                     const char *section)
{
    int k = find_key(keys, n, name);
    if (k < 0) {
        fail(c, c->in.lineno, "unknown key '%s' in %s", name, section);
        return -1;
    }
    if (key_line[k]) {
        fail(c, c->in.lineno, "'%s' given twice in %s (first at line %d)", name, section, key_line[k]);
        return -1;
    }
    key_line[k] = c->in.lineno;
    return k;
}

static void rubric_key(rctx *c, const char *name, const char *v)
{
    rubric *r = c->r;
    int k = claim_key(c, rubric_keys, R_NKEYS, c->rkey_line, name, "[rubric]");
    if (k < 0)
        return;
    double d;
    long l;
    switch (k) {
    case R_LAB:
        if (!valid_name(v)) {
            fail(c, c->in.lineno, "bad lab name '%s'", v);
            return;
        }
        copy_str(c, r->lab, sizeof r->lab, name, v);
        r->lab_line = c->in.lineno;
        return;
    case R_DUE:
    case R_CUTOFF: {
        char perr[256];
        if (deadline_parse(v, k == R_DUE ? &r->due : &r->cutoff, perr, sizeof perr))
            fail(c, c->in.lineno, "'%s': %s", name, perr);
        return;
    }
    case R_LATE_PENALTY:
        if (parse_double(v, &d) || d < 0 || d > 100)
            fail(c, c->in.lineno, "'late_penalty' must be a percentage per day from 0 to 100: '%s'", v);
        else
            r->late_penalty = d;
        return;
    case R_TIMEOUT:
    case R_BUILD_TIMEOUT:
    case R_SAN_TIMEOUT:
    case R_CALL_LIMIT:
        if (parse_double(v, &d)) {
            fail(c, c->in.lineno, "'%s' is not a number: '%s'", name, v);
            return;
        }
        if (d <= 0) {
            fail(c, c->in.lineno, "'%s' must be > 0 seconds: '%s'", name, v);
            return;
        }
        *(k == R_TIMEOUT           ? &r->timeout_s
          : k == R_BUILD_TIMEOUT   ? &r->build_timeout_s
          : k == R_CALL_LIMIT      ? &r->call_limit_s
                                   : &r->sanitizer_timeout_s) = d;
        return;
    default:
        if (parse_long(v, &l)) {
            fail(c, c->in.lineno, "'%s' is not a whole number: '%s'", name, v);
            return;
        }
        if (l <= 0) {
            fail(c, c->in.lineno, "'%s' must be > 0: '%s'", name, v);
            return;
        }
        *(k == R_MEMORY ? &r->memory_mb : k == R_PROCS ? &r->max_processes : k == R_OUTPUT ? &r->output_kb
                                                                                        : &r->file_mb) = l;
        return;
    }
}

/* "case = ...": the one key a test may give many times, each a parameter list of its own. */
static void add_case(rctx *c, rubric_test *t, const char *v)
{
    char perr[200];
    kit_params p;
    if (!*v) {
        fail(c, c->in.lineno, "empty case in [test %s]", t->name);
        return;
    }
    if (kit_params_parse(v, &p, perr, sizeof perr)) {
        fail(c, c->in.lineno, "bad case '%s' in [test %s]: %s", v, t->name, perr);
        return;
    }
    char **cs = realloc(t->cases, (size_t)(t->n_cases + 1) * sizeof *cs);
    int *cl = cs ? realloc(t->case_lines, (size_t)(t->n_cases + 1) * sizeof *cl) : NULL;
    char *dup = cl ? strdup(v) : NULL;
    if (cs)
        t->cases = cs;
    if (cl)
        t->case_lines = cl;
    if (!dup) {
        fail(c, c->in.lineno, "out of memory");
        return;
    }
    t->cases[t->n_cases] = dup;
    t->case_lines[t->n_cases] = c->in.lineno;
    t->n_cases++;
}

static void set_kind(rctx *c, rubric_test *t, const char *v)
{
    if (!strcmp(v, "correctness"))
        t->kind = KIND_CORRECTNESS;
    else if (!strcmp(v, "sanitizer"))
        t->kind = KIND_SANITIZER;
    else if (!strcmp(v, "performance"))
        t->kind = KIND_PERFORMANCE;
    else
        fail(c, c->in.lineno, "unknown kind '%s' (correctness, sanitizer or performance)", v);
}

static void set_visibility(rctx *c, rubric_test *t, const char *v)
{
    if (!strcmp(v, "visible"))
        t->vis = VIS_VISIBLE;
    else if (!strcmp(v, "hidden"))
        t->vis = VIS_HIDDEN;
    else if (!strcmp(v, "after_due_date"))
        t->vis = VIS_AFTER_DUE_DATE;
    else if (!strcmp(v, "after_published"))
        t->vis = VIS_AFTER_PUBLISHED;
    else
        fail(c, c->in.lineno, "unknown visibility '%s' (visible, hidden, after_due_date or after_published)", v);
}

/* params alone must be a parameter list; with each case it is checked once all cases are read
 * (check_cases). */
static void set_params(rctx *c, rubric_test *t, const char *name, const char *v)
{
    char perr[200];
    kit_params p;
    if (kit_params_parse(v, &p, perr, sizeof perr)) {
        fail(c, c->in.lineno, "bad params '%s' in [test %s]: %s", v, t->name, perr);
        return;
    }
    copy_str(c, t->params, sizeof t->params, name, v);
    t->params_line = c->in.lineno;
}

/* points, timeout, threshold, min_speedup: numbers, each with its own lower bound. */
static void set_test_number(rctx *c, rubric_test *t, int k, const char *name, const char *v)
{
    double d;
    if (parse_double(v, &d)) {
        fail(c, c->in.lineno, "'%s' is not a number: '%s'", name, v);
        return;
    }
    if (k == K_POINTS && d < 0) {
        fail(c, c->in.lineno, "'points' must be >= 0: '%s'", v);
        return;
    }
    if ((k == K_TIMEOUT || k == K_THRESHOLD) && d <= 0) {
        fail(c, c->in.lineno, "'%s' must be > 0: '%s'", name, v);
        return;
    }
    if (k == K_MIN_SPEEDUP && d < 0) {
        fail(c, c->in.lineno, "'min_speedup' must be >= 0: '%s'", v);
        return;
    }
    *(k == K_POINTS ? &t->points : k == K_TIMEOUT ? &t->timeout_s : k == K_THRESHOLD ? &t->threshold
                                                                                     : &t->min_speedup) = d;
}

/* repeat, warmup, reps: whole numbers up to a million (warmup may be 0). */
static void set_test_count(rctx *c, rubric_test *t, int k, const char *name, const char *v)
{
    long l;
    if (parse_long(v, &l)) {
        fail(c, c->in.lineno, "'%s' is not a whole number: '%s'", name, v);
        return;
    }
    if (l < (k == K_WARMUP ? 0 : 1) || l > 1000000) {
        fail(c, c->in.lineno, "'%s' must be %s: '%s'", name, k == K_WARMUP ? ">= 0" : ">= 1", v);
        return;
    }
    *(k == K_REPEAT ? &t->repeat : k == K_WARMUP ? &t->warmup : &t->reps) = (int)l;
}

/* One key of test_keys, given once: its value checked and stored. */
static void set_test_key(rctx *c, rubric_test *t, int k, const char *name, const char *v)
{
    switch (k) {
    case K_TITLE:
        copy_str(c, t->title, sizeof t->title, name, v);
        return;
    case K_KIND:
        set_kind(c, t, v);
        return;
    case K_GROUP:
        if (!valid_name(v))
            fail(c, c->in.lineno, "bad group name '%s' (letters, digits, '_', '.', '-'; at most %d characters)", v,
                 NAME_LEN - 1);
        else
            copy_str(c, t->group, sizeof t->group, name, v);
        return;
    case K_VIS:
        set_visibility(c, t, v);
        return;
    case K_PARAMS:
        set_params(c, t, name, v);
        return;
    case K_PARTIAL:
    case K_SHOW_DETAILS:
        if (parse_yesno(v, k == K_PARTIAL ? &t->partial : &t->show_details))
            fail(c, c->in.lineno, "'%s' must be yes or no: '%s'", name, v);
        return;
    case K_GPU:
    case K_HOST: /* who else may use the GPU (correctness) or the host's CPUs (performance) meanwhile */
        if (!strcmp(v, "alone") || !strcmp(v, "shared"))
            *(k == K_GPU ? &t->gpu_alone : &t->host_alone) = !strcmp(v, "alone");
        else
            fail(c, c->in.lineno, "'%s' must be shared or alone: '%s'", name, v);
        return;
    case K_TOOL:
        if (strcmp(v, "memcheck") && strcmp(v, "racecheck") && strcmp(v, "synccheck") && strcmp(v, "initcheck"))
            fail(c, c->in.lineno, "unknown tool '%s' (memcheck, racecheck, synccheck or initcheck)", v);
        else
            copy_str(c, t->tool, sizeof t->tool, name, v);
        return;
    case K_POINTS:
    case K_TIMEOUT:
    case K_THRESHOLD:
    case K_MIN_SPEEDUP:
        set_test_number(c, t, k, name, v);
        return;
    default: /* repeat, warmup, reps */
        set_test_count(c, t, k, name, v);
        return;
    }
}

static void test_key(rctx *c, const char *name, const char *v)
{
    rubric_test *t = &c->r->tests[c->cur];
    if (!strcmp(name, "case")) {
        add_case(c, t, v);
        return;
    }
    char section[NAME_LEN + 8];
    snprintf(section, sizeof section, "[test %s]", t->name);
    int k = claim_key(c, test_keys, K_NKEYS, c->meta[c->cur].key_line, name, section);
    if (k >= 0)
        set_test_key(c, t, k, name, v);
}

/* ini_lines callbacks */
static void section_seen(void *owner, const char *name, int line) { begin_section((rctx *)owner, name, line); }
static void line_error(void *owner, int line, const char *msg) { fail((rctx *)owner, line, "%s", msg); }

static int handler(void *user, const char *section, const char *name, const char *value)
{
    rctx *c = user;
    if (c->e.failed)
        return 1;
    if (!ini_lines_key_ok(&c->in, &c->e, section, name, "rubric"))
        return 0;
    switch (c->sec) {
    case SEC_RUBRIC: rubric_key(c, name, value); break;
    case SEC_TEST: test_key(c, name, value); break;
    default: break; /* error already reported */
    }
    return !c->e.failed;
}

/* ---------- checks across keys ---------- */

/* [rubric] is there with its lab; a late policy needs a due date, and the cut-off comes after it. */
static void check_rubric_section(rctx *c)
{
    rubric *r = c->r;
    if (!c->rubric_line) {
        fail(c, 0, "no [rubric] section");
        return;
    }
    if (!c->rkey_line[R_LAB]) {
        fail(c, c->rubric_line, "[rubric] has no 'lab'");
        return;
    }
    if (!c->rkey_line[R_DUE] && (c->rkey_line[R_CUTOFF] || c->rkey_line[R_LATE_PENALTY])) {
        int k = c->rkey_line[R_CUTOFF] ? R_CUTOFF : R_LATE_PENALTY;
        fail(c, c->rkey_line[k], "'%s' needs a 'due' date in [rubric]", rubric_keys[k]);
        return;
    }
    if (r->cutoff && r->cutoff < r->due)
        fail(c, c->rkey_line[R_CUTOFF], "'cutoff' is before 'due' (line %d)", c->rkey_line[R_DUE]);
}

/* What every test needs: points, a case; a sanitizer test, its tool. */
static void check_required_keys(rctx *c, const rubric_test *t, const test_meta *m)
{
    if (!m->key_line[K_POINTS])
        fail(c, t->line, "test '%s' has no 'points'", t->name);
    else if (t->n_cases == 0)
        fail(c, t->line, "test '%s' has no case", t->name);
    else if (t->kind == KIND_SANITIZER && !t->tool[0])
        fail(c, t->line, "sanitizer test '%s' has no 'tool' (memcheck, racecheck, synccheck or initcheck)",
             t->name);
}

/* A key of one kind of test given to a test of another kind. */
static void check_keys_of_kind(rctx *c, const rubric_test *t, const test_meta *m)
{
    const char *kn = test_kind_name(t->kind);
    /* sanitizer sessions and timing loops decide their own GPU use */
    if (t->kind != KIND_CORRECTNESS && m->key_line[K_GPU]) {
        fail(c, m->key_line[K_GPU], "'gpu' is only for correctness tests (test '%s' is %s)", t->name, kn);
        return;
    }
    if (t->kind != KIND_SANITIZER && m->key_line[K_TOOL]) {
        fail(c, m->key_line[K_TOOL], "'tool' is only for sanitizer tests (test '%s' is %s)", t->name, kn);
        return;
    }
    static const int perf_keys[] = {K_THRESHOLD, K_MIN_SPEEDUP, K_WARMUP, K_REPS, K_HOST};
    if (t->kind != KIND_PERFORMANCE)
        for (int j = 0; j < (int)(sizeof perf_keys / sizeof perf_keys[0]); j++)
            if (m->key_line[perf_keys[j]]) {
                fail(c, m->key_line[perf_keys[j]], "'%s' is only for performance tests (test '%s' is %s)",
                     test_keys[perf_keys[j]], t->name, kn);
                return;
            }
}

/* A performance test's threshold, with partial credit starting below it. */
static void check_speedups(rctx *c, const rubric_test *t, const test_meta *m)
{
    if (!m->key_line[K_THRESHOLD]) {
        fail(c, t->line, "performance test '%s' has no 'threshold'", t->name);
        return;
    }
    if (t->min_speedup >= t->threshold) {
        int line = m->key_line[K_MIN_SPEEDUP] ? m->key_line[K_MIN_SPEEDUP] : m->key_line[K_THRESHOLD];
        fail(c, line, "min_speedup (%g) must be less than threshold (%g) in test '%s'", t->min_speedup,
             t->threshold, t->name);
    }
}

/* params + each case must make one valid parameter list. */
static void check_cases(rctx *c, const rubric_test *t)
{
    char perr[200];
    for (int j = 0; j < t->n_cases; j++) {
        kit_params p;
        if (kit_params_parse(t->params, &p, perr, sizeof perr) ||
            kit_params_merge(&p, t->cases[j], perr, sizeof perr)) {
            fail(c, t->case_lines[j], "case '%s' with params '%s' in [test %s]: %s", t->cases[j], t->params,
                 t->name, perr);
            return;
        }
    }
}

/* What a test left out: its group is its kind's name, its timeout the [rubric] one for its kind. */
static void fill_test_defaults(const rubric *r, rubric_test *t, const test_meta *m)
{
    if (!t->group[0])
        snprintf(t->group, sizeof t->group, "%s", test_kind_name(t->kind));
    if (!m->key_line[K_TIMEOUT])
        t->timeout_s = t->kind == KIND_SANITIZER ? r->sanitizer_timeout_s : r->timeout_s;
}

/* One test, checked in the order its messages are ranked; the first failure stops it. */
static void check_test(rctx *c, rubric_test *t, const test_meta *m)
{
    check_required_keys(c, t, m);
    if (!c->e.failed)
        check_keys_of_kind(c, t, m);
    if (!c->e.failed && t->kind == KIND_PERFORMANCE)
        check_speedups(c, t, m);
    if (!c->e.failed)
        check_cases(c, t);
    if (!c->e.failed)
        fill_test_defaults(c->r, t, m);
}

static void check_tests(rctx *c)
{
    rubric *r = c->r;
    check_rubric_section(c);
    if (c->e.failed)
        return;
    if (r->n_tests == 0) {
        fail(c, 0, "no tests (add [test NAME] sections)");
        return;
    }
    for (int i = 0; i < r->n_tests && !c->e.failed; i++)
        check_test(c, &r->tests[i], &c->meta[i]);
}

int rubric_load(const char *path, rubric *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->timeout_s = 10;
    r->build_timeout_s = 180;
    r->sanitizer_timeout_s = 120;
    r->call_limit_s = 2;
    r->memory_mb = 8192;
    r->max_processes = 256;
    r->output_kb = 256;
    r->file_mb = 2048;
    rctx c;
    memset(&c, 0, sizeof c);
    ini_error_init(&c.e, path, err, errlen);
    c.r = r;
    c.in.owner = &c;
    c.in.on_section = section_seen;
    c.in.on_error = line_error;
    if (ini_lines_parse(&c.in, &c.e, handler) != 0)
        return -1;
    if (!c.e.failed)
        check_tests(&c);
    free(c.meta);
    if (c.e.failed) {
        rubric_free(r);
        return -1;
    }
    return 0;
}

void rubric_free(rubric *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_tests; i++) {
        for (int j = 0; j < r->tests[i].n_cases; j++)
            free(r->tests[i].cases[j]);
        free(r->tests[i].cases);
        free(r->tests[i].case_lines);
    }
    free(r->tests);
    memset(r, 0, sizeof *r);
}
