/* engine.c - grading one submission (see engine.h). */
#include "grading/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "kit/rng.h"
#include "kit/util.h"
#include "grading/build.h"
#include "output/buildlog.h"
#include "util/exit_codes.h"
#include "process/lock.h"
#include "process/proc.h"
#include "grading/profile.h"
#include "model/labdir.h"
#include "util/fsutil.h"
#include "grading/engine_int.h"

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

/* Is a wanted correctness test after the rubric's test i? */
static int correctness_after(const engine *e, int i)
{
    for (int k = i + 1; k < e->rub.n_tests; k++)
        if (e->rub.tests[k].kind == KIND_CORRECTNESS && test_wanted(e, &e->rub.tests[k]))
            return 1;
    return 0;
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
        serve_sanitizers_poll(gr); /* a session done by now ends beside this test */
        grade_test(gr, t, g);
        if (t->kind == KIND_CORRECTNESS && !correctness_after(e, i))
            serve_done(gr); /* the case server's exit beside the tests that follow */
    }
    correctness_queue_free(gr);
    gpu_release_all(gr);
    serve_forget_all(gr);
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
