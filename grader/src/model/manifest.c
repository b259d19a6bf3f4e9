/* manifest.c - loading labs/<lab>/kit/manifest.ini (see model.h).
 *
 *   [lab]
 *   title = Dot product (shared-memory reduction)
 *   student_files = dot.cu          ; the only files taken from a submission
 *   interface = dot.h               ; header in labs/<name>/student/
 *   require_kernel = yes            ; default yes
 *   forbid_libraries = yes          ; default yes
 *   evidence = host-copy kernel-time ; default both; "none" for no rule
 *                                   ; (common/src/evidence.c says what each proves)
 *   host_copy_share = 0.125         ; default 0.125, from 0 to 1
 *   nvcc_flags =                    ; optional
 *   starter_fails = racecheck perf  ; optional lists of test names
 *   starter_may_fail = float-large
 *   kit_sources = dataset.c         ; optional; default: every .c/.cu of the
 *                                   ; kit/ folder except check.c
 *
 * The lab's name and id come from the folder: .../labs/lab03-dot/kit/manifest.ini
 *  is "lab03-dot", id "lab03".  As in rubric.c, our own line reader (ini_lines.c) feeds
 * inih so that messages carry line numbers.
 */
#include "util/ini_lines.h"
#include "kit/checker.h" /* kit_evidence_parse: the checker's own reading of `evidence` */
#include "model/model.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    M_TITLE, M_STUDENT_FILES, M_INTERFACE, M_REQUIRE_KERNEL, M_FORBID_LIBRARIES, M_NVCC_FLAGS, M_STARTER_FAILS,
    M_STARTER_MAY_FAIL, M_KIT_SOURCES, M_EVIDENCE, M_HOST_COPY_SHARE, M_NKEYS
};
static const char *const mkeys[M_NKEYS] = {
    "title", "student_files", "interface", "require_kernel", "forbid_libraries", "nvcc_flags",
    "starter_fails", "starter_may_fail", "kit_sources", "evidence", "host_copy_share",
};

typedef struct {
    ini_error e;
    ini_lines in; /* the file, line by line */
    manifest *m;
    int in_lab;          /* current section is [lab] */
    int lab_line;
    int key_line[M_NKEYS];
} mctx;

/* The load's first error (ini_lines.h); later ones are dropped. */
#define fail(c, ...) ini_fail(&(c)->e, __VA_ARGS__)

static void begin_section(mctx *c, const char *name, int line)
{
    c->in_lab = 0;
    if (strcmp(name, "lab") != 0) {
        fail(c, line, "unknown section [%s] (the manifest has one section, [lab])", name);
        return;
    }
    if (c->lab_line) {
        fail(c, line, "duplicate section [lab] (first at line %d)", c->lab_line);
        return;
    }
    c->lab_line = line;
    c->in_lab = 1;
}

/* A file name taken from a submission or the kit: no folders, no dot files. */
static int plain_file_name(const char *s)
{
    if (!*s || *s == '.' || strlen(s) >= NAME_LEN)
        return 0;
    for (; *s; s++)
        if (*s == '/' || *s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

static int test_name_ok(const char *s)
{
    if (!*s || strlen(s) >= NAME_LEN)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

/* Splits a space-separated list into list[MAX_LIST][NAME_LEN]. */
static int parse_list(mctx *c, const char *key, const char *v, char (*list)[NAME_LEN], int *n,
                      int (*ok)(const char *), const char *what, const char *hint)
{
    *n = 0;
    const char *p = v;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && !isspace((unsigned char)*e))
            e++;
        char word[256];
        size_t k = (size_t)(e - p);
        if (k >= sizeof word)
            k = sizeof word - 1;
        memcpy(word, p, k);
        word[k] = '\0';
        p = e;
        if (!ok(word)) {
            fail(c, c->in.lineno, "'%s': bad %s '%s' (%s)", key, what, word, hint);
            return -1;
        }
        for (int i = 0; i < *n; i++)
            if (!strcmp(list[i], word)) {
                fail(c, c->in.lineno, "'%s': '%s' is listed twice", key, word);
                return -1;
            }
        if (*n == MAX_LIST) {
            fail(c, c->in.lineno, "'%s': too many entries (at most %d)", key, MAX_LIST);
            return -1;
        }
        memcpy(list[(*n)++], word, k + 1);
    }
    return 0;
}

static int yes_no(mctx *c, const char *key, const char *v, int *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
        *out = 1;
    else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
        *out = 0;
    else {
        fail(c, c->in.lineno, "'%s' must be yes or no: '%s'", key, v);
        return -1;
    }
    return 0;
}

/* title, nvcc_flags: text kept as written, if it fits. */
static void set_text(mctx *c, int k, const char *name, const char *v)
{
    manifest *m = c->m;
    char *dst = k == M_TITLE ? m->title : m->nvcc_flags;
    size_t cap = k == M_TITLE ? sizeof m->title : sizeof m->nvcc_flags;
    if (strlen(v) >= cap)
        fail(c, c->in.lineno, "'%s' is too long (at most %zu characters)", name, cap - 1);
    else
        strcpy(dst, v);
}

/* student_files, kit_sources: lists of plain file names; starter_fails, starter_may_fail: of test names. */
static void set_list(mctx *c, int k, const char *name, const char *v)
{
    manifest *m = c->m;
    char(*list)[NAME_LEN] = k == M_STUDENT_FILES ? m->student_files
                            : k == M_KIT_SOURCES ? m->kit_sources
                            : k == M_STARTER_FAILS ? m->starter_fails
                                                   : m->starter_may_fail;
    int *n = k == M_STUDENT_FILES ? &m->n_student_files
             : k == M_KIT_SOURCES ? &m->n_kit_sources
             : k == M_STARTER_FAILS ? &m->n_starter_fails
                                    : &m->n_starter_may_fail;
    if (k == M_STUDENT_FILES || k == M_KIT_SOURCES)
        parse_list(c, name, v, list, n, plain_file_name, "file name", "no '/', not starting with '.'");
    else
        parse_list(c, name, v, list, n, test_name_ok, "test name", "letters, digits, '_', '.', '-'");
}

/* The checker reads `evidence` itself (kit_evidence_parse); the manifest refuses what it would refuse. */
static void set_evidence(mctx *c, const char *v)
{
    manifest *m = c->m;
    kit_policy p;
    char why[200];
    if (strlen(v) >= sizeof m->evidence)
        fail(c, c->in.lineno, "'evidence' is too long (at most %zu characters)", sizeof m->evidence - 1);
    else if (kit_evidence_parse(v, &p, why, sizeof why) != 0)
        fail(c, c->in.lineno, "%s", why);
    else
        strcpy(m->evidence, *v ? v : "none");
}

static void set_host_copy_share(mctx *c, const char *v)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0 && x <= 1))
        fail(c, c->in.lineno, "'host_copy_share' must be a number from 0 to 1: '%s'", v);
    else
        c->m->host_copy_share = x;
}

/* One key of mkeys, given once: its value checked and stored. */
static void set_key(mctx *c, int k, const char *name, const char *v)
{
    manifest *m = c->m;
    switch (k) {
    case M_TITLE:
    case M_NVCC_FLAGS:
        set_text(c, k, name, v);
        break;
    case M_INTERFACE:
        if (!plain_file_name(v))
            fail(c, c->in.lineno, "'interface' must be a plain file name (no '/', not starting with '.'): '%s'", v);
        else
            strcpy(m->interface, v);
        break;
    case M_STUDENT_FILES:
    case M_KIT_SOURCES:
    case M_STARTER_FAILS:
    case M_STARTER_MAY_FAIL:
        set_list(c, k, name, v);
        break;
    case M_REQUIRE_KERNEL:
    case M_FORBID_LIBRARIES:
        yes_no(c, name, v, k == M_REQUIRE_KERNEL ? &m->require_kernel : &m->forbid_libraries);
        break;
    case M_EVIDENCE:
        set_evidence(c, v);
        break;
    case M_HOST_COPY_SHARE:
        set_host_copy_share(c, v);
        break;
    }
}

/* ini_lines callbacks */
static void section_seen(void *owner, const char *name, int line) { begin_section((mctx *)owner, name, line); }
static void line_error(void *owner, int line, const char *msg) { fail((mctx *)owner, line, "%s", msg); }

static int handler(void *user, const char *section, const char *name, const char *v)
{
    mctx *c = user;
    if (c->e.failed)
        return 1;
    if (!ini_lines_key_ok(&c->in, &c->e, section, name, "lab"))
        return 0;
    if (!c->in_lab)
        return 0;
    int k;
    for (k = 0; k < M_NKEYS; k++)
        if (!strcmp(mkeys[k], name))
            break;
    if (k == M_NKEYS) {
        fail(c, c->in.lineno, "unknown key '%s' in [lab]", name);
        return 0;
    }
    if (c->key_line[k]) {
        fail(c, c->in.lineno, "'%s' given twice in [lab] (first at line %d)", name, c->key_line[k]);
        return 0;
    }
    c->key_line[k] = c->in.lineno;
    set_key(c, k, name, v);
    return !c->e.failed;
}

static void copy_trunc(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* The lab's name from the manifest's path: the folder above the manifest's
 * own, kit/ (.../labs/lab03-dot/kit/manifest.ini: "lab03-dot").  Returns 0;
 * 1 when the manifest is not in a folder named kit; -1 when its folder
 * cannot be resolved (errno). */
static int folder_name(const char *path, char *out, size_t cap)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(buf, sizeof buf, ".");
    char *rp = realpath(*buf ? buf : "/", NULL); /* resolves ".", ".." and links */
    if (!rp)
        return -1;
    char *kit = strrchr(rp, '/');
    int rc = 1;
    if (kit && kit != rp && !strcmp(kit + 1, "kit")) {
        *kit = '\0';
        const char *b = strrchr(rp, '/');
        copy_trunc(out, cap, b ? b + 1 : rp);
        rc = 0;
    }
    free(rp);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Default kit_sources: every .c/.cu next to the manifest except check.c
 * (the same set the Makefile compiles into the lab's runner objects). */
static void scan_kit_sources(mctx *c)
{
    manifest *m = c->m;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", c->e.path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    DIR *d = opendir(*dir ? dir : "/");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        size_t n = strlen(nm);
        int src = (n > 2 && !strcmp(nm + n - 2, ".c")) || (n > 3 && !strcmp(nm + n - 3, ".cu"));
        if (!src || !strcmp(nm, "check.c") || !plain_file_name(nm))
            continue;
        if (m->n_kit_sources == MAX_LIST) {
            fail(c, 0, "more than %d kit sources in %s (list them with kit_sources =)", MAX_LIST, dir);
            break;
        }
        memcpy(m->kit_sources[m->n_kit_sources++], nm, n + 1);
    }
    closedir(d);
    qsort(m->kit_sources, (size_t)m->n_kit_sources, sizeof m->kit_sources[0], cmp_names);
}

int manifest_load(const char *path, manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->require_kernel = 1;
    m->forbid_libraries = 1;
    snprintf(m->evidence, sizeof m->evidence, "host-copy kernel-time");
    m->host_copy_share = KIT_HOST_COPY_SHARE_DEFAULT;
    mctx c;
    memset(&c, 0, sizeof c);
    ini_error_init(&c.e, path, err, errlen);
    c.m = m;

    char folder[256];
    int where = folder_name(path, folder, sizeof folder);
    if (where != 0) {
        if (where < 0)
            fail(&c, 0, "cannot find the lab folder's name: %s", strerror(errno));
        else
            fail(&c, 0, "not in a lab's kit/ folder (a lab's manifest is labs/<lab>/kit/manifest.ini)");
        return -1;
    }
    if (strlen(folder) >= sizeof m->name || !test_name_ok(folder)) {
        fail(&c, 0, "bad lab folder name '%s' (letters, digits, '_', '.', '-')", folder);
        return -1;
    }
    strcpy(m->name, folder);
    size_t idlen = strcspn(folder, "-");
    if (idlen == 0 || idlen >= sizeof m->id) {
        fail(&c, 0, "lab folder name '%s' does not start with an id like 'lab03-'", folder);
        return -1;
    }
    memcpy(m->id, folder, idlen);
    m->id[idlen] = '\0';

    c.in.owner = &c;
    c.in.on_section = section_seen;
    c.in.on_error = line_error;
    if (ini_lines_parse(&c.in, &c.e, handler) != 0)
        return -1;
    if (!c.e.failed) {
        if (!c.lab_line)
            fail(&c, 0, "no [lab] section");
        else if (!c.key_line[M_TITLE] || !m->title[0])
            fail(&c, c.lab_line, "[lab] has no 'title'");
        else if (m->n_student_files == 0)
            fail(&c, c.key_line[M_STUDENT_FILES] ? c.key_line[M_STUDENT_FILES] : c.lab_line,
                 "[lab] has no 'student_files'");
        else if (!c.key_line[M_INTERFACE])
            fail(&c, c.lab_line, "[lab] has no 'interface'");
    }
    if (!c.e.failed && !c.key_line[M_KIT_SOURCES])
        scan_kit_sources(&c);
    if (c.e.failed) {
        memset(m, 0, sizeof *m);
        return -1;
    }
    return 0;
}
