/* strbuf.h - a growable string for report text and captured output. */
#ifndef GRADER_STRBUF_H
#define GRADER_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *s;    /* always NUL-terminated once anything was added ("" when empty) */
    size_t len, cap;
} strbuf;

void sb_init(strbuf *b);
void sb_free(strbuf *b);
void sb_clear(strbuf *b);
void sb_add(strbuf *b, const char *s);
void sb_addn(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
const char *sb_str(const strbuf *b); /* "" for an empty buffer */
/* Appends `n` bytes of untrusted program output as valid UTF-8 text: invalid
 * sequences and control characters other than \n and \t become "\xNN". */
void sb_add_sanitized(strbuf *b, const char *s, size_t n);

/* Appends `word` as one shell word, so a printed command works when pasted:
 * as is when it holds only [A-Za-z0-9_./=:,+@%-], else in single quotes
 * (a ' inside written as '\''). */
void sb_add_shell_word(strbuf *b, const char *word);

/* snprintf into a fixed buffer that says when the text did not fit: returns
 * 0, or -1 when truncated (paths that are too long must not silently change). */
int fmt_into(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
