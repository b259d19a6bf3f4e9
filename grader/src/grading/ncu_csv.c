/* ncu_csv.c - Nsight Compute's CSV pages and messages (see ncu_csv.h). */
#include "grading/ncu_csv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 4096    /* columns of one row; the raw page of a full section set has about 1,500 */
#define MAX_LINES 1000000  /* source rows kept (lines of files): far above any lab */

/* ---------------------------------------------------------------- lines */

/* The next line of text[*pos..len): its start and length without "\r\n";
 * 0 at the end. */
static int next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n)
{
    if (*pos >= len)
        return 0;
    const char *s = text + *pos;
    const char *nl = memchr(s, '\n', len - *pos);
    size_t k = nl ? (size_t)(nl - s) : len - *pos;
    *pos += k + (nl ? 1 : 0);
    if (k && s[k - 1] == '\r')
        k--;
    *line = s, *n = k;
    return 1;
}

/* ----------------------------------------------------------------- CSV */

int ncu_csv_fields(const char *line, size_t len, char **fields, int max)
{
    int n = 0;
    size_t i = 0;
    while (n < max) {
        size_t cap = 64, k = 0;
        char *f = malloc(cap);
        if (!f)
            break;
        int quoted = i < len && line[i] == '"';
        i += quoted;
        for (; i < len; i++) {
            char c = line[i];
            if (quoted && c == '"') {
                if (i + 1 < len && line[i + 1] == '"') {
                    i++; /* "" is one quote */
                } else {
                    quoted = 0; /* the closing quote: the field goes on to the comma */
                    continue;
                }
            } else if (!quoted && c == ',') {
                break;
            }
            if (k + 2 > cap) {
                char *g = realloc(f, cap *= 2);
                if (!g)
                    break;
                f = g;
            }
            f[k++] = c;
        }
        f[k] = 0;
        fields[n++] = f;
        if (i >= len)
            break;
        i++; /* the comma */
    }
    return n;
}

void ncu_fields_free(char **fields, int n)
{
    for (int i = 0; i < n; i++)
        free(fields[i]);
}

/* A CSV row of ncu's: it quotes every field. */
static int csv_row(const char *line, size_t n) { return n > 1 && line[0] == '"'; }

/* ---------------------------------------------------------------- units */

/* The factor of one unit word to its base: "Gbyte" 1e9, "nsecond" 1e-9,
 * "ns" 1e-9 (what ncu 2025.3 prints for gpu__time_duration with
 * --print-units base, on the H100), "%" 1. */
static double word_scale(const char *w, size_t n)
{
    static const struct {
        const char *word;
        double f;
    } times[] = {{"nsecond", 1e-9}, {"usecond", 1e-6}, {"msecond", 1e-3}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (n == strlen(times[i].word) && !strncmp(w, times[i].word, n))
            return times[i].f;
    if (n < 2 || !islower((unsigned char)w[1]))
        return 1;
    switch (w[0]) {
    case 'K':
    case 'k': return 1e3;
    case 'M': return 1e6;
    case 'G': return 1e9;
    case 'T': return 1e12;
    default: return 1;
    }
}

/* "Gbyte/second" 1e9, "cycle/nsecond" 1e9, "Kbyte" 1e3, "" 1. */
static double unit_scale(const char *u)
{
    const char *slash = strchr(u, '/');
    size_t n = slash ? (size_t)(slash - u) : strlen(u);
    double f = word_scale(u, n);
    if (slash)
        f /= word_scale(slash + 1, strlen(slash + 1));
    return f;
}

/* A number as ncu prints it ("1,304.5", "4.0e-05", " 12 "): 1 with *v, 0 for "n/a", "" or text. */
static int number(const char *s, double *v)
{
    char buf[128];
    size_t k = 0;
    for (; *s && k + 1 < sizeof buf; s++)
        if (*s != ',')
            buf[k++] = *s;
    buf[k] = 0;
    char *p = buf, *end;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || *s)
        return 0; /* empty, or too long to be a number */
    *v = strtod(p, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != p && !*end;
}

/* ------------------------------------------------------------ raw page */

static int find_field(char **f, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(f[i], name))
            return i;
    return -1;
}

/* Keeps the header (taken over) in r. */
static void raw_header(ncu_raw *r, char **f, int n)
{
    r->cols = malloc((size_t)n * sizeof *r->cols);
    if (!r->cols) {
        ncu_fields_free(f, n);
        return;
    }
    memcpy(r->cols, f, (size_t)n * sizeof *f);
    r->n_cols = n;
}

/* One launch's row: its numbers scaled by the units row (scale). */
static void raw_row(ncu_raw *r, char **f, int n, const double *scale, int id_col, int name_col)
{
    double id;
    if (!number(f[id_col], &id))
        return; /* not a launch (the units row, a stray line) */
    ncu_launch *rows = realloc(r->rows, (size_t)(r->n_rows + 1) * sizeof *rows);
    if (!rows)
        return;
    r->rows = rows;
    ncu_launch *l = &rows[r->n_rows];
    memset(l, 0, sizeof *l);
    l->value = calloc((size_t)r->n_cols, sizeof *l->value);
    l->has = calloc((size_t)r->n_cols, 1);
    if (!l->value || !l->has) {
        free(l->value);
        free(l->has);
        return;
    }
    r->n_rows++;
    l->id = (long)id;
    if (name_col >= 0 && name_col < n)
        snprintf(l->name, sizeof l->name, "%s", f[name_col]);
    for (int c = 0; c < n && c < r->n_cols; c++) {
        double v;
        if (c != id_col && c != name_col && number(f[c], &v)) {
            l->value[c] = v * scale[c];
            l->has[c] = 1;
        }
    }
}

int ncu_raw_parse(const char *text, size_t len, ncu_raw *r)
{
    memset(r, 0, sizeof *r);
    char **f = malloc(MAX_FIELDS * sizeof *f);
    double *scale = NULL;
    if (!f)
        return -1;
    int id_col = -1, name_col = -1, units_seen = 0;
    const char *line;
    size_t n, pos = 0;
    while (next_line(text, len, &pos, &line, &n)) {
        if (!csv_row(line, n))
            continue; /* ==PROF== lines, the program's output */
        int k = ncu_csv_fields(line, n, f, MAX_FIELDS);
        if (!r->cols) {
            if (k > 1 && !strcmp(f[0], "ID") && find_field(f, k, "Kernel Name") >= 0) {
                name_col = find_field(f, k, "Kernel Name");
                id_col = 0;
                raw_header(r, f, k);
                scale = malloc((size_t)k * sizeof *scale);
                for (int c = 0; scale && c < k; c++)
                    scale[c] = 1;
                continue; /* the fields now belong to r */
            }
        } else if (!units_seen && k > 0 && !f[0][0]) {
            units_seen = 1; /* "","",...,"byte","Gbyte/second" */
            for (int c = 0; scale && c < k && c < r->n_cols; c++)
                scale[c] = unit_scale(f[c]);
        } else if (scale) {
            raw_row(r, f, k, scale, id_col, name_col);
        }
        ncu_fields_free(f, k);
    }
    free(f);
    free(scale);
    return r->cols ? 0 : -1;
}

void ncu_raw_free(ncu_raw *r)
{
    ncu_fields_free(r->cols, r->n_cols);
    free(r->cols);
    for (int i = 0; i < r->n_rows; i++) {
        free(r->rows[i].value);
        free(r->rows[i].has);
    }
    free(r->rows);
    memset(r, 0, sizeof *r);
}

int ncu_raw_col(const ncu_raw *r, const char *name) { return r->cols ? find_field(r->cols, r->n_cols, name) : -1; }

int ncu_raw_get(const ncu_raw *r, int row, const char *name, double *v)
{
    int c = ncu_raw_col(r, name);
    if (c < 0 || row < 0 || row >= r->n_rows || !r->rows[row].has[c])
        return 0;
    *v = r->rows[row].value[c];
    return 1;
}

/* --------------------------------------------------------- source page */

/* The columns' titles as the Source page prints them (more than one: the
 * title changed between releases). */
static const char *const src_titles[NCU_SRC_NCOLS][3] = {
    [NCU_SRC_SECTORS_GLOBAL] = {"L2 Theoretical Sectors Global"},
    [NCU_SRC_SECTORS_GLOBAL_IDEAL] = {"L2 Theoretical Sectors Global Ideal"},
    [NCU_SRC_SECTORS_GLOBAL_EXCESSIVE] = {"L2 Theoretical Sectors Global Excessive"},
    [NCU_SRC_WAVEFRONTS_SHARED] = {"L1 Wavefronts Shared"},
    [NCU_SRC_WAVEFRONTS_SHARED_IDEAL] = {"L1 Wavefronts Shared Ideal"},
    [NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE] = {"L1 Wavefronts Shared Excessive"},
    [NCU_SRC_DIVERGENT_BRANCHES] = {"Divergent Branches"},
    [NCU_SRC_INST_EXECUTED] = {"Instructions Executed"},
    [NCU_SRC_STALL_SAMPLES] = {"Warp Stall Sampling (All Samples)", "Warp Stall Sampling (All Cycles)"},
};

ncu_op ncu_sass_op(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '@') { /* a predicate: "@P0 ", "@!PT " */
        while (*s && !isspace((unsigned char)*s))
            s++;
        while (isspace((unsigned char)*s))
            s++;
    }
    char m[16];
    size_t k = 0;
    while (k + 1 < sizeof m && (isupper((unsigned char)s[k]) || isdigit((unsigned char)s[k]) || s[k] == '_'))
        m[k] = s[k], k++;
    m[k] = 0;
    static const struct {
        const char *mnemonic;
        ncu_op op;
    } ops[] = {
        {"LDG", NCU_OP_GLOBAL_LOAD},   {"STG", NCU_OP_GLOBAL_STORE},  {"LDS", NCU_OP_SHARED_LOAD},
        {"LDSM", NCU_OP_SHARED_LOAD},  {"STS", NCU_OP_SHARED_STORE},  {"ATOMS", NCU_OP_SHARED_ATOMIC},
        {"ATOM", NCU_OP_GLOBAL_ATOMIC}, {"ATOMG", NCU_OP_GLOBAL_ATOMIC}, {"RED", NCU_OP_GLOBAL_ATOMIC},
        {"REDG", NCU_OP_GLOBAL_ATOMIC},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(m, ops[i].mnemonic))
            return ops[i].op;
    return NCU_OP_OTHER;
}

/* The header of one block: where its columns are. */
typedef struct {
    int line, sass, cols[NCU_SRC_NCOLS];
} src_header;

/* The first column's title: "Line No" in the releases read so far (others
 * spelled alike are taken too: the format has no version). */
static int line_title(const char *t)
{
    static const char *const titles[] = {"Line No", "Line", "# Line", "Line Number", "Line #"};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (!strcmp(t, titles[i]))
            return 1;
    return 0;
}

static int read_src_header(char **f, int k, src_header *h, ncu_source *s)
{
    if (k < 2 || !line_title(f[0]))
        return 0;
    h->line = 0;
    h->sass = -1;
    int sources = 0;
    for (int c = 1; c < k; c++)
        if (!strcmp(f[c], "Source") && ++sources == 2)
            h->sass = c; /* the first is the CUDA line's text, the second the instruction's */
    for (int j = 0; j < NCU_SRC_NCOLS; j++) {
        h->cols[j] = -1;
        for (int t = 0; t < 3 && src_titles[j][t] && h->cols[j] < 0; t++)
            h->cols[j] = find_field(f, k, src_titles[j][t]);
        if (h->cols[j] >= 0)
            s->has_col[j] = 1;
    }
    return 1;
}

/* The entry of (file, line), made when new; NULL when out of room. */
static ncu_line *line_entry(ncu_source *s, const char *file, int line)
{
    for (int i = s->n - 1; i >= 0; i--) /* rows come in order: the last entries match first */
        if (s->lines[i].line == line && !strcmp(s->lines[i].file, file))
            return &s->lines[i];
    if (s->n == s->cap) {
        if (s->cap >= MAX_LINES)
            return NULL;
        int cap = s->cap ? 2 * s->cap : 64;
        ncu_line *p = realloc(s->lines, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        s->lines = p, s->cap = cap;
    }
    ncu_line *e = &s->lines[s->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->file, sizeof e->file, "%s", file);
    e->line = line;
    return e;
}

static void add_values(double *into, char **f, int k, const src_header *h)
{
    for (int j = 0; j < NCU_SRC_NCOLS; j++) {
        double v;
        if (h->cols[j] >= 0 && h->cols[j] < k && number(f[h->cols[j]], &v))
            into[j] += v;
    }
}

int ncu_source_parse(const char *text, size_t len, ncu_source *s)
{
    memset(s, 0, sizeof *s);
    char **f = malloc(MAX_FIELDS * sizeof *f);
    if (!f)
        return -1;
    char file[NCU_NAME_LEN] = "";
    src_header h;
    int have_header = 0, any_header = 0;
    ncu_line *cur = NULL; /* the CUDA line the SASS rows below belong to */
    const char *line;
    size_t n, pos = 0;
    while (next_line(text, len, &pos, &line, &n)) {
        if (!csv_row(line, n))
            continue;
        int k = ncu_csv_fields(line, n, f, MAX_FIELDS);
        if (k >= 2 && !strcmp(f[0], "File Path")) {
            snprintf(file, sizeof file, "%s", f[1]);
            have_header = 0, cur = NULL;
        } else if (k >= 1 && (!strcmp(f[0], "Function Name") || !strcmp(f[0], "Kernel Name"))) {
            have_header = 0, cur = NULL;
        } else if (read_src_header(f, k, &h, s)) {
            have_header = any_header = 1, cur = NULL;
        } else if (have_header && k > 0) {
            double ln;
            if (number(f[h.line], &ln) && ln > 0 && ln < 1e9) {
                cur = line_entry(s, file, (int)ln);
                if (cur)
                    add_values(cur->v[NCU_OP_LINE], f, k, &h);
                /* a line's row that is also its first instruction (no separate totals row) */
                if (cur && h.sass >= 0 && h.sass < k && f[h.sass][0])
                    add_values(cur->v[ncu_sass_op(f[h.sass])], f, k, &h);
            } else if (cur && h.sass >= 0 && h.sass < k) {
                add_values(cur->v[ncu_sass_op(f[h.sass])], f, k, &h);
            }
        }
        ncu_fields_free(f, k);
    }
    free(f);
    return any_header ? 0 : -1;
}

void ncu_source_free(ncu_source *s)
{
    free(s->lines);
    memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ messages */

static int contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(s + i, needle, k))
            return 1;
    return 0;
}

void ncu_messages_scan(const char *text, size_t len, ncu_messages *m)
{
    memset(m, 0, sizeof *m);
    const char *line;
    size_t n, pos = 0;
    static const char err[] = "==ERROR==";
    while (next_line(text, len, &pos, &line, &n)) {
        if (n < 6 || line[0] != '=' || line[1] != '=')
            continue; /* ncu's own lines only, not the program's */
        if (contains(line, n, "ERR_NVGPUCTRPERM"))
            m->permission = 1;
        if (contains(line, n, "No kernels were profiled"))
            m->no_kernels = 1;
        if (!m->error[0] && n > sizeof err - 1 && !memcmp(line, err, sizeof err - 1)) {
            const char *t = line + sizeof err - 1;
            size_t k = n - (sizeof err - 1);
            while (k && *t == ' ')
                t++, k--;
            snprintf(m->error, sizeof m->error, "%.*s", (int)(k < sizeof m->error ? k : sizeof m->error - 1), t);
        }
    }
}
