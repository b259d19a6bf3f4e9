/* main.c - kitgrade, the kit's grader: one engine for students and instructors. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "course/batch.h"
#include "grading/engine.h"
#include "grading/gradekey.h"
#include "grading/labparams.h"
#include "grading/profile_ini.h"
#include "course/layout.h"
#include "grading/rerun.h"
#include "util/exit_codes.h"
#include "kit/util.h"
#include "process/lock.h"
#include "output/report.h"
#include "course/roster.h"
#include "course/spool.h"
#include "course/slurm.h"
#include "util/fsutil.h"
#include "model/labdir.h"

static const char usage_text[] =
    "usage: kitgrade COMMAND [options]\n"
    "\n"
    "students:\n"
    "  check LAB [DIR]          build and check your lab with the visible tests (what `make labNN` runs);\n"
    "                           DIR defaults to labs/<lab>/student\n"
    "  run LAB [DIR] [k=v ...]  build your lab and run it once with these parameters (e.g. blocks=4 threads=3)\n"
    "instructors:\n"
    "  grade LAB DIR [--out FILE]        grade one submission with all tests; writes Gradescope JSON to FILE\n"
    "        [--allow-no-gpu]            (default ~/kit-grades/<lab>/<DIR's name>/results.json; KIT_GRADES\n"
    "                                    replaces ~/kit-grades) and prints the report and where it went\n"
    "  batch LAB SUBMISSIONS --out DIR   grade every subfolder of SUBMISSIONS; resumable\n"
    "        [--only NAME] [--force] [--jobs N] [--per-gpu N] [--allow-no-gpu]\n"
    "        [--shard FILE | --merge FILE]  (kitgrade slurm's tasks and merge: docs/slurm.md)\n"
    "  slurm LAB SUBMISSIONS --out DIR   the same batch as one Slurm job array (kitgrade slurm --help)\n"
    "  validate [LAB...] [--rubric FILE] check manifests and rubrics, every case by the lab's own rules\n"
    "                                    (all labs when none given)\n"
    "  list                              the labs this kit has\n"
    "  build LAB DIR                     compile only\n"
    "  build-all [--jobs N]              compile every lab's starter and solution (CI)\n"
    "course (docs/course.md):\n"
    "  handin LAB [DIR] [--anyway]       hand DIR (default labs/<lab>/student) in to the course spool, print a receipt\n"
    "  spool-init SPOOL [--group G]      make the course spool's folders (instructor; G: the staff's group)\n"
    "  merge OUT [--roster R] [--manual M] [--manual-max P]   final.csv and lms.csv from a batch's results\n"
    "  with-gpu-lock DEVICE [--shared] -- CMD...   run CMD holding the GPU lock graders and students share\n"
    "options for check/grade/batch/run:\n"
    "  --test NAME   run one test alone (a,b,c: these tests)   --seed S   reproduce a run\n"
    "  --no-color    plain output             LAB is lab03 or lab03-dot\n"
    "  --timings     check: where each test's seconds went (make labNN V=1)\n"
    "  --profile     after the performance test, Nsight Compute on your kernels: a few lines on why they\n"
    "                are as fast as they are (make labNN PROFILE=1; never graded; docs/grading.md)\n"
    "  --rubric FILE use this rubric instead of the lab's (e.g. a private one with hidden tests)\n"
    "  --per-gpu N   batch: submissions sharing one GPU at a time (default 1; timing runs still\n"
    "                take the GPU alone)\n"
    "  --similarity P  batch: class report lists pairs of hand-ins sharing at least P% (default 50)\n"
    "  --allow-no-gpu  grade/batch without a GPU: write build-only results, marked 'not graded (no GPU)'\n"
    "                (without it nothing is written); merge leaves them out of lms.csv\n"
    "exit status: 0 all passed, 1 build or test failed, 2 bad input, 3 no GPU, 4 internal error\n";

typedef struct {
    const char *cmd, *lab, *dir, *dir2, *out, *only, *test, *seed, *rubric, *group;
    double similarity;
    int force, jobs, per_gpu, no_color, anyway, allow_no_gpu, timings, profile;
    const char *shard, *merge; /* batch inside kitgrade slurm (slurm.h) */
    const char *params[32];
    int n_params;
} cli;

static int parse(int argc, char **argv, cli *c)
{
    memset(c, 0, sizeof *c);
    if (argc < 2)
        return -1;
    c->cmd = argv[1];
    const char **pos[] = {&c->lab, &c->dir, &c->dir2};
    int npos = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--out") && v)
            c->out = v, i++;
        else if (!strcmp(a, "--only") && v)
            c->only = v, i++;
        else if (!strcmp(a, "--test") && v)
            c->test = v, i++;
        else if (!strcmp(a, "--seed") && v)
            c->seed = v, i++;
        else if ((!strcmp(a, "--jobs") || !strcmp(a, "--per-gpu")) && v) {
            char *end;
            long n = strtol(v, &end, 10);
            i++;
            if (*end || end == v || n < 1 || n > 256) {
                fprintf(stderr, "kitgrade: %s '%s': a whole number from 1 to 256\n", a, v);
                return -2;
            }
            *(!strcmp(a, "--jobs") ? &c->jobs : &c->per_gpu) = (int)n;
        }
        else if (!strcmp(a, "--rubric") && v)
            c->rubric = v, i++;
        else if (!strcmp(a, "--shard") && v)
            c->shard = v, i++;
        else if (!strcmp(a, "--merge") && v)
            c->merge = v, i++;
        else if (!strcmp(a, "--similarity") && v) {
            char *end;
            c->similarity = strtod(v, &end), i++;
            if (*end || !(c->similarity > 0 && c->similarity <= 100)) {
                fprintf(stderr, "kitgrade: --similarity '%s': a percentage above 0 and at most 100\n", v);
                return -2;
            }
        }
        else if (!strcmp(a, "--group") && v)
            c->group = v, i++;
        else if (!strcmp(a, "--anyway"))
            c->anyway = 1;
        else if (!strcmp(a, "--force"))
            c->force = 1;
        else if (!strcmp(a, "--no-color"))
            c->no_color = 1;
        else if (!strcmp(a, "--timings"))
            c->timings = 1;
        else if (!strcmp(a, "--profile"))
            c->profile = 1;
        else if (!strcmp(a, "--allow-no-gpu"))
            c->allow_no_gpu = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "kitgrade: unknown option %s\n", a);
            return -1;
        } else if (strchr(a, '=') && c->n_params < 32)
            c->params[c->n_params++] = a;
        else if (npos < 3)
            *pos[npos++] = a;
        else
            return -1;
    }
    return 0;
}

static int setup(engine *e, const cli *c, const char *argv0)
{
    char err[1024];
    if (engine_init(e, c->lab, argv0, c->rubric, err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        return -1;
    }
    /* --test NAME or --test a,b,c: every name must be a test of the rubric */
    for (const char *p = c->test; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        char name[NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ","), p);
        if (rubric_find(&e->rub, name))
            continue;
        fprintf(stderr, "kitgrade: %s has no test '%s'; its tests:", e->man.name, name);
        for (int i = 0; i < e->rub.n_tests; i++)
            fprintf(stderr, " %s", e->rub.tests[i].name);
        fputc('\n', stderr);
        return -1;
    }
    /* Every case of the rubric by the lab's own rules: a bad case fails
     * here, with its line, not at grading time under every student. */
    if (lab_rubric_cases_check(e, err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        engine_free(e);
        return -1;
    }
    e->only_test = c->test;
    if (engine_seed(e, c->seed ? c->seed : getenv("SEED"), err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        engine_free(e);
        return -1;
    }
    e->ropts.color = !c->no_color && isatty(1) && !getenv("NO_COLOR");
    e->log = stdout;
    e->timings = c->timings;
    /* --profile: the lab's profile.ini is input too, refused before anything runs */
    profile_decl pd;
    if (c->profile && profile_ini_for_lab(e, &pd, err, sizeof err) < 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        engine_free(e);
        return -1;
    }
    e->profile = c->profile;
    return 0;
}

/* Per-process folders (<leaf>-<pid>) of graders that were killed (kill -9
 * skips every cleanup): removed when their process is gone. */
static void remove_stale_scratch(const char *base)
{
    DIR *d = opendir(base);
    struct dirent *de;
    time_t now = time(NULL);
    while (d && (de = readdir(d))) {
        const char *dash = strrchr(de->d_name, '-');
        char *end;
        long pid = dash ? strtol(dash + 1, &end, 10) : 0;
        if (!dash || pid <= 0 || *end || pid == getpid())
            continue;
        char path[4400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", base, de->d_name);
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
            now - st.st_mtime < 60)
            continue;
        rm_rf(path);
    }
    if (d)
        closedir(d);
}

/* Scratch for submission processes: must be reachable by the unprivileged
 * uid when the grader is root (a folder under /root is not).  The base is
 * $KIT_SCRATCH, else /tmp/kit-scratch for root, else `fallback`.  Returns 1
 * when the folder is private to this process (<leaf>-<pid>: remove it at
 * the end), 0 when it is the shared <base>/<leaf> (kept for inspection, and
 * locked while in use: a second `make lab03` at the same time gets a private
 * folder instead), -1 when no safe place exists or it cannot be made (the
 * reason is printed): the caller's status is then KITGRADE_EXIT_INTERNAL. */
static int scratch_dir(const engine *e, const char *fallback, const char *leaf, int per_process, char *out, size_t len)
{
    const char *env = getenv("KIT_SCRATCH");
    const char *base = fallback;
    if (env && *env) {
        base = env;
    } else if (e->sb.drop_uid) {
        /* Root works in a shared /tmp: the folder must be root's alone, or a
         * local user could swap paths under the grader's feet. */
        mkdir("/tmp/kit-scratch", 0711);
        struct stat st;
        if (lstat("/tmp/kit-scratch", &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
            fprintf(stderr, "kitgrade: /tmp/kit-scratch is not a folder only root can write: remove it, or set "
                            "KIT_SCRATCH to a safe folder\n");
            return -1;
        }
        chmod("/tmp/kit-scratch", 0711);
        base = "/tmp/kit-scratch";
        remove_stale_scratch(base);
        per_process = 1;
    }
    if (mkdirs_said(base, 0711, "kitgrade") != 0)
        return -1;
    if (!per_process) {
        char lock[4200];
        snprintf(out, len, "%s/%s", base, leaf);
        snprintf(lock, sizeof lock, "%s.lock", out);
        int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644); /* held until exit */
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (fd >= 0)
            close(fd);
    }
    snprintf(out, len, "%s/%s-%d", base, leaf, (int)getpid());
    return 1;
}

/* The scratch folder of one command, removed at its end (a failure is said:
 * a full disk of leftovers should not be a mystery). */
static void remove_work(const char *work)
{
    if (rm_rf(work) != 0)
        fprintf(stderr, "kitgrade: cannot remove the scratch folder %s: %s\n", work, strerror(errno));
}

static void print_header(const engine *e, const char *what, const char *dir)
{
    printf("%s: %s %s (%s) - seed 0x%llx, %s\n", e->man.name, what, dir, e->man.student_files[0],
           (unsigned long long)e->seed, e->gpu ? e->gpu_name : "no GPU");
    const char *warn = sandbox_warning(&e->sb);
    if (warn)
        printf("%s\n", warn);
}

/* Where `kitgrade grade LAB DIR` writes results.json without --out: never
 * into the student's folder or the kit, but under the user's own
 * $KIT_GRADES (default ~/kit-grades, as `make grade`'s OUT):
 * KIT_GRADES/<lab>/<the folder's name>/results.json. */
static int default_results(const engine *e, const char *dir, char *out, size_t len)
{
    const char *grades = getenv("KIT_GRADES"), *home = getenv("HOME");
    char base[4096], real[4096];
    if (grades && *grades)
        snprintf(base, sizeof base, "%s", grades);
    else if (home && *home)
        snprintf(base, sizeof base, "%s/kit-grades", home);
    else
        return -1;
    const char *name = realpath(dir, real) ? strrchr(real, '/') + 1 : dir;
    if (!*name)
        name = "root";
    if (fmt_into(out, len, "%s/%s/%s", base, e->man.name, name) != 0 || mkdirs(out, 0755) != 0)
        return -1;
    return fmt_into(out, len, "%s/%s/%s/results.json", base, e->man.name, name);
}

/* xv6 `make grade`: 0 only when the build and every test that ran passed;
 * a build that worked with no GPU to run the tests has its own code. */
static int check_exit_code(const engine *e, const grade_result *g)
{
    if (!g->build_ok)
        return KITGRADE_EXIT_FAILED;
    for (int i = 0; i < g->n_tests; i++)
        if (g->tests[i].status == ST_FAIL || g->tests[i].status == ST_ERROR)
            return KITGRADE_EXIT_FAILED;
    return e->gpu ? KITGRADE_EXIT_OK : KITGRADE_EXIT_NO_GPU;
}

static int cmd_check(const cli *c, const char *argv0, int instructor)
{
    engine e;
    if (!c->lab || setup(&e, c, argv0) != 0)
        return KITGRADE_EXIT_USAGE;
    char dir[4096], work[4096];
    if (c->dir)
        snprintf(dir, sizeof dir, "%s", c->dir);
    else
        labdir_path(dir, sizeof dir, e.conf.kit_root, e.man.name, "student");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "kitgrade: %s is not a folder\n", dir);
        return KITGRADE_EXIT_USAGE;
    }
    e.student_mode = !instructor;
    e.ropts.student_mode = !instructor;
    rerun_setup(&e, dir, !instructor);
    e.allow_no_gpu = instructor && c->allow_no_gpu;
    if (!instructor)
        e.keep_work = 1, e.build_cache = 1; /* a student's check reuses their unchanged build (buildcache.h) */
    else
        engine_grading_key(&e); /* stored in the result: what made it */
    char base[4096];
    snprintf(base, sizeof base, "%s/work", e.conf.build_dir);
    int private_work = scratch_dir(&e, base, e.man.name, 0, work, sizeof work);
    if (private_work < 0 || mkdirs_said(work, 0755, "kitgrade") != 0)
        return KITGRADE_EXIT_INTERNAL;
    if (private_work)
        e.keep_work = 0;
    print_header(&e, instructor ? "grading" : "checking", dir);
    for (int i = 0; i < e.rub.n_tests && !instructor && !c->test; i++)
        e.ropts.hidden_not_run += e.rub.tests[i].vis != VIS_VISIBLE;
    grade_result g;
    engine_grade(&e, dir, work, instructor ? dir : "you", &g);
    /* Test lines were printed as they finished; now the total. */
    report_opts o = e.ropts;
    fflush(stdout);
    report_summary(stdout, &g, &o);
    /* Without a GPU an instructor's grade of code that built writes no result
     * unless asked: then it is marked "not graded (no GPU)" (model.h), never a
     * 0.  A build that failed is a grade with or without a GPU. */
    int write = instructor && (e.gpu || c->allow_no_gpu || !g.build_ok);
    if (!e.gpu && (!instructor || !g.build_ok))
        printf("%s: no GPU (%s): tests not run; %s\n", e.man.name, e.gpu_why,
               g.handin_bad  ? "a hand-in problem (above): nothing was compiled"
               : g.build_ok ? (instructor ? "the code compiled" : "your code compiled")
                            : (instructor ? "the code did not compile" : "your code did not compile"));
    else if (!e.gpu)
        printf("%s: no GPU (%s): tests not run; the code compiled; %s\n", e.man.name, e.gpu_why,
               write ? "its result is marked 'not graded (no GPU)'"
                     : "no result written (--allow-no-gpu writes one marked 'not graded (no GPU)')");
    int rc = check_exit_code(&e, &g);
    if (write) {
        char out[4096], err[512];
        if (c->out)
            snprintf(out, sizeof out, "%s", c->out);
        else if (default_results(&e, dir, out, sizeof out) != 0) {
            fprintf(stderr, "kitgrade: no folder for the results (set HOME or KIT_GRADES, or pass --out FILE)\n");
            rc = KITGRADE_EXIT_INTERNAL;
            out[0] = 0;
        }
        if (!out[0])
            ;
        else if (report_write_json(&g, out, err, sizeof err) != 0) {
            fprintf(stderr, "kitgrade: %s\n", err);
            rc = KITGRADE_EXIT_INTERNAL;
        } else
            printf("results: %s\n", out);
    }
    if (private_work)
        remove_work(work);
    grade_result_free(&g);
    engine_free(&e);
    return rc;
}

static int cmd_batch(const cli *c, const char *argv0)
{
    if (!c->lab || !c->dir || !c->out) {
        fprintf(stderr, "usage: kitgrade batch LAB SUBMISSIONS --out DIR [--only NAME] [--force] [--jobs N]\n");
        return KITGRADE_EXIT_USAGE;
    }
    engine e;
    if (setup(&e, c, argv0) != 0)
        return KITGRADE_EXIT_USAGE;
    /* Input before environment: a folder in no known layout is reported
     * first, so that a user fixes everything in one pass. */
    char lerr[4096];
    if (!c->merge && layout_check(&e, c->dir, lerr, sizeof lerr) < 0) {
        fprintf(stderr, "kitgrade: %s\n", lerr);
        engine_free(&e);
        return KITGRADE_EXIT_USAGE;
    }
    /* Grades of zero written because the tests could not run would stick:
     * refuse, unless asked for build-only results (marked in every output). */
    if (!e.gpu && !c->allow_no_gpu && !c->merge) { /* a Slurm merge on the login node grades nothing */
        /* Archives the batch would refuse are input errors too: said first
         * (unpacked as the batch would, into OUT/unpacked, then removed). */
        int made_out = access(c->out, F_OK) != 0;
        char stage[4200], graded[4200];
        const char *layout = NULL;
        int prepared = fmt_into(stage, sizeof stage, "%s/unpacked", c->out) == 0 && mkdirs(c->out, 0755) == 0 &&
                       layout_prepare(&e, c->dir, stage, graded, sizeof graded, &layout, lerr, sizeof lerr) == 0;
        rm_rf(stage);
        if (made_out)
            rmdir(c->out);
        if (!prepared) {
            fprintf(stderr, "kitgrade: %s\n", lerr);
            engine_free(&e);
            return KITGRADE_EXIT_USAGE;
        }
        fprintf(stderr, "kitgrade batch: no GPU (%s): nothing graded (a batch would write grades without running any "
                        "test); run it on a GPU node, or pass --allow-no-gpu (make grade ALLOW_NO_GPU=1) for "
                        "build-only results marked 'not graded (no GPU)'\n",
                e.gpu_why);
        engine_free(&e);
        return KITGRADE_EXIT_NO_GPU;
    }
    e.allow_no_gpu = c->allow_no_gpu;
    engine_grading_key(&e);
    if (mkdirs_said(c->out, 0755, "kitgrade") != 0) {
        engine_free(&e);
        return KITGRADE_EXIT_INTERNAL;
    }
    batch_opts o = {0};
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = c->jobs > 0 ? c->jobs : (cpus > 8 ? 8 : cpus > 1 ? (int)cpus : 2);
    o.force = c->force;
    o.per_gpu = c->per_gpu > 0 ? c->per_gpu : 0; /* 0: the jobs spread over the GPUs (batch.c) */
    o.only = c->only;
    o.tty = isatty(2);
    o.similarity_threshold = c->similarity;
    char work[4096] = "";
    if (e.sb.drop_uid || getenv("KIT_SCRATCH")) {
        if (scratch_dir(&e, c->out, "batch", 1, work, sizeof work) < 0)
            return KITGRADE_EXIT_INTERNAL;
        o.work_root = work;
    }
    if (slurm_batch_opts(&e, c->shard, c->merge, &o) != 0)
        return 2;
    int rc = batch_run(&e, c->dir, c->out, &o);
    if (slurm_batch_close(&o) != 0 && rc == 0)
        rc = 4;
    engine_free(&e);
    return rc;
}

static int cmd_run(const cli *c, const char *argv0)
{
    engine e;
    if (!c->lab || setup(&e, c, argv0) != 0)
        return KITGRADE_EXIT_USAGE;
    char dir[4096], work[4096], base[4096], params[2048] = "";
    if (c->dir)
        snprintf(dir, sizeof dir, "%s", c->dir);
    else
        labdir_path(dir, sizeof dir, e.conf.kit_root, e.man.name, "student");
    for (int i = 0; i < c->n_params; i++)
        snprintf(params + strlen(params), sizeof params - strlen(params), "%s%s", i ? " " : "", c->params[i]);
    char err[1024];
    int bad = lab_params_check(&e, params, err, sizeof err);
    if (bad != 0) { /* before building: P="n=abc" is not run with a guessed n */
        fprintf(stderr, "kitgrade: %s\n", err);
        engine_free(&e);
        return bad > 0 ? KITGRADE_EXIT_USAGE : KITGRADE_EXIT_INTERNAL;
    }
    snprintf(base, sizeof base, "%s/work", e.conf.build_dir);
    int private_work = scratch_dir(&e, base, e.man.name, 0, work, sizeof work);
    if (private_work < 0 || mkdirs_said(work, 0755, "kitgrade") != 0)
        return KITGRADE_EXIT_INTERNAL;
    e.student_mode = 1; /* the student's own command: their copy of the kit's files is theirs to fix */
    e.build_cache = 1;  /* the same build as the student's check: reused when unchanged */
    int rc = engine_show(&e, dir, work, params);
    if (private_work)
        remove_work(work);
    engine_free(&e);
    return rc;
}

static int cmd_build(const cli *c, const char *argv0)
{
    engine e;
    if (!c->lab || !c->dir || setup(&e, c, argv0) != 0)
        return KITGRADE_EXIT_USAGE;
    char work[4096], base[4096];
    snprintf(base, sizeof base, "%s/work", e.conf.build_dir);
    if (scratch_dir(&e, base, "build", 0, work, sizeof work) < 0)
        return KITGRADE_EXIT_INTERNAL;
    grade_result g;
    int ok = engine_build_only(&e, c->dir, work, &g);
    printf("%s %s: %s (%.1fs)\n", e.man.name, c->dir, ok ? "built" : "BUILD FAILED", g.build_seconds);
    if (!ok || g.build_log.len)
        fputs(sb_str(&g.build_log), stdout);
    remove_work(work);
    grade_result_free(&g);
    engine_free(&e);
    return ok ? 0 : 1;
}

/* A student's hand-in into the course spool (spool.c). */
static int cmd_handin(const cli *c, const char *argv0)
{
    engine e;
    if (!c->lab || setup(&e, c, argv0) != 0)
        return 2;
    char dir[4096], work[4096], base[4096];
    if (c->dir)
        snprintf(dir, sizeof dir, "%s", c->dir);
    else
        labdir_path(dir, sizeof dir, e.conf.kit_root, e.man.name, "student");
    snprintf(base, sizeof base, "%s/work", e.conf.build_dir);
    if (scratch_dir(&e, base, "handin", 1, work, sizeof work) < 0 || mkdirs_said(work, 0755, "handin") != 0)
        return KITGRADE_EXIT_INTERNAL;
    e.student_mode = 1; /* the student's own command: their copy of the kit's files is theirs to fix */
    int rc = spool_handin(&e, dir, work, c->anyway);
    remove_work(work);
    engine_free(&e);
    return rc;
}

/* `with-gpu-lock DEVICE [--shared] -- CMD...`: a TA's benchmark or demo
 * takes its turn on the GPU like a grading run (lock.h). */
static int cmd_with_gpu_lock(int argc, char **argv)
{
    int i = 2, exclusive = 1;
    const char *device = i < argc ? argv[i++] : NULL;
    if (i < argc && !strcmp(argv[i], "--shared"))
        exclusive = 0, i++;
    if (!device || i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
        fprintf(stderr, "usage: kitgrade with-gpu-lock DEVICE [--shared] -- CMD [ARGS...]  (DEVICE: the GPU's UUID, "
                        "as nvidia-smi -L prints it)\n");
        return 2;
    }
    gpu_lock l;
    gpu_lock_acquire(&l, device, exclusive, stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (l.fd >= 0)
            close(l.fd);
        execvp(argv[i + 1], argv + i + 1);
        fprintf(stderr, "kitgrade: cannot run %s: %s\n", argv[i + 1], strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    gpu_lock_release(&l);
    return pid < 0 ? 1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Every lab's starter and solution, in parallel processes (CI's compile check). */
static int cmd_build_all(const cli *c, const char *argv0)
{
    char pattern[4096], err[1024];
    kit_conf conf;
    if (engine_load_conf(&conf, argv0, err, sizeof err) != 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        return KITGRADE_EXIT_USAGE;
    }
    snprintf(pattern, sizeof pattern, "%s/" LABDIR_MANIFESTS, conf.kit_root);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        fprintf(stderr, "kitgrade: no labs under %s/labs (no %s)\n", conf.kit_root, LABDIR_MANIFESTS);
        return KITGRADE_EXIT_USAGE;
    }
    int jobs = c->jobs > 0 ? c->jobs : 2, running = 0, failed = 0, total = 0;
    for (size_t i = 0; i <= g.gl_pathc * 2; i++) {
        if (i < g.gl_pathc * 2) {
            char lab[256];
            labdir_name_of_manifest(g.gl_pathv[i / 2], lab, sizeof lab);
            char dir[4096];
            labdir_path(dir, sizeof dir, conf.kit_root, lab, i % 2 ? "solution" : "student");
            total++;
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                cli sub = *c;
                sub.lab = lab;
                sub.dir = dir;
                _exit(cmd_build(&sub, argv0));
            }
            running++;
        }
        while (running >= jobs || (i == g.gl_pathc * 2 && running > 0)) {
            int st;
            if (wait(&st) < 0)
                break;
            running--;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
                failed++;
        }
    }
    globfree(&g);
    printf("build-all: %d of %d builds succeeded (CUDA_ARCH: %s)\n", total - failed, total, conf.cuda_arch);
    return failed ? 1 : 0;
}

static int cmd_validate(int argc, char **argv, const char *argv0)
{
    char err[1024];
    int bad = 0, n = 0, unknown = 0;
    glob_t g;
    g.gl_pathc = 0;
    const char *rubric = NULL; /* validate LAB --rubric FILE: an instructor's private rubric */
    const char *labs[64];
    int nlabs = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--rubric") && i + 1 < argc)
            rubric = argv[++i];
        else if (argv[i][0] == '-' || nlabs == 64) {
            fprintf(stderr, "usage: kitgrade validate [LAB...] [--rubric FILE]\n");
            return KITGRADE_EXIT_USAGE;
        } else
            labs[nlabs++] = argv[i];
    }
    if (rubric && nlabs != 1) {
        fprintf(stderr, "kitgrade: validate --rubric FILE needs exactly one LAB (the rubric's lab)\n");
        return KITGRADE_EXIT_USAGE;
    }
    if (rubric && access(rubric, R_OK) != 0) { /* bad input (2), not a bad rubric (1) */
        fprintf(stderr, "kitgrade: --rubric %s: cannot read it: %s\n", rubric, strerror(errno));
        return KITGRADE_EXIT_USAGE;
    }
    if (nlabs == 0) { /* every lab of the kit */
        kit_conf conf;
        if (engine_load_conf(&conf, argv0, err, sizeof err) != 0) {
            fprintf(stderr, "kitgrade: %s\n", err);
            return KITGRADE_EXIT_USAGE;
        }
        char pattern[4200];
        snprintf(pattern, sizeof pattern, "%s/" LABDIR_MANIFESTS, conf.kit_root);
        glob(pattern, 0, NULL, &g);
        nlabs = (int)g.gl_pathc;
    }
    for (int i = 0; i < nlabs; i++) {
        char lab[256];
        if (g.gl_pathc)
            labdir_name_of_manifest(g.gl_pathv[i], lab, sizeof lab);
        else
            snprintf(lab, sizeof lab, "%s", labs[i]);
        engine e;
        n++;
        int init = engine_init(&e, lab, argv0, rubric, err, sizeof err);
        if (init == -2) { /* no such lab: bad input, as for `check` (status 2), not a bad lab */
            fprintf(stderr, "kitgrade: %s\n", err);
            unknown++;
            continue;
        }
        if (init != 0) {
            printf("FAIL %s: %s\n", lab, err);
            bad++;
            continue;
        }
        /* profile.ini names a test of the lab's own rubric; with --rubric it is checked when a run asks for a profile */
        profile_decl pd;
        if (lab_rubric_cases_check(&e, err, sizeof err) != 0 ||
            (!rubric && profile_ini_for_lab(&e, &pd, err, sizeof err) < 0)) {
            printf("FAIL %s: %s\n", lab, err);
            bad++;
            engine_free(&e);
            continue;
        }
        printf("ok   %s: %d tests, %g points (%g visible)\n", e.man.name, e.rub.n_tests, rubric_max_points(&e.rub, 0),
               rubric_max_points(&e.rub, 1));
        engine_free(&e);
    }
    if (g.gl_pathc)
        globfree(&g);
    return unknown ? KITGRADE_EXIT_USAGE : bad ? KITGRADE_EXIT_FAILED : (n ? KITGRADE_EXIT_OK : KITGRADE_EXIT_USAGE);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The unprivileged uid must read the work folders and the copied files:
     * under a umask of 077 every build would fail without a word. */
    umask(022);
    cli c;
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "slurm"))
        return slurm_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "validate"))
        return cmd_validate(argc, argv, argv[0]);
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return roster_merge_command(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "with-gpu-lock"))
        return cmd_with_gpu_lock(argc, argv);
    /* A grading runs several of the kit's processes at once on the same cores
     * (the runners of the correctness tests and of each sanitizer session,
     * the checkers; a batch, several gradings'), each with OpenMP loops.
     * libgomp's idle threads spin by default, taking cores that another of
     * them is waiting for: they sleep instead (a TA's command under
     * with-gpu-lock, above, keeps its own).  Passed on to the runners
     * (runs.c); an OMP_WAIT_POLICY of the caller's is kept. */
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    int parsed = parse(argc, argv, &c);
    if (parsed != 0) {
        if (parsed == -1) /* -2: the value was named in its own line already */
            fputs(usage_text, stderr);
        return KITGRADE_EXIT_USAGE;
    }
    if (c.allow_no_gpu && strcmp(c.cmd, "grade") && strcmp(c.cmd, "batch")) {
        fprintf(stderr, "kitgrade %s: --allow-no-gpu is an option of grade and batch only (a build-only result, "
                        "marked not graded)\n", c.cmd);
        return KITGRADE_EXIT_USAGE;
    }
    if (!strcmp(c.cmd, "check"))
        return cmd_check(&c, argv[0], 0);
    if (!strcmp(c.cmd, "grade"))
        return cmd_check(&c, argv[0], 1);
    if (!strcmp(c.cmd, "batch"))
        return cmd_batch(&c, argv[0]);
    if (!strcmp(c.cmd, "run"))
        return cmd_run(&c, argv[0]);
    if (!strcmp(c.cmd, "build"))
        return cmd_build(&c, argv[0]);
    if (!strcmp(c.cmd, "handin"))
        return cmd_handin(&c, argv[0]);
    if (!strcmp(c.cmd, "spool-init")) {
        kit_conf conf;
        char err[1024];
        if (!c.lab) {
            fprintf(stderr, "usage: kitgrade spool-init SPOOL [--group STAFF]\n");
            return 2;
        }
        if (engine_load_conf(&conf, argv[0], err, sizeof err) != 0) {
            fprintf(stderr, "kitgrade: %s\n", err);
            return 2;
        }
        return spool_init(conf.kit_root, c.lab, c.group);
    }
    if (!strcmp(c.cmd, "build-all"))
        return cmd_build_all(&c, argv[0]);
    if (!strcmp(c.cmd, "list")) {
        char *args[] = {argv[0], (char *)"validate", NULL};
        return cmd_validate(2, args, argv[0]);
    }
    fprintf(stderr, "kitgrade: unknown command '%s'\n", c.cmd);
    fputs(usage_text, stderr);
    return KITGRADE_EXIT_USAGE;
}
