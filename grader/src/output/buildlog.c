/* buildlog.c - compiler messages once each, with the student's file names (see buildlog.h). */
#include "output/buildlog.h"

#include <stdlib.h>
#include <string.h>

/* Is `line` (len bytes) a message about `file`: "file(12): ..." or "file:12:..."? */
static size_t names_file(const char *line, size_t len, const char *file)
{
    size_t n = strlen(file);
    if (len > n && !strncmp(line, file, n) && (line[n] == '(' || line[n] == ':'))
        return n;
    return 0;
}

/* One line with the names rewritten (shown_dir "": the bare file names). */
static void add_line(strbuf *b, const char *line, size_t len, const char *const *files, int n, const char *shown_dir,
                     const char *build_dir)
{
    size_t bl = strlen(build_dir);
    for (int i = 0; i < n && *shown_dir; i++) {
        size_t k = names_file(line, len, files[i]);
        if (k) {
            sb_printf(b, "%s/", shown_dir);
            break;
        }
    }
    /* "/sandbox/work/src/dot.cu" anywhere in the line */
    for (size_t i = 0; i < len;) {
        if (bl && i + bl < len && !strncmp(line + i, build_dir, bl) && line[i + bl] == '/') {
            sb_printf(b, "%s", shown_dir);
            i += bl + !*shown_dir; /* "": its '/' too */
        } else {
            sb_addn(b, line + i, 1);
            i++;
        }
    }
    sb_add(b, "\n");
}

void buildlog_tidy(const char *raw, const char *const *files, int n, const char *shown_dir, const char *build_dir,
                   strbuf *out)
{
    /* messages: runs of lines up to a blank line; each kept once */
    char **seen = NULL;
    size_t n_seen = 0, cap = 0;
    const char *p = raw;
    while (*p) {
        const char *start = p;
        while (*p && *p == '\n')
            p++;
        size_t blank_lines = (size_t)(p - start);
        const char *end = strstr(p, "\n\n");
        end = end ? end + 1 : p + strlen(p);
        size_t len = (size_t)(end - p);
        if (!len)
            break;
        int dup = 0;
        for (size_t i = 0; i < n_seen && !dup; i++)
            dup = strlen(seen[i]) == len && !memcmp(seen[i], p, len);
        if (!dup) {
            if (n_seen == cap) {
                cap = cap ? 2 * cap : 16;
                char **s = realloc(seen, cap * sizeof *seen);
                if (!s)
                    break;
                seen = s;
            }
            seen[n_seen++] = strndup(p, len);
            if (blank_lines && out->len)
                sb_add(out, "\n");
            for (const char *l = p; l < end;) {
                const char *nl = memchr(l, '\n', (size_t)(end - l));
                size_t ll = nl ? (size_t)(nl - l) : (size_t)(end - l);
                add_line(out, l, ll, files, n, shown_dir, build_dir);
                l += ll + 1;
            }
        }
        p = end;
    }
    for (size_t i = 0; i < n_seen; i++)
        free(seen[i]);
    free(seen);
}

int buildlog_has_warning(const char *log) { return strstr(log, ": warning") || strstr(log, "warning #"); }
