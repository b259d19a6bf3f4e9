/* check_lines.c - what a checker reads in the runner's stdout (kit/checker.h):
 * the part before the kit's mark, and lines of a given form among the rest.
 * The text is the student's: any byte may be there, a NUL too. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/runner.h" /* KIT_STDOUT_MARK */

#define LINE_MAX_LEN 200

size_t kit_stdout_before_mark(const kit_check_ctx *ctx)
{
    const char *text = ctx->stdout_text ? ctx->stdout_text : "";
    size_t len = ctx->stdout_text ? ctx->stdout_len : 0;
    /* memmem: the text may hold NUL bytes */
    const char *mark = memmem(text, len, KIT_STDOUT_MARK, strlen(KIT_STDOUT_MARK));
    return mark ? (size_t)(mark - text) : len;
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A decimal integer of at most 9 digits (so it fits an int), optional '-'. */
static const char *expect_int(const char *s, int *v)
{
    s = skip_blanks(s);
    int neg = *s == '-';
    s += neg;
    if (!isdigit((unsigned char)*s))
        return NULL;
    long x = 0;
    for (int digits = 0; isdigit((unsigned char)*s); s++) {
        if (++digits > 9)
            return NULL;
        x = x * 10 + (*s - '0');
    }
    *v = (int)(neg ? -x : x);
    return s;
}

/* s (NUL-terminated) is "W1 N1 W2 N2 ..." with the words of `words`: 1, the numbers in v. */
static int parse_line(const char *s, const char *words, int *v)
{
    int k = 0;
    for (const char *w = words; s && *w && k < KIT_LINE_MAX_NUMS; k++) {
        size_t len = strcspn(w, " ");
        s = skip_blanks(s);
        s = strncmp(s, w, len) ? NULL : expect_int(s + len, &v[k]);
        w += len + (w[len] == ' ');
    }
    return s && *skip_blanks(s) == '\0';
}

static void add_line(kit_lines *l, const kit_line *line)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        kit_line *q = realloc(l->lines, (size_t)cap * sizeof *q);
        if (!q)
            return;
        l->lines = q, l->cap = cap;
    }
    l->lines[l->n++] = *line;
}

void kit_lines_parse(const char *text, size_t len, const char *words, kit_lines *l)
{
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        const char *s = text + i;
        i += n + 1;
        while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        char buf[LINE_MAX_LEN + 1];
        kit_line line;
        memset(&line, 0, sizeof line);
        int ok = 0;
        if (n <= LINE_MAX_LEN && !memchr(s, '\0', n)) {
            memcpy(buf, s, n);
            buf[n] = '\0';
            ok = parse_line(buf, words, line.v);
        }
        if (ok) {
            kit_quote(line.text, sizeof line.text, s, n);
            add_line(l, &line);
        } else if (l->other++ == 0) {
            kit_quote(l->other_example, sizeof l->other_example, s, n);
        }
    }
}

void kit_lines_free(kit_lines *l)
{
    free(l->lines);
    l->lines = NULL;
}
