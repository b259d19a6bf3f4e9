/* engine.c - grading one submission (see engine.h). */
#include "grading/engine.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "kit/blob.h"
#include "kit/protocol.h"
#include "kit/rng.h"
#include "kit/util.h"
#include "grading/build.h"
#include "output/buildlog.h"
#include "util/exit_codes.h"
#include "process/lock.h"
#include "process/proc.h"
#include "grading/profile.h"
#include "grading/rerun.h"
#include "model/labdir.h"
#include "grading/sanitizer.h"
#include "util/fsutil.h"
#include "grading/engine_int.h"

#define MAX_FAIL_DETAILS 4   /* failing cases described in full per test */

/* ------------------------------------------------------------------ setup */

static int find_lab_dir(const char *kit_root, const char *lab, char *out, size_t len)
{
    char pattern[2048];
    /* "lab03" matches labs/lab03-<name>/kit; a full name matches itself. */
    struct stat st;
    if (labdir_path(pattern, sizeof pattern, kit_root, lab, "kit") == 0 && stat(pattern, &st) == 0 &&
        S_ISDIR(st.st_mode)) {
        fmt_into(out, len, "%s", pattern);
        return 0;
    }
    snprintf(pattern, sizeof pattern, "%s/labs/%s-*/kit", kit_root, lab);
    glob_t g;
    int rc = -1;
    if (glob(pattern, 0, NULL, &g) == 0) {
        if (g.gl_pathc == 1) {
            snprintf(out, len, "%s", g.gl_pathv[0]);
            rc = 0;
        }
        globfree(&g);
    }
    return rc;
}

void engine_lab_ids(const char *kit_root, char *out, size_t len)
{
    char pattern[2048];
    snprintf(pattern, sizeof pattern, "%s/" LABDIR_MANIFESTS, kit_root);
    glob_t g;
    size_t used = 0;
    out[0] = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc && used + 1 < len; i++) {
        char id[64];
        labdir_id_of_manifest(g.gl_pathv[i], id, sizeof id);
        int w = snprintf(out + used, len - used, "%s%s", used ? " " : "", id);
        used += w > 0 ? (size_t)w : 0;
    }
    globfree(&g);
}

/* Which CUDA devices are visible (kit-devices, bounded in time). */
static void detect_gpu(engine *e)
{
    e->gpu = 0;
    snprintf(e->gpu_why, sizeof e->gpu_why, "no CUDA device found");
    const char *force = getenv("KIT_NO_GPU");
    if (force && *force && strcmp(force, "0")) {
        snprintf(e->gpu_why, sizeof e->gpu_why, "KIT_NO_GPU is set");
        return;
    }
    const char *argv[] = {e->conf.kit_devices, NULL};
    proc_opts o = {0};
    o.timeout_s = 60;
    o.env = (const char *const *)environ; /* driver library paths, CUDA_VISIBLE_DEVICES */
    proc_result r;
    proc_run(argv, &o, &r);
    if (proc_ok(&r)) {
        char idx[16];
        if (sscanf(sb_str(&r.out), "%15[^\t]\t%95[^\t]\t%159[^\t\n]", idx, e->gpu_uuid, e->gpu_name) == 3) {
            e->gpu = 1;
            e->gpu_why[0] = 0;
        }
    } else if (r.started && r.out.len) {
        snprintf(e->gpu_why, sizeof e->gpu_why, "%.*s", (int)strcspn(sb_str(&r.out), "\n"), sb_str(&r.out));
    } else if (!r.started || r.timed_out) {
        strbuf d;
        sb_init(&d);
        proc_describe(&r, &d);
        snprintf(e->gpu_why, sizeof e->gpu_why, "device query %s", sb_str(&d));
        sb_free(&d);
    }
    proc_result_free(&r);
}

int engine_load_conf(kit_conf *conf, const char *argv0, char *err, size_t errlen)
{
    char ini[PATH_MAX + 32];
    const char *b = getenv("KIT_BUILD");
    if (b && *b) {
        snprintf(ini, sizeof ini, "%s/kit.ini", b);
    } else {
        /* The executable lives in BUILD/bin/. */
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            snprintf(exe, sizeof exe, "%s", argv0);
        else
            exe[n] = 0;
        snprintf(ini, sizeof ini, "%s/../kit.ini", dirname(exe));
    }
    return kitconf_load(ini, conf, err, errlen);
}

int engine_init(engine *e, const char *lab, const char *argv0, const char *rubric_path, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->sanitizers_beside = 1;
    if (engine_load_conf(&e->conf, argv0, err, errlen) != 0)
        return -1;
    if (find_lab_dir(e->conf.kit_root, lab, e->lab_dir, sizeof e->lab_dir) != 0) {
        /* the words of `make lab99` (Makefile): the value, then the labs */
        char labs[1024];
        engine_lab_ids(e->conf.kit_root, labs, sizeof labs);
        snprintf(err, errlen, "no such lab '%s'; the labs are %s", lab, labs);
        return -2;
    }
    char path[2048];
    snprintf(path, sizeof path, "%s/manifest.ini", e->lab_dir);
    if (manifest_load(path, &e->man, err, errlen) != 0)
        return -1;
    e->rubric_given = rubric_path != NULL;
    if (rubric_path)
        snprintf(path, sizeof path, "%s", rubric_path);
    else
        snprintf(path, sizeof path, "%s/rubric.ini", e->lab_dir);
    fmt_into(e->rubric_path, sizeof e->rubric_path, "%s", path);
    if (rubric_load(path, &e->rub, err, errlen) != 0)
        return -1;
    if (strcmp(e->rub.lab, e->man.name)) { /* at its line, as every other bad rubric value */
        snprintf(err, errlen, "%s:%d: lab = %s, but this is %s's rubric (its lab is %s)", path, e->rub.lab_line,
                 e->rub.lab, e->man.name, e->man.name);
        return -1;
    }
    labdir_path(e->starter_dir, sizeof e->starter_dir, e->conf.kit_root, e->man.name, "student");
    fmt_into(e->lab_build, sizeof e->lab_build, "%s/labs/%s", e->conf.build_dir, e->man.name);
    sandbox_detect(&e->sb);
    sandbox_hide(&e->sb, e->conf.kit_root);
    e->sb.tmpfs_mb = e->rub.file_mb; /* the sandbox's /tmp and /dev/shm */
    detect_gpu(e);
    /* The kit's own CI runs its hostile CPU-side submissions (fork bombs,
     * floods, endless host loops in static constructors) through the whole
     * pipeline on a machine without a GPU: their CUDA calls simply fail. */
    const char *force = getenv("KIT_RUN_WITHOUT_GPU");
    if (!e->gpu && force && !strcmp(force, "1")) {
        e->gpu = 1;
        snprintf(e->gpu_uuid, sizeof e->gpu_uuid, "%s", KIT_NO_GPU_UUID);
        snprintf(e->gpu_name, sizeof e->gpu_name, "no GPU (KIT_RUN_WITHOUT_GPU=1)");
    }
    proc_become_subreaper();
    return 0;
}

void engine_free(engine *e) { rubric_free(&e->rub); }

int engine_seed(engine *e, const char *given, char *err, size_t errlen)
{
    if (given && *given)
        return kit_parse_seed(given, &e->seed, err, errlen);
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &s, sizeof s) != (ssize_t)sizeof s)
        s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    if (fd >= 0)
        close(fd);
    e->seed = s & 0xffffffffffffULL; /* 12 hex digits: short enough to type */
    return 0;
}

/* ------------------------------------------------------------------ tests */

static void add_repro(const engine *e, const rubric_test *t, strbuf *b)
{
    if (!e->repro[0])
        return;
    sb_add(b, "rerun just this test: ");
    rerun_command(e, t->name, b);
    sb_add(b, "\n");
}

/* An endless loop costs the whole time limit on every run.  When a run of
 * an all-or-nothing test hit the limit, the test has failed whatever the
 * other runs do: they are not run (1 = start skipping; the count of skipped
 * runs is then skipped - 1). */
static int skip_after_timeout(const rubric_test *t, const outcome *c) { return !t->partial && c->timed_out ? 1 : 0; }

static int skipped_runs(int skipped) { return skipped ? skipped - 1 : 0; }

static void note_skipped(strbuf *b, int n)
{
    sb_printf(b, "%d more run%s not run: a run hit the time limit, and this test needs every run to pass\n", n,
              n == 1 ? "" : "s");
}

/* One run of a correctness test, judged in the rubric's order once its
 * checker (maybe beside the next runs) has said. */
typedef struct {
    outcome c;
    char params[1024];
    uint64_t seed;
    int rep;
} test_run;

/* What a correctness test's runs judged so far came to. */
typedef struct {
    int total, passed, described;
    strbuf last_kernels;
} run_tally;

/* Does this run's checker run beside the case server's next cases?  Only
 * while the grading keeps its shared hold through its correctness runs
 * anyway, as one of its sanitizer sessions runs beside them (else it gives
 * the hold back while a checker runs, so that other gradings' timing runs
 * go first: gpu_idle); not for a test whose runs take the GPU alone; not
 * with KIT_CHECKS_BESIDE=0 (each checker before the next case, for
 * comparing timings: the results are the same). */
static int checks_beside_wanted(const grading *gr, const rubric_test *t)
{
    const char *env = getenv("KIT_CHECKS_BESIDE");
    return serve_sanitizers_running(gr) && !t->gpu_alone && !(env && !strcmp(env, "0"));
}

/* Run r into the tally and the test's output, its checker's verdict waited
 * for if it still runs; r is freed. */
static void judge_run(grading *gr, const rubric_test *t, test_run *r, run_tally *k, test_result *tr)
{
    outcome *c = &r->c;
    for (int i = 0; i < MAX_CHECKS_BESIDE; i++)
        if (gr->beside[i] == c)
            gr->beside[i] = NULL;
    if (c->check) {
        c->check_s = checker_finish(c->check, c);
        c->check = NULL;
    }
    if (c->check_dir) /* checked beside the next runs: its seconds now */
        gr->times.checks += c->check_s, gr->times.n_checks++, gr->times.checks_overlap = 1;
    k->total++;
    if (c->not_own)
        c->elsewhere ? gr->not_own_right++ : gr->not_own_wrong++;
    if (c->pass) {
        k->passed++;
        if (c->kernels.len) {
            sb_clear(&k->last_kernels);
            sb_add(&k->last_kernels, sb_str(&c->kernels));
        }
        if (c->text.len) /* notes (e.g. trace unavailable), once */
            if (!strstr(sb_str(&tr->output), sb_str(&c->text)))
                sb_add(&tr->output, sb_str(&c->text));
    } else if (k->described < MAX_FAIL_DETAILS) {
        k->described++;
        sb_printf(&tr->output, "case %s (seed 0x%llx):\n", r->params, (unsigned long long)r->seed);
        if (t->repeat > 1)
            sb_printf(&tr->output, "  (run %d of %d)\n", r->rep + 1, t->repeat);
        for (char *line = strtok(c->text.s ? c->text.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
            sb_printf(&tr->output, "  %s\n", line);
    }
    outcome_free(c);
}

/* The correctness test's runs in order; each run's checker may go on beside
 * the next runs (checks_beside_wanted, at most MAX_CHECKS_BESIDE at once);
 * the runs are judged in their order, as their checkers end, so the output
 * is the one of checking each before the next.  A run that hit the time
 * limit skips the rest of an all-or-nothing test (skip_after_timeout). */
static void correctness_runs(grading *gr, const rubric_test *t, test_result *tr, run_tally *k, int *skipped)
{
    const engine *e = gr->e;
    enum { RING = MAX_CHECKS_BESIDE + 1 };
    test_run runs[RING];
    int first = 0, n = 0; /* runs[first], ... (n of them, mod RING): run, not judged yet */
    for (int i = 0; i < t->n_cases; i++)
        for (int rep = 0; rep < t->repeat; rep++) {
            if (*skipped) {
                k->total++, (*skipped)++;
                continue;
            }
            if (n == MAX_CHECKS_BESIDE) /* the oldest judged first: its checker waited for */
                judge_run(gr, t, &runs[first], k, tr), first = (first + 1) % RING, n--;
            test_run *r = &runs[(first + n++) % RING];
            case_params(t, i, r->params, sizeof r->params);
            r->seed = engine_case_seed(e->seed, t->name, i, rep);
            r->rep = rep;
            outcome_init(&r->c);
            r->c.defer_check = checks_beside_wanted(gr, t);
            if (t->gpu_alone || !serve_case(gr, t, r->params, r->seed, &r->c)) {
                outcome_free(&r->c); /* a run of its own: checked before the next, in the run folder */
                outcome_init(&r->c);
                run_case(gr, t, r->params, r->seed, 0, &r->c);
            }
            *skipped = skip_after_timeout(t, &r->c);
            while (n > 0 && !runs[first].c.check) /* those checked already, in order */
                judge_run(gr, t, &runs[first], k, tr), first = (first + 1) % RING, n--;
        }
    for (; n > 0; n--, first = (first + 1) % RING)
        judge_run(gr, t, &runs[first], k, tr);
}

static void run_correctness(grading *gr, const rubric_test *t, test_result *tr)
{
    const engine *e = gr->e;
    run_tally k = {0};
    sb_init(&k.last_kernels);
    int skipped = 0;
    correctness_runs(gr, t, tr, &k, &skipped);
    int not_run = skipped_runs(skipped), failed = k.total - k.passed - not_run;
    if (failed > k.described)
        sb_printf(&tr->output, "... and %d more failing run%s\n", failed - k.described,
                  failed - k.described == 1 ? "" : "s");
    if (not_run)
        note_skipped(&tr->output, not_run);
    if (t->repeat > 1 && failed > 0 && !not_run)
        sb_printf(&tr->output, "%d of %d runs wrong (results that change from run to run point to a race)\n", failed,
                  k.total);
    if (k.last_kernels.len) {
        sb_add(&tr->output, "kernels of the last passing case:\n");
        for (char *line = strtok(k.last_kernels.s, "\n"); line; line = strtok(NULL, "\n"))
            sb_printf(&tr->output, "  %s\n", line);
    }
    sb_free(&k.last_kernels);
    tr->status = k.passed == k.total ? ST_PASS : ST_FAIL;
    tr->score = t->partial ? t->points * k.passed / (k.total ? k.total : 1) : (k.passed == k.total ? t->points : 0);
    if (k.passed < k.total)
        add_repro(e, t, &tr->output);
}

/* Sanitizer points need the student's kernels to have been what the
 * correctness runs checked: a clean report of code that computed its
 * results elsewhere (host, library) checks nothing of the lab.  "Elsewhere"
 * = every run that failed the device-execution check still had right values
 * (a stub that launches nothing and returns 0 is right only by chance, when
 * the answer is 0, and wrong otherwise: incomplete, not elsewhere). */
static int deny_sanitizer_credit(const grading *gr, test_result *tr)
{
    if (!(gr->not_own_right > 0 && gr->not_own_wrong == 0) || tr->status != ST_PASS)
        return 0;
    tr->status = ST_FAIL;
    tr->score = 0;
    sb_add(&tr->output, "not credited: the correctness runs got right values that the device-execution check did not "
                        "find computed by kernels of your own (no own kernel, library kernels, or the work done on the "
                        "host: see their messages), so a clean sanitizer report checks nothing of yours\n");
    return 1;
}

static void run_sanitizer(grading *gr, const rubric_test *t, test_result *tr)
{
    const engine *e = gr->e;
    if (uses_barrier_runner(t) && gr->barriers < 0) {
        /* never a guessed pass: the barriers of this file were not checked */
        tr->status = ST_ERROR;
        sb_printf(&tr->output,
                  "not run: your files build, but not with the kit's barrier check (kit/barrier_check.cuh, which "
                  "replaces each __syncthreads() by one that counts the threads reaching it); show this to your "
                  "instructor:\n%s",
                  gr->barrier_log);
        return;
    }
    if (!e->conf.compute_sanitizer[0]) {
        tr->status = ST_ERROR;
        sb_add(&tr->output, "compute-sanitizer was not found with the CUDA Toolkit; this test cannot run here\n");
        return;
    }
    san_case *cases = calloc((size_t)t->n_cases, sizeof *cases);
    if (!cases) {
        tr->status = ST_ERROR;
        sb_add(&tr->output, "internal error: out of memory\n");
        return;
    }
    if (serve_sanitizer_clean(gr, t, cases)) {
        tr->status = ST_PASS;
        tr->score = t->points;
        free(cases);
        return;
    }
    int passed = 0, skipped = 0;
    for (int i = 0; i < t->n_cases; i++) {
        char params[1024];
        case_params(t, i, params, sizeof params);
        uint64_t seed = engine_case_seed(e->seed, t->name, i, 0);
        if (cases[i].state == SAN_CLEAN) { /* its session's clean report covers it */
            passed++;
            continue;
        }
        if (skipped) {
            skipped++;
            continue;
        }
        outcome c;
        outcome_init(&c);
        if (cases[i].state == SAN_SKIPPED)
            hang_skipped(gr, cases[i].call, &c);
        else
            run_sanitizer_case(gr, t, params, seed, &c);
        skipped = skip_after_timeout(t, &c);
        if (c.pass)
            passed++;
        else {
            sb_printf(&tr->output, "%s, case %s (seed 0x%llx):\n", t->tool, params, (unsigned long long)seed);
            for (char *line = strtok(c.text.s ? c.text.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
        }
        outcome_free(&c);
    }
    free(cases);
    if (skipped_runs(skipped))
        note_skipped(&tr->output, skipped_runs(skipped));
    tr->status = passed == t->n_cases ? ST_PASS : ST_FAIL;
    tr->score = t->partial ? t->points * passed / t->n_cases : (passed == t->n_cases ? t->points : 0);
    if (tr->status != ST_PASS)
        add_repro(e, t, &tr->output);
}

void timing_line(const rubric_test *t, const char *params, const outcome *c, strbuf *out)
{
    double speedup = c->baseline_ms / c->student_ms;
    sb_printf(out, "case %s: yours %.3f ms, baseline %.3f ms ", params, c->student_ms, c->baseline_ms);
    if (c->timed_decided)
        sb_printf(out,
                  "(medians of %d interleaved calls, each pair's speedup %s %.2fx: more calls could not change the "
                  "score, so the timing stopped there): speedup %.2fx\n",
                  c->timed_pairs, c->timed_decided == KIT_DECIDED_FULL ? "at least" : "at most",
                  c->timed_decided == KIT_DECIDED_FULL ? t->threshold * KIT_DECIDED_MARGIN
                                                       : t->min_speedup / KIT_DECIDED_MARGIN,
                  speedup);
    else
        sb_printf(out, "(medians of >= %d interleaved calls, best round): speedup %.2fx\n", t->reps, speedup);
}

/* A timing run that counts: right results, both sides timed. */
static int timed_ok(const outcome *c) { return c->pass && c->student_ms > 0 && c->baseline_ms > 0; }

/* The runs of performance test t into ep, case by case until one does not
 * count (its checker decides: waited for before the next run);
 * defer_last: the last case's checker is left running (checks_beside). */
static void performance_runs(grading *gr, const rubric_test *t, early_perf *ep, int defer_last)
{
    const engine *e = gr->e;
    for (int i = 0; i < t->n_cases; i++) {
        char params[1024];
        case_params(t, i, params, sizeof params);
        outcome *c = &ep->cases[i];
        outcome_init(c);
        c->defer_check = defer_last && i == t->n_cases - 1;
        run_case(gr, t, params, engine_case_seed(e->seed, t->name, i, 0), 1, c);
        ep->n_run++;
        ep->waited += c->waited_s;
        if (!c->check && !timed_ok(c))
            break;
    }
}

/* The result of performance test t from its runs (ep, their checkers done). */
static void performance_result(const grading *gr, const rubric_test *t, early_perf *ep, test_result *tr)
{
    const engine *e = gr->e;
    double log_sum = 0;
    int ok = 1;
    tr->show_output = 1; /* students tune against these numbers: shown on a pass too */
    for (int i = 0; i < ep->n_run && ok; i++) {
        char params[1024];
        case_params(t, i, params, sizeof params);
        uint64_t seed = engine_case_seed(e->seed, t->name, i, 0);
        outcome *c = &ep->cases[i];
        if (!timed_ok(c)) {
            ok = 0;
            sb_printf(&tr->output,
                      "case %s (seed 0x%llx): no performance credit (a timing run must compute right results, in a "
                      "time this GPU can reach):\n",
                      params, (unsigned long long)seed);
            if (!c->text.len)
                sb_add(&c->text, "no timings were recorded\n");
            for (char *line = strtok(c->text.s, "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
        } else {
            log_sum += log(c->baseline_ms / c->student_ms);
            timing_line(t, params, c, &tr->output);
            for (char *line = strtok(c->metrics.s ? c->metrics.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
            /* the checker's notes (e.g. calls timed until work they left running ended) */
            for (char *line = strtok(c->text.s ? c->text.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
        }
    }
    if (!ok || ep->n_run < t->n_cases) {
        tr->status = ST_FAIL;
        tr->score = 0;
        add_repro(e, t, &tr->output);
        return;
    }
    double s = exp(log_sum / t->n_cases);
    double frac = s >= t->threshold ? 1.0 : s <= t->min_speedup ? 0.0 : (s - t->min_speedup) / (t->threshold - t->min_speedup);
    tr->score = round(t->points * frac * 100) / 100;
    tr->status = frac >= 1.0 ? ST_PASS : ST_FAIL;
    sb_printf(&tr->output, "speedup %.2fx: full points from %.2fx, none at or below %.2fx\n", s, t->threshold,
              t->min_speedup);
    if (ep->waited >= 1)
        sb_printf(&tr->output, "(waited %.0f s for the GPU: timing runs take it one at a time; the wait is not timed)\n",
                  ep->waited);
}

static void early_free_cases(early_perf *ep)
{
    for (int i = 0; i < ep->n_run; i++)
        outcome_free(&ep->cases[i]); /* a checker still running is ended */
    free(ep->cases);
    ep->cases = NULL, ep->n_run = 0;
}

static void run_performance(grading *gr, const rubric_test *t, test_result *tr)
{
    early_perf ep = {.t = t, .cases = calloc((size_t)t->n_cases, sizeof(outcome))};
    if (!ep.cases) {
        tr->status = ST_ERROR;
        sb_add(&tr->output, "internal error: out of memory\n");
        return;
    }
    performance_runs(gr, t, &ep, 0);
    performance_result(gr, t, &ep, tr);
    early_free_cases(&ep);
}

/* What each kind of test runs, and what is decided once every test ran. */
static void deny_credit_after(const grading *gr, test_result *tr) { deny_sanitizer_credit(gr, tr); }

static const struct {
    void (*run)(grading *gr, const rubric_test *t, test_result *tr);
    void (*after)(const grading *gr, test_result *tr); /* NULL: nothing */
} test_kinds[] = {
    [KIND_CORRECTNESS] = {run_correctness, NULL},
    [KIND_SANITIZER] = {run_sanitizer, deny_credit_after},
    [KIND_PERFORMANCE] = {run_performance, NULL},
};

static void fill_test(test_result *tr, const rubric_test *t)
{
    snprintf(tr->name, sizeof tr->name, "%s", t->name);
    snprintf(tr->group, sizeof tr->group, "%s", t->group);
    snprintf(tr->title, sizeof tr->title, "%s", t->title);
    tr->vis = t->vis;
    tr->max_score = t->points;
    tr->details_hidden = t->vis != VIS_VISIBLE && !t->show_details;
}

static void stamp_time(grade_result *g)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(g->graded_at, sizeof g->graded_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void start_result(engine *e, const char *student, grade_result *g)
{
    grade_result_init(g);
    snprintf(g->student, sizeof g->student, "%s", student);
    snprintf(g->lab, sizeof g->lab, "%s", e->man.name);
    g->seed = e->seed;
    snprintf(g->grading_key, sizeof g->grading_key, "%s", e->grading_key);
    snprintf(g->conditions, sizeof g->conditions, "%s", e->conditions);
    g->no_gpu = !e->gpu;
    snprintf(g->gpu, sizeof g->gpu, "%s", e->gpu ? e->gpu_name : "");
    snprintf(g->kit_version, sizeof g->kit_version, "%s", e->conf.kit_version);
    stamp_time(g);
    const char *warn = sandbox_warning(&e->sb);
    if (warn)
        sb_printf(&g->notes, "%s\n", warn);
}

/* The build's line among the test lines (student checks, instructor's grade). */
static void report_build_line(const grading *gr, const grade_result *g)
{
    const engine *e = gr->e;
    test_result bt;
    memset(&bt, 0, sizeof bt);
    sb_init(&bt.output);
    snprintf(bt.name, sizeof bt.name, "%s", g->handin_bad ? "hand-in" : "build"); /* not a compile failure */
    bt.status = g->build_ok ? ST_PASS : ST_FAIL;
    bt.seconds = g->build_seconds;
    bt.max_score = -1; /* no points column */
    snprintf(bt.note, sizeof bt.note, "%s", gr->build_reused);
    if (!g->build_ok || buildlog_has_warning(sb_str(&g->build_log)))
        sb_add(&bt.output, sb_str(&g->build_log)); /* errors, or warnings under an OK build */
    report_test_line(e->log, &bt, &e->ropts);
    if (e->timings)
        times_print(e->log, &gr->times);
    sb_free(&bt.output);
}

/* ------------------------------------------- the performance tests first */

/* A performance test's timing needs the GPU alone, and its checker (CPU
 * work on the timed case's outputs and timed calls, seconds for large
 * cases) used to come last, with nothing beside it.  Run first, while the
 * GPU is the grading's alone, the test leaves its checker running beside
 * the sanitizer sessions and the correctness tests, and its result waits
 * for its turn: the report, results.json and feedback keep the rubric's
 * order and content.  Only where nothing of it can change what the other
 * tests do or what it would get at its turn: the performance tests are
 * the rubric's last (wanted) tests (a test after one could depend on it:
 * a call found not to return there), after at least one other; the
 * sanitizer sessions run beside the correctness tests (not a batch of
 * several submissions per GPU, whose timing runs must not wait behind a
 * grading's holds); no --profile (its run follows the timing, with the GPU
 * alone); and KIT_PERF_FIRST is not 0. */
static int perf_first(const engine *e, const grade_result *g)
{
    const char *env = getenv("KIT_PERF_FIRST");
    if (!g->gpu_ran || (env && !strcmp(env, "0")) || !e->sanitizers_beside || e->profile)
        return 0;
    int others = 0, perf = 0;
    for (int i = 0; i < e->rub.n_tests; i++) {
        const rubric_test *t = &e->rub.tests[i];
        if (!test_wanted(e, t))
            continue;
        if (t->kind == KIND_PERFORMANCE)
            perf++;
        else if (perf)
            return 0;
        else
            others++;
    }
    return perf > 0 && others > 0 && perf <= MAX_EARLY;
}

/* Forgets the tests run first: their checkers ended, their run folders
 * and stdout files removed (outputs of large cases: hundreds of MB). */
static void early_drop(grading *gr, grade_result *g)
{
    for (int i = 0; i < gr->n_early; i++) {
        early_perf *ep = &gr->early[i];
        early_free_cases(ep);
        if (rm_rf(ep->run) != 0 || (unlink(ep->sout) != 0 && errno != ENOENT))
            sb_printf(&g->notes, "internal error: cannot remove the runs' outputs in %s: %s\n", ep->run,
                      strerror(errno));
        memset(ep, 0, sizeof *ep);
    }
    gr->n_early = 0;
}

/* The wanted performance tests, in the rubric's order, each in a run folder
 * of its own (its checker reads it while later runs write theirs).  A call
 * they find not to return is not passed on: the other tests ran before
 * them in the rubric's order and did not know of it. */
static void run_first(grading *gr)
{
    const engine *e = gr->e;
    workdirs saved = gr->w;
    for (int i = 0; i < e->rub.n_tests; i++) {
        const rubric_test *t = &e->rub.tests[i];
        if (t->kind != KIND_PERFORMANCE || !test_wanted(e, t))
            continue;
        early_perf *ep = &gr->early[gr->n_early];
        memset(ep, 0, sizeof *ep);
        ep->t = t;
        if (!(ep->cases = calloc((size_t)t->n_cases, sizeof(outcome))))
            break; /* this one and the rest at their turn */
        gr->n_early++;
        snprintf(ep->run, sizeof ep->run, "%s/run-first-%d", gr->w.root, gr->n_early);
        snprintf(ep->sout, sizeof ep->sout, "%s/stdout-first-%d.txt", gr->w.root, gr->n_early);
        snprintf(gr->w.run, sizeof gr->w.run, "%s", ep->run);
        snprintf(gr->w.sout, sizeof gr->w.sout, "%s", ep->sout);
        gpu_release_all(gr); /* the GPU alone for its timing; the checker of the one before done */
        times_reset(&gr->times);
        double t0 = kit_now();
        performance_runs(gr, t, ep, 1);
        ep->seconds = kit_now() - t0;
        ep->times = gr->times;
    }
    gr->w = saved;
    gr->n_hung = 0;
}

/* A performance test run first, at its turn: its checker waited for (as
 * today's test would end its grading's GPU processes), its result made. */
static void performance_at_turn(grading *gr, early_perf *ep, test_result *tr)
{
    double t0 = kit_now();
    checks_settle(gr);
    double wait = kit_now() - t0;
    gpu_release_all(gr);
    performance_result(gr, ep->t, ep, tr);
    gr->times = ep->times;
    gr->times.first = 1;
    gr->times.check_wait = wait;
    gr->times.check_beside = ep->n_run > 0 ? ep->cases[ep->n_run - 1].check_s : 0;
}

static early_perf *early_of(grading *gr, const rubric_test *t)
{
    for (int i = 0; i < gr->n_early; i++)
        if (gr->early[i].t == t)
            return &gr->early[i];
    return NULL;
}

/* ------------------------------------------------------------ the whole */

/* One test of the rubric, into its result in g. */
static void grade_test(grading *gr, const rubric_test *t, grade_result *g)
{
    const engine *e = gr->e;
    test_result *tr = grade_result_add(g);
    fill_test(tr, t);
    times_reset(&gr->times);
    gr->times.beside_check = checks_beside(gr) > 0;
    double ts = kit_now();
    early_perf *ep = early_of(gr, t);
    if (!g->build_ok) {
        tr->status = ST_FAIL;
        sb_add(&tr->output, g->handin_bad ? "not run: nothing was compiled (a hand-in problem, above)\n"
                                          : "not run: the build failed\n");
    } else if (!e->gpu) {
        tr->status = ST_SKIP;
        sb_add(&tr->output, "not run: needs a CUDA device\n");
    } else if (ep) {
        performance_at_turn(gr, ep, tr);
    } else {
        if (t->kind == KIND_PERFORMANCE) /* its timing loop needs the GPU without this grading's hold */
            gpu_release_all(gr);
        test_kinds[t->kind].run(gr, t, tr);
    }
    tr->seconds = kit_now() - ts + (ep ? ep->seconds : 0);
    if (t->kind == KIND_PERFORMANCE && g->build_ok && e->gpu)
        profile_test(gr, t, tr); /* --profile: lines and figures, never the grade (profile.h) */
    if (test_kinds[t->kind].after)
        test_kinds[t->kind].after(gr, tr);
    if (e->log)
        report_test_line(e->log, tr, &e->ropts);
    if (e->log && e->timings)
        times_print(e->log, &gr->times);
}

void grade_tests(grading *gr, grade_result *g)
{
    engine *e = gr->e;
    g->gpu_ran = e->gpu && g->build_ok;
    if (g->gpu_ran && e->before_gpu)
        e->before_gpu(e, e->before_gpu_arg);
    if (perf_first(e, g))
        run_first(gr);
    /* The sanitizer tests start now and run while the correctness cases do. */
    for (int i = 0; g->gpu_ran && e->sanitizers_beside && i < e->rub.n_tests; i++)
        if (e->rub.tests[i].kind == KIND_SANITIZER && test_wanted(e, &e->rub.tests[i]))
            serve_sanitizer_start(gr, &e->rub.tests[i]);
    for (int i = 0; i < e->rub.n_tests; i++) {
        const rubric_test *t = &e->rub.tests[i];
        if (!test_wanted(e, t))
            continue;
        /* A call found not to return by the tests before: at its turn the
         * performance test would not have made it (--skip-calls); its runs
         * made first are dropped, and it runs now as it would have. */
        if (t->kind == KIND_PERFORMANCE && gr->n_hung > 0)
            early_drop(gr, g);
        grade_test(gr, t, g);
    }
    gpu_release_all(gr);
    early_drop(gr, g);
    /* A correctness test after a sanitizer test in the rubric may have found it only now. */
    for (int i = 0; i < g->n_tests; i++) {
        const rubric_test *t = rubric_find(&e->rub, g->tests[i].name);
        if (t && test_kinds[t->kind].after)
            test_kinds[t->kind].after(gr, &g->tests[i]);
    }
}

void engine_grade(engine *e, const char *sub_dir, const char *work_dir, const char *student, grade_result *g)
{
    double t0 = kit_now();
    start_result(e, student, g);
    grading grading_state = {.e = e}, *gr = &grading_state; /* nothing of it outlives the call */
    if (prepare_dirs(e, work_dir, &gr->w) != 0) {
        sb_printf(&g->notes, "internal error: cannot prepare the work folder %s: %s\n", work_dir, strerror(errno));
        g->build_ok = 0;
    } else {
        g->build_ok = build_runner(gr, sub_dir, g, e->gpu);
    }
    if (e->log)
        report_build_line(gr, g);
    grade_tests(gr, g);
    grade_result_total(g);
    g->seconds = kit_now() - t0;
    /* Outputs of large cases can be hundreds of MB: never leave them behind. */
    if (e->keep_work ? clean_run_dir(e, &gr->w) : rm_rf(work_dir))
        sb_printf(&g->notes, "internal error: cannot remove the runs' outputs in %s: %s\n",
                  e->keep_work ? gr->w.run : work_dir, strerror(errno));
    sandbox_release_uid(&e->sb);
}

int engine_build_only(engine *e, const char *sub_dir, const char *work_dir, grade_result *g)
{
    start_result(e, sub_dir, g);
    grading gr = {.e = e};
    if (prepare_dirs(e, work_dir, &gr.w) != 0)
        sb_printf(&g->build_log, "internal error: cannot prepare the work folder %s: %s\n", work_dir, strerror(errno));
    else
        g->build_ok = build_runner(&gr, sub_dir, g, 0);
    return g->build_ok;
}

int engine_show(engine *e, const char *sub_dir, const char *work_dir, const char *params)
{
    grade_result g;
    if (!engine_build_only(e, sub_dir, work_dir, &g)) {
        fprintf(stderr, "build failed:\n%s", sb_str(&g.build_log));
        grade_result_free(&g);
        return 1;
    }
    grade_result_free(&g);
    if (!e->gpu) {
        fprintf(stderr, "%s: no GPU (%s): built, not run\n", e->man.name, e->gpu_why);
        return KITGRADE_EXIT_NO_GPU;
    }
    workdirs w;
    snprintf(w.run, sizeof w.run, "%s/run", work_dir);
    snprintf(w.bin, sizeof w.bin, "%s/bin", work_dir);
    snprintf(w.runner, sizeof w.runner, "%s/bin/runner", work_dir);
    char seed_s[32];
    snprintf(seed_s, sizeof seed_s, "0x%llx", (unsigned long long)e->seed);
    const char *argv[] = {w.runner, "show", "--params", params ? params : "", "--seed", seed_s, NULL};
    sandboxed sb;
    sandboxed_init(&sb, e, e->rub.timeout_s, w.run, w.run, w.run, w.bin, NULL);
    proc_result r;
    proc_run(argv, &sb.o, &r);
    fwrite(sb_str(&r.out), 1, r.out.len, stdout);
    fwrite(sb_str(&r.err), 1, r.err.len, stderr);
    int ok = proc_ok(&r);
    if (!ok) {
        strbuf d;
        sb_init(&d);
        proc_describe(&r, &d);
        fprintf(stderr, "the program %s\n", sb_str(&d));
        sb_free(&d);
    }
    proc_result_free(&r);
    return ok ? 0 : 1;
}
