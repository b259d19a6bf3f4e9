/* slurm.c - grading a course on a Slurm cluster with the same engine.
 *
 * `kitgrade slurm LAB SUBMISSIONS --out DIR` runs on the login node:
 *   1. plan: `kitgrade batch ... --merge FILE` lists the submissions without a
 *      finished result for their current files (all of them when the rubric,
 *      the kit or the options changed since the last submission: the grading
 *      node then decides with the full reuse rule of batch.c);
 *   2. one `sbatch --array=0-(K-1)%CAP`: task k runs `kitgrade batch ...
 *      --shard OUT/.slurm/run-T/shard-k` on its own GPU, writing each result
 *      atomically into the shared OUT as a local batch does, so a task killed
 *      mid-shard leaves finished results and no half-written one;
 *   3. progress from the results present and squeue (--wait), and at the end the
 *      merge: `kitgrade batch ... --merge`, the gradebook from every result
 *      present, deterministic and rerunnable.  The same command again resubmits
 *      only what is still missing.
 * No second grading path: everything that grades is `kitgrade batch`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "course/batch.h"
#include "util/exit_codes.h"
#include "kit/util.h"
#include "util/fsutil.h"

/* ---- inside kitgrade batch: --shard FILE and --merge FILE ---- */

typedef struct {
    char **names;
    int n;
} name_set;

static int in_shard(const char *safe, void *arg)
{
    const name_set *s = arg;
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], safe))
            return 1;
    return 0;
}

int slurm_batch_opts(const engine *e, const char *shard_file, const char *merge_file, batch_opts *o)
{
    if (shard_file) {
        static name_set set;
        FILE *f = fopen(shard_file, "r");
        if (!f) {
            fprintf(stderr, "kitgrade: cannot read the shard %s: %s\n", shard_file, strerror(errno));
            return -1;
        }
        char line[1024];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            char **more = realloc(set.names, (size_t)(set.n + 1) * sizeof *more);
            if (!*line || !more)
                continue;
            set.names = more;
            set.names[set.n++] = strdup(line);
        }
        fclose(f);
        o->want = in_shard;
        o->want_arg = &set;
    }
    if (merge_file) {
        o->merge = 1;
        o->missing = fopen(merge_file, "w");
        if (!o->missing) {
            fprintf(stderr, "kitgrade: cannot write %s: %s\n", merge_file, strerror(errno));
            return -1;
        }
        /* what the plan needs besides the names: the batch's seed */
        fprintf(o->missing, "#seed %#llx\n", (unsigned long long)e->seed);
    }
    return 0;
}

int slurm_batch_close(batch_opts *o)
{
    int rc = 0;
    if (o->missing && fclose(o->missing) != 0)
        rc = -1;
    o->missing = NULL;
    return rc;
}

/* ---- kitgrade slurm: on the login node ---- */

typedef struct {
    const char *lab, *subs, *out;
    int shard_size, max_running, cpus, wait, poll_s, force, jobs_given;
    const char *sbatch_opts, *gres, *seed;
    const char *fwd[64]; /* options for the tasks' kitgrade batch */
    int n_fwd;
    char self[4096];     /* this kitgrade, absolute: the tasks run it from the shared FS */
    char subs_abs[4096], out_abs[4096], state[4200];
} slurm_cli;

static const char slurm_usage[] =
    "usage: kitgrade slurm LAB SUBMISSIONS --out DIR [--shard-size N] [--max-running N] [--cpus-per-task N]\n"
    "                      [--gres SPEC|none] [--sbatch \"OPTS\"] [--wait] [--poll SECONDS] [batch options]\n"
    "  grades SUBMISSIONS as one Slurm job array (one GPU per task, N submissions per task, at most\n"
    "  --max-running tasks at once) with `kitgrade batch`; again: progress, or resubmits what is missing,\n"
    "  or merges when everything is graded.  batch options (--rubric, --seed, --test, --force,\n"
    "  --per-gpu, --jobs, --allow-no-gpu, --profile) go to every task.  Exit status: 0 submitted, still running, or\n"
    "  everything graded and merged; 2 bad usage; 4 sbatch failed or, after --wait, submissions without a result.\n";

/* 'arg', for sh -c */
static void sh_word(strbuf *b, const char *arg)
{
    sb_add(b, "'");
    for (const char *p = arg; *p; p++) {
        if (*p == '\'')
            sb_add(b, "'\\''");
        else
            sb_addn(b, p, 1);
    }
    sb_add(b, "'");
}

/* 'arg' and a space */
static void sh_quote(strbuf *b, const char *arg)
{
    sh_word(b, arg);
    sb_add(b, " ");
}

/* The kitgrade batch command line, shell-quoted, without the shard. */
static void batch_cmd(const slurm_cli *c, strbuf *b, const char *seed)
{
    sh_quote(b, c->self);
    sb_add(b, "batch ");
    sh_quote(b, c->lab);
    sh_quote(b, c->subs_abs);
    sb_add(b, "--out ");
    sh_quote(b, c->out_abs);
    if (seed) {
        sb_add(b, "--seed ");
        sh_quote(b, seed);
    }
    for (int i = 0; i < c->n_fwd; i++)
        sh_quote(b, c->fwd[i]);
}

static int run_shell(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t k = 0, r;
    if (out && len)
        out[0] = 0;
    char tmp[4096];
    while ((r = fread(tmp, 1, sizeof tmp, p)) > 0)
        if (out && k + 1 < len) {
            size_t m = r < len - 1 - k ? r : len - 1 - k;
            memcpy(out + k, tmp, m);
            k += m;
            out[k] = 0;
        }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* The merge, which is also the plan: the missing submissions' safe names into
 * `file` (every one with force), the gradebook rewritten.  Returns kitgrade's
 * status; the batch's own messages go to OUT/.slurm/merge.log. */
static int merge(const slurm_cli *c, const char *seed, int force, const char *file)
{
    strbuf cmd;
    sb_init(&cmd);
    batch_cmd(c, &cmd, seed);
    sb_add(&cmd, "--merge ");
    sh_quote(&cmd, file);
    if (force)
        sb_add(&cmd, "--force ");
    sb_printf(&cmd, "--no-color > '%s/merge.log' 2>&1", c->state);
    int rc = run_shell(sb_str(&cmd), NULL, 0);
    sb_free(&cmd);
    if (rc != 0) {
        char log[4400];
        /* bad input (an unknown lab, a folder in no layout): the batch's one line says it all */
        if (rc != KITGRADE_EXIT_USAGE)
            fprintf(stderr, "kitgrade slurm: the merge failed (status %d):\n", rc);
        fmt_into(log, sizeof log, "cat '%s/merge.log' >&2", c->state);
        run_shell(log, NULL, 0);
    }
    return rc;
}

/* Reads a plan: "#seed S", "#key K" (the batch's grading key, where the
 * engine has one: it changes with the rubric and the kit), then safe names.
 * Returns the number of names; seed and key may be NULL. */
static int read_plan(const char *file, char *seed, char *key, char ***names)
{
    FILE *f = fopen(file, "r");
    int n = 0;
    *names = NULL;
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (seed && !strncmp(line, "#seed ", 6))
            fmt_into(seed, 64, "%s", line + 6);
        if (key && !strncmp(line, "#key ", 5))
            fmt_into(key, 160, "%s", line + 5);
        if (line[0] == '#')
            continue;
        char **more = realloc(*names, (size_t)(n + 1) * sizeof *more);
        if (!*line || !more)
            continue;
        *names = more;
        (*names)[n++] = strdup(line);
    }
    if (f)
        fclose(f);
    return n;
}

/* The names read_plan returned. */
static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Tasks of the job in squeue: running and pending ones. */
static int job_tasks(const char *job, int *running, int *pending)
{
    char cmd[256], out[65536];
    *running = *pending = 0;
    fmt_into(cmd, sizeof cmd, "squeue -h -r -j '%s' -o %%t 2>/dev/null", job);
    if (run_shell(cmd, out, sizeof out) != 0)
        return 0; /* an unknown job: finished long ago */
    for (char *s = strtok(out, "\n"); s; s = strtok(NULL, "\n")) {
        if (!strcmp(s, "PD"))
            ++*pending;
        else
            ++*running;
    }
    return *running + *pending;
}

/* Results of this run's names written since it was submitted. */
static int results_since(const slurm_cli *c, char **names, int n, time_t since)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        char path[4400];
        struct stat st;
        fmt_into(path, sizeof path, "%s/results/%s.json", c->out_abs, names[i]);
        k += stat(path, &st) == 0 && st.st_mtime >= since;
    }
    return k;
}

static int read_small(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    if (!f)
        return -1;
    size_t r = fread(buf, 1, len - 1, f);
    buf[r] = 0;
    buf[strcspn(buf, "\n")] = 0;
    fclose(f);
    return 0;
}

static int write_small(const char *path, const char *text)
{
    char tmp[4400];
    fmt_into(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0)
        return -1;
    return rename(tmp, path);
}

static void print_again(const slurm_cli *c, int argc, char **argv)
{
    strbuf b;
    sb_init(&b);
    for (int i = 0; i < argc; i++)
        sh_quote(&b, i == 0 ? c->self : argv[i]);
    fprintf(stderr, "  %s\n", sb_str(&b));
    sb_free(&b);
}

/* Waits for the job, showing progress; then merges.  0: everything graded. */
static int wait_and_merge(const slurm_cli *c, const char *job, int argc, char **argv)
{
    char run[4400], plan_file[4400], seed[64] = "", sub_time[64] = "";
    char **names = NULL;
    fmt_into(plan_file, sizeof plan_file, "%s/run", c->state);
    read_small(plan_file, run, sizeof run); /* the run folder of the job */
    fmt_into(plan_file, sizeof plan_file, "%s/plan", run);
    int n = read_plan(plan_file, seed, NULL, &names);
    fmt_into(plan_file, sizeof plan_file, "%s/submitted", run);
    read_small(plan_file, sub_time, sizeof sub_time);
    time_t since = (time_t)atoll(sub_time);
    int running, pending, last = -1;
    while (job_tasks(job, &running, &pending) > 0) {
        int done = results_since(c, names, n, since);
        if (done != last || !c->wait)
            fprintf(stderr, "[%d/%d] graded; job %s: %d task%s running, %d pending\n", done, n, job, running,
                    running == 1 ? "" : "s", pending);
        last = done;
        if (!c->wait) {
            fprintf(stderr, "still running; the same command with --wait (make ... WAIT=1) waits and merges:\n");
            print_again(c, argc, argv);
            return 0;
        }
        sleep((unsigned)c->poll_s);
    }
    free_names(names, n);
    /* The array is over: merge, and see what is still missing. */
    char missing_file[4400];
    fmt_into(missing_file, sizeof missing_file, "%s/missing", c->state);
    int rc = merge(c, seed[0] ? seed : NULL, 0, missing_file);
    if (rc != 0)
        return rc;
    int missing = read_plan(missing_file, NULL, NULL, &names);
    free_names(names, missing);
    if (missing) {
        fprintf(stderr, "job %s finished with %d submission%s without a result (task logs: %s/task-*.log); the same "
                        "command resubmits only those:\n",
                job, missing, missing == 1 ? "" : "s", run);
        print_again(c, argc, argv);
        return 4; /* kitgrade's "could not do its work" (exit_codes.h) */
    }
    fprintf(stderr, "done: every submission graded; gradebook %s/gradebook.csv, results in %s/results/, feedback in "
                    "%s/feedback/\n",
            c->out_abs, c->out_abs, c->out_abs);
    return 0;
}

static int parse_slurm(int argc, char **argv, slurm_cli *c)
{
    memset(c, 0, sizeof *c);
    c->shard_size = 20, c->max_running = 16, c->cpus = 4, c->poll_s = 10, c->gres = "gpu:1";
    const char **pos[] = {&c->lab, &c->subs};
    int npos = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int num = v ? atoi(v) : 0;
        if (!strcmp(a, "--out") && v)
            c->out = v, i++;
        else if (!strcmp(a, "--shard-size") && num > 0)
            c->shard_size = num, i++;
        else if (!strcmp(a, "--max-running") && num > 0)
            c->max_running = num, i++;
        else if (!strcmp(a, "--cpus-per-task") && num > 0)
            c->cpus = num, i++;
        else if (!strcmp(a, "--poll") && num > 0)
            c->poll_s = num, i++;
        else if (!strcmp(a, "--gres") && v)
            c->gres = v, i++;
        else if (!strcmp(a, "--sbatch") && v)
            c->sbatch_opts = v, i++;
        else if (!strcmp(a, "--wait"))
            c->wait = 1;
        else if (!strcmp(a, "--seed") && v)
            c->seed = v, i++;
        else if (!strcmp(a, "--force"))
            c->force = 1;
        else if ((!strcmp(a, "--rubric") || !strcmp(a, "--test") || !strcmp(a, "--jobs") || !strcmp(a, "--per-gpu") ||
                  !strcmp(a, "--similarity")) &&
                 v && c->n_fwd < 62) {
            c->jobs_given |= !strcmp(a, "--jobs");
            c->fwd[c->n_fwd++] = a, c->fwd[c->n_fwd++] = v, i++;
        }
        else if ((!strcmp(a, "--allow-no-gpu") || !strcmp(a, "--no-color") || !strcmp(a, "--profile")) && c->n_fwd < 63)
            c->fwd[c->n_fwd++] = a;
        else if (a[0] != '-' && npos < 2)
            *pos[npos++] = a;
        else {
            fprintf(stderr, "kitgrade slurm: unknown or incomplete option '%s'\n", a);
            return -1;
        }
    }
    if (!c->lab || !c->subs || !c->out)
        return -1;
    return 0;
}

/* The command line into c, this kitgrade's path, the folders made absolute and
 * OUT/.slurm made.  -1: go on; otherwise the exit status (--help, bad usage,
 * 4: a folder that cannot be made). */
static int slurm_setup(int argc, char **argv, slurm_cli *c)
{
    if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        fputs(slurm_usage, stdout);
        return 0;
    }
    if (parse_slurm(argc, argv, c) != 0) {
        fputs(slurm_usage, stderr);
        return 2;
    }
    ssize_t k = readlink("/proc/self/exe", c->self, sizeof c->self - 1);
    c->self[k > 0 ? k : 0] = 0;
    if (mkdirs_said(c->out, 0755, "kitgrade slurm") != 0)
        return 4; /* kitgrade's "could not do its work" (exit_codes.h) */
    if (!realpath(c->subs, c->subs_abs) || !realpath(c->out, c->out_abs)) {
        fprintf(stderr, "kitgrade slurm: %s: %s\n", c->subs, strerror(errno));
        return 2;
    }
    fmt_into(c->state, sizeof c->state, "%s/.slurm", c->out_abs);
    return mkdirs_said(c->state, 0755, "kitgrade slurm") != 0 ? 4 : -1;
}

/* An array of an earlier call still in the queue: its id into job. */
static int job_in_queue(const slurm_cli *c, char *job, size_t len)
{
    char path[4400];
    int running, pending;
    fmt_into(path, sizeof path, "%s/job", c->state);
    return read_small(path, job, len) == 0 && *job && job_tasks(job, &running, &pending) > 0;
}

/* What the tasks' results depend on besides the submissions: the batch
 * command, the cluster options, the grading key, and this kitgrade (path and
 * time).  A plan made under another stamp lists everything. */
static void plan_stamp(const slurm_cli *c, const char *key, strbuf *stamp)
{
    sb_init(stamp);
    batch_cmd(c, stamp, NULL);
    sb_printf(stamp, "| gres %s cpus %d sbatch %s | key %s | kit %s", c->gres, c->cpus,
              c->sbatch_opts ? c->sbatch_opts : "", key, c->self);
    struct stat st;
    if (stat(c->self, &st) == 0)
        sb_printf(stamp, " %lld", (long long)st.st_mtime);
}

/* Plan: what is missing.  A new rubric, kit or options: everything (the
 * tasks keep what is still valid, under batch.c's reuse rule).  Returns the
 * number of names, or -1 with *rc the merge's status.  seed (64 bytes): the
 * batch's, or --seed; stamp: to be recorded once the array is submitted. */
static int plan_missing(const slurm_cli *c, char *seed, strbuf *stamp, char ***names, int *rc)
{
    char plan_file[4400], stamp_file[4400], key[160] = "", old_stamp[8192];
    fmt_into(plan_file, sizeof plan_file, "%s/plan", c->state);
    if ((*rc = merge(c, c->seed, 0, plan_file)) != 0)
        return -1;
    int n = read_plan(plan_file, seed, key, names);
    if (c->seed)
        fmt_into(seed, 64, "%s", c->seed);
    plan_stamp(c, key, stamp);
    fmt_into(stamp_file, sizeof stamp_file, "%s/stamp", c->state);
    int changed = read_small(stamp_file, old_stamp, sizeof old_stamp) != 0 || strcmp(old_stamp, sb_str(stamp));
    if (changed || c->force) {
        free_names(*names, n);
        if ((*rc = merge(c, c->seed, 1, plan_file)) != 0) {
            sb_free(stamp);
            return -1;
        }
        n = read_plan(plan_file, NULL, NULL, names);
    }
    return n;
}

/* The run's folder: one file of names per task (shard-k) and the plan.
 * 0, or 4 when a shard cannot be written. */
static int write_shards(const slurm_cli *c, const char *run, char **names, int n, int tasks)
{
    char path[4400];
    for (int t = 0; t < tasks; t++) {
        fmt_into(path, sizeof path, "%s/shard-%d", run, t);
        FILE *f = fopen(path, "w");
        for (int i = t * c->shard_size; f && i < n && i < (t + 1) * c->shard_size; i++)
            fprintf(f, "%s\n", names[i]);
        if (!f || fclose(f) != 0) {
            fprintf(stderr, "kitgrade slurm: cannot write %s\n", path);
            return 4;
        }
    }
    fmt_into(path, sizeof path, "%s/plan", run);
    FILE *pf = fopen(path, "w");
    for (int i = 0; pf && i < n; i++)
        fprintf(pf, "%s\n", names[i]);
    if (pf)
        fclose(pf);
    return 0;
}

/* The task script, RUN/task.sh (its path into path).  0, or 4 when it cannot
 * be written. */
static int write_task_script(const slurm_cli *c, const char *run, const char *seed, char *path, size_t len)
{
    strbuf script;
    sb_init(&script);
    sb_add(&script, "#!/bin/sh\n# written by kitgrade slurm: task k grades the submissions named in shard-k\n");
    sb_add(&script, "exec ");
    batch_cmd(c, &script, seed);
    if (c->force) /* regrade even what the grading node would keep (not for the merges) */
        sb_add(&script, "--force ");
    if (!c->jobs_given) /* as many submissions in flight as the task has CPUs */
        sb_add(&script, "--jobs \"${SLURM_CPUS_PER_TASK:-1}\" ");
    sb_add(&script, "--no-color --shard ");
    sh_word(&script, run);
    sb_add(&script, "\"/shard-$SLURM_ARRAY_TASK_ID\"\n");
    fmt_into(path, len, "%s/task.sh", run);
    FILE *f = fopen(path, "w");
    int bad = !f || fputs(sb_str(&script), f) < 0 || fclose(f) != 0;
    sb_free(&script);
    if (bad) {
        fprintf(stderr, "kitgrade slurm: cannot write %s\n", path);
        return 4;
    }
    chmod(path, 0755);
    return 0;
}

/* One sbatch for the array of tasks running script; the job id into job.
 * 0, or 4 when sbatch failed. */
static int submit_array(const slurm_cli *c, const char *run, const char *script, int tasks, char *job, size_t len)
{
    strbuf cmd;
    sb_init(&cmd);
    sb_printf(&cmd, "sbatch --parsable --array=0-%d%%%d --cpus-per-task=%d --job-name=", tasks - 1, c->max_running,
              c->cpus);
    char name[128], out[4500];
    fmt_into(name, sizeof name, "kitgrade-%s", c->lab);
    sh_quote(&cmd, name);
    if (strcmp(c->gres, "none")) {
        sb_add(&cmd, "--gres=");
        sh_quote(&cmd, c->gres);
    }
    sb_add(&cmd, "--output=");
    fmt_into(out, sizeof out, "%s/task-%%a.log", run);
    sh_quote(&cmd, out);
    if (c->sbatch_opts)
        sb_printf(&cmd, "%s ", c->sbatch_opts); /* the admin's options, split by the shell */
    sh_quote(&cmd, script);
    int rc = run_shell(sb_str(&cmd), job, len);
    job[strcspn(job, ";\n")] = 0;
    if (rc != 0 || !*job) {
        fprintf(stderr, "kitgrade slurm: sbatch failed (status %d): %s\n  command: %s\n", rc, job, sb_str(&cmd));
        rc = 4;
    }
    sb_free(&cmd);
    return rc;
}

/* What the next call reads: when the run was submitted, the run folder, the
 * job, and the stamp the plan was made under. */
static void record_submission(const slurm_cli *c, const char *run, time_t now, const char *job, const char *stamp)
{
    char path[4400], now_s[32];
    fmt_into(now_s, sizeof now_s, "%lld", (long long)now);
    fmt_into(path, sizeof path, "%s/submitted", run);
    write_small(path, now_s);
    fmt_into(path, sizeof path, "%s/run", c->state);
    write_small(path, run);
    fmt_into(path, sizeof path, "%s/job", c->state);
    write_small(path, job);
    fmt_into(path, sizeof path, "%s/stamp", c->state);
    write_small(path, stamp);
}

/* The run's folder, its task script and the array for n names.  0 (the job id
 * in job, tasks set), or 4. */
static int submit_run(const slurm_cli *c, char **names, int n, const char *seed, const strbuf *stamp, char *job,
                      size_t len, int *tasks)
{
    char run[4400], script[4400];
    time_t now = time(NULL);
    fmt_into(run, sizeof run, "%s/run-%lld", c->state, (long long)now);
    if (mkdirs_said(run, 0755, "kitgrade slurm") != 0)
        return 4;
    *tasks = (n + c->shard_size - 1) / c->shard_size;
    int rc = write_shards(c, run, names, n, *tasks);
    if (rc == 0)
        rc = write_task_script(c, run, seed, script, sizeof script);
    if (rc == 0)
        rc = submit_array(c, run, script, *tasks, job, len);
    if (rc == 0)
        record_submission(c, run, now, job, sb_str(stamp));
    return rc;
}

int slurm_main(int argc, char **argv)
{
    slurm_cli c;
    int rc = slurm_setup(argc, argv, &c);
    if (rc >= 0)
        return rc;
    char job[64] = "";
    if (job_in_queue(&c, job, sizeof job))
        return wait_and_merge(&c, job, argc, argv);
    /* none, or it is over: plan again (which merges, and resubmits what is missing) */
    char seed[64] = "", **names;
    strbuf stamp;
    int n = plan_missing(&c, seed, &stamp, &names, &rc);
    if (n < 0)
        return rc;
    if (n == 0) {
        fprintf(stderr, "%s: every submission in %s has its result; gradebook %s/gradebook.csv, results in "
                        "%s/results/, feedback in %s/feedback/\n",
                c.lab, c.subs_abs, c.out_abs, c.out_abs, c.out_abs);
        sb_free(&stamp);
        free_names(names, n);
        return 0;
    }
    char answer[256] = "";
    int tasks;
    rc = submit_run(&c, names, n, seed, &stamp, answer, sizeof answer, &tasks);
    sb_free(&stamp);
    free_names(names, n);
    if (rc != 0)
        return rc;
    fprintf(stderr, "%s: %d submission%s to grade in %s: job %s, %d task%s of up to %d (at most %d at once, %s), "
                    "seed %s\n",
            c.lab, n, n == 1 ? "" : "s", c.subs_abs, answer, tasks, tasks == 1 ? "" : "s", c.shard_size,
            c.max_running, strcmp(c.gres, "none") ? c.gres : "no GRES", seed);
    if (!c.wait) {
        fprintf(stderr, "progress, and the merge when the array is done: the same command (--wait waits):\n");
        print_again(&c, argc, argv);
        return 0;
    }
    return wait_and_merge(&c, answer, argc, argv);
}
