/* similarity.c - sim_c over a lab's hand-ins, starter discounted (see similarity.h). */
#include "similarity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/util.h"
#include "proc.h"
#include "submission.h"

static int find_sim(char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s:/usr/bin", path ? path : "");
    for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/sim_c", d);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

static int run_sim(const char *const *argv, const char *cwd, strbuf *out)
{
    return proc_capture(argv, cwd, 300, 64u << 20, out);
}

/* "s0003.cu: line 49-51   |starter.cu: line 53-54  [21]" */
static int parse_run(const char *line, int *fa, int *a1, int *a2, int *fb, int *b1, int *b2)
{
    char nb[32];
    return sscanf(line, "s%d.%*[^:]: line %d-%d |%31[^:]: line %d-%d", fa, a1, a2, nb, b1, b2) == 6 &&
                   (sscanf(nb, "s%d", fb) == 1 || (*fb = -1, 1))
               ? 1
               : 0;
}

/* A copy of the file with the given lines blanked (line numbers kept). */
static int write_blanked(const char *from, const char *to, const unsigned char *blank, int nlines)
{
    size_t len;
    char *text = kit_read_file(from, SUBMISSION_MAX_BYTES, &len);
    FILE *f = text ? fopen(to, "w") : NULL;
    if (!f) {
        free(text);
        return -1;
    }
    int line = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            line++;
        if (text[i] == '\n' || line > nlines || !blank[line])
            fputc(text[i], f);
    }
    free(text);
    return fclose(f);
}

static int cmp_pair(const void *x, const void *y) { return ((const sim_pair *)y)->pct - ((const sim_pair *)x)->pct; }

static void compare_file(const engine *e, const char *fname, const char *const *dirs, int n, double threshold,
                         const char *tmp, const char *sim, sim_report *out)
{
    const char *ext = strrchr(fname, '.');
    ext = ext ? ext : "";
    /* 1. copies under neutral names (folder names may hold anything) */
    int *idx = calloc((size_t)n + 1, sizeof *idx), k = 0;
    const char **argv = calloc((size_t)n + 8, sizeof *argv);
    char (*names)[32] = calloc((size_t)n + 1, sizeof *names);
    if (!idx || !argv || !names)
        goto done;
    for (int i = 0; i < n; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        char from[4400], to[4400];
        snprintf(from, sizeof from, "%s/%s", dirs[i], fname);
        snprintf(names[k], sizeof names[k], "s%04d%s", k, ext);
        snprintf(to, sizeof to, "%s/%s", tmp, names[k]);
        /* never blocking on a FIFO (a student's "dot.cu" may be one: the
         * batch hung here, after grading everyone) */
        int fd = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SUBMISSION_MAX_BYTES ||
            copy_file(from, to, 0600) != 0) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        close(fd);
        idx[k++] = i;
    }
    out->n_compared = k;
    if (k < 2)
        goto done;
    /* 2. the starter's passages, blanked */
    char starter[4400], starter_copy[4400], starter_name[64];
    snprintf(starter, sizeof starter, "%s/%s", e->starter_dir, fname);
    snprintf(starter_name, sizeof starter_name, "starter%s", ext);
    snprintf(starter_copy, sizeof starter_copy, "%s/%s", tmp, starter_name);
    if (copy_file(starter, starter_copy, 0600) != 0) {
        fmt_into(out->why, sizeof out->why, "no starter %s to discount", starter);
        goto done;
    }
    int a = 0;
    argv[a++] = sim;
    argv[a++] = "-n";
    argv[a++] = "-S";
    argv[a++] = "-r" "20";
    for (int i = 0; i < k; i++)
        argv[a++] = names[i];
    argv[a++] = "/";
    argv[a++] = starter_name;
    argv[a] = NULL;
    strbuf runs;
    sb_init(&runs);
    unsigned char(*blank)[8192] = calloc((size_t)k, sizeof *blank);
    if (!blank || run_sim(argv, tmp, &runs) != 0) {
        free(blank);
        sb_free(&runs);
        snprintf(out->why, sizeof out->why, "sim_c failed on the starter comparison");
        goto done;
    }
    for (char *save = NULL, *l = strtok_r(runs.s ? runs.s : (char *)"", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int fa, a1, a2, fb, b1, b2;
        if (parse_run(l, &fa, &a1, &a2, &fb, &b1, &b2) && fa >= 0 && fa < k)
            for (int x = a1; x <= a2 && x < 8192; x++)
                if (x > 0)
                    blank[fa][x] = 1;
    }
    sb_free(&runs);
    char (*dnames)[32] = calloc((size_t)k, sizeof *dnames);
    for (int i = 0; dnames && i < k; i++) {
        char from[4400], to[4400];
        snprintf(dnames[i], sizeof dnames[i], "d%04d%s", i, ext);
        snprintf(from, sizeof from, "%s/%s", tmp, names[i]);
        snprintf(to, sizeof to, "%s/%s", tmp, dnames[i]);
        write_blanked(from, to, blank[i], 8192);
    }
    free(blank);
    if (!dnames)
        goto done;
    /* 3. every pair, in percent of each one's own (non-starter) tokens */
    a = 0;
    argv[a++] = sim;
    argv[a++] = "-p";
    argv[a++] = "-e";
    argv[a++] = "-s";
    argv[a++] = "-r" "20";
    for (int i = 0; i < k; i++)
        argv[a++] = dnames[i];
    argv[a] = NULL;
    strbuf pct;
    sb_init(&pct);
    int *best = calloc((size_t)k * (size_t)k, sizeof *best);
    if (best && run_sim(argv, tmp, &pct) == 0) {
        for (char *save = NULL, *l = strtok_r(pct.s ? pct.s : (char *)"", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            int x, y, p;
            if (sscanf(l, "d%d.%*s consists for %d %% of d%d", &x, &p, &y) == 3 && x >= 0 && y >= 0 && x < k && y < k &&
                x != y) {
                int lo = x < y ? x : y, hi = x < y ? y : x;
                if (p > best[lo * k + hi])
                    best[lo * k + hi] = p;
            }
        }
        for (int x = 0; x < k; x++)
            for (int y = x + 1; y < k; y++) {
                if (best[x * k + y] < threshold || best[x * k + y] == 0)
                    continue;
                sim_pair *np = realloc(out->pairs, (size_t)(out->n_pairs + 1) * sizeof *np);
                if (!np)
                    continue;
                out->pairs = np;
                sim_pair *sp = &out->pairs[out->n_pairs++];
                memset(sp, 0, sizeof *sp);
                sp->a = idx[x], sp->b = idx[y], sp->pct = best[x * k + y];
                snprintf(sp->file, sizeof sp->file, "%s", fname);
                sb_init(&sp->passages);
                /* 4. the matching passages of this pair */
                const char *pv[] = {sim, "-n", "-r" "20", dnames[x], dnames[y], NULL};
                strbuf pr;
                sb_init(&pr);
                run_sim(pv, tmp, &pr);
                for (char *save = NULL, *l = strtok_r(pr.s ? pr.s : (char *)"", "\n", &save); l;
                     l = strtok_r(NULL, "\n", &save)) {
                    int a1, a2, b1, b2, fa;
                    char fb[32];
                    if (sscanf(l, "d%d.%*[^:]: line %d-%d |%31[^:]: line %d-%d", &fa, &a1, &a2, fb, &b1, &b2) == 6)
                        sb_printf(&sp->passages, "%d %d %d %d\n", a1, a2, b1, b2);
                }
                sb_free(&pr);
            }
    }
    free(best);
    sb_free(&pct);
    free(dnames);
done:
    free(idx);
    free(argv);
    free(names);
}

void similarity_run(const engine *e, const char *const *dirs, int n, double threshold, sim_report *out)
{
    memset(out, 0, sizeof *out);
    char sim[4096];
    if (find_sim(sim, sizeof sim) != 0) {
        snprintf(out->why, sizeof out->why, "sim_c is not installed (Debian package similarity-tester)");
        return;
    }
    char tmp[] = "/tmp/kit-similarity-XXXXXX";
    if (!mkdtemp(tmp)) {
        snprintf(out->why, sizeof out->why, "cannot create a temporary folder: %s", strerror(errno));
        return;
    }
    out->available = 1;
    if (threshold <= 0)
        threshold = SIMILARITY_DEFAULT_THRESHOLD;
    for (int f = 0; f < e->man.n_student_files; f++)
        compare_file(e, e->man.student_files[f], dirs, n, threshold, tmp, sim, out);
    if (out->n_pairs)
        qsort(out->pairs, (size_t)out->n_pairs, sizeof *out->pairs, cmp_pair);
    rm_rf(tmp);
}

void similarity_free(sim_report *r)
{
    for (int i = 0; i < r->n_pairs; i++)
        sb_free(&r->pairs[i].passages);
    free(r->pairs);
    memset(r, 0, sizeof *r);
}
