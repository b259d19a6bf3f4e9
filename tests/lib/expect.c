/* expect.c - expect.ini, parsed with inih (see expect.h). */
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "expect.h"

void expect_defaults(expectation *x)
{
    memset(x, 0, sizeof *x);
    x->build = 1;
    x->needs_gpu = 1;
}

void expect_split(expect_list *l, const char *text)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *t = strtok_r(buf, " \t,", &save); t && l->n < EXPECT_MAX_ITEMS;
         t = strtok_r(NULL, " \t,", &save))
        snprintf(l->name[l->n++], EXPECT_NAME_LEN, "%s", t);
}

static int yes(const char *v) { return !strcmp(v, "yes"); }

static int handler(void *user, const char *section, const char *name, const char *value)
{
    expectation *x = user;
    if (strcmp(section, "expect"))
        return 0;
    if (!strcmp(name, "fails")) {
        if (!strcmp(value, "all"))
            x->all_fail = 1;
        else
            expect_split(&x->must_fail, value);
    } else if (!strcmp(name, "may_fail"))
        expect_split(&x->may_fail, value);
    else if (!strcmp(name, "passes"))
        expect_split(&x->must_pass, value);
    else if (!strcmp(name, "build"))
        x->build = !strcmp(value, "ok") ? 1 : !strcmp(value, "fail") ? 0 : -1;
    else if (!strcmp(name, "output") && x->n_output < 8)
        snprintf(x->output[x->n_output++], sizeof x->output[0], "%s", value);
    else if (!strcmp(name, "absent") && x->n_absent < 8)
        snprintf(x->absent[x->n_absent++], sizeof x->absent[0], "%s", value);
    else if (!strcmp(name, "max_speedup"))
        x->max_speedup = atof(value);
    else if (!strcmp(name, "gpu"))
        x->needs_gpu = strcmp(value, "no") != 0;
    else if (!strcmp(name, "alone"))
        x->alone = yes(value);
    else if (!strcmp(name, "needs_sandbox"))
        x->needs_sandbox = yes(value);
    else if (!strcmp(name, "needs_memory_gb"))
        x->needs_memory_gb = atoi(value);
    else if (!strcmp(name, "profile") && x->n_profile < 8)
        snprintf(x->profile[x->n_profile++], sizeof x->profile[0], "%s", value);
    else if (!strcmp(name, "profile_absent") && x->n_profile_absent < 8)
        snprintf(x->profile_absent[x->n_profile_absent++], sizeof x->profile_absent[0], "%s", value);
    else if (strcmp(name, "why"))
        return 0;
    return 1;
}

int expect_load(const char *path, expectation *x, char *err, size_t errlen)
{
    expect_defaults(x);
    int rc = ini_parse(path, handler, x);
    if (rc == 0)
        return 0;
    if (rc < 0)
        snprintf(err, errlen, "%s: unreadable (%s)", path, rc == -1 ? strerror(errno) : "out of memory");
    else
        snprintf(err, errlen,
                 "%s: line %d unreadable (an unknown key, or over 200 characters: continue a long 'why' on an "
                 "indented line)",
                 path, rc);
    return -1;
}
