/* ini_lines.c - one physical line per read for inih (see ini_lines.h). */
#include "ini_lines.h"

#include <string.h>

void ini_lines_message(char *err, size_t errlen, const char *path, int line, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (line > 0)
        snprintf(err, errlen, "%s:%d: %s", path, line, msg);
    else
        snprintf(err, errlen, "%s: %s", path, msg);
}

char *ini_lines_read(char *str, int num, void *stream)
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
            in->on_section(in->owner, name, in->lineno);
        }
    }
    return str;
}
