/* ini_lines.h - feeding inih one physical line at a time, with line numbers.
 *
 * The inih packaged by Debian (55) gives handlers no line numbers, and its
 * own reader may read a long line in pieces.  ini_lines_read is an fgets-like
 * reader for ini_parse_stream that returns exactly one physical line per
 * call, counts lines (so a handler can say "rubric.ini:14: ..."), rejects
 * over-long lines and NUL bytes, and reports each section header to its
 * owner before inih sees it (so even an empty or duplicate section is seen).
 */
#ifndef GRADER_INI_LINES_H
#define GRADER_INI_LINES_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    int lineno;          /* the line inih is handling now */
    const int *stop;     /* the owner's "failed" flag: reading ends once it is set */
    void *owner;
    void (*on_section)(void *owner, const char *name, int line);
    void (*on_error)(void *owner, int line, const char *msg);
} ini_lines;

/* For ini_parse_stream(ini_lines_read, &lines, handler, owner). */
char *ini_lines_read(char *str, int num, void *stream);

/* "PATH:LINE: message" (or "PATH: message" when line <= 0) into err. */
void ini_lines_message(char *err, size_t errlen, const char *path, int line, const char *fmt, va_list ap);

#endif
