/* sanitizer.c - parsing compute-sanitizer output (see sanitizer.h).
 *
 * Every line of the tool starts with "========= "; the rest is the program's
 * own output and is ignored.  A report is a block:
 *
 *   ========= Invalid __global__ write of size 4 bytes          <- header
 *   =========     at kernel(int *)+0x70 in /tmp/x/vadd.cu:12    <- where
 *   =========     by thread (255,0,0) in block (3,0,0)
 *   =========     Address 0x7f... is out of bounds
 *   =========     Saved host backtrace up to driver entry point at kernel launch time
 *   =========         Host Frame: ...
 *   =========                                                   <- end of block
 *
 * racecheck's analysis report names both sides of a race:
 *   ========= Error: Race reported between Read access at f(int *)+0x170 in a.cu:10
 *   =========     and Write access at f(int *)+0x190 in a.cu:10 [26624 hazards]
 * and its hazard report ("--racecheck-report hazard") one hazard per block:
 *   ========= Warning: (Warp Level Programming) Potential WAR hazard detected at __shared__ 0x404 in block (0,0,0) :
 *   =========     Read Thread (2,0,0) at f(int *)+0x170 in a.cu:10
 *   =========     Write Thread (1,0,0) at f(int *)+0x190 in a.cu:10
 */
#include "grading/sanitizer.h"

#include "kit/protocol.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "========="

void san_report_init(san_report *r)
{
    memset(r, 0, sizeof *r);
    r->summary_errors = -1;
}

void san_report_free(san_report *r)
{
    free(r->items);
    san_report_init(r);
}

int san_error_count(const san_report *r)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        if (!r->items[i].warning)
            n++;
    return n;
}

const char *san_basename(const char *path)
{
    if (!path)
        return "";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void copy(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int line_number(const char *s)
{
    long v = strtol(s, NULL, 10);
    return v < 0 ? 0 : v > 100000000 ? 100000000 : (int)v;
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* ---------- locations ---------- */

typedef struct {
    char func[128];
    char file[256];
    int line;
    int ok;
} location;

/* The older form after "0x" (from p to end): "OFF in FILE:LINE:FUNC" or "OFF in FUNC". */
static location parse_old_location(const char *p, const char *end)
{
    location L;
    memset(&L, 0, sizeof L);
    while (p < end && isxdigit((unsigned char)*p))
        p++;
    if (end - p < 4 || strncmp(p, " in ", 4) != 0)
        return L;
    const char *rest = p + 4;
    /* FILE:LINE:FUNC ? */
    const char *c1 = memchr(rest, ':', (size_t)(end - rest));
    while (c1) {
        const char *q = c1 + 1;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        if (q > c1 + 1 && q < end && *q == ':') {
            copy(L.file, sizeof L.file, rest, (size_t)(c1 - rest));
            L.line = line_number(c1 + 1);
            copy(L.func, sizeof L.func, q + 1, (size_t)(end - (q + 1)));
            L.ok = 1;
            return L;
        }
        c1 = memchr(c1 + 1, ':', (size_t)(end - (c1 + 1)));
    }
    copy(L.func, sizeof L.func, rest, (size_t)(end - rest));
    L.ok = 1;
    return L;
}

/* Where FUNC ends in "FUNC+0xOFF[ in FILE:LINE]": at the first "+0x<hex>" followed by the end or " in ";
 * without one, "FUNC in FILE:LINE" (the last " in ") or just "FUNC".  *in: where FILE:LINE starts, NULL
 * when there is none. */
static const char *function_end(const char *s, const char *end, const char **in)
{
    *in = NULL;
    for (const char *p = strstr(s, "+0x"); p && p < end; p = strstr(p + 1, "+0x")) {
        const char *q = p + 3;
        while (q < end && isxdigit((unsigned char)*q))
            q++;
        if (q == p + 3)
            continue;
        if (q == end)
            return p;
        if (end - q >= 4 && !strncmp(q, " in ", 4)) {
            *in = q + 4;
            return p;
        }
    }
    const char *p = NULL;
    for (const char *x = strstr(s, " in "); x && x < end; x = strstr(x + 1, " in "))
        p = x;
    if (!p)
        return end;
    *in = p + 4;
    return p;
}

/* "FILE:LINE" (from in to end); without digits after its last ':', all of it is the file. */
static void parse_file_line(location *L, const char *in, const char *end)
{
    const char *colon = NULL;
    for (const char *x = end - 1; x >= in; x--)
        if (*x == ':') {
            colon = x;
            break;
        }
    int digits = colon && colon + 1 < end;
    for (const char *x = colon ? colon + 1 : end; x < end; x++)
        if (!isdigit((unsigned char)*x))
            digits = 0;
    if (digits) {
        copy(L->file, sizeof L->file, in, (size_t)(colon - in));
        L->line = line_number(colon + 1);
    } else
        copy(L->file, sizeof L->file, in, (size_t)(end - in));
}

/* Parses what follows "at ": "FUNC+0xOFF in FILE:LINE", "FUNC+0xOFF" (without
 * the offset: "FUNC in FILE:LINE", "FUNC"), or the older "0xOFF in FILE:LINE:FUNC" /
 * "0xOFF in FUNC".  Any trailing " [N hazards]" must already be cut off. */
static location parse_location(const char *s)
{
    location L;
    memset(&L, 0, sizeof L);
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (!n)
        return L;
    const char *end = s + n;
    if (s[0] == '0' && s[1] == 'x')
        return parse_old_location(s + 2, end);
    const char *in;
    const char *fend = function_end(s, end, &in);
    copy(L.func, sizeof L.func, s, (size_t)(fend - s));
    if (in)
        parse_file_line(&L, in, end);
    L.ok = 1;
    return L;
}

/* ---------- findings ---------- */

static san_finding *add_finding(san_report *r, const char *kind, const location *a, const location *b, long count,
                                int warning)
{
    static const location none;
    if (!a)
        a = &none;
    if (!b)
        b = &none;
    if (count < 1)
        count = 1;
    for (int i = 0; i < r->n; i++) {
        san_finding *f = &r->items[i];
        if (f->warning == warning && f->line == a->line && f->other_line == b->line && !strcmp(f->kind, kind) &&
            !strcmp(f->file, a->file) && !strcmp(f->other_file, b->file)) {
            f->count += count;
            return f;
        }
    }
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        san_finding *it = realloc(r->items, (size_t)cap * sizeof *it);
        if (!it)
            return NULL; /* out of memory: drop the finding rather than crash */
        r->items = it;
        r->cap = cap;
    }
    san_finding *f = &r->items[r->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    snprintf(f->file, sizeof f->file, "%s", a->file);
    f->line = a->line;
    snprintf(f->func, sizeof f->func, "%s", a->func);
    snprintf(f->other_file, sizeof f->other_file, "%s", b->file);
    f->other_line = b->line;
    f->count = count;
    f->warning = warning;
    return f;
}

/* The kit's barrier check: "...kit barrier check: FILE:LINE: WHAT: WHY"
 * (kit/protocol.h; anywhere in the line: the program may have printed
 * something without a newline before it). */
static void kit_barrier_line(san_report *r, const char *s, size_t n)
{
    const char *at = memmem(s, n, KIT_BARRIER_PREFIX, strlen(KIT_BARRIER_PREFIX));
    if (!at)
        return;
    at += strlen(KIT_BARRIER_PREFIX);
    char line[1024];
    copy(line, sizeof line, at, n - (size_t)(at - s));
    size_t m = strlen(line);
    while (m && isspace((unsigned char)line[m - 1]))
        line[--m] = '\0';
    char *p = line;
    /* FILE:LINE: - the first ":<digits>: " */
    char *colon = p, *what = NULL;
    location L;
    memset(&L, 0, sizeof L);
    while ((colon = strchr(colon, ':'))) {
        char *q = colon + 1;
        while (isdigit((unsigned char)*q))
            q++;
        if (q > colon + 1 && q[0] == ':' && q[1] == ' ') {
            *colon = '\0'; /* the student's file by its name, as the kit's messages name it */
            copy(L.file, sizeof L.file, san_basename(p), strlen(san_basename(p)));
            L.line = line_number(colon + 1);
            what = q + 2;
            break;
        }
        colon++;
    }
    if (!what)
        return;
    char *why = strstr(what, ": ");
    if (why)
        *why = '\0', why += 2;
    san_finding *f = add_finding(r, what, &L, NULL, 1, 0);
    if (f && why && !f->note[0])
        snprintf(f->note, sizeof f->note,
                 "%s: undefined behaviour, even where the values come out right (this GPU lets a barrier go on "
                 "without the threads that exited or wait at another one; other GPUs and compilers hang or mix "
                 "up the steps)",
                 why);
}

/* Kind of a race from the two access kinds ("Read", "Write", ...). */
static void race_kind(char *out, size_t cap, const char *a, const char *b)
{
    int ra = !strcmp(a, "Read"), wa = !strcmp(a, "Write");
    int rb = !strcmp(b, "Read"), wb = !strcmp(b, "Write");
    if ((ra && wb) || (wa && rb))
        snprintf(out, cap, "RAW/WAR race between a read and a write");
    else if (wa && wb)
        snprintf(out, cap, "WAW race between two writes");
    else {
        char la[32], lb[32];
        snprintf(la, sizeof la, "%s", a);
        snprintf(lb, sizeof lb, "%s", b);
        for (char *p = la; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        for (char *p = lb; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        snprintf(out, cap, "race between a %s and a %s", la, lb);
    }
}

/* Headers that are findings even when no "at FUNC" line follows. */
static const char *const known_headers[] = {
    "Invalid ", "Uninitialized ", "Barrier error", "Program hit ", "Out-of-range ", "Misaligned ", "Leaked ",
    "Illegal ", "Malloc/Free error", "Cuda API error", "CUDA API error", "Hardware exception", "Stack overflow",
    "Warp ", "Lane ", "Unspecified ", "Fatal ", "Device heap", "Address out of bounds", "Memory leak",
    "Unused memory", "Race ", "Potential ",
};

/* Top-level lines that are neither findings nor errors. */
static const char *const info_lines[] = {
    "COMPUTE-SANITIZER", "LEAK SUMMARY", "Note:", "Info:", "This ", "Use ", "To ",
};

typedef enum { P_NONE, P_HEADER, P_RACE, P_HAZARD } pending_kind;

typedef struct {
    pending_kind kind;
    char header[96];
    int known;           /* header from known_headers */
    int warning;
    location a, b;
    int have_a, have_b;
    char acc_a[32], acc_b[32];
    long count;
} pending;

static void flush(san_report *r, pending *p)
{
    switch (p->kind) {
    case P_HEADER:
        if (p->known || p->have_a)
            add_finding(r, p->header, p->have_a ? &p->a : NULL, NULL, 1, p->warning);
        break;
    case P_RACE: {
        char kind[96];
        race_kind(kind, sizeof kind, p->acc_a, p->acc_b[0] ? p->acc_b : "?");
        add_finding(r, kind, p->have_a ? &p->a : NULL, p->have_b ? &p->b : NULL, p->count, p->warning);
        break;
    }
    case P_HAZARD:
        add_finding(r, p->header, p->have_a ? &p->a : NULL, p->have_b ? &p->b : NULL, 1, p->warning);
        break;
    case P_NONE:
        break;
    }
    memset(p, 0, sizeof *p);
}

/* "Read access at LOC" -> access kind "Read" and LOC (after "at "). */
static const char *split_access(const char *s, char *acc, size_t cap)
{
    const char *sp = strstr(s, " access at ");
    if (!sp) {
        acc[0] = '\0';
        return NULL;
    }
    copy(acc, cap, s, (size_t)(sp - s));
    return sp + strlen(" access at ");
}

/* Cuts " [N hazards]" off a race's last line; returns N (1 when absent). */
static long cut_hazards(char *s)
{
    char *b = strrchr(s, '[');
    if (!b)
        return 1;
    char *e;
    long n = strtol(b + 1, &e, 10);
    if (e == b + 1 || strncmp(e, " hazard", 7) != 0)
        return 1;
    while (b > s && b[-1] == ' ')
        b--;
    *b = '\0';
    return n > 0 ? n : 1;
}

static void tool_failure(san_report *r, const char *msg)
{
    if (!r->tool_failed) {
        r->tool_failed = 1;
        copy(r->tool_message, sizeof r->tool_message, msg, strlen(msg));
    }
}

/* "Read access at LOC": the access kind into acc, LOC into *L and *have (whether it was read). */
static void read_access(const char *s, char *acc, size_t cap, location *L, int *have)
{
    const char *loc = split_access(s, acc, cap);
    if (loc) {
        *L = parse_location(loc);
        *have = L->ok;
    }
}

/* The tool's own lines: its summaries, the program's error, the tool's internal error, notes.
 * Returns 1 when s is one of them (nothing more to do), 0 otherwise. */
static int tool_line(san_report *r, const char *s)
{
    long a, b;
    char tail[16];
    if (!strncmp(s, "ERROR SUMMARY: ", 15)) {
        /* "ERROR SUMMARY: 3 errors"; not "... 900 errors were not printed ..." */
        int used = 0;
        if (sscanf(s + 15, "%ld %15s%n", &a, tail, &used) == 2 && s[15 + used] == '\0' &&
            (!strcmp(tail, "errors") || !strcmp(tail, "error")) && r->summary_errors < 0)
            r->summary_errors = a;
        return 1;
    }
    if (!strncmp(s, "RACECHECK SUMMARY: ", 19)) {
        /* "RACECHECK SUMMARY: 5 hazards displayed (10244 errors, 16388 warnings)" */
        const char *q = strchr(s, '(');
        if (q && sscanf(q, "(%ld error", &b) == 1)
            r->summary_errors = b;
        return 1;
    }
    if (starts(s, "Target application returned an error")) {
        r->app_error = 1;
        return 1;
    }
    if (strstr(s, "Internal Sanitizer Error") || strstr(s, "Internal sanitizer error")) {
        tool_failure(r, s);
        return 1;
    }
    for (size_t i = 0; i < sizeof info_lines / sizeof info_lines[0]; i++)
        if (starts(s, info_lines[i]))
            return 1;
    return 0;
}

/* racecheck's analysis report: "Read access at LOC" and "Write access at LOC [N hazards]" (what follows
 * "Race reported between "), usually on two lines (detail_line reads the second); one line too. */
static void race_start(pending *p, const char *sides, int warning)
{
    p->kind = P_RACE;
    p->warning = warning;
    p->count = 1;
    char line[1024];
    snprintf(line, sizeof line, "%s", sides);
    char *and = strstr(line, " and ");
    char *second = NULL;
    if (and) {
        *and = '\0';
        second = and + 5;
    }
    if (second)
        p->count = cut_hazards(second);
    else
        p->count = cut_hazards(line);
    read_access(line, p->acc_a, sizeof p->acc_a, &p->a, &p->have_a);
    if (second)
        read_access(second, p->acc_b, sizeof p->acc_b, &p->b, &p->have_b);
}

/* "Error: BODY" or "Warning: BODY" (s: the whole line): a race, a hazard, the program's crash, the
 * tool's failure, or another warning, kept if a location follows. */
static void error_or_warning(san_report *r, pending *p, const char *s, const char *body, int warning)
{
    if (starts(body, "Race reported between ")) {
        race_start(p, body + strlen("Race reported between "), warning);
        return;
    }
    const char *pot = strstr(body, "Potential ");
    if (pot && strstr(pot, " hazard detected")) {
        /* "(Warp Level Programming) Potential WAR hazard detected at ..." */
        char hz[16] = "";
        sscanf(pot + 10, "%15[A-Z]", hz);
        p->kind = P_HAZARD;
        p->warning = warning;
        snprintf(p->header, sizeof p->header, "%s hazard%s", hz[0] ? hz : "data",
                 strstr(body, "Warp Level") ? " (warp-level)" : "");
        return;
    }
    if (starts(body, "process didn't terminate successfully")) {
        /* the program crashed (a signal): its failure, not the tool's */
        r->app_error = 1;
        return;
    }
    if (!warning) {
        /* "Error: Device not supported", "Error: No attachable process found", ... */
        tool_failure(r, s);
        return;
    }
    /* other warnings: keep as a (warning) finding if a location follows */
    p->kind = P_HEADER;
    p->warning = 1;
    copy(p->header, sizeof p->header, body, strlen(body));
}

/* A report header ("Invalid __global__ write of size 4 bytes"): a finding once an "at LOC" line follows,
 * or without one for known_headers. */
static void header_start(pending *p, const char *s)
{
    p->kind = P_HEADER;
    for (size_t i = 0; i < sizeof known_headers / sizeof known_headers[0]; i++)
        if (starts(s, known_headers[i]))
            p->known = 1;
    char h[512];
    copy(h, sizeof h, s, strlen(s));
    size_t n = strlen(h);
    while (n && (h[n - 1] == ':' || h[n - 1] == ' '))
        h[--n] = '\0';
    /* "Leaked 64 bytes at 0x7f..." - the address would keep every leak apart */
    char *at = strstr(h, " at 0x");
    if (at && starts(h, "Leaked "))
        *at = '\0';
    copy(p->header, sizeof p->header, h, strlen(h));
}

/* A line of the tool's not indented: the start of a block, or a line of its own. */
static void top_line(san_report *r, pending *p, const char *s)
{
    if (tool_line(r, s))
        return;
    if (starts(s, "Error: "))
        error_or_warning(r, p, s, s + 7, 0);
    else if (starts(s, "Warning: "))
        error_or_warning(r, p, s, s + 9, 1);
    else
        header_start(p, s);
}

static void detail_line(pending *p, char *s)
{
    if (p->kind == P_RACE) {
        if (starts(s, "and ")) {
            p->count = cut_hazards(s);
            read_access(s + 4, p->acc_b, sizeof p->acc_b, &p->b, &p->have_b);
        }
        return;
    }
    if (p->kind == P_HAZARD) {
        /* "Read Thread (2,0,0) at FUNC+0x170 in FILE:LINE" */
        const char *th = strstr(s, " Thread ");
        const char *at = th ? strstr(th, " at ") : NULL;
        if (th && at) {
            if (!p->have_a) {
                p->a = parse_location(at + 4);
                p->have_a = p->a.ok;
            } else if (!p->have_b) {
                p->b = parse_location(at + 4);
                p->have_b = p->b.ok;
            }
        }
        return;
    }
    if (p->kind == P_HEADER && !p->have_a && starts(s, "at ")) {
        p->a = parse_location(s + 3);
        p->have_a = p->a.ok;
    }
}

int sanitizer_parse(const char *text, size_t len, san_report *r)
{
    pending p;
    memset(&p, 0, sizeof p);
    size_t i = 0;
    char line[2048];
    while (i < len) {
        const char *s = text + i;
        const char *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        i += n + (nl ? 1 : 0);
        if (n < sizeof PREFIX - 1 || memcmp(s, PREFIX, sizeof PREFIX - 1) != 0) {
            kit_barrier_line(r, s, n); /* the program's own output, but for the kit's barrier check */
            continue;
        }
        s += sizeof PREFIX - 1;
        n -= sizeof PREFIX - 1;
        if (n && *s == '=')
            continue; /* a longer run of '=': not the tool's prefix */
        if (n && *s == ' ') {
            s++;
            n--;
        }
        copy(line, sizeof line, s, n);
        for (char *q = line; *q; q++)
            if (*q == '\r' || *q == '\0')
                *q = ' ';
        size_t m = strlen(line);
        while (m && isspace((unsigned char)line[m - 1]))
            line[--m] = '\0';
        if (!m) {
            flush(r, &p); /* a blank line ends a block */
            continue;
        }
        int indent = 0;
        while (line[indent] == ' ')
            indent++;
        if (indent == 0) {
            flush(r, &p);
            top_line(r, &p, line);
        } else
            detail_line(&p, line + indent);
    }
    flush(r, &p);
    return 0;
}
