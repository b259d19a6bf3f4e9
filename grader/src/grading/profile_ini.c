/* profile_ini.c - reading and checking a lab's profile.ini (see profile_ini.h).
 * As rubric.c and manifest.c, through ini_lines.c, so that every message
 * names its line. */
#include "grading/profile_ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ini_lines.h"
#include "grading/labparams.h"

enum { P_LOOK, P_TEST, P_CASE, P_LAUNCHES, P_TIMEOUT, P_NKEYS };
static const char *const pkeys[P_NKEYS] = {"look", "test", "case", "launches", "timeout"};

typedef struct {
    ini_error e;
    ini_lines in;
    profile_decl *d;
    int in_profile, profile_line;
    int key_line[P_NKEYS];
} pctx;

#define fail(c, ...) ini_fail(&(c)->e, __VA_ARGS__)

static void begin_section(pctx *c, const char *name, int line)
{
    c->in_profile = 0;
    if (strcmp(name, "profile")) {
        fail(c, line, "unknown section [%s] (profile.ini has one section, [profile])", name);
    } else if (c->profile_line) {
        fail(c, line, "duplicate section [profile] (first at line %d)", c->profile_line);
    } else {
        c->profile_line = line;
        c->in_profile = 1;
    }
}

/* look = a b c (spaces or commas): each a known check, once, at most PROFILE_MAX_LOOKS. */
static void set_look(pctx *c, const char *v)
{
    char buf[512], names[256];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        const profile_check *k = profile_check_find(w);
        if (!k) {
            profile_check_names(names, sizeof names);
            fail(c, c->in.lineno, "look '%s': no such check; the checks are %s", w, names);
            return;
        }
        for (int i = 0; i < c->d->n_look; i++)
            if (c->d->look[i] == k) {
                fail(c, c->in.lineno, "look: '%s' is listed twice", w);
                return;
            }
        if (c->d->n_look == PROFILE_MAX_LOOKS) {
            fail(c, c->in.lineno, "look: at most %d checks (one line each: a few a student can act on)",
                 PROFILE_MAX_LOOKS);
            return;
        }
        c->d->look[c->d->n_look++] = k;
    }
    if (!c->d->n_look)
        fail(c, c->in.lineno, "look is empty: name 1 to %d checks", PROFILE_MAX_LOOKS);
}

/* A whole number from lo to hi, else the line's error. */
static int whole(pctx *c, const char *key, const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) {
        fail(c, c->in.lineno, "%s '%s': a whole number from %ld to %ld", key, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

static void set_key(pctx *c, int k, const char *v)
{
    profile_decl *d = c->d;
    long x;
    switch (k) {
    case P_LOOK: set_look(c, v); break;
    case P_TEST:
        if (!*v || strlen(v) >= sizeof d->test)
            fail(c, c->in.lineno, "test '%s': a test name of the rubric", v);
        else
            snprintf(d->test, sizeof d->test, "%s", v), d->test_line = c->in.lineno;
        break;
    case P_CASE:
        if (!*v || strlen(v) >= sizeof d->params)
            fail(c, c->in.lineno, "case: parameters of the lab, at most %zu characters", sizeof d->params - 1);
        else
            snprintf(d->params, sizeof d->params, "%s", v), d->params_line = c->in.lineno;
        break;
    case P_LAUNCHES:
        if (whole(c, "launches", v, 1, 16, &x) == 0)
            d->launches = (int)x;
        break;
    case P_TIMEOUT:
        if (whole(c, "timeout", v, 10, 1800, &x) == 0)
            d->timeout_s = (double)x;
        break;
    }
}

static void section_seen(void *owner, const char *name, int line) { begin_section((pctx *)owner, name, line); }
static void line_error(void *owner, int line, const char *msg) { fail((pctx *)owner, line, "%s", msg); }

static int handler(void *user, const char *section, const char *name, const char *v)
{
    pctx *c = user;
    if (c->e.failed)
        return 1;
    if (!ini_lines_key_ok(&c->in, &c->e, section, name, "profile") || !c->in_profile)
        return 0;
    int k = 0;
    while (k < P_NKEYS && strcmp(pkeys[k], name))
        k++;
    if (k == P_NKEYS) {
        fail(c, c->in.lineno, "unknown key '%s' in [profile] (the keys: look, test, case, launches, timeout)", name);
        return 0;
    }
    if (c->key_line[k]) {
        fail(c, c->in.lineno, "'%s' given twice (first at line %d)", name, c->key_line[k]);
        return 0;
    }
    c->key_line[k] = c->in.lineno;
    set_key(c, k, v);
    return !c->e.failed;
}

int profile_ini_load(const char *path, profile_decl *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "%s", path);
    snprintf(d->test, sizeof d->test, "performance");
    d->launches = 4;
    d->timeout_s = 120;
    pctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    ini_error_init(&c.e, path, err, errlen);
    c.in.owner = &c;
    c.in.on_section = section_seen;
    c.in.on_error = line_error;
    ini_lines_parse(&c.in, &c.e, handler);
    if (!c.e.failed && !c.profile_line)
        fail(&c, 0, "no [profile] section");
    else if (!c.e.failed && !c.key_line[P_LOOK])
        fail(&c, c.profile_line, "[profile] has no 'look' (1 to %d checks)", PROFILE_MAX_LOOKS);
    return c.e.failed ? -1 : 0;
}

/* The performance tests of the rubric, for a message. */
static void performance_tests(const rubric *r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < r->n_tests && used < len; i++)
        if (r->tests[i].kind == KIND_PERFORMANCE) {
            int w = snprintf(out + used, len - used, "%s%s", used ? " " : "", r->tests[i].name);
            used += w > 0 ? (size_t)w : 0;
        }
    if (!out[0])
        snprintf(out, len, "none");
}

int profile_ini_for_lab(const engine *e, profile_decl *d, char *err, size_t errlen)
{
    char path[1100];
    fmt_into(path, sizeof path, "%s/profile.ini", e->lab_dir);
    if (access(path, F_OK) != 0) {
        memset(d, 0, sizeof *d);
        return 0;
    }
    if (profile_ini_load(path, d, err, errlen) != 0)
        return -1;
    const rubric_test *t = rubric_find(&e->rub, d->test);
    if (!t || t->kind != KIND_PERFORMANCE) {
        char names[512];
        performance_tests(&e->rub, names, sizeof names);
        snprintf(err, errlen, "%s:%d: test '%s': not a performance test of %s (its performance tests: %s)", path,
                 d->test_line ? d->test_line : 1, d->test, e->rubric_path, names);
        return -1;
    }
    if (d->params[0]) {
        char why[512];
        int bad = lab_params_check(e, d->params, why, sizeof why);
        if (bad != 0) {
            snprintf(err, errlen, "%s:%d: case '%s': %s", path, d->params_line, d->params, why);
            return -1;
        }
    }
    return 1;
}
