/* profile.c - Nsight Compute on the student's kernels after a performance test (see profile.h).
 *
 * One profiled run, then two reads of its report:
 *
 *   ncu --config-file off --export RUN/profile --force-overwrite
 *       --launch-count N --clock-control none --metrics M,... [--section SourceCounters --import-source yes]
 *       RUNNER run --no-trace --params P --seed S --nonce X --out RUN/out.bin
 *   ncu --import RUN/profile.ncu-rep --csv --page raw --print-units base --print-kernel-base function
 *   ncu --import RUN/profile.ncu-rep --csv --page source --print-source cuda,sass
 *
 * `run`, not `bench`: a run launches the student's kernels and no kernel
 * of the kit's (the baseline and the fresh inputs are the timing loop's),
 * so every launch profiled is the student's, in the order the call makes
 * them; --no-trace leaves CUPTI to ncu, as under compute-sanitizer.
 * --clock-control none: the GPU keeps its clocks (ncu's default locks them
 * to base for the whole device), so the figures are those the timing saw
 * and nothing of another user's work changes speed.  The profiled run has
 * the GPU to itself (its counters and replays see no one else's kernels);
 * the reads need no GPU and run after it is given back.
 */
#include "grading/profile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/util.h"
#include "process/lock.h"
#include "grading/ncu_csv.h"
#include "grading/profile_checks.h"
#include "grading/profile_ini.h"
#include "output/report.h"
#include "util/fsutil.h"

#define IMPORT_TIMEOUT 120          /* seconds for one read of the report (CPU only) */
#define IMPORT_CAP ((size_t)32 << 20) /* bytes of a page kept */
#define NCU_THREADS 256             /* processes/threads ncu adds to the program's own limit */

/* The start of every line of the profile (one line when it cannot run). */
#define HEAD "profile (Nsight Compute; never graded)"

static void one_line(test_result *tr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void one_line(test_result *tr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_add(&tr->output, HEAD ": ");
    sb_vprintf(&tr->output, fmt, ap);
    sb_add(&tr->output, "\n");
    va_end(ap);
}

/* KIT_PROFILE_PAGES=DIR: each profile's pages and ncu's messages, kept as
 * DIR/NAME.raw.csv, .source.csv and .ncu.txt (NAME: the grading's work
 * folder, a batch's student) - to read them whole, or to record the unit
 * tests' pages. */
static void keep_page(const grading *g, const char *what, const char *text, size_t len)
{
    const char *dir = getenv("KIT_PROFILE_PAGES");
    if (!dir || !*dir)
        return;
    const char *name = strrchr(g->w.root, '/') ? strrchr(g->w.root, '/') + 1 : g->w.root;
    char path[4400];
    fmt_into(path, sizeof path, "%s/%s.%s", dir, name, what);
    char err[256];
    if (write_file_atomic(path, text, len, err, sizeof err) != 0 && g->e->log)
        fprintf(g->e->log, "kitgrade: KIT_PROFILE_PAGES: %s\n", err);
}

/* Does a declared check name source lines (the Source Counters section, the source page)? */
static int needs_source(const profile_decl *d)
{
    int source = 0;
    for (int i = 0; i < d->n_look; i++)
        source |= d->look[i]->needs_source;
    return source;
}

/* The metrics of the declared checks and the launch time, each once, "a,b,c" into out. */
static void metric_list(const profile_decl *d, char *out, size_t len)
{
    const char *seen[PROFILE_MAX_LOOKS * PROFILE_MAX_METRICS + 1];
    int n = 0;
    seen[n++] = PROFILE_TIME_METRIC;
    for (int i = 0; i < d->n_look; i++) {
        for (int k = 0; k < PROFILE_MAX_METRICS && d->look[i]->metrics[k]; k++) {
            int j = 0;
            while (j < n && strcmp(seen[j], d->look[i]->metrics[k]))
                j++;
            if (j == n)
                seen[n++] = d->look[i]->metrics[k];
        }
    }
    size_t used = 0;
    out[0] = 0;
    for (int j = 0; j < n && used < len; j++) {
        int w = snprintf(out + used, len - used, "%s%s", j ? "," : "", seen[j]);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* Did the performance test time the student's code?  A test whose runs
 * failed says "no performance credit" (kinds.c, run_performance) and has
 * nothing a profile could explain. */
static int timed(const test_result *tr)
{
    return (tr->status == ST_PASS || tr->status == ST_FAIL) && !strstr(sb_str(&tr->output), "no performance credit");
}

/* Why ncu cannot be used here ("" when it can), into why. */
static void ncu_missing(const engine *e, char *why, size_t len)
{
    why[0] = 0;
    if (!e->conf.ncu[0])
        fmt_into(why, len, "Nsight Compute (ncu) was not found with the CUDA Toolkit: install it and rebuild the kit "
                           "(make NCU=/path/to/ncu)");
    else if (access(e->conf.ncu, X_OK) != 0)
        fmt_into(why, len, "%s (build/kit.ini's ncu) cannot be run: %s", e->conf.ncu, strerror(errno));
}

/* The profiled run, with the GPU to this grading alone; *waited: seconds spent waiting for it. */
static void profiled_run(grading *g, const profile_decl *d, const char *params, uint64_t seed, proc_result *r,
                         double *waited)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    char metrics[4096], launches[16], seed_s[32], nonce_s[32], out[2200], rep[2200];
    metric_list(d, metrics, sizeof metrics);
    snprintf(launches, sizeof launches, "%d", d->launches);
    snprintf(seed_s, sizeof seed_s, "0x%llx", (unsigned long long)seed);
    snprintf(nonce_s, sizeof nonce_s, "%llu", (unsigned long long)random_nonce());
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    snprintf(rep, sizeof rep, "%s/profile", w->run);
    const char *argv[40] = {e->conf.ncu, "--config-file", "off", "--export", rep, "--force-overwrite",
                            "--launch-count", launches, "--clock-control", "none", "--metrics", metrics};
    int n = 12;
    if (needs_source(d))
        argv[n++] = "--section", argv[n++] = "SourceCounters", argv[n++] = "--import-source", argv[n++] = "yes";
    const char *run[] = {w->runner, "run", "--no-trace", "--params", params, "--seed", seed_s,
                         "--nonce", nonce_s, "--out", out, NULL};
    for (int i = 0; run[i]; i++)
        argv[n++] = run[i];
    argv[n] = NULL;

    sandboxed sb;
    sandboxed_init(&sb, e, d->timeout_s, w->run, w->run, w->run, w->bin, w->src);
    sb.o.nproc = sb.o.nproc > 0 ? sb.o.nproc + NCU_THREADS : 0;
    /* never wait for a CPU slot while holding a GPU lock (lock.h) */
    gpu_release_all(g);
    cpu_slot slot = {-1};
    if (e->gpu)
        cpu_slot_acquire(&slot);
    gpu_lock lock;
    *waited = 0;
    int locked = gpu_take_alone(g, &lock, waited);
    proc_run(argv, &sb.o, r);
    if (locked)
        gpu_lock_release(&lock);
    cpu_slot_release(&slot);
}

/* One page of the report (ncu --import, in the sandbox): started
 * (page_start), then read (page_finish), so that the two pages are made at
 * once (each import starts ncu, which takes most of its time). */
typedef struct {
    proc_session *s;
    sandboxed sb;
    proc_result r;
    char rep[2200];
    const char *argv[16];
} page_job;

static void page_start(grading *g, const char *const page_args[], page_job *j)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    snprintf(j->rep, sizeof j->rep, "%s/profile.ncu-rep", w->run);
    const char *head[] = {e->conf.ncu, "--config-file", "off", "--import", j->rep, "--csv"};
    int n = 0;
    for (; n < 6; n++)
        j->argv[n] = head[n];
    for (int i = 0; page_args[i] && n < 15; i++)
        j->argv[n++] = page_args[i];
    j->argv[n] = NULL;
    sandboxed_init(&j->sb, e, IMPORT_TIMEOUT, w->run, w->run, w->run, NULL, NULL);
    j->sb.o.out_cap = IMPORT_CAP;
    j->sb.o.nproc = j->sb.o.nproc > 0 ? j->sb.o.nproc + NCU_THREADS : 0;
    j->s = proc_start(j->argv, &j->sb.o, -1, &j->r);
}

/* The page into page: 0, or -1 with why. */
static int page_finish(page_job *j, strbuf *page, strbuf *why)
{
    if (j->s)
        proc_end(j->s, IMPORT_TIMEOUT);
    const proc_result *r = &j->r;
    int ok = proc_ok(r) && !r->out_capped;
    if (ok) {
        sb_addn(page, sb_str(&r->out), r->out.len);
    } else {
        ncu_messages m;
        ncu_messages_scan(sb_str(&r->err), r->err.len, &m);
        if (!m.error[0])
            ncu_messages_scan(sb_str(&r->out), r->out.len, &m);
        strbuf d;
        sb_init(&d);
        proc_describe(r, &d);
        if (r->out_capped)
            sb_printf(why, "its page is over %zu MB", IMPORT_CAP >> 20);
        else if (m.error[0])
            sb_add_sanitized(why, m.error, strlen(m.error));
        else
            sb_printf(why, "ncu --import %s", sb_str(&d));
        sb_free(&d);
    }
    proc_result_free(&j->r);
    return ok ? 0 : -1;
}

/* The one line of a profiled run that did not end well; 1 when it did. */
static int run_went_well(const grading *g, const proc_result *r, const char *report, test_result *tr)
{
    const engine *e = g->e;
    ncu_messages m;
    strbuf all;
    sb_init(&all);
    sb_addn(&all, sb_str(&r->out), r->out.len);
    sb_add(&all, "\n");
    sb_addn(&all, sb_str(&r->err), r->err.len);
    ncu_messages_scan(sb_str(&all), all.len, &m);
    keep_page(g, "ncu.txt", sb_str(&all), all.len);
    sb_free(&all);
    struct stat st;
    int have_report = lstat(report, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    strbuf d;
    sb_init(&d);
    proc_describe(r, &d);
    int ok = 0;
    if (m.permission)
        one_line(tr, "not run: this GPU's performance counters are open to administrators only (ERR_NVGPUCTRPERM); "
                     "an administrator opens them with the driver option NVreg_RestrictProfilingToAdminUsers=0 "
                     "(docs/grading.md, \"Profiles\")");
    else if (r->timed_out)
        one_line(tr, "not finished: the profiled run was %s (an endless loop in a kernel or on the host?)",
                 sb_str(&d));
    else if (!r->started)
        one_line(tr, "not run: %s %s", e->conf.ncu, sb_str(&d));
    else if (!proc_ok(r)) { /* the program's failure (ncu passes it on), or ncu's own: its message says which */
        strbuf why;
        sb_init(&why);
        if (m.error[0])
            sb_add_sanitized(&why, m.error, strlen(m.error));
        one_line(tr, "not finished: the profiled run %s%s%s", sb_str(&d), why.len ? ": " : "", sb_str(&why));
        sb_free(&why);
    } else if (m.no_kernels || !have_report)
        one_line(tr, "no kernel of yours ran in the profiled run");
    else
        ok = 1;
    sb_free(&d);
    return ok;
}

/* The report's pages into raw and src (src->n 0 when not asked or not
 * readable); 0, or -1 after the line that says why. */
static int read_report(grading *g, int source, ncu_raw *raw, ncu_source *src, test_result *tr)
{
    static const char *const raw_args[] = {"--page", "raw", "--print-units", "base", "--print-kernel-base",
                                           "function", NULL};
    static const char *const src_args[] = {"--page", "source", "--print-source", "cuda,sass", NULL};
    page_job raw_job, src_job;
    page_start(g, raw_args, &raw_job);
    if (source)
        page_start(g, src_args, &src_job);
    strbuf page, why;
    sb_init(&page), sb_init(&why);
    memset(src, 0, sizeof *src);
    int rc = page_finish(&raw_job, &page, &why);
    keep_page(g, "raw.csv", sb_str(&page), page.len);
    if (rc == 0 && ncu_raw_parse(sb_str(&page), page.len, raw) != 0) {
        ncu_raw_free(raw);
        sb_add(&why, "no metrics in its raw page");
        rc = -1;
    }
    if (rc != 0)
        one_line(tr, "could not read Nsight Compute's report: %s", sb_str(&why));
    if (source) {
        sb_clear(&page), sb_clear(&why);
        /* without lines the figures still hold: only "at FILE:LINE" is missing */
        int read = page_finish(&src_job, &page, &why);
        keep_page(g, "source.csv", sb_str(&page), page.len);
        if (rc != 0 || read != 0 || ncu_source_parse(sb_str(&page), page.len, src) != 0)
            ncu_source_free(src);
    }
    sb_free(&page), sb_free(&why);
    return rc;
}

/* The lines of a readable report, and its figures into tr. */
static void report_lines(grading *g, const profile_decl *d, const char *params, double seconds, const ncu_raw *raw,
                         const ncu_source *src, test_result *tr)
{
    const engine *e = g->e;
    const char *files[MAX_LIST];
    for (int i = 0; i < e->man.n_student_files; i++)
        files[i] = e->man.student_files[i];
    profile_view v;
    profile_view_init(&v, raw, src, files, e->man.n_student_files);
    if (!v.n_rows) {
        one_line(tr, "no kernel of yours ran in the profiled run");
        return;
    }
    sb_printf(&tr->output, HEAD " of case %s, %.1f s:\n  kernels: ", params, seconds);
    profile_kernels_line(&v, &tr->output);
    sb_add(&tr->output, "\n");
    for (int i = 0; i < d->n_look; i++) {
        strbuf line;
        sb_init(&line);
        profile_check_run(d->look[i], &v, &line, tr->figures, &tr->n_figures);
        sb_printf(&tr->output, "  %s", sb_str(&line));
        sb_free(&line);
    }
    if (needs_source(d) && src->n == 0)
        sb_add(&tr->output, "  (no source lines: Nsight Compute's source page could not be read)\n");
}

/* A student's check keeps its work folder for inspection (engine.h,
 * keep_work): the whole report goes there too, for ncu-ui. */
static void keep_report(const grading *g, const char *report, test_result *tr)
{
    char to[2200];
    struct stat st;
    fmt_into(to, sizeof to, "%s/profile.ncu-rep", g->w.root);
    /* the run folder is the submission's: only a regular file is copied, never through a link */
    if (!g->e->keep_work || lstat(report, &st) != 0 || !S_ISREG(st.st_mode) || copy_file(report, to, 0644) != 0)
        return;
    sb_printf(&tr->output, "  (the whole report: %s; open it with ncu-ui)\n", to);
}

void profile_test(grading *g, const rubric_test *t, test_result *tr)
{
    engine *e = g->e;
    if (!e->profile || !e->gpu)
        return; /* without a GPU the test says it did not run */
    profile_decl d;
    char err[1024];
    int declared = profile_ini_for_lab(e, &d, err, sizeof err);
    if (declared < 0) {
        one_line(tr, "not run: %s", err);
        return;
    }
    if (!declared) {
        one_line(tr, "not run: %s declares nothing to profile (no labs/%s/kit/profile.ini)", e->man.name,
                 e->man.name);
        return;
    }
    if (strcmp(d.test, t->name))
        return; /* the profile follows another performance test */
    if (!strcmp(e->gpu_uuid, KIT_NO_GPU_UUID)) {
        one_line(tr, "not run: no GPU (KIT_RUN_WITHOUT_GPU)");
        return;
    }
    if (!timed(tr)) {
        one_line(tr, "not run: the performance test timed no run of your code (above); a profile explains "
                     "speed, not a failure");
        return;
    }
    ncu_missing(e, err, sizeof err);
    if (err[0]) {
        one_line(tr, "not run: %s", err);
        return;
    }
    char params[1024];
    if (d.params[0])
        fmt_into(params, sizeof params, "%s", d.params);
    else
        case_params(t, 0, params, sizeof params);
    if (clean_run_dir(e, &g->w) != 0) {
        one_line(tr, "not run: internal error: cannot prepare the run folder %s: %s", g->w.run, strerror(errno));
        return;
    }
    double t0 = kit_now(), waited;
    proc_result r;
    profiled_run(g, &d, params, engine_case_seed(e->seed, t->name, 0, 0), &r, &waited);
    char report[2200];
    snprintf(report, sizeof report, "%s/profile.ncu-rep", g->w.run);
    int ok = run_went_well(g, &r, report, tr);
    proc_result_free(&r);
    ncu_raw raw;
    ncu_source src;
    if (ok && read_report(g, needs_source(&d), &raw, &src, tr) == 0) {
        double seconds = kit_now() - t0 - waited; /* the profile's own time: not the wait for the GPU */
        report_lines(g, &d, params, seconds, &raw, &src, tr);
        keep_report(g, report, tr);
        if (tr->n_figures < MAX_FIGURES) {
            fmt_into(tr->figures[tr->n_figures].name, sizeof tr->figures[0].name, "profile_seconds");
            tr->figures[tr->n_figures++].value = seconds;
        }
        ncu_raw_free(&raw);
        ncu_source_free(&src);
    }
    clean_run_dir(e, &g->w); /* the report and the run's outputs: large, and no one's to keep */
}
