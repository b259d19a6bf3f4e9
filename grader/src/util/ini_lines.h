/* ini_lines.h - feeding inih one physical line at a time, with line numbers.
 *
 * The inih packaged by Debian (55) gives handlers no line numbers, and its
 * own reader may read a long line in pieces.  ini_lines_parse feeds inih
 * through an fgets-like reader that returns exactly one physical line per
 * call, counts lines (so a handler can say "rubric.ini:14: ..."), rejects
 * over-long lines and NUL bytes, and reports each section header to its
 * owner before inih sees it (so even an empty or duplicate section is seen).
 */
#ifndef GRADER_INI_LINES_H
#define GRADER_INI_LINES_H
#include <ini.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    int lineno;          /* the line inih is handling now */
    char section[256];   /* the last section header read, as inih will report it */
    const int *stop;     /* the owner's "failed" flag: reading ends once it is set */
    void *owner;
    void (*on_section)(void *owner, const char *name, int line);
    void (*on_error)(void *owner, int line, const char *msg);
} ini_lines;

/* A load's first error: "PATH:LINE: message" (or "PATH: message" when line
 * <= 0) in err.  Later errors are dropped: the first is the one to fix. */
typedef struct {
    const char *path;
    char *err;
    size_t errlen;
    int failed;
    int fail_line;
} ini_error;

/* e for path, reporting into err (NULL or no room: nowhere); err is emptied. */
void ini_error_init(ini_error *e, const char *path, char *err, size_t errlen);
void ini_fail(ini_error *e, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Feeds e->path to inih one physical line at a time (in->owner, on_section
 * and on_error set by the caller; reading stops once e->failed is set), then
 * records a read error, or inih's own syntax error when its line comes
 * before the handler's first error.  0 when the file was read (e->failed
 * says whether it was good), -1 when it cannot be opened (said in e). */
int ini_lines_parse(ini_lines *in, ini_error *e, ini_handler handler);

/* What every key's handler checks first: 1 when key `name` of inih's
 * `section` may be read, else 0 with the error in e: a key before any
 * section (first: the section a file starts with, for the message), or a
 * section header inih saw and this reader did not (an indented one). */
int ini_lines_key_ok(const ini_lines *in, ini_error *e, const char *section, const char *name, const char *first);

#endif
