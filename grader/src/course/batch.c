/* batch.c - grading a folder of submissions (see batch.h).
 *
 * One worker process per submission, at most `jobs` at a time: it builds on
 * the CPU, then waits for a free GPU slot (one submission per GPU at a time,
 * every visible GPU used), runs the tests and writes its result atomically.
 * The parent only schedules, shows progress and rewrites the gradebook after
 * each result.  Results are files named after the student, so a rerun after
 * a crash or kill -9 skips what is finished and duplicates nothing.
 */
#include "course/batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grading/gradekey.h"
#include "course/layout.h"
#include "kit/util.h"
#include "util/exit_codes.h"
#include "process/proc.h"
#include "course/class_report.h"
#include "model/deadline.h"
#include "output/report.h"
#include "course/spool.h"
#include "grading/submission.h"
#include "util/fsutil.h"

extern char **environ;

#define MAX_GPUS 64

typedef struct {
    char name[256];   /* folder name as found (may hold any bytes) */
    char safe[800];   /* file-name-safe form for results/feedback */
    pid_t pid;        /* worker, 0 when not running */
    int state;        /* 0 queued, 1 running, 2 done, 3 skipped (already graded) */
    char src[4096];   /* the folder graded: SUBMISSIONS/<name>, or a spool version ("": none, see spool) */
    spool_pick *spool; /* the hand-in picked from a course spool, NULL for a plain folder */
} entry;

typedef struct {
    const char *out_dir;
    int n_gpus;
    int per_gpu;
    char uuids[MAX_GPUS][96];
} slots_ctx;

static int cmp_entry(const void *a, const void *b) { return strcmp(((const entry *)a)->name, ((const entry *)b)->name); }

/* A course spool's lab folder (spool.h): one entry per login, graded from the
 * version picked for it. */
static int list_spool(const char *dir, const rubric *r, entry **out, spool_pick **picks, char *err, size_t errlen)
{
    int n = spool_pick_versions(dir, r, picks, err, errlen);
    *out = n > 0 ? calloc((size_t)n, sizeof **out) : NULL;
    if (n > 0 && !*out)
        n = 0;
    for (int i = 0; i < n; i++) {
        entry *e = &(*out)[i];
        snprintf(e->name, sizeof e->name, "%s", (*picks)[i].login);
        safe_file_name(e->name, e->safe, sizeof e->safe);
        snprintf(e->src, sizeof e->src, "%s", (*picks)[i].dir);
        e->spool = &(*picks)[i];
    }
    return n;
}

static int list_submissions(const char *dir, entry **out, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        fmt_into(err, errlen, "cannot open the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0;
    *out = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        struct stat st;
        fmt_into(path, sizeof path, "%s/%s", dir, de->d_name);
        /* lstat: a symlinked "student folder" is not followed out of the batch. */
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (S_ISLNK(st.st_mode)) {
                strbuf nm;
                sb_init(&nm);
                sb_add_sanitized(&nm, de->d_name, strlen(de->d_name));
                fprintf(stderr, "kitgrade: skipping %s: a symbolic link, not a submission folder (copy the folder "
                                "itself into %s to grade it)\n",
                        sb_str(&nm), dir);
                sb_free(&nm);
            }
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            entry *e = realloc(*out, (size_t)cap * sizeof *e);
            if (!e)
                break;
            *out = e;
        }
        entry *e = &(*out)[n++];
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%s", de->d_name);
        safe_file_name(e->name, e->safe, sizeof e->safe);
        fmt_into(e->src, sizeof e->src, "%s/%s", dir, de->d_name);
    }
    closedir(d);
    qsort(*out, (size_t)n, sizeof **out, cmp_entry);
    return n;
}

static void result_path(const char *out_dir, const entry *en, const char *sub, const char *ext, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/%s.%s", out_dir, sub, en->safe, ext);
}

/* The submission's result on disk and the hash of its current files: 0, or
 * -1 when there is no readable result. */
static int read_result(engine *e, const char *subs_dir, const char *out_dir, const entry *en, grade_result *g,
                       char hash[65])
{
    char path[4096], err[256];
    (void)subs_dir;
    result_path(out_dir, en, "results", "json", path, sizeof path);
    if (!en->src[0] || report_read_json(path, g, err, sizeof err) != 0)
        return -1;
    strbuf problems;
    sb_init(&problems);
    submission_take(&e->man, en->src, NULL, &problems, hash);
    sb_free(&problems);
    return 0;
}

/* The result is of the submission's current files (and hand-in version) and
 * not an internal error. */
static int result_current(const grade_result *g, const char *hash, const entry *en)
{
    return !strcmp(hash, g->source_hash) && !strstr(sb_str(&g->notes), "internal grader error") &&
           !strcmp(g->version, en->spool ? en->spool->version : "");
}

/* Finished = a readable, current result made by the same rubric, kit code
 * and conditions (gradekey.h): the grading node's rule (a merge on a login
 * node only asks whether a current result is present). */
static int already_graded(engine *e, const char *subs_dir, const char *out_dir, const entry *en)
{
    grade_result g;
    char hash[65];
    if (read_result(e, subs_dir, out_dir, en, &g, hash) != 0)
        return 0;
    int same = result_current(&g, hash, en) && result_reusable(&g, hash, e->grading_key, e->gpu);
    grade_result_free(&g);
    return same;
}

/* Merge (Slurm): a result of the submission's current files that is not an
 * internal error.  Whether it was graded under the current rubric, kit and
 * GPU is for the grading node to say (already_graded): the login node that
 * merges has other conditions (no GPU).  See slurm.c. */
static int batch_result_present(engine *e, const char *subs_dir, const char *out_dir, const entry *en)
{
    grade_result g;
    char hash[65];
    if (read_result(e, subs_dir, out_dir, en, &g, hash) != 0)
        return 0;
    int present = result_current(&g, hash, en);
    grade_result_free(&g);
    return present;
}

/* ---- GPU slots: per_gpu submissions per GPU at a time within this batch ---- */

static void wait_for_gpu(engine *e, void *arg)
{
    slots_ctx *s = arg;
    if (s->n_gpus <= 0)
        return;
    for (;;) {
        for (int slot = 0; slot < s->n_gpus * s->per_gpu; slot++) {
            int i = slot % s->n_gpus; /* fill the GPUs evenly */
            char path[4096];
            /* Named after the GPU's UUID, not its index: Slurm array tasks on
             * other nodes (or given other GPUs) share OUT and all see index 0. */
            snprintf(path, sizeof path, "%s/.slots/%s-%d.lock", s->out_dir, s->uuids[i], slot / s->n_gpus);
            int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
            if (fd < 0)
                continue;
            if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
                /* Held until this worker exits.  The GPU by its UUID, not
                 * its index: indexes count only the GPUs the batch was
                 * given (CUDA_VISIBLE_DEVICES=2,3 numbers them 0 and 1). */
                setenv("CUDA_VISIBLE_DEVICES", s->uuids[i], 1);
                snprintf(e->gpu_uuid, sizeof e->gpu_uuid, "%s", s->uuids[i]);
                return;
            }
            close(fd);
        }
        usleep(200000);
    }
}

static int count_gpus(engine *e, slots_ctx *s)
{
    s->n_gpus = 0;
    if (!e->gpu)
        return 0;
    const char *argv[] = {e->conf.kit_devices, NULL};
    proc_opts o = {0};
    o.timeout_s = 60;
    /* the batch's own environment: the GPUs it was given (CUDA_VISIBLE_DEVICES),
     * none where they are hidden from it */
    o.env = (const char *const *)environ;
    proc_result r;
    proc_run(argv, &o, &r);
    char *save = NULL;
    /* "index<TAB>uuid<TAB>name" lines; an error message is not a GPU (and a
     * tab in a scanf format matches no space at all, hence strchr). */
    for (char *line = strtok_r(proc_ok(&r) && r.out.s ? r.out.s : (char *)"", "\n", &save);
         line && s->n_gpus < MAX_GPUS; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (tab && sscanf(tab + 1, "%95[^\t]", s->uuids[s->n_gpus]) == 1)
            s->n_gpus++;
    }
    proc_result_free(&r);
    return s->n_gpus;
}

/* ---- worker ---- */

/* A student's feedback file; one that cannot be written is said on stderr
 * and removed, so that no older run's feedback stands for this result (the
 * result itself, results/NAME.json, is what the gradebook reads). */
static void write_feedback_or_say(const grade_result *g, const char *path)
{
    char err[512];
    if (report_write_feedback(g, path, err, sizeof err) == 0)
        return;
    fprintf(stderr, "cannot write %s: %s\n", path, err);
    if (unlink(path) != 0 && errno != ENOENT)
        fprintf(stderr, "cannot remove the older %s: %s\n", path, strerror(errno));
}

static void worker(engine *e, const char *subs_dir, const char *out_dir, const char *work_root, const entry *en,
                   slots_ctx *slots, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed batch takes its workers along */
    if (getppid() != parent)          /* ... also when it died before the line above */
        _exit(1);
    setpgid(0, 0);
    proc_become_subreaper();
    e->log = NULL;
    e->before_gpu = wait_for_gpu;
    e->before_gpu_arg = slots;
    char work[4096], path[4096], err[512];
    (void)subs_dir;
    fmt_into(work, sizeof work, "%s/%s", work_root, en->safe);
    grade_result g;
    engine_grade(e, en->src, work, en->name, &g);
    if (en->spool)
        spool_apply_late_policy(en->spool, &e->rub, &g);
    spool_read_answers(en->src, &g);
    result_path(out_dir, en, "feedback", "txt", path, sizeof path);
    write_feedback_or_say(&g, path);
    result_path(out_dir, en, "results", "json", path, sizeof path);
    int rc = report_write_json(&g, path, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "cannot write %s: %s\n", path, err);
    grade_result_free(&g);
    _exit(rc == 0 ? 0 : 1);
}

/* A worker died without writing its result: record that, so nothing is lost
 * from the gradebook, and so a rerun regrades it. */
static void write_placeholder(engine *e, const char *out_dir, const entry *en, const char *note, const char *why);

static void record_worker_failure(engine *e, const char *out_dir, const entry *en, int status)
{
    char note[512];
    snprintf(note, sizeof note, "internal grader error: the worker grading this submission %s %d; rerun the batch (or "
                                "--only) to regrade it",
             WIFSIGNALED(status) ? "was killed by signal" : "exited with status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    write_placeholder(e, out_dir, en, note, "not graded: internal grader error");
}

/* A result with no points for every test, and why (a dead worker; a spool
 * entry with nothing that may be graded). */
static void write_placeholder(engine *e, const char *out_dir, const entry *en, const char *note, const char *why)
{
    grade_result g;
    grade_result_init(&g);
    snprintf(g.student, sizeof g.student, "%s", en->name);
    snprintf(g.lab, sizeof g.lab, "%s", e->man.name);
    g.seed = e->seed;
    sb_printf(&g.notes, "%s\n", note);
    for (int i = 0; i < e->rub.n_tests; i++) {
        test_result *t = grade_result_add(&g);
        snprintf(t->name, sizeof t->name, "%s", e->rub.tests[i].name);
        snprintf(t->group, sizeof t->group, "%s", e->rub.tests[i].group);
        t->vis = e->rub.tests[i].vis;
        t->max_score = e->rub.tests[i].points;
        t->status = ST_ERROR;
        sb_printf(&t->output, "%s\n", why);
    }
    grade_result_total(&g);
    char path[4096], err[256];
    result_path(out_dir, en, "feedback", "txt", path, sizeof path); /* not an older run's feedback */
    write_feedback_or_say(&g, path);
    result_path(out_dir, en, "results", "json", path, sizeof path);
    if (report_write_json(&g, path, err, sizeof err) != 0)
        fprintf(stderr, "cannot write %s: %s\n", path, err);
    grade_result_free(&g);
}

/* Rewrites gradebook.csv from every result on disk (atomic). */
/* Returns how many results it holds: none, and nothing is written (a Slurm
 * run's plan, or a run that graded nothing, left an empty gradebook behind). */
static int write_gradebook(engine *e, const char *out_dir, entry *ents, int n)
{
    grade_result **rs = calloc((size_t)n + 1, sizeof *rs);
    int k = 0;
    for (int i = 0; i < n; i++) {
        char path[4096], err[256];
        result_path(out_dir, &ents[i], "results", "json", path, sizeof path);
        grade_result *g = malloc(sizeof *g);
        if (g && report_read_json(path, g, err, sizeof err) == 0)
            rs[k++] = g;
        else
            free(g);
    }
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/gradebook.csv", out_dir);
    if (k && report_write_csv(path, rs, k, &e->rub, err, sizeof err) != 0)
        fprintf(stderr, "cannot write %s: %s\n", path, err);
    for (int i = 0; i < k; i++) {
        grade_result_free(rs[i]);
        free(rs[i]);
    }
    free(rs);
    return k;
}

static void progress(const batch_opts *o, int done, int total, int failed, double t0, int finished_now,
                     const char *who)
{
    double el = kit_now() - t0;
    double left = finished_now > 0 ? el / finished_now * (total - done) : -1;
    char eta[64] = "";
    if (left >= 0)
        snprintf(eta, sizeof eta, ", ~%dm%02ds left", (int)left / 60, (int)left % 60);
    if (o->tty)
        fprintf(stderr, "\r\033[K[%d/%d] %d with failures%s%s%s", done, total, failed, eta, who ? ": " : "",
                who ? who : "");
    else
        fprintf(stderr, "[%d/%d] %d with failures%s%s%s\n", done, total, failed, eta, who ? ": " : "", who ? who : "");
    fflush(stderr);
}

/* One batch while it runs. */
typedef struct {
    engine *e;
    const batch_opts *o;
    const char *given_dir, *out_dir;
    char graded_dir[4096]; /* where the per-student folders are (archives unpacked there) */
    const char *layout;
    char work_root[4096];
    int lock;              /* OUT/.batch.lock, held while the batch runs */
    entry *ents;
    spool_pick *picks;
    int n, from_spool;
    slots_ctx slots;
    int total, skipped;                         /* to grade; kept from before */
    int running, next, done, failed, finished_now, lost;
    int not_graded;                             /* finished now, but their points are no grade */
    double t0;
} batch_ctx;

/* OUT's folders, its lock (one batch per output folder at a time), and no
 * temporary files of results a killed batch was writing.  0, or an exit status. */
static int out_prepare(batch_ctx *b)
{
    char path[4096];
    static const char *out_subs[] = {"results", "feedback", ".slots"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", b->out_dir, out_subs[k]);
        if (mkdirs(path, 0755) != 0) {
            fprintf(stderr, "kitgrade: cannot create %s: %s\n", path, strerror(errno));
            return KITGRADE_EXIT_INTERNAL;
        }
    }
    snprintf(path, sizeof path, "%s/.batch.lock", b->out_dir);
    b->lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (b->lock < 0 || flock(b->lock, (b->o->want ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) { /* shards share OUT */
        fprintf(stderr, "kitgrade: another batch is writing to %s; wait for it or use another --out\n", b->out_dir);
        return KITGRADE_EXIT_USAGE;
    }
    /* ".NAME.XXXXXX": safe names never start with a dot */
    static const char *subs_of_out[] = {"results", "feedback"};
    for (int k = 0; k < 2 && !b->o->want; k++) { /* a shard: other tasks' files in progress */
        snprintf(path, sizeof path, "%s/%s", b->out_dir, subs_of_out[k]);
        DIR *d = opendir(path);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
                char stale[4400];
                snprintf(stale, sizeof stale, "%s/%s", path, de->d_name);
                unlink(stale);
            }
        if (d)
            closedir(d);
    }
    return 0;
}

/* The submissions (archives unpacked first) and the work folder.  0, or an exit status. */
static int find_submissions(batch_ctx *b)
{
    char stage[4096], lerr[4096], err[512];
    engine *e = b->e;
    fmt_into(stage, sizeof stage, "%s/unpacked", b->out_dir);
    if (layout_prepare(e, b->given_dir, stage, b->graded_dir, sizeof b->graded_dir, &b->layout, lerr, sizeof lerr) !=
        0) {
        fprintf(stderr, "kitgrade: %s\n", lerr);
        return KITGRADE_EXIT_USAGE;
    }
    if (b->o->work_root)
        snprintf(b->work_root, sizeof b->work_root, "%s", b->o->work_root);
    else
        snprintf(b->work_root, sizeof b->work_root, "%s/work", b->out_dir);
    if (mkdirs(b->work_root, 0755) != 0 || chmod(b->work_root, 0755) != 0) { /* the sandbox uid reads its files */
        fprintf(stderr, "kitgrade: cannot create %s: %s\n", b->work_root, strerror(errno));
        return KITGRADE_EXIT_INTERNAL;
    }
    sandbox_hide(&e->sb, b->graded_dir);
    b->from_spool = spool_is_lab_folder(b->graded_dir);
    b->n = b->from_spool ? list_spool(b->graded_dir, &e->rub, &b->ents, &b->picks, err, sizeof err)
                         : list_submissions(b->graded_dir, &b->ents, err, sizeof err);
    if (b->n < 0) {
        fprintf(stderr, "kitgrade: %s\n", err);
        return KITGRADE_EXIT_USAGE;
    }
    return 0;
}

/* Which submissions this run grades (--only, a shard's, not already graded). 0, or an exit status. */
static int choose(batch_ctx *b)
{
    const batch_opts *o = b->o;
    entry *ents = b->ents;
    for (int i = 0; i < b->n; i++) {
        if ((o->only && strcmp(ents[i].name, o->only)) || (o->want && !o->want(ents[i].safe, o->want_arg))) {
            ents[i].state = 3;
            continue;
        }
        b->total++;
        if (!ents[i].src[0]) { /* a spool entry with nothing that may be graded: say why */
            char note[600];
            snprintf(note, sizeof note, "not graded: %s", ents[i].spool->why);
            write_placeholder(b->e, b->out_dir, &ents[i], note, "not graded: see the notes");
            ents[i].state = 3;
            b->skipped++;
        } else if (o->merge) {
            if (o->missing && (o->force || !batch_result_present(b->e, b->graded_dir, b->out_dir, &ents[i])))
                fprintf(o->missing, "%s\n", ents[i].safe);
            ents[i].state = 3;
        } else if (!o->force && already_graded(b->e, b->graded_dir, b->out_dir, &ents[i])) {
            ents[i].state = 3;
            b->skipped++;
        }
    }
    if (o->only && b->total == 0) {
        fprintf(stderr, "kitgrade: no submission folder named '%s' in %s\n", o->only, b->graded_dir);
        return KITGRADE_EXIT_USAGE;
    }
    return 0;
}

/* The GPUs' slots, and what the batch is about to do, on stderr. */
static void plan(batch_ctx *b)
{
    engine *e = b->e;
    const batch_opts *o = b->o;
    b->slots = (slots_ctx){b->out_dir, 0, o->per_gpu, {{0}}};
    count_gpus(e, &b->slots);
    /* Default: every job may be in its test phase, the jobs spread over the
     * GPUs.  Correctness and sanitizer runs share a GPU (a run that runs out
     * of its memory while sharing is rerun alone), timing runs take it alone
     * (the GPU lock): one submission per GPU at a time left the GPU idle
     * while each one built, generated inputs and checked results. */
    if (b->slots.per_gpu <= 0)
        b->slots.per_gpu = b->slots.n_gpus > 0 ? (o->jobs + b->slots.n_gpus - 1) / b->slots.n_gpus : 1;
    /* several submissions per GPU: a sanitizer session beside a grading's
     * correctness tests would hold the GPU shared all along (engine.h) */
    e->sanitizers_beside = b->slots.per_gpu <= 1;
    if (b->from_spool) {
        char policy[300];
        deadline_describe(&e->rub, policy, sizeof policy);
        fprintf(stderr, "%s is a course spool: each student's last hand-in before the cut-off is graded%s%s\n",
                b->graded_dir, policy[0] ? "; " : "", policy);
    }
    fprintf(stderr, "%s: %d submission%s in %s (%s%s) (%d already graded with the same files, rubric, kit and "
                    "conditions, kept; --force regrades), seed 0x%llx, %d GPU%s, %d jobs\n",
            e->man.name, b->total, b->total == 1 ? "" : "s", b->given_dir, b->layout,
            strcmp(b->graded_dir, b->given_dir) ? ", unpacked into OUT/unpacked" : "", b->skipped,
            (unsigned long long)e->seed, b->slots.n_gpus, b->slots.n_gpus == 1 ? "" : "s", o->jobs);
    const char *warn = sandbox_warning(&e->sb);
    if (warn)
        fprintf(stderr, "%s\n", warn);
    if (!e->gpu)
        fprintf(stderr, "note: NO GPU (%s), --allow-no-gpu: submissions are only built, no test runs; every result "
                        "is marked 'not graded (no GPU)', kept out of lms.csv, and regraded on a GPU\n",
                e->gpu_why);
    fflush(stderr);
}

/* Workers for the queued submissions, up to o->jobs at a time. */
static void start_workers(batch_ctx *b)
{
    while (b->running < b->o->jobs && b->next < b->n) {
        entry *en = &b->ents[b->next++];
        if (en->state != 0)
            continue;
        fflush(NULL);
        pid_t parent = getpid();
        pid_t pid = fork();
        if (pid == 0)
            worker(b->e, b->graded_dir, b->out_dir, b->work_root, en, &b->slots, parent);
        if (pid < 0) {
            fprintf(stderr, "kitgrade: fork failed (%s); retrying\n", strerror(errno));
            b->next--;
            sleep(1);
            break;
        }
        en->pid = pid;
        en->state = 1;
        b->running++;
    }
}

/* Submission en's worker ended with status: its result read back (or a
 * placeholder for a dead worker), the gradebook, the progress line. */
static void worker_ended(batch_ctx *b, entry *en, int status)
{
    char err[512];
    en->state = 2;
    b->running--, b->done++, b->finished_now++;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        record_worker_failure(b->e, b->out_dir, en, status);
        char work[4400];
        fmt_into(work, sizeof work, "%s/%s", b->work_root, en->safe);
        rm_rf(work); /* what the dead worker left */
    }
    grade_result g;
    char rp[4096], label[1800];
    strbuf who; /* a folder name may hold escape sequences or newlines */
    sb_init(&who);
    sb_add_sanitized(&who, en->name, strlen(en->name));
    result_path(b->out_dir, en, "results", "json", rp, sizeof rp);
    if (report_read_json(rp, &g, err, sizeof err) == 0) {
        int bad = !g.build_ok;
        for (int t = 0; t < g.n_tests; t++)
            bad |= g.tests[t].status == ST_FAIL || g.tests[t].status == ST_ERROR;
        b->failed += bad;
        if (grade_result_graded(&g))
            snprintf(label, sizeof label, "graded %s (%g/%g)", sb_str(&who), g.score, g.max_score);
        else { /* its points are no grade: never shown as a score */
            snprintf(label, sizeof label, "%s: %s", sb_str(&who), grade_result_status(&g));
            b->not_graded++;
        }
        grade_result_free(&g);
    } else {
        snprintf(label, sizeof label, "%s (no result: %s)", sb_str(&who), err);
        b->failed++;
        b->lost++;
    }
    sb_free(&who);
    if (!b->o->want)
        write_gradebook(b->e, b->out_dir, b->ents, b->n);
    progress(b->o, b->done, b->total, b->failed, b->t0, b->finished_now, label);
}

/* Grades the chosen submissions, o->jobs workers at a time. */
static void grade_all(batch_ctx *b)
{
    b->t0 = kit_now();
    b->done = b->skipped;
    for (;;) {
        start_workers(b);
        if (b->running == 0)
            break;
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < b->n; i++)
            if (b->ents[i].pid == pid && b->ents[i].state == 1)
                worker_ended(b, &b->ents[i], status);
    }
}

/* The class report: every student's result on disk, similarity over their files. */
static void class_report(batch_ctx *b)
{
    char err[512];
    int n = b->n;
    class_member *members = calloc((size_t)n + 1, sizeof *members);
    char (*paths)[4096] = calloc((size_t)n + 1, sizeof *paths);
    for (int i = 0; members && paths && i < n; i++) {
        result_path(b->out_dir, &b->ents[i], "results", "json", paths[i], sizeof paths[i]);
        members[i].name = b->ents[i].name;
        members[i].src = b->ents[i].src;
        members[i].result = paths[i];
    }
    if (!members || !paths)
        fprintf(stderr, "kitgrade: class report: out of memory\n");
    else if (class_report_write(b->e, b->out_dir, members, n, b->o->similarity_threshold, err, sizeof err) != 0)
        fprintf(stderr, "kitgrade: class report: %s\n", err);
    free(members);
    free(paths);
}

int batch_run(engine *e, const char *given_dir, const char *out_dir, const batch_opts *o)
{
    batch_ctx b = {.e = e, .o = o, .given_dir = given_dir, .out_dir = out_dir, .layout = "folders", .lock = -1};
    int rc = out_prepare(&b);
    if (!rc)
        rc = find_submissions(&b);
    if (!rc)
        rc = choose(&b);
    if (!rc) {
        plan(&b);
        grade_all(&b);
        if (!o->want && write_gradebook(e, out_dir, b.ents, b.n) > 0) /* a Slurm shard leaves these to the merge */
            class_report(&b);
        if (o->tty)
            fputc('\n', stderr);
        char not_graded[96] = "";
        if (b.not_graded)
            snprintf(not_graded, sizeof not_graded, ", %d not graded (the gradebook's status says why)", b.not_graded);
        fprintf(stderr, "done: %d graded now%s, %d kept from before; gradebook %s/gradebook.csv, results in %s/results/, "
                        "feedback in %s/feedback/, class report %s/report.html\n",
                b.finished_now - b.not_graded, not_graded, b.skipped, out_dir, out_dir, out_dir, out_dir);
        rmdir(b.work_root); /* each worker removed its own folder */
    }
    if (!rc && b.lost) { /* said above, one line each: the batch did not do its work */
        fprintf(stderr, "kitgrade: %d result%s could not be written or read back (see above); fix that and run the "
                        "batch again: it grades only what is missing\n", b.lost, b.lost == 1 ? "" : "s");
        rc = KITGRADE_EXIT_INTERNAL;
    }
    free(b.ents);
    free(b.picks);
    if (b.lock >= 0)
        close(b.lock);
    return rc;
}
