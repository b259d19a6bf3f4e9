/* mtx.c - Matrix Market coordinate files <-> CSR (see kit/mtx.h).
 * Format: https://math.nist.gov/MatrixMarket/formats.html */
#include "kit/mtx.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { FIELD_REAL, FIELD_INTEGER, FIELD_PATTERN } mtx_field;

typedef struct {
    int r, c; /* 0-based */
    double v;
} triplet;

/* Reader state: the stream, the current line and what has been collected. */
typedef struct {
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
    char *err;
    size_t errlen;
    mtx_field field;
    int symmetric;
    int rows, cols;
    triplet *t;
    size_t nt, tcap;
} mtx_reader;

static int fail(mtx_reader *m, const char *fmt, ...)
{
    if (m->err && m->errlen) {
        int w = snprintf(m->err, m->errlen, "line %ld: ", m->lineno);
        if (w >= 0 && (size_t)w < m->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(m->err + w, m->errlen - (size_t)w, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* Next line; returns 0 at end of file. */
static int next_line(mtx_reader *m)
{
    if (getline(&m->line, &m->cap, m->f) < 0)
        return 0;
    m->lineno++;
    return 1;
}

static int is_skippable(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0' || *s == '%';
}

/* Next line that is neither blank nor a comment; 0 at end of file. */
static int next_data_line(mtx_reader *m)
{
    while (next_line(m))
        if (!is_skippable(m->line))
            return 1;
    return 0;
}

/* Splits s in place into at most max whitespace-separated tokens; returns
 * how many there were (which may exceed max: the extras are not stored). */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            return n;
        if (n < max)
            tok[n] = s;
        n++;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int parse_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return end != s && *end == '\0' && errno == 0 ? 0 : -1;
}

static int parse_banner(mtx_reader *m)
{
    if (!next_line(m)) {
        m->lineno = 1;
        return fail(m, "empty file (expected a '%%%%MatrixMarket' banner)");
    }
    char *tok[5];
    int n = split(m->line, tok, 5);
    if (n < 1 || strcmp(tok[0], "%%MatrixMarket") != 0)
        return fail(m, "not a Matrix Market file: the first line must start with '%%%%MatrixMarket'");
    if (n != 5)
        return fail(m, "bad banner: expected '%%%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (strcasecmp(tok[1], "matrix") != 0)
        return fail(m, "unsupported object '%s' (only 'matrix')", tok[1]);
    if (strcasecmp(tok[2], "array") == 0)
        return fail(m, "unsupported format 'array' (only 'coordinate' files are read)");
    if (strcasecmp(tok[2], "coordinate") != 0)
        return fail(m, "bad banner: unknown format '%s'", tok[2]);
    if (strcasecmp(tok[3], "real") == 0 || strcasecmp(tok[3], "double") == 0)
        m->field = FIELD_REAL;
    else if (strcasecmp(tok[3], "integer") == 0)
        m->field = FIELD_INTEGER;
    else if (strcasecmp(tok[3], "pattern") == 0)
        m->field = FIELD_PATTERN;
    else if (strcasecmp(tok[3], "complex") == 0)
        return fail(m, "unsupported field 'complex' (real, integer or pattern)");
    else
        return fail(m, "bad banner: unknown field '%s'", tok[3]);
    if (strcasecmp(tok[4], "general") == 0)
        m->symmetric = 0;
    else if (strcasecmp(tok[4], "symmetric") == 0)
        m->symmetric = 1;
    else if (strcasecmp(tok[4], "hermitian") == 0 || strcasecmp(tok[4], "skew-symmetric") == 0)
        return fail(m, "unsupported symmetry '%s' (general or symmetric)", tok[4]);
    else
        return fail(m, "bad banner: unknown symmetry '%s'", tok[4]);
    return 0;
}

static int parse_size(mtx_reader *m, long long *nnz)
{
    if (!next_data_line(m)) {
        m->lineno++;
        return fail(m, "missing size line 'rows columns entries'");
    }
    char *tok[3];
    long long r, c;
    int n = split(m->line, tok, 3);
    if (n != 3 || parse_ll(tok[0], &r) || parse_ll(tok[1], &c) || parse_ll(tok[2], nnz))
        return fail(m, "bad size line: expected three integers 'rows columns entries'");
    if (r < 0 || c < 0 || *nnz < 0 || r > INT_MAX || c > INT_MAX)
        return fail(m, "bad size line: sizes must be between 0 and %d", INT_MAX);
    if (m->symmetric && r != c)
        return fail(m, "a symmetric matrix must be square (got %lld x %lld)", r, c);
    if (*nnz > (m->symmetric ? INT_MAX / 2 : INT_MAX) || (r && c && *nnz > r * c))
        return fail(m, "bad size line: %lld entries do not fit a %lld x %lld matrix", *nnz, r, c);
    m->rows = (int)r;
    m->cols = (int)c;
    return 0;
}

static int push(mtx_reader *m, int r, int c, double v)
{
    if (m->nt == m->tcap) {
        size_t ncap = m->tcap ? 2 * m->tcap : 1024;
        triplet *nt = realloc(m->t, ncap * sizeof *nt);
        if (!nt)
            return fail(m, "out of memory");
        m->t = nt;
        m->tcap = ncap;
    }
    m->t[m->nt++] = (triplet){r, c, v};
    return 0;
}

static int parse_entry(mtx_reader *m)
{
    char *tok[3];
    int want = m->field == FIELD_PATTERN ? 2 : 3;
    int n = split(m->line, tok, 3);
    if (n < want)
        return fail(m, "expected '%s', found %d value%s", want == 2 ? "row column" : "row column value", n,
                    n == 1 ? "" : "s");
    if (n > want)
        return fail(m, "unexpected trailing data after the entry");
    long long i, j;
    if (parse_ll(tok[0], &i) || parse_ll(tok[1], &j))
        return fail(m, "bad index '%s %s' (expected integers)", tok[0], tok[1]);
    if (i < 1 || i > m->rows)
        return fail(m, "row index %lld out of range 1..%d", i, m->rows);
    if (j < 1 || j > m->cols)
        return fail(m, "column index %lld out of range 1..%d", j, m->cols);
    double v = 1.0;
    if (m->field == FIELD_INTEGER) {
        long long iv;
        if (parse_ll(tok[2], &iv))
            return fail(m, "bad integer value '%s'", tok[2]);
        v = (double)iv;
    } else if (m->field == FIELD_REAL) {
        char *end;
        v = strtod(tok[2], &end);
        if (end == tok[2] || *end != '\0')
            return fail(m, "bad value '%s' (not a number)", tok[2]);
        if (!isfinite(v))
            return fail(m, "value '%s' is not finite", tok[2]);
    }
    if (push(m, (int)i - 1, (int)j - 1, v))
        return -1;
    /* symmetric files store one triangle: add the mirror (the diagonal once) */
    if (m->symmetric && i != j && push(m, (int)j - 1, (int)i - 1, v))
        return -1;
    return 0;
}

static int cmp_col(const void *pa, const void *pb)
{
    const triplet *a = pa, *b = pb;
    return (a->c > b->c) - (a->c < b->c);
}

/* Triplets -> CSR: bucket by row, sort each row by column, sum duplicates. */
static int build_csr(mtx_reader *m, kit_csr *out)
{
    size_t rows = (size_t)m->rows;
    size_t *start = calloc(rows + 1, sizeof *start);
    triplet *by_row = malloc((m->nt ? m->nt : 1) * sizeof *by_row);
    out->row_ptr = calloc(rows + 1, sizeof *out->row_ptr);
    out->col = malloc((m->nt ? m->nt : 1) * sizeof *out->col);
    out->val = malloc((m->nt ? m->nt : 1) * sizeof *out->val);
    if (!start || !by_row || !out->row_ptr || !out->col || !out->val) {
        free(start);
        free(by_row);
        kit_csr_free(out);
        return fail(m, "out of memory");
    }
    for (size_t k = 0; k < m->nt; k++)
        start[m->t[k].r + 1]++;
    for (size_t i = 0; i < rows; i++)
        start[i + 1] += start[i];
    for (size_t k = 0; k < m->nt; k++)
        by_row[start[m->t[k].r]++] = m->t[k];
    /* start[i] now points at the end of row i; shift back */
    for (size_t i = rows; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
    int nnz = 0;
    for (size_t i = 0; i < rows; i++) {
        triplet *row = by_row + start[i];
        size_t len = start[i + 1] - start[i];
        qsort(row, len, sizeof *row, cmp_col);
        for (size_t k = 0; k < len;) {
            double sum = 0; /* duplicates summed in double, rounded to float once */
            size_t e = k;
            for (; e < len && row[e].c == row[k].c; e++)
                sum += row[e].v;
            out->col[nnz] = row[k].c;
            out->val[nnz] = (float)sum;
            nnz++;
            k = e;
        }
        out->row_ptr[i + 1] = nnz;
    }
    out->rows = m->rows;
    out->cols = m->cols;
    out->nnz = nnz;
    free(start);
    free(by_row);
    return 0;
}

int kit_mtx_read(FILE *f, kit_csr *out, char *err, size_t errlen)
{
    mtx_reader m = {0};
    m.f = f;
    m.err = err;
    m.errlen = errlen;
    memset(out, 0, sizeof *out);
    long long nnz = 0;
    int rc = -1;
    if (parse_banner(&m) || parse_size(&m, &nnz))
        goto done;
    for (long long k = 0; k < nnz; k++) {
        if (!next_data_line(&m)) {
            m.lineno++;
            fail(&m, "file ends after %lld of %lld entries", k, nnz);
            goto done;
        }
        if (parse_entry(&m))
            goto done;
    }
    if (next_data_line(&m)) {
        fail(&m, "more entries than the %lld declared in the size line", nnz);
        goto done;
    }
    if (ferror(f)) {
        fail(&m, "read error");
        goto done;
    }
    rc = build_csr(&m, out);
done:
    free(m.line);
    free(m.t);
    return rc;
}

int kit_mtx_load(const char *path, kit_csr *out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        memset(out, 0, sizeof *out);
        if (err && errlen)
            snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = kit_mtx_read(f, out, err, errlen);
    fclose(f);
    return rc;
}

int kit_mtx_write(FILE *f, const kit_csr *A, const char *comment)
{
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n");
    /* every line of the comment gets its own '%' */
    for (const char *c = comment; c && *c;) {
        const char *nl = strchr(c, '\n');
        int len = nl ? (int)(nl - c) : (int)strlen(c);
        fprintf(f, "%% %.*s\n", len, c);
        c += len + (nl ? 1 : 0);
    }
    fprintf(f, "%d %d %lld\n", A->rows, A->cols, (long long)A->nnz);
    for (int i = 0; i < A->rows; i++)
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            fprintf(f, "%d %d %.9g\n", i + 1, A->col[k] + 1, (double)A->val[k]);
    return ferror(f) ? -1 : 0;
}
