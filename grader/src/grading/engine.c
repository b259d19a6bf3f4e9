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
#include "grading/buildcache.h"
#include "output/buildlog.h"
#include "util/exit_codes.h"
#include "process/lock.h"
#include "process/proc.h"
#include "grading/profile.h"
#include "grading/rerun.h"
#include "grading/sanitizer.h"
#include "grading/submission.h"
#include "util/fsutil.h"
#include "grading/engine_int.h"

#define MAX_FAIL_DETAILS 4   /* failing cases described in full per test */

/* ------------------------------------------------------------------ setup */

static int find_lab_dir(const char *kit_root, const char *lab, char *out, size_t len)
{
    char pattern[2048];
    /* "lab03" matches grader/labs/lab03-*; a full name matches itself. */
    snprintf(pattern, sizeof pattern, "%s/grader/labs/%s", kit_root, lab);
    struct stat st;
    if (stat(pattern, &st) == 0 && S_ISDIR(st.st_mode)) {
        fmt_into(out, len, "%s", pattern);
        return 0;
    }
    snprintf(pattern, sizeof pattern, "%s/grader/labs/%s-*", kit_root, lab);
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
    snprintf(pattern, sizeof pattern, "%s/grader/labs/*/manifest.ini", kit_root);
    glob_t g;
    size_t used = 0;
    out[0] = 0;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc && used + 1 < len; i++) {
        const char *end = strrchr(g.gl_pathv[i], '/'), *start = end; /* ".../lab03-dot/manifest.ini" */
        while (start > g.gl_pathv[i] && start[-1] != '/')
            start--;
        size_t n = strcspn(start, "-/");
        int w = snprintf(out + used, len - used, "%s%.*s", used ? " " : "", (int)n, start);
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
    snprintf(e->starter_dir, sizeof e->starter_dir, "%s/labs/%s", e->conf.kit_root, e->man.name);
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

/* ------------------------------------------------------------- work dirs */
static int prepare_dirs(engine *e, const char *work_dir, workdirs *w)
{
    snprintf(w->root, sizeof w->root, "%s", work_dir);
    snprintf(w->src, sizeof w->src, "%s/src", work_dir);
    snprintf(w->lib, sizeof w->lib, "%s/lib", work_dir);
    snprintf(w->bin, sizeof w->bin, "%s/bin", work_dir);
    snprintf(w->run, sizeof w->run, "%s/run", work_dir);
    snprintf(w->runner, sizeof w->runner, "%s/runner", w->bin);
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

/* The files the kit provides in labs/<lab>/ (its header), as the kit
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
static int uses_barrier_runner(const rubric_test *t)
{
    return t->kind == KIND_SANITIZER && !strcmp(t->tool, "synccheck");
}

static int wanted(const engine *e, const rubric_test *t);

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
        needed |= uses_barrier_runner(&e->rub.tests[i]) && wanted(e, &e->rub.tests[i]);
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
static int build_runner(grading *gr, const char *sub_dir, grade_result *g, int with_barriers)
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

/* ------------------------------------------------------------------ tests */

static int wanted(const engine *e, const rubric_test *t)
{
    if (e->only_test) /* "name" or "name,name,..." */
        return kit_list_has(e->only_test, t->name);
    return !e->student_mode || t->vis == VIS_VISIBLE;
}

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

static void run_correctness(grading *gr, const rubric_test *t, test_result *tr)
{
    const engine *e = gr->e;
    int total = 0, passed = 0, described = 0;
    strbuf last_kernels;
    sb_init(&last_kernels);
    int skipped = 0;
    for (int i = 0; i < t->n_cases; i++) {
        char params[1024];
        case_params(t, i, params, sizeof params);
        for (int rep = 0; rep < t->repeat; rep++) {
            if (skipped) {
                total++, skipped++;
                continue;
            }
            uint64_t seed = engine_case_seed(e->seed, t->name, i, rep);
            outcome c;
            outcome_init(&c);
            if (t->gpu_alone || !serve_case(gr, t, params, seed, &c)) {
                outcome_free(&c);
                outcome_init(&c);
                run_case(gr, t, params, seed, 0, &c);
            }
            total++;
            skipped = skip_after_timeout(t, &c);
            if (c.not_own)
                c.elsewhere ? gr->not_own_right++ : gr->not_own_wrong++;
            if (c.pass) {
                passed++;
                if (c.kernels.len) {
                    sb_clear(&last_kernels);
                    sb_add(&last_kernels, sb_str(&c.kernels));
                }
                if (c.text.len) /* notes (e.g. trace unavailable), once */
                    if (!strstr(sb_str(&tr->output), sb_str(&c.text)))
                        sb_add(&tr->output, sb_str(&c.text));
            } else if (described < MAX_FAIL_DETAILS) {
                described++;
                sb_printf(&tr->output, "case %s (seed 0x%llx):\n", params, (unsigned long long)seed);
                if (t->repeat > 1)
                    sb_printf(&tr->output, "  (run %d of %d)\n", rep + 1, t->repeat);
                for (char *line = strtok(c.text.s ? c.text.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                    sb_printf(&tr->output, "  %s\n", line);
            }
            outcome_free(&c);
        }
    }
    int not_run = skipped_runs(skipped), failed = total - passed - not_run;
    if (failed > described)
        sb_printf(&tr->output, "... and %d more failing run%s\n", failed - described, failed - described == 1 ? "" : "s");
    if (not_run)
        note_skipped(&tr->output, not_run);
    if (t->repeat > 1 && failed > 0 && !not_run)
        sb_printf(&tr->output, "%d of %d runs wrong (results that change from run to run point to a race)\n", failed,
                  total);
    if (last_kernels.len) {
        sb_add(&tr->output, "kernels of the last passing case:\n");
        for (char *line = strtok(last_kernels.s, "\n"); line; line = strtok(NULL, "\n"))
            sb_printf(&tr->output, "  %s\n", line);
    }
    sb_free(&last_kernels);
    tr->status = passed == total ? ST_PASS : ST_FAIL;
    tr->score = t->partial ? t->points * passed / (total ? total : 1) : (passed == total ? t->points : 0);
    if (passed < total)
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

static void run_performance(grading *gr, const rubric_test *t, test_result *tr)
{
    const engine *e = gr->e;
    double log_sum = 0, waited = 0;
    int ok = 1;
    tr->show_output = 1; /* students tune against these numbers: shown on a pass too */
    for (int i = 0; i < t->n_cases && ok; i++) {
        char params[1024];
        case_params(t, i, params, sizeof params);
        uint64_t seed = engine_case_seed(e->seed, t->name, i, 0);
        outcome c;
        outcome_init(&c);
        run_case(gr, t, params, seed, 1, &c);
        waited += c.waited_s;
        if (!c.pass || c.student_ms <= 0 || c.baseline_ms <= 0) {
            ok = 0;
            sb_printf(&tr->output,
                      "case %s (seed 0x%llx): no performance credit (a timing run must compute right results, in a "
                      "time this GPU can reach):\n",
                      params, (unsigned long long)seed);
            if (!c.text.len)
                sb_add(&c.text, "no timings were recorded\n");
            for (char *line = strtok(c.text.s, "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
        } else {
            double speedup = c.baseline_ms / c.student_ms;
            log_sum += log(speedup);
            sb_printf(&tr->output,
                      "case %s: yours %.3f ms, baseline %.3f ms (medians of >= %d interleaved calls, best round): "
                      "speedup %.2fx\n",
                      params, c.student_ms, c.baseline_ms, t->reps, speedup);
            for (char *line = strtok(c.metrics.s ? c.metrics.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
            /* the checker's notes (e.g. calls timed until work they left running ended) */
            for (char *line = strtok(c.text.s ? c.text.s : (char *)"", "\n"); line; line = strtok(NULL, "\n"))
                sb_printf(&tr->output, "  %s\n", line);
        }
        outcome_free(&c);
    }
    if (!ok) {
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
    if (waited >= 1)
        sb_printf(&tr->output, "(waited %.0f s for the GPU: timing runs take it one at a time; the wait is not timed)\n",
                  waited);
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

/* ------------------------------------------------------------ the whole */

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

/* One test of the rubric, into its result in g. */
static void grade_test(grading *gr, const rubric_test *t, grade_result *g)
{
    const engine *e = gr->e;
    test_result *tr = grade_result_add(g);
    fill_test(tr, t);
    times_reset(&gr->times);
    double ts = kit_now();
    if (!g->build_ok) {
        tr->status = ST_FAIL;
        sb_add(&tr->output, g->handin_bad ? "not run: nothing was compiled (a hand-in problem, above)\n"
                                          : "not run: the build failed\n");
    } else if (!e->gpu) {
        tr->status = ST_SKIP;
        sb_add(&tr->output, "not run: needs a CUDA device\n");
    } else {
        if (t->kind == KIND_PERFORMANCE) /* its timing loop needs the GPU without this grading's hold */
            gpu_release_all(gr);
        test_kinds[t->kind].run(gr, t, tr);
    }
    tr->seconds = kit_now() - ts;
    if (t->kind == KIND_PERFORMANCE && g->build_ok && e->gpu)
        profile_test(gr, t, tr); /* --profile: lines and figures, never the grade (profile.h) */
    if (test_kinds[t->kind].after)
        test_kinds[t->kind].after(gr, tr);
    if (e->log)
        report_test_line(e->log, tr, &e->ropts);
    if (e->log && e->timings)
        times_print(e->log, &gr->times);
}

/* The rubric's tests, in its order, once the build is done. */
static void grade_tests(grading *gr, grade_result *g)
{
    engine *e = gr->e;
    g->gpu_ran = e->gpu && g->build_ok;
    if (g->gpu_ran && e->before_gpu)
        e->before_gpu(e, e->before_gpu_arg);
    /* The sanitizer tests start now and run while the correctness cases do. */
    for (int i = 0; g->gpu_ran && e->sanitizers_beside && i < e->rub.n_tests; i++)
        if (e->rub.tests[i].kind == KIND_SANITIZER && wanted(e, &e->rub.tests[i]))
            serve_sanitizer_start(gr, &e->rub.tests[i]);
    for (int i = 0; i < e->rub.n_tests; i++)
        if (wanted(e, &e->rub.tests[i]))
            grade_test(gr, &e->rub.tests[i], g);
    gpu_release_all(gr);
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
