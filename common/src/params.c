/* params.c - "key=value" case parameters and readable integers (see kit/params.h). */
#include "kit/params.h"
#include "kit/util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find(const kit_params *p, const char *key)
{
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->items[i].key, key) == 0)
            return i;
    return -1;
}

static int key_char_ok(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* Adds one "key=value" word (len bytes at w) to p. */
static int add_word(kit_params *p, const char *w, size_t len, char *err, size_t errlen)
{
    const char *eq = memchr(w, '=', len);
    if (!eq) {
        kit_set_err(err, errlen, "word '%.*s' has no '='", (int)len, w);
        return -1;
    }
    size_t klen = (size_t)(eq - w), vlen = len - klen - 1;
    if (klen == 0) {
        kit_set_err(err, errlen, "word '%.*s' has no key before '='", (int)len, w);
        return -1;
    }
    for (size_t i = 0; i < klen; i++)
        if (!key_char_ok(w[i])) {
            kit_set_err(err, errlen, "word '%.*s': key may only contain letters, digits, '_', '-', '.'",
                    (int)len, w);
            return -1;
        }
    if (vlen == 0) {
        kit_set_err(err, errlen, "word '%.*s' has no value after '='", (int)len, w);
        return -1;
    }
    if (klen >= KIT_PARAM_KEY) {
        kit_set_err(err, errlen, "key '%.20s...' is too long (at most %d characters)", w, KIT_PARAM_KEY - 1);
        return -1;
    }
    if (vlen >= KIT_PARAM_VAL) {
        kit_set_err(err, errlen, "value of '%.*s' is too long (at most %d characters)", (int)klen, w,
                KIT_PARAM_VAL - 1);
        return -1;
    }
    char key[KIT_PARAM_KEY];
    memcpy(key, w, klen);
    key[klen] = '\0';
    int i = find(p, key);
    if (i < 0) {
        if (p->count >= KIT_PARAMS_MAX) {
            kit_set_err(err, errlen, "too many parameters (at most %d)", KIT_PARAMS_MAX);
            return -1;
        }
        i = p->count++;
        memcpy(p->items[i].key, key, klen + 1);
    }
    memcpy(p->items[i].val, eq + 1, vlen);
    p->items[i].val[vlen] = '\0';
    return 0;
}

int kit_params_merge(kit_params *p, const char *text, char *err, size_t errlen)
{
    /* Work on a copy so a malformed line leaves p untouched. */
    kit_params tmp = *p;
    const char *s = text ? text : "";
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        const char *w = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (add_word(&tmp, w, (size_t)(s - w), err, errlen) != 0)
            return -1;
    }
    *p = tmp;
    return 0;
}

int kit_params_parse(const char *text, kit_params *out, char *err, size_t errlen)
{
    kit_params p;
    p.count = 0;
    if (kit_params_merge(&p, text, err, errlen) != 0)
        return -1;
    *out = p;
    return 0;
}

const char *kit_params_get(const kit_params *p, const char *key, const char *def)
{
    int i = find(p, key);
    return i < 0 ? def : p->items[i].val;
}

int kit_params_has(const kit_params *p, const char *key)
{
    return find(p, key) >= 0;
}

long long kit_params_ll(const kit_params *p, const char *key, long long def, int *ok)
{
    const char *v = kit_params_get(p, key, NULL);
    long long x;
    if (!v)
        return def;
    if (kit_eval_int(v, &x) != 0) {
        if (ok)
            *ok = 0;
        return def;
    }
    return x;
}

double kit_params_f64(const kit_params *p, const char *key, double def, int *ok)
{
    const char *v = kit_params_get(p, key, NULL);
    if (!v)
        return def;
    char *end;
    double x = strtod(v, &end);
    if (end != v && *end == '\0' && isfinite(x))
        return x;
    long long i; /* the integer forms (2^20, 3*1000) are numbers too */
    if (kit_eval_int(v, &i) == 0)
        return (double)i;
    if (ok)
        *ok = 0;
    return def;
}

/* 1 when `word` is one of the space-separated words of `list`. */
static int in_words(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len == n && len && !strncmp(p, word, n))
            return 1;
        p += len;
    }
    return 0;
}

int kit_params_only(const kit_params *p, const char *allowed, char *err, size_t errlen)
{
    for (int i = 0; i < p->count; i++)
        if (!in_words(allowed, p->items[i].key)) {
            kit_set_err(err, errlen, "unknown parameter '%s' (this lab takes: %s)", p->items[i].key, allowed);
            return -1;
        }
    return 0;
}

int kit_params_choice(const kit_params *p, const char *key, const char *choices, const char *def, const char **out,
                      char *err, size_t errlen)
{
    const char *v = kit_params_get(p, key, def);
    if (!in_words(choices, v)) {
        kit_set_err(err, errlen, "%s must be one of: %s (got '%s')", key, choices, v);
        return -1;
    }
    if (out)
        *out = v;
    return 0;
}

int kit_params_format(const kit_params *p, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < p->count; i++) {
        int w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s%s=%s", i ? " " : "",
                         p->items[i].key, p->items[i].val);
        if (w < 0)
            return -1;
        n += (size_t)w;
    }
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* ---- kit_eval_int: a tiny recursive-descent parser ----------------------------
 *   expr   := term (('+' | '-') term)*
 *   term   := unary ('*' unary)*
 *   unary  := ['-'] power
 *   power  := number ['^' unary]       (right associative: 2^3^2 = 2^9)
 *   number := digits [('e' | 'E') digits]
 * Every operation checks for overflow of long long.
 */
typedef struct {
    const char *s;
    int bad;
} expr_state;

static void skip_blank(expr_state *st)
{
    while (*st->s == ' ' || *st->s == '\t')
        st->s++;
}

static long long add_ll(expr_state *st, long long a, long long b)
{
    if ((b > 0 && a > LLONG_MAX - b) || (b < 0 && a < LLONG_MIN - b)) {
        st->bad = 1;
        return 0;
    }
    return a + b;
}

static long long mul_ll(expr_state *st, long long a, long long b)
{
    long long r;
    if (__builtin_mul_overflow(a, b, &r)) {
        st->bad = 1;
        return 0;
    }
    return r;
}

static long long sub_ll(expr_state *st, long long a, long long b)
{
    if ((b < 0 && a > LLONG_MAX + b) || (b > 0 && a < LLONG_MIN + b)) {
        st->bad = 1;
        return 0;
    }
    return a - b;
}

static long long pow_ll(expr_state *st, long long base, long long exp)
{
    if (exp < 0) { /* not an integer */
        st->bad = 1;
        return 0;
    }
    /* Bases 0, 1, -1 never overflow, whatever the exponent; any other base
     * overflows within 64 steps, so the loop below is short. */
    if (base == 0)
        return exp == 0 ? 1 : 0;
    if (base == 1)
        return 1;
    if (base == -1)
        return exp % 2 ? -1 : 1;
    long long r = 1;
    for (long long i = 0; i < exp && !st->bad; i++)
        r = mul_ll(st, r, base);
    return r;
}

static long long digits(expr_state *st)
{
    if (!isdigit((unsigned char)*st->s)) {
        st->bad = 1;
        return 0;
    }
    long long v = 0;
    while (isdigit((unsigned char)*st->s) && !st->bad)
        v = add_ll(st, mul_ll(st, v, 10), *st->s++ - '0');
    return v;
}

static long long parse_unary(expr_state *st);

static long long parse_number(expr_state *st)
{
    skip_blank(st);
    long long v = digits(st);
    if (!st->bad && (*st->s == 'e' || *st->s == 'E')) {
        st->s++;
        v = mul_ll(st, v, pow_ll(st, 10, digits(st)));
    }
    return v;
}

static long long parse_power(expr_state *st)
{
    long long base = parse_number(st);
    skip_blank(st);
    if (st->bad || *st->s != '^')
        return base;
    st->s++;
    return pow_ll(st, base, parse_unary(st));
}

static long long parse_unary(expr_state *st)
{
    skip_blank(st);
    if (*st->s == '-') {
        st->s++;
        return mul_ll(st, -1, parse_power(st));
    }
    return parse_power(st);
}

static long long parse_term(expr_state *st)
{
    long long v = parse_unary(st);
    skip_blank(st);
    while (!st->bad && *st->s == '*') {
        st->s++;
        v = mul_ll(st, v, parse_unary(st));
        skip_blank(st);
    }
    return v;
}

static long long parse_expr(expr_state *st)
{
    long long v = parse_term(st);
    skip_blank(st);
    while (!st->bad && (*st->s == '+' || *st->s == '-')) {
        int neg = *st->s++ == '-';
        long long t = parse_term(st);
        v = neg ? sub_ll(st, v, t) : add_ll(st, v, t);
        skip_blank(st);
    }
    return v;
}

int kit_eval_int(const char *s, long long *out)
{
    if (!s)
        return -1;
    expr_state st = {s, 0};
    long long v = parse_expr(&st);
    if (st.bad || *st.s != '\0')
        return -1;
    if (out)
        *out = v;
    return 0;
}
