/* build.c - a grading's work folder and its build: the student's files
 * taken, the kit's files copied in, nvcc in the sandbox (or the build cache),
 * the synccheck test's barrier-checked runner beside it, the compiler's
 * messages tidied and explained (see build.h). */
#include "grading/build.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/util.h"
#include "grading/buildcache.h"
#include "grading/submission.h"
#include "output/buildlog.h"
#include "process/lock.h"
#include "process/proc.h"
#include "util/fsutil.h"

/* ------------------------------------------------------------- work dirs */
int prepare_dirs(engine *e, const char *work_dir, workdirs *w)
{
    snprintf(w->root, sizeof w->root, "%s", work_dir);
    snprintf(w->src, sizeof w->src, "%s/src", work_dir);
    snprintf(w->lib, sizeof w->lib, "%s/lib", work_dir);
    snprintf(w->bin, sizeof w->bin, "%s/bin", work_dir);
    snprintf(w->run, sizeof w->run, "%s/run", work_dir);
    snprintf(w->runner, sizeof w->runner, "%s/runner", w->bin);
    snprintf(w->sout, sizeof w->sout, "%s/stdout.txt", work_dir);
    /* an earlier grading's files left behind would be built or read as this one's */
    if (rm_rf(work_dir) != 0)
        return -1;
    if (mkdirs(w->src, 0755) || mkdirs(w->lib, 0755) || mkdirs(w->bin, 0755) || mkdirs(w->run, 0755))
        return -1;
    if (chmod(work_dir, 0755) != 0) /* the sandbox uid reads the kit's files in it */
        return -1;
    if (e->sb.drop_uid) { /* the unprivileged uid writes the runner and its outputs */
        sandbox_claim_uid(&e->sb, e->log ? e->log : stderr);
        if (chown(w->bin, e->sb.uid, e->sb.gid) || chown(w->run, e->sb.uid, e->sb.gid))
            return -1;
    }
    return 0;
}

/* The kit's part of the build: the interface header, common headers and the
 * lab's precompiled objects, copied into the work folder so the sandbox needs
 * nothing of the kit's tree. */
static int copy_kit_files(engine *e, const workdirs *w, strbuf *why)
{
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", e->starter_dir, e->man.interface);
    snprintf(to, sizeof to, "%s/%s", w->src, e->man.interface);
    if (copy_file(from, to, 0644) != 0) {
        sb_printf(why, "kit file missing: %s (%s)\n", from, strerror(errno));
        return -1;
    }
    snprintf(to, sizeof to, "%s/kit", w->src);
    if (mkdirs(to, 0755) != 0) {
        sb_printf(why, "cannot create %s: %s\n", to, strerror(errno));
        return -1;
    }
    glob_t g;
    snprintf(from, sizeof from, "%s/common/include/kit/*", e->conf.kit_root);
    if (glob(from, 0, NULL, &g) != 0) {
        sb_printf(why, "kit headers missing: %s\n", from);
        return -1;
    }
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *name = strrchr(g.gl_pathv[i], '/') + 1; /* the pattern has a '/' */
        snprintf(to, sizeof to, "%s/kit/%s", w->src, name);
        if (copy_file(g.gl_pathv[i], to, 0644) != 0) {
            sb_printf(why, "cannot copy the kit header %s: %s\n", g.gl_pathv[i], strerror(errno));
            globfree(&g);
            return -1;
        }
    }
    globfree(&g);
    /* Objects: the list make wrote, plus the two common libraries. */
    snprintf(from, sizeof from, "%s/objects", e->lab_build);
    FILE *f = fopen(from, "r");
    if (!f) {
        sb_printf(why, "kit objects of %s are not built: run 'make' in the kit's folder\n", e->man.name);
        return -1;
    }
    char line[4096];
    int k = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line)
            continue;
        snprintf(to, sizeof to, "%s/kit%02d.o", w->lib, k++);
        if (copy_file(line, to, 0644) != 0) {
            sb_printf(why, "kit object missing: %s: run 'make'\n", line);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    static const char *libs[] = {"libkit-runner.a", "libkit.a"};
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/common/%s", e->conf.build_dir, libs[i]);
        snprintf(to, sizeof to, "%s/%s", w->lib, libs[i]);
        if (copy_file(from, to, 0644) != 0) {
            sb_printf(why, "kit library missing: %s: run 'make'\n", from);
            return -1;
        }
    }
    return 0;
}

/* ----------------------------------------------------------------- build */

/* Adds a plain explanation for the linker messages students meet most. */
static void explain_build_log(engine *e, const char *log, strbuf *b)
{
    const char *p = log;
    int shown = 0;
    while ((p = strstr(p, "undefined reference to `")) && shown < 4) {
        p += strlen("undefined reference to `");
        size_t n = strcspn(p, "'");
        char line[1024];
        snprintf(line, sizeof line,
                 "your %s does not define %.*s as %s declares it (check the name, parameter types and return type)\n",
                 e->man.student_files[0], (int)n, p, e->man.interface);
        if (!strstr(sb_str(b), line)) { /* the linker names it once per call site */
            sb_add(b, line);
            shown++;
        }
    }
    if ((p = strstr(log, "multiple definition of `"))) {
        p += strlen("multiple definition of `");
        size_t n = strcspn(p, "'");
        sb_printf(b, "your code defines %.*s, which the kit's harness already defines: remove it\n", (int)n, p);
    }
}

/* The files the kit provides in labs/<lab>/student/ (its header), as the kit
 * recorded them (mk/provided, the script make runs before it compiles the
 * lab's kit code): the harness was compiled against them and every build
 * copies them.  0, or -1 with one line per changed file (which, how to get
 * it back) in why. */
static int provided_unchanged(const engine *e, strbuf *why)
{
    char script[4200];
    fmt_into(script, sizeof script, "%s/mk/provided", e->conf.kit_root);
    const char *argv[] = {"/bin/sh", script, "check", e->man.name, NULL};
    proc_opts o = {0};
    o.timeout_s = 60;
    o.cwd = e->conf.kit_root;
    proc_result r;
    proc_run(argv, &o, &r);
    int ok = proc_ok(&r);
    size_t lab_len = strlen(e->man.name);
    for (const char *l = sb_str(&r.err); !ok && *l;) { /* each line without its "lab03-dot: " */
        size_t n = strcspn(l, "\n");
        const char *text = !strncmp(l, e->man.name, lab_len) && !strncmp(l + lab_len, ": ", 2) ? l + lab_len + 2 : l;
        sb_add_sanitized(why, text, n - (size_t)(text - l));
        sb_add(why, "\n");
        l += n + (l[n] == '\n');
    }
    if (!ok && !r.err.len) {
        sb_add(why, "mk/provided check ");
        proc_describe(&r, why);
        sb_add(why, "\n");
    }
    proc_result_free(&r);
    return ok ? 0 : -1;
}

/* A submission that failed to build and holds its own copy of a file the
 * kit provides, changed: said, since its build used the kit's copy. */
static void explain_provided_copies(const engine *e, const char *sub_dir, strbuf *b)
{
    char record[2200], real_sub[4096], real_kit[4096];
    if (!realpath(sub_dir, real_sub) || !realpath(e->starter_dir, real_kit) || !strcmp(real_sub, real_kit))
        return; /* the kit's own folder: its files are checked against the record (provided_unchanged) */
    fmt_into(record, sizeof record, "%s/provided.sha256", e->lab_dir);
    FILE *f = fopen(record, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char sum[80], name[NAME_LEN * 2];
        if (line[0] == '#' || sscanf(line, "%79s %127s", sum, name) != 2)
            continue;
        char mine[4400], kits[4400];
        size_t n1 = 0, n2 = 0;
        fmt_into(mine, sizeof mine, "%s/%s", sub_dir, name);
        fmt_into(kits, sizeof kits, "%s/%s", e->starter_dir, name);
        char *a = kit_read_file(mine, SUBMISSION_MAX_BYTES, &n1), *k = kit_read_file(kits, SUBMISSION_MAX_BYTES, &n2);
        if (a && k && (n1 != n2 || memcmp(a, k, n1)))
            sb_printf(b, "your %s differs from the kit's, which the grader builds with (students must not change "
                         "it): your code must build against the kit's %s\n", name, name);
        free(a);
        free(k);
    }
    if (f)
        fclose(f);
}

/* nvcc FLAGS ARCH -I. EXTRA -o OUT STUDENT_FILES ../lib/(objects and libraries) LINK_FLAGS,
 * in the sandbox (the kit's files are in the work folder already): started
 * (nvcc_start) and then waited for (nvcc_finish), so that the synccheck
 * test's build runs beside the plain one. */
typedef struct {
    proc_session *s;
    sandboxed sb;
    char *tokens;
    glob_t objs;
    int have_objs;
    double t0;
    const char *argv[256];
    char lib1[2200], lib2[2200];
} nvcc_job;

static void nvcc_start(engine *e, const workdirs *w, const char *out, const char *const extra[], proc_result *r,
                       nvcc_job *j)
{
    char flags[8192];
    snprintf(flags, sizeof flags, "%s %s %s -I. %s", e->conf.nvcc_flags, e->conf.arch_flags, e->man.nvcc_flags,
             e->conf.link_flags);
    const char **argv = j->argv;
    j->tokens = strdup(flags);
    int n = 0;
    argv[n++] = e->conf.nvcc;
    for (char *t = j->tokens ? strtok(j->tokens, " \t") : NULL; t && n < 200; t = strtok(NULL, " \t"))
        argv[n++] = t;
    for (int i = 0; extra && extra[i] && n < 210; i++)
        argv[n++] = extra[i];
    argv[n++] = "-o";
    argv[n++] = out;
    for (int i = 0; i < e->man.n_student_files; i++)
        argv[n++] = e->man.student_files[i];
    char pattern[2200];
    snprintf(pattern, sizeof pattern, "%s/*.o", w->lib);
    j->have_objs = glob(pattern, 0, NULL, &j->objs) == 0;
    for (size_t i = 0; j->have_objs && i < j->objs.gl_pathc && n < 240; i++)
        argv[n++] = j->objs.gl_pathv[i];
    snprintf(j->lib1, sizeof j->lib1, "%s/libkit-runner.a", w->lib);
    snprintf(j->lib2, sizeof j->lib2, "%s/libkit.a", w->lib);
    argv[n++] = j->lib1;
    argv[n++] = j->lib2;
    argv[n] = NULL;

    sandboxed_init(&j->sb, e, e->rub.build_timeout_s, w->src, w->run, w->bin, w->src, w->lib);
    j->sb.o.mem_mb = j->sb.o.mem_mb < 8192 ? 8192 : j->sb.o.mem_mb; /* cicc on a big file */
    j->t0 = kit_now();
    j->s = proc_start(argv, &j->sb.o, -1, r);
}

static void nvcc_finish(nvcc_job *j)
{
    if (j->s) { /* the time limit counts from the start, also for the build that ran beside another */
        double left = j->sb.o.timeout_s - (kit_now() - j->t0);
        proc_end(j->s, j->sb.o.timeout_s > 0 ? (left > 0.01 ? left : 0.01) : 0);
    }
    free(j->tokens);
    if (j->have_objs)
        globfree(&j->objs);
}

/* A build's messages, each once (nvcc repeats them per architecture), the
 * student's files named as the student knows them - in their own folder for
 * their own commands, by name alone in a grading (its feedback and
 * results.json go to the student: "dot.cu(66)", not the instructor's
 * /.../subs/alice/dot.cu(66)) - appended to log. */
static void tidy_build_log(engine *e, const char *sub_dir, const workdirs *w, const char *raw, strbuf *log)
{
    const char *files[MAX_LIST];
    for (int i = 0; i < e->man.n_student_files; i++)
        files[i] = e->man.student_files[i];
    buildlog_tidy(raw, files, e->man.n_student_files, e->student_mode ? sub_dir : "", w->src, log);
}

/* The compiler's messages as it printed them (sanitized). */
static void raw_build_log(const proc_result *r, strbuf *raw)
{
    sb_add_sanitized(raw, sb_str(&r->out), r->out.len);
    sb_add_sanitized(raw, sb_str(&r->err), r->err.len);
}

/* nvcc into `out`, or its earlier result when nothing that made it changed
 * (student checks: buildcache.h): build_start, then build_finish, which
 * returns 1 when out was built or reused; raw gets the compiler's messages,
 * r the process (r->started = 0 when reused).  A build takes the CPU slot
 * (lock.h: timing runs keep a free core) unless it already holds it: the
 * builds of one grading share one slot, or two beside each other could each
 * wait for the other's. */
typedef struct {
    buildcache c;
    nvcc_job job;
    int reused, running;
    const char *out;
} build_step;

static void build_start(engine *e, const workdirs *w, const char *out, const char *const extra[], strbuf *raw,
                        proc_result *r, build_step *b, cpu_slot *slot)
{
    memset(b, 0, sizeof *b);
    b->c.fd = -1;
    b->out = out;
    if (e->build_cache)
        buildcache_open(&b->c, e, w, extra);
    b->reused = buildcache_get(&b->c, e, w, out, raw);
    if (b->reused) {
        memset(r, 0, sizeof *r);
        sb_init(&r->out);
        sb_init(&r->err);
        return;
    }
    if (e->gpu && slot->fd < 0) /* only timing runs need a free core: none without a GPU */
        cpu_slot_acquire(slot);
    nvcc_start(e, w, out, extra, r, &b->job);
    b->running = 1;
}

static int build_finish(engine *e, const workdirs *w, strbuf *raw, proc_result *r, build_step *b, int *reused)
{
    *reused = b->reused;
    int ok = 1;
    if (b->running) {
        nvcc_finish(&b->job);
        ok = proc_ok(r) && access(b->out, X_OK) == 0;
        raw_build_log(r, raw);
        if (ok)
            buildcache_put(&b->c, e, w, b->out, sb_str(raw));
    }
    buildcache_close(&b->c);
    return ok;
}

/* The tests of this grading that run the barrier-checked runner: synccheck. */
int uses_barrier_runner(const rubric_test *t)
{
    return t->kind == KIND_SANITIZER && !strcmp(t->tool, "synccheck");
}

/* The synccheck test's runner: the same build with kit/barrier_check.cuh
 * included first, so that every __syncthreads() of the student's files
 * counts the threads that reach it (what synccheck cannot see on compute
 * capability 7.0 and later: barrier_check.cuh says why).  Built only when
 * the grading has a synccheck test, beside the plain build (barrier_start
 * before it, barrier_finish after it); its messages are shown only when it
 * fails where the plain build did not (that test then reports an error). */
typedef struct {
    build_step step;
    proc_result r;
    strbuf raw;
    double seconds; /* nvcc's (0: reused) */
    char out[sizeof ((grading *)0)->barrier_runner];
} barrier_build;

static int barrier_start(grading *gr, barrier_build *bb, cpu_slot *slot)
{
    engine *e = gr->e;
    int needed = 0;
    for (int i = 0; i < e->rub.n_tests; i++)
        needed |= uses_barrier_runner(&e->rub.tests[i]) && test_wanted(e, &e->rub.tests[i]);
    if (!needed)
        return 0;
    fmt_into(bb->out, sizeof bb->out, "%s/runner-barriers", gr->w.bin);
    /* The check's few registers must never stop a block from launching:
     * at most 64 a thread, so that 1024 threads fit any register file. */
    static const char *const extra[] = {"-include", "kit/barrier_check.cuh", "-maxrregcount=64", NULL};
    sb_init(&bb->raw);
    build_start(e, &gr->w, bb->out, extra, &bb->raw, &bb->r, &bb->step, slot);
    return 1;
}

static void barrier_finish(grading *gr, const char *sub_dir, barrier_build *bb)
{
    engine *e = gr->e;
    int reused = 0;
    if (build_finish(e, &gr->w, &bb->raw, &bb->r, &bb->step, &reused)) {
        gr->barriers = 1;
        snprintf(gr->barrier_runner, sizeof gr->barrier_runner, "%s", bb->out);
    } else {
        gr->barriers = -1;
        strbuf log;
        sb_init(&log);
        tidy_build_log(e, sub_dir, &gr->w, sb_str(&bb->raw), &log);
        if (!log.len) {
            strbuf d;
            sb_init(&d);
            proc_describe(&bb->r, &d);
            sb_printf(&log, "nvcc %s\n", sb_str(&d));
            sb_free(&d);
        }
        snprintf(gr->barrier_log, sizeof gr->barrier_log, "%s", sb_str(&log));
        sb_free(&log);
    }
    bb->seconds = bb->r.seconds;
    sb_free(&bb->raw);
    proc_result_free(&bb->r);
}

/* Takes the student's files and builds the runner; with_barriers: the
 * barrier-checked runner too, at the same time (a GPU grading: only
 * synccheck runs it, and nothing runs without a GPU). */
int build_runner(grading *gr, const char *sub_dir, grade_result *g, int with_barriers)
{
    engine *e = gr->e;
    const workdirs *w = &gr->w;
    double t0 = kit_now();
    strbuf problems;
    sb_init(&problems);
    int taken = submission_take(&e->man, sub_dir, w->src, &problems, g->source_hash);
    if (taken < e->man.n_student_files) { /* a hand-in problem: nothing is compiled */
        g->handin_bad = 1;
        sb_add(&g->build_log, sb_str(&problems));
        sb_free(&problems);
        g->build_seconds = kit_now() - t0;
        return 0;
    }
    if (provided_unchanged(e, &problems) != 0) { /* a student's change of the kit's header: a hand-in problem */
        g->handin_bad = e->student_mode;
        if (!e->student_mode)
            sb_add(&g->build_log, "internal error: the kit's own files changed: ");
        sb_add(&g->build_log, sb_str(&problems));
        sb_free(&problems);
        g->build_seconds = kit_now() - t0;
        return 0;
    }
    sb_free(&problems);
    strbuf why;
    sb_init(&why);
    if (copy_kit_files(e, w, &why) != 0) {
        sb_printf(&g->build_log, "internal error: %s", sb_str(&why));
        sb_free(&why);
        return 0;
    }
    sb_free(&why);

    cpu_slot slot = {-1};
    barrier_build bb;
    int barriers = with_barriers && barrier_start(gr, &bb, &slot);
    proc_result r;
    strbuf raw;
    sb_init(&raw);
    build_step step;
    build_start(e, w, w->runner, NULL, &raw, &r, &step, &slot);
    int reused = 0, ok = build_finish(e, w, &raw, &r, &step, &reused);
    gr->times.nvcc = r.seconds, gr->times.reused = reused;
    if (barriers) {
        barrier_finish(gr, sub_dir, &bb);
        gr->times.nvcc_beside = bb.seconds;
    }
    cpu_slot_release(&slot);
    tidy_build_log(e, sub_dir, w, sb_str(&raw), &g->build_log);
    sb_free(&raw);
    if (reused) {
        char files[120] = "";
        for (int i = 0; i < e->man.n_student_files; i++)
            fmt_into(files + strlen(files), sizeof files - strlen(files), "%s%s", i ? ", " : "",
                     e->man.student_files[i]);
        fmt_into(gr->build_reused, sizeof gr->build_reused, "reused: %s unchanged", files);
    }
    if (!ok) {
        strbuf d;
        sb_init(&d);
        proc_describe(&r, &d);
        if (r.timed_out)
            sb_printf(&g->build_log, "the build was %s\n", sb_str(&d));
        else if (!r.started)
            sb_printf(&g->build_log, "nvcc %s\n", sb_str(&d));
        sb_free(&d);
        char *log = strdup(sb_str(&g->build_log)); /* the explanations go into the same buffer */
        if (log)
            explain_build_log(e, log, &g->build_log);
        free(log);
        explain_provided_copies(e, sub_dir, &g->build_log);
    }
    proc_result_free(&r);
    g->build_seconds = kit_now() - t0;
    return ok;
}
