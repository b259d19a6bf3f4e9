/* roster.c - roster, manual points and the LMS export (see roster.h). */
#include "course/roster.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/exit_codes.h"
#include "output/report.h"
#include "util/strbuf.h"

#define MAX_FIELDS 16

/* One CSV record (RFC 4180: quotes, doubled quotes, commas and newlines in
 * quotes).  Returns the number of fields, 0 at the end, -1 on a bad record. */
static int csv_record(FILE *f, strbuf *fields, int *line)
{
    for (int i = 0; i < MAX_FIELDS; i++)
        sb_clear(&fields[i]);
    int n = 0, c, quoted = 0, any = 0;
    while ((c = fgetc(f)) != EOF) {
        any = 1;
        if (quoted) {
            if (c == '"') {
                int d = fgetc(f);
                if (d == '"')
                    sb_addn(&fields[n], "\"", 1);
                else {
                    quoted = 0;
                    if (d != EOF)
                        ungetc(d, f);
                }
            } else {
                if (c == '\n')
                    (*line)++;
                char ch = (char)c;
                sb_addn(&fields[n], &ch, 1);
            }
        } else if (c == '"' && fields[n].len == 0)
            quoted = 1;
        else if (c == ',') {
            if (++n >= MAX_FIELDS)
                return -1;
        } else if (c == '\n') {
            (*line)++;
            return n + 1;
        } else if (c != '\r') {
            char ch = (char)c;
            sb_addn(&fields[n], &ch, 1);
        }
    }
    return quoted ? -1 : any ? n + 1 : 0;
}

typedef struct {
    char login[256], id[128], name[256], email[256], comment[512];
    double manual;
    int has_manual, in_roster, line;
    grade_result g;
    int has_result;
} student;

typedef struct {
    student *s;
    int n;
} class_list;

static student *find(class_list *c, const char *login, int create)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->s[i].login, login))
            return &c->s[i];
    if (!create)
        return NULL;
    student *ns = realloc(c->s, (size_t)(c->n + 1) * sizeof *ns);
    if (!ns)
        return NULL;
    c->s = ns;
    student *s = &c->s[c->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->login, sizeof s->login, "%s", login);
    return s;
}

/* Reads a CSV with a header naming `want` columns (the first is the key). */
static int read_csv(const char *path, const char *const *want, int nwant, int *required, class_list *c,
                    int (*row)(class_list *, const char *path, int line, strbuf *f, const int *col))
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "kitgrade: %s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    strbuf fields[MAX_FIELDS];
    for (int i = 0; i < MAX_FIELDS; i++)
        sb_init(&fields[i]);
    int line = 1, col[8], rc = 0;
    int n = csv_record(f, fields, &line);
    for (int k = 0; k < nwant; k++) {
        col[k] = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(sb_str(&fields[i]), want[k]))
                col[k] = i;
        if (col[k] < 0 && required[k]) {
            fprintf(stderr, "kitgrade: %s:1: the header has no column '%s' (it needs:", path, want[k]);
            for (int j = 0; j < nwant; j++)
                if (required[j])
                    fprintf(stderr, " %s", want[j]);
            fprintf(stderr, ")\n");
            rc = -1;
        }
    }
    while (!rc) {
        int at = line;
        n = csv_record(f, fields, &line);
        if (n == 0)
            break;
        if (n < 0) {
            fprintf(stderr, "kitgrade: %s:%d: malformed CSV record (an unclosed quote, or over %d fields)\n", path, at,
                    MAX_FIELDS);
            rc = -1;
            break;
        }
        if (n == 1 && !fields[0].len)
            continue; /* empty line */
        if (row(c, path, at, fields, col) != 0)
            rc = -1;
    }
    for (int i = 0; i < MAX_FIELDS; i++)
        sb_free(&fields[i]);
    fclose(f);
    return rc;
}

static const char *field(strbuf *f, const int *col, int k) { return col[k] >= 0 ? sb_str(&f[col[k]]) : ""; }

static int roster_row(class_list *c, const char *path, int line, strbuf *f, const int *col)
{
    const char *login = field(f, col, 0);
    if (!*login) {
        fprintf(stderr, "kitgrade: %s:%d: empty login\n", path, line);
        return -1;
    }
    student *s = find(c, login, 1);
    if (s && s->in_roster) {
        fprintf(stderr, "kitgrade: %s:%d: login '%s' twice (first at line %d)\n", path, line, login, s->line);
        return -1;
    }
    if (!s)
        return -1;
    s->in_roster = 1, s->line = line;
    snprintf(s->id, sizeof s->id, "%s", field(f, col, 1));
    snprintf(s->name, sizeof s->name, "%s", field(f, col, 2));
    snprintf(s->email, sizeof s->email, "%s", field(f, col, 3));
    return 0;
}

static int manual_row(class_list *c, const char *path, int line, strbuf *f, const int *col)
{
    const char *login = field(f, col, 0), *pts = field(f, col, 1);
    student *s = find(c, login, 0);
    if (!s) {
        fprintf(stderr, "kitgrade: %s:%d: no student '%s' in the results or the roster\n", path, line, login);
        return -1;
    }
    if (s->has_manual) {
        fprintf(stderr, "kitgrade: %s:%d: points for '%s' twice\n", path, line, login);
        return -1;
    }
    char *end;
    errno = 0;
    double v = strtod(pts, &end);
    if (!*pts) /* not graded yet: no manual points */
        return 0;
    if (end == pts || *end || errno || !isfinite(v) || v < 0) {
        fprintf(stderr, "kitgrade: %s:%d: points '%s' for '%s' is not a number >= 0\n", path, line, pts, login);
        return -1;
    }
    s->manual = v, s->has_manual = 1;
    snprintf(s->comment, sizeof s->comment, "%s", field(f, col, 2));
    return 0;
}

/* A field of final.csv / lms.csv: no spreadsheet formulas from names. */
static void csv_cell(strbuf *b, const char *s, int last)
{
    if (*s && strchr("=+-@\t\r", *s)) {
        strbuf q;
        sb_init(&q);
        sb_printf(&q, "'%s", s);
        report_csv_field(b, sb_str(&q));
        sb_free(&q);
    } else
        report_csv_field(b, s);
    sb_add(b, last ? "\n" : ",");
}

static const char merge_usage[] =
    "usage: kitgrade merge OUT [--roster roster.csv] [--manual manual.csv] [--manual-max POINTS] "
    "[--include-not-graded]\n"
    "  OUT is a batch's output folder (OUT/results/*.json); writes OUT/final.csv and OUT/lms.csv\n"
    "  (students whose tests were not graded are left out of lms.csv unless --include-not-graded)\n";

typedef struct {
    const char *out, *roster, *manual;
    double manual_max;
    int include_not_graded; /* lms.csv: also the rows whose tests were not graded, with their points */
} merge_opts;

/* The command line into o.  -1: go on; otherwise the exit status (2). */
static int merge_args(int argc, char **argv, merge_opts *o)
{
    *o = (merge_opts){0};
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--roster") && i + 1 < argc)
            o->roster = argv[++i];
        else if (!strcmp(argv[i], "--manual") && i + 1 < argc)
            o->manual = argv[++i];
        else if (!strcmp(argv[i], "--manual-max") && i + 1 < argc) {
            char *end;
            o->manual_max = strtod(argv[++i], &end);
            if (*end || o->manual_max < 0) {
                fprintf(stderr, "kitgrade: --manual-max '%s' is not a number >= 0\n", argv[i]);
                return KITGRADE_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--include-not-graded"))
            o->include_not_graded = 1;
        else if (argv[i][0] != '-' && !o->out)
            o->out = argv[i];
        else {
            fputs(merge_usage, stderr);
            return KITGRADE_EXIT_USAGE;
        }
    }
    if (!o->out) {
        fputs(merge_usage, stderr);
        return KITGRADE_EXIT_USAGE;
    }
    return -1;
}

/* The results in OUT/results (one JSON each) into c, one student each; the lab's id into lab
 * (NAME_LEN).  0, or 2 when there is none. */
static int read_results(const char *out, class_list *c, char *lab)
{
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/results/*.json", out);
    glob_t gl;
    if (glob(pattern, 0, NULL, &gl) != 0) {
        fprintf(stderr, "kitgrade: no results in %s/results: run the batch first (make grade LAB=.. SUBMISSIONS=.. "
                        "OUT=%s)\n", out, out);
        return KITGRADE_EXIT_USAGE;
    }
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        grade_result g;
        char err[512];
        if (report_read_json(gl.gl_pathv[i], &g, err, sizeof err) != 0) {
            fprintf(stderr, "kitgrade: %s\n", err);
            continue;
        }
        student *s = find(c, g.student, 1);
        if (!s) {
            grade_result_free(&g);
            continue;
        }
        s->g = g, s->has_result = 1;
        snprintf(lab, NAME_LEN, "%s", g.lab);
    }
    globfree(&gl);
    return 0;
}

/* The roster and the manual points, where given, into c.  0, or 2 (bad
 * input: a file missing or unreadable, a bad line said with its line). */
static int read_roster_and_manual(const merge_opts *o, class_list *c)
{
    static const char *const rcols[] = {"login", "student_id", "name", "email"};
    static const char *const mcols[] = {"login", "points", "comment"};
    int rreq[] = {1, 1, 1, 1}, mreq[] = {1, 1, 0};
    if (o->roster && read_csv(o->roster, rcols, 4, rreq, c, roster_row) != 0)
        return KITGRADE_EXIT_USAGE;
    if (o->manual && read_csv(o->manual, mcols, 3, mreq, c, manual_row) != 0)
        return KITGRADE_EXIT_USAGE;
    return 0;
}

/* A student's status in final.csv: the result's (grade_result_status), or
 * "no result" for a rostered student the batch has no result of. */
static const char *student_status(const student *s)
{
    return s->has_result ? grade_result_status(&s->g) : "no result";
}

/* 1 when the student's test points are a grade (they reach lms.csv). */
static int student_graded(const student *s) { return s->has_result && grade_result_graded(&s->g); }

/* One student's row of final.csv and, when it goes there, of lms.csv.
 * lab_max: the lab's maximum (the same for every result of the batch), for
 * a student without a result.  Points that are no grade leave final.csv's
 * tests and total empty; its status says why. */
static void student_rows(const student *s, double manual_max, double lab_max, int to_lms, strbuf *fin, strbuf *lms)
{
    char num[64], tests_s[64] = "", total_s[64] = "";
    double tests = s->has_result ? s->g.score : 0, max = (s->has_result ? s->g.max_score : lab_max) + manual_max;
    if (student_graded(s)) {
        snprintf(tests_s, sizeof tests_s, "%g", tests);
        snprintf(total_s, sizeof total_s, "%g", tests + s->manual);
    }
    csv_cell(fin, s->login, 0);
    csv_cell(fin, s->id, 0);
    csv_cell(fin, s->name, 0);
    csv_cell(fin, s->email, 0);
    sb_printf(fin, "%s,%s,%s,%g,%g,", tests_s,
              s->has_manual ? (snprintf(num, sizeof num, "%g", s->manual), num) : "", total_s, max,
              s->has_result ? s->g.late_penalty_pct : 0);
    csv_cell(fin, s->has_result ? s->g.version : "", 0);
    csv_cell(fin, s->comment, 0);
    csv_cell(fin, student_status(s), 1);
    if (!to_lms)
        return;
    csv_cell(lms, s->name[0] ? s->name : s->login, 0);
    csv_cell(lms, "", 0);
    csv_cell(lms, s->id, 0);
    csv_cell(lms, s->login, 0);
    csv_cell(lms, "", 0);
    csv_cell(lms, s->email, 0);
    sb_printf(lms, "%g\n", tests + s->manual);
}

/* OUT/final.csv and OUT/lms.csv from c.  0, or 4 when one cannot be written. */
static int write_merge(const merge_opts *o, const class_list *c, const char *lab)
{
    strbuf fin, lms;
    sb_init(&fin);
    sb_init(&lms);
    sb_add(&fin, "login,student_id,name,email,tests,manual,total,max,late_penalty_pct,version,comment,status\n");
    sb_printf(&lms, "Student,ID,SIS User ID,SIS Login ID,Section,Email address,%s\n", lab[0] ? lab : "lab");
    int missing_roster = 0, rc = 0, n_lms = 0;
    double lab_max = 0;
    strbuf left_out; /* "alice (no GPU), bob (no result)" */
    sb_init(&left_out);
    for (int i = 0; i < c->n; i++)
        if (c->s[i].has_result && c->s[i].g.max_score > lab_max)
            lab_max = c->s[i].g.max_score;
    for (int i = 0; i < c->n; i++) {
        const student *s = &c->s[i];
        missing_roster += o->roster && !s->in_roster;
        if (o->roster && !s->in_roster)
            fprintf(stderr, "kitgrade: warning: '%s' has a result but is not in %s (row kept, no id)\n", s->login,
                    o->roster);
        int to_lms = student_graded(s) || o->include_not_graded;
        if (!student_graded(s)) { /* why, in a word: "not graded (no GPU)" -> "no GPU" */
            const char *st = student_status(s), *why = strchr(st, '(');
            sb_printf(&left_out, "%s%s (%.*s)", left_out.len ? ", " : "", s->login,
                      why ? (int)strcspn(why + 1, ")") : (int)strlen(st), why ? why + 1 : st);
        }
        n_lms += to_lms;
        student_rows(s, o->manual_max, lab_max, to_lms, &fin, &lms);
    }
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/final.csv", o->out);
    if (write_file_atomic(path, sb_str(&fin), fin.len, err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        rc = KITGRADE_EXIT_INTERNAL;
    }
    snprintf(path, sizeof path, "%s/lms.csv", o->out);
    if (!rc && write_file_atomic(path, sb_str(&lms), lms.len, err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        rc = KITGRADE_EXIT_INTERNAL;
    }
    if (!rc)
        printf("merge: %d students; %s/final.csv (tests + manual points), %s/lms.csv (LMS import, %d of them)%s\n", c->n,
               o->out, o->out, n_lms, missing_roster ? "; some students are not in the roster (above)" : "");
    if (!rc && left_out.len) /* said in full: the LMS must not take these for grades by accident */
        printf("merge: tests not graded: %s; %s\n", sb_str(&left_out),
               o->include_not_graded ? "in lms.csv with their points all the same (--include-not-graded)"
                                     : "left out of lms.csv (--include-not-graded writes them with their points)");
    sb_free(&left_out);
    sb_free(&fin);
    sb_free(&lms);
    return rc;
}

int roster_merge_command(int argc, char **argv)
{
    merge_opts o;
    int rc = merge_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    class_list c = {0};
    char lab[NAME_LEN] = "";
    if (read_results(o.out, &c, lab) != 0)
        return KITGRADE_EXIT_USAGE;
    rc = read_roster_and_manual(&o, &c);
    if (!rc)
        rc = write_merge(&o, &c, lab);
    for (int i = 0; i < c.n; i++)
        if (c.s[i].has_result)
            grade_result_free(&c.s[i].g);
    free(c.s);
    return rc;
}
