/* similarity.c - sim_c over a lab's hand-ins, starter discounted (see similarity.h). */
#include "course/similarity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/util.h"
#include "process/proc.h"
#include "grading/submission.h"
#include "util/fsutil.h"

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

/* A copy's neutral name in the temporary folder ("s0003.cu", "d0003.cu"). */
typedef char sim_name[32];

/* 1. copies under neutral names (folder names may hold anything): names[j]
 * in tmp, idx[j] the hand-in it came from.  Returns how many. */
static int copy_neutral(const char *fname, const char *ext, const char *const *dirs, int n, const char *tmp,
                        sim_name *names, int *idx)
{
    int k = 0;
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
    return k;
}

/* The lines of each copy that sim_c finds in the starter: blank[j][line].
 * argv: room for k + 8.  0, or -1 when sim_c failed. */
static int starter_lines(const char *sim, const char **argv, const char *tmp, const sim_name *names, int k,
                         const char *starter_name, unsigned char (*blank)[8192])
{
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
    if (run_sim(argv, tmp, &runs) != 0) {
        sb_free(&runs);
        return -1;
    }
    for (char *save = NULL, *l = strtok_r(runs.s ? runs.s : (char *)"", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int fa, a1, a2, fb, b1, b2;
        if (parse_run(l, &fa, &a1, &a2, &fb, &b1, &b2) && fa >= 0 && fa < k)
            for (int x = a1; x <= a2 && x < 8192; x++)
                if (x > 0)
                    blank[fa][x] = 1;
    }
    sb_free(&runs);
    return 0;
}

/* 2. the starter's passages, blanked: returns dnames, dnames[j] the copy of
 * names[j] without them (free()), or NULL (out->why says why, where it can). */
static sim_name *discount_starter(const engine *e, const char *fname, const char *ext, const char *tmp,
                                  const char *sim, const char **argv, const sim_name *names, int k, sim_report *out)
{
    char starter[4400], starter_copy[4400], starter_name[64];
    snprintf(starter, sizeof starter, "%s/%s", e->starter_dir, fname);
    snprintf(starter_name, sizeof starter_name, "starter%s", ext);
    snprintf(starter_copy, sizeof starter_copy, "%s/%s", tmp, starter_name);
    if (copy_file(starter, starter_copy, 0600) != 0) {
        fmt_into(out->why, sizeof out->why, "no starter %s to discount", starter);
        return NULL;
    }
    unsigned char(*blank)[8192] = calloc((size_t)k, sizeof *blank);
    if (!blank || starter_lines(sim, argv, tmp, names, k, starter_name, blank) != 0) {
        free(blank);
        snprintf(out->why, sizeof out->why, "sim_c failed on the starter comparison");
        return NULL;
    }
    sim_name *dnames = calloc((size_t)k, sizeof *dnames);
    for (int i = 0; dnames && i < k; i++) {
        char from[4400], to[4400];
        snprintf(dnames[i], sizeof dnames[i], "d%04d%s", i, ext);
        snprintf(from, sizeof from, "%s/%s", tmp, names[i]);
        snprintf(to, sizeof to, "%s/%s", tmp, dnames[i]);
        write_blanked(from, to, blank[i], 8192);
    }
    free(blank);
    return dnames;
}

/* 3. every pair, in percent of each one's own (non-starter) tokens: best[lo *
 * k + hi], the higher of the two ways.  0, or -1 when sim_c failed. */
static int pair_percents(const char *sim, const char **argv, const char *tmp, const sim_name *dnames, int k,
                         int *best)
{
    int a = 0;
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
    int rc = run_sim(argv, tmp, &pct) == 0 ? 0 : -1;
    for (char *save = NULL, *l = strtok_r(rc == 0 && pct.s ? pct.s : (char *)"", "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        int x, y, p;
        if (sscanf(l, "d%d.%*s consists for %d %% of d%d", &x, &p, &y) == 3 && x >= 0 && y >= 0 && x < k && y < k &&
            x != y) {
            int lo = x < y ? x : y, hi = x < y ? y : x;
            if (p > best[lo * k + hi])
                best[lo * k + hi] = p;
        }
    }
    sb_free(&pct);
    return rc;
}

/* 4. the matching passages of the copies dx and dy: "a1 a2 b1 b2" lines. */
static void pair_passages(const char *sim, const char *tmp, const char *dx, const char *dy, strbuf *passages)
{
    const char *pv[] = {sim, "-n", "-r" "20", dx, dy, NULL};
    strbuf pr;
    sb_init(&pr);
    run_sim(pv, tmp, &pr);
    for (char *save = NULL, *l = strtok_r(pr.s ? pr.s : (char *)"", "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int a1, a2, b1, b2, fa;
        char fb[32];
        if (sscanf(l, "d%d.%*[^:]: line %d-%d |%31[^:]: line %d-%d", &fa, &a1, &a2, fb, &b1, &b2) == 6)
            sb_printf(passages, "%d %d %d %d\n", a1, a2, b1, b2);
    }
    sb_free(&pr);
}

/* The pair of hand-ins a and b (copies dx, dy), pct alike in fname, into out. */
static void add_pair(sim_report *out, const char *fname, int a, int b, int pct, const char *sim, const char *tmp,
                     const char *dx, const char *dy)
{
    sim_pair *np = realloc(out->pairs, (size_t)(out->n_pairs + 1) * sizeof *np);
    if (!np)
        return;
    out->pairs = np;
    sim_pair *sp = &out->pairs[out->n_pairs++];
    memset(sp, 0, sizeof *sp);
    sp->a = a, sp->b = b, sp->pct = pct;
    snprintf(sp->file, sizeof sp->file, "%s", fname);
    sb_init(&sp->passages);
    pair_passages(sim, tmp, dx, dy, &sp->passages);
}

static void compare_file(const engine *e, const char *fname, const char *const *dirs, int n, double threshold,
                         const char *tmp, const char *sim, sim_report *out)
{
    const char *ext = strrchr(fname, '.');
    ext = ext ? ext : "";
    int *idx = calloc((size_t)n + 1, sizeof *idx);
    const char **argv = calloc((size_t)n + 8, sizeof *argv);
    sim_name *names = calloc((size_t)n + 1, sizeof *names);
    if (idx && argv && names) {
        int k = copy_neutral(fname, ext, dirs, n, tmp, names, idx);
        out->n_compared = k;
        sim_name *dnames = k < 2 ? NULL : discount_starter(e, fname, ext, tmp, sim, argv, names, k, out);
        int *best = dnames ? calloc((size_t)k * (size_t)k, sizeof *best) : NULL;
        if (best && pair_percents(sim, argv, tmp, dnames, k, best) == 0)
            for (int x = 0; x < k; x++)
                for (int y = x + 1; y < k; y++)
                    if (!(best[x * k + y] < threshold) && best[x * k + y] != 0)
                        add_pair(out, fname, idx[x], idx[y], best[x * k + y], sim, tmp, dnames[x], dnames[y]);
        free(best);
        free(dnames);
    }
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
