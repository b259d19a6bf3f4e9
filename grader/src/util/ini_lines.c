/* ini_lines.c - one physical line per read for inih (see ini_lines.h). */
#include "util/ini_lines.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void ini_error_init(ini_error *e, const char *path, char *err, size_t errlen)
{
    static char nowhere[1];
    memset(e, 0, sizeof *e);
    e->path = path;
    e->err = err && errlen ? err : nowhere;
    e->errlen = err && errlen ? errlen : sizeof nowhere;
    e->err[0] = '\0';
}

void ini_fail(ini_error *e, int line, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = 1;
    e->fail_line = line;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(e->err, e->errlen, "%s:%d: %s", e->path, line, msg);
    else
        snprintf(e->err, e->errlen, "%s: %s", e->path, msg);
}

/* One physical line per call (ini_parse_stream's reader). */
static char *ini_lines_read(char *str, int num, void *stream)
{
    ini_lines *in = stream;
    if ((in->stop && *in->stop) || num < 2)
        return NULL;
    int ch, any = 0, overflow = 0;
    size_t n = 0;
    while ((ch = getc(in->f)) != EOF) {
        any = 1;
        if (n + 1 < (size_t)num)
            str[n++] = (char)ch;
        else
            overflow = 1;
        if (ch == '\n')
            break;
    }
    if (!any)
        return NULL;
    str[n] = '\0';
    in->lineno++;
    if (overflow || memchr(str, '\0', n)) {
        char msg[96];
        if (overflow)
            snprintf(msg, sizeof msg, "line too long (at most %d characters)", num - 3);
        else
            snprintf(msg, sizeof msg, "NUL byte in the line");
        in->on_error(in->owner, in->lineno, msg);
        return NULL;
    }
    const char *p = str;
    if (in->lineno == 1 && !strncmp(p, "\xEF\xBB\xBF", 3)) /* UTF-8 byte order mark */
        p += 3;
    if (*p == '[') {
        const char *e = strchr(p + 1, ']');
        if (e) {
            char name[256];
            size_t k = (size_t)(e - (p + 1));
            if (k >= sizeof name)
                k = sizeof name - 1;
            memcpy(name, p + 1, k);
            name[k] = '\0';
            snprintf(in->section, sizeof in->section, "%s", name);
            in->on_section(in->owner, name, in->lineno);
        }
    }
    return str;
}

int ini_lines_parse(ini_lines *in, ini_error *e, ini_handler handler)
{
    in->f = fopen(e->path, "r");
    if (!in->f) {
        ini_fail(e, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    in->stop = &e->failed;
    int rc = ini_parse_stream(ini_lines_read, in, handler, in->owner);
    int read_error = ferror(in->f);
    fclose(in->f);
    in->f = NULL;
    if (read_error)
        ini_fail(e, 0, "read error");
    if (rc > 0 && (!e->failed || (e->fail_line > 0 && rc < e->fail_line))) {
        e->failed = 0; /* inih's syntax error came first */
        ini_fail(e, rc, "syntax error (expected [section], key = value, or a ; comment)");
    } else if (rc < 0 && !e->failed) {
        ini_fail(e, 0, "cannot parse (inih error %d)", rc);
    }
    return 0;
}

int ini_lines_key_ok(const ini_lines *in, ini_error *e, const char *section, const char *name, const char *first)
{
    if (!*section) {
        ini_fail(e, in->lineno, "'%s' outside a section (start with [%s])", name, first);
        return 0;
    }
    if (strcmp(section, in->section) != 0) {
        ini_fail(e, in->lineno, "section headers must start at the beginning of the line ([%s])", section);
        return 0;
    }
    return 1;
}
