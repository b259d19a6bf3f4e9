/* strbuf.c - a growable string (see strbuf.h). */
#include "util/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_oom(void)
{
    fputs("kitgrade: out of memory\n", stderr);
    abort();
}

/* Makes room for `extra` more bytes plus the terminating NUL. */
static void sb_grow(strbuf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        sb_oom();
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *s = realloc(b->s, cap);
    if (!s)
        sb_oom();
    b->s = s;
    b->cap = cap;
}

void sb_init(strbuf *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
}

void sb_free(strbuf *b)
{
    free(b->s);
    sb_init(b);
}

void sb_clear(strbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void sb_addn(strbuf *b, const char *s, size_t n)
{
    sb_grow(b, n);
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_add(strbuf *b, const char *s)
{
    if (s)
        sb_addn(b, s, strlen(s));
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_addn(b, tmp, (size_t)n);
        return;
    }
    sb_grow(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *sb_str(const strbuf *b)
{
    return b->s ? b->s : "";
}

static void sb_add_hex(strbuf *b, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    sb_addn(b, e, 4);
}

/* Length of the valid UTF-8 sequence starting at s[0] (2..4), or 0 when
 * s[0] does not start one (ASCII, stray continuation byte, overlong form,
 * surrogate, beyond U+10FFFF, truncated). */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        else if (c == 0xF4)
            hi = 0x8F; /* > U+10FFFF */
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

void sb_add_sanitized(strbuf *b, const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0; /* s[run..i) is clean text not yet copied */
    sb_grow(b, n);
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7F) {
            i++;
            continue;
        }
        if (c == '\n' || c == '\t') {
            i++;
            continue;
        }
        if (c >= 0x80) {
            size_t k = utf8_seq_len(s + i, n - i);
            /* C1 controls (U+0080..U+009F) are escaped like C0 ones. */
            if (k && !(c == 0xC2 && s[i + 1] < 0xA0)) {
                i += k;
                continue;
            }
        }
        sb_addn(b, text + run, i - run);
        if (c == '\r' && i + 1 < n && s[i + 1] == '\n') {
            i++; /* CRLF -> LF */
        } else if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] < 0xA0) {
            sb_add_hex(b, c);
            sb_add_hex(b, s[i + 1]);
            i += 2;
        } else {
            sb_add_hex(b, c);
            i++;
        }
        run = i;
    }
    sb_addn(b, text + run, n - run);
}

int fmt_into(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

void sb_add_shell_word(strbuf *b, const char *word)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+@%-";
    if (*word && word[strspn(word, plain)] == '\0' && word[0] != '-') {
        sb_add(b, word);
        return;
    }
    sb_add(b, "'");
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            sb_add(b, "'\\''");
        else
            sb_addn(b, p, 1);
    }
    sb_add(b, "'");
}
