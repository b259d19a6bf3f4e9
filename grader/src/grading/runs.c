/* runs.c - what every run of a grading shares (engine_int.h): the
 * sandboxed process, the kit's checker and its verdict, the runner's result
 * files, the grading's one shared hold of the GPU, the cases' parameters
 * and seeds.  It calls nothing of serve.c, cases.c, build.c or engine.c. */
#include "grading/engine_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#include "kit/blob.h"
#include "kit/protocol.h"
#include "kit/rng.h"
#include "kit/util.h"
#include "process/lock.h"
#include "grading/sanitizer.h"
#include "util/fsutil.h"

#define CHECKER_TIMEOUT 300 /* seconds; the checker is kit code on large inputs */
#define TAIL_LINE_MAX 300   /* bytes of one stderr line shown under a failure */

/* ------------------------------------------------------------- the GPU */

void gpu_share(grading *g)
{
    if (g->shared_held)
        return;
    g->shared_held = gpu_lock_acquire(&g->shared, g->e->gpu_uuid, 0, g->e->log) == 0 ? 1 : -1;
}

void gpu_unshare(grading *g)
{
    if (g->shared_held == 1)
        gpu_lock_release(&g->shared);
    g->shared_held = 0;
}

/* A run whose student call returned after its limit while it shared the
 * GPU (KIT_EXIT_OVERRAN: within the grace, so a neighbour's load could be to
 * blame: another submission's racecheck, a timing loop, fifty checks at once)
 * runs again with the GPU to itself, under the same limit.  A call still
 * running at grace x its limit did not return (hang.c): that is judged, not
 * run again; so is a run that reached its backstop.  Without a device
 * (KIT_RUN_WITHOUT_GPU) there is no GPU load to blame. */
int rerun_alone_after(const engine *e, const proc_result *r)
{
    return r->exited && r->exit_code == KIT_EXIT_OVERRAN && strcmp(e->gpu_uuid, KIT_NO_GPU_UUID) != 0;
}

uint64_t random_nonce(void) { return kit_random_u64(); }

int clean_run_dir(const engine *e, const workdirs *w)
{
    if (rm_rf(w->run) != 0 || mkdirs(w->run, 0755) != 0)
        return -1;
    /* the sandbox uid writes the run's outputs: a folder it cannot write fails every run */
    return e->sb.drop_uid && chown(w->run, e->sb.uid, e->sb.gid) != 0 ? -1 : 0;
}

/* ------------------------------------------------------------ processes */

/* The environment of a submission process: minimal, plus the GPU selection
 * and the kit's OpenMP wait policy (main.c: the runner's input generation). */
static int submission_env(const char *home, char store[][512], const char **env)
{
    int n = 0;
    snprintf(store[n], 512, "PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin");
    env[n] = store[n], n++;
    snprintf(store[n], 512, "HOME=%s", home);
    env[n] = store[n], n++;
    snprintf(store[n], 512, "TMPDIR=/tmp");
    env[n] = store[n], n++;
    snprintf(store[n], 512, "LANG=C");
    env[n] = store[n], n++;
    static const char *pass[] = {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "CUDA_HOME", "OMP_WAIT_POLICY", NULL};
    for (int i = 0; pass[i]; i++) {
        const char *v = getenv(pass[i]);
        if (v) {
            snprintf(store[n], 512, "%s=%s", pass[i], v);
            env[n] = store[n], n++;
        }
    }
    env[n] = NULL;
    return n;
}

/* Limits of a submission process; `writable` is the one folder it may write
 * (on disk: watched, a flood of files is killed like a flood of output). */
static void limits_for(const engine *e, proc_opts *o, double timeout, const char *writable)
{
    o->timeout_s = timeout;
    o->watch_dir = writable;
    o->watch_max_bytes = (long long)(e->rub.file_mb + 64) << 20;
    o->mem_mb = e->rub.memory_mb;
    o->nproc = e->rub.max_processes;
    o->fsize_mb = e->rub.file_mb;
    o->out_cap = (size_t)e->rub.output_kb << 10;
    o->err_cap = (size_t)e->rub.output_kb << 10;
    o->sb = &e->sb;
    o->drop_uid = e->sb.drop_uid;
}

void sandboxed_init(sandboxed *s, const engine *e, double timeout, const char *cwd, const char *home,
                           const char *rw, const char *ro1, const char *ro2)
{
    memset(s, 0, sizeof *s);
    limits_for(e, &s->o, timeout, rw);
    s->o.cwd = cwd;
    s->rw[0] = rw;
    s->ro[0] = ro1, s->ro[1] = ro2;
    s->o.sb_rw = s->rw;
    s->o.sb_ro = s->ro;
    s->n_env = submission_env(home, s->store, s->env);
    s->o.env = s->env;
}

void sandboxed_setenv(sandboxed *s, const char *name, const char *value)
{
    int n = s->n_env;
    if (n + 1 >= (int)(sizeof s->env / sizeof s->env[0]))
        return;
    snprintf(s->store[n], sizeof s->store[n], "%s=%s", name, value);
    s->env[n] = s->store[n];
    s->env[n + 1] = NULL;
    s->n_env = n + 1;
}

void add_source_line(const workdirs *w, const char *file, int line, strbuf *b)
{
    if (line <= 0 || !file[0])
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", w->src, san_basename(file));
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char buf[512];
    for (int k = 1; fgets(buf, sizeof buf, f); k++) {
        if (k == line) {
            buf[strcspn(buf, "\n")] = 0;
            strbuf clean;
            sb_init(&clean);
            sb_add_sanitized(&clean, buf, strlen(buf));
            sb_printf(b, "      %5d | %s\n", k, sb_str(&clean));
            sb_free(&clean);
            break;
        }
    }
    fclose(f);
}

/* The last `lines` lines of a program's stderr, sanitized and indented. */
void add_tail(strbuf *b, const strbuf *text, int lines, const char *indent)
{
    const char *s = sb_str(text);
    size_t len = text->len;
    while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
        len--;
    size_t start = len;
    for (int k = 0; start > 0; start--)
        if (s[start - 1] == '\n' && ++k == lines)
            break;
    if (len == start)
        return;
    strbuf clean;
    sb_init(&clean);
    sb_add_sanitized(&clean, s + start, len - start);
    /* A flood without newlines would make one enormous "line". */
    for (char *line = strtok(clean.s, "\n"); line; line = strtok(NULL, "\n")) {
        size_t n = strlen(line);
        if (n > TAIL_LINE_MAX)
            sb_printf(b, "%s%.*s [... %zu more bytes]\n", indent, TAIL_LINE_MAX, line, n - TAIL_LINE_MAX);
        else
            sb_printf(b, "%s%s\n", indent, line);
    }
    sb_free(&clean);
}

/* ------------------------------------------------------------------ cases */

void case_params(const rubric_test *t, int i, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", t->params, t->params[0] ? " " : "", t->cases[i]);
}

uint64_t engine_case_seed(uint64_t seed, const char *test, int case_index, int rep)
{
    return kit_mix64(seed ^ kit_hash_str(test) ^ kit_mix64((uint64_t)case_index * 1000003u + (uint64_t)rep));
}

void outcome_init(outcome *c)
{
    memset(c, 0, sizeof *c);
    sb_init(&c->text);
    sb_init(&c->kernels);
    sb_init(&c->metrics);
}

void outcome_free(outcome *c)
{
    checker_cancel(c->check); /* a verdict no one waits for any more */
    c->check = NULL;
    if (c->check_dir) /* its result file and stdout: outputs of large cases are hundreds of MB */
        rm_rf(c->check_dir);
    free(c->check_dir);
    c->check_dir = NULL;
    sb_free(&c->text);
    sb_free(&c->kernels);
    sb_free(&c->metrics);
}

/* The checker's JSON verdict v into c: pass, whose device did the work,
 * the summary and details (notes only when it passed), kernels, timings and
 * metrics. */
static void read_verdict(const cJSON *v, outcome *c)
{
    c->pass = cJSON_IsTrue(cJSON_GetObjectItem(v, KIT_VERDICT_PASS));
    c->not_own = cJSON_IsFalse(cJSON_GetObjectItem(v, KIT_VERDICT_DEVICE_OK));
    c->elsewhere = c->not_own && cJSON_IsTrue(cJSON_GetObjectItem(v, KIT_VERDICT_RESULT_OK));
    const cJSON *summary = cJSON_GetObjectItem(v, KIT_VERDICT_SUMMARY);
    if (!c->pass && cJSON_IsString(summary))
        sb_printf(&c->text, "%s\n", summary->valuestring);
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(v, KIT_VERDICT_DETAILS))
    {
        if (cJSON_IsString(it) && (!c->pass || strncmp(it->valuestring, "note:", 5) == 0))
            sb_printf(&c->text, "%s\n", it->valuestring);
    }
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(v, KIT_VERDICT_KERNELS))
    {
        const cJSON *name = cJSON_GetObjectItem(it, "name"), *grid = cJSON_GetObjectItem(it, "grid"),
                    *block = cJSON_GetObjectItem(it, "block"), *ms = cJSON_GetObjectItem(it, "ms");
        if (cJSON_IsString(name) && cJSON_IsString(grid) && cJSON_IsString(block) && cJSON_IsNumber(ms))
            sb_printf(&c->kernels, "%s  grid (%s) block (%s)  %.3f ms\n", name->valuestring, grid->valuestring,
                      block->valuestring, ms->valuedouble);
    }
    cJSON_ArrayForEach(it, cJSON_GetObjectItem(v, KIT_VERDICT_METRICS))
    {
        if (!cJSON_IsNumber(it))
            continue;
        if (!strcmp(it->string, KIT_KEY_STUDENT_MS))
            c->student_ms = it->valuedouble;
        else if (!strcmp(it->string, KIT_KEY_BASELINE_MS))
            c->baseline_ms = it->valuedouble;
        else if (!strcmp(it->string, KIT_KEY_TIMED_PAIRS))
            c->timed_pairs = (int)it->valuedouble;
        else if (!strcmp(it->string, KIT_KEY_TIMED_DECIDED))
            c->timed_decided = it->valuedouble > 0   ? KIT_DECIDED_FULL
                               : it->valuedouble < 0 ? KIT_DECIDED_NONE
                                                     : KIT_DECIDED_NOT;
        else if (!strncmp(it->string, KIT_KEY_METRIC_PREFIX, strlen(KIT_KEY_METRIC_PREFIX)))
            sb_printf(&c->metrics, "%s: %.4g\n", it->string + strlen(KIT_KEY_METRIC_PREFIX), it->valuedouble);
    }
}

/* A checker started (checker_start) and not waited for yet. */
struct checker_run {
    proc_session *s;
    proc_result r;
    cpu_slot slot;
    double t0;
};

checker_run *checker_start(const engine *e, const workdirs *w, const char *params, uint64_t seed, uint64_t nonce,
                           int use_slot)
{
    checker_run *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    char check[2048], seed_s[32], nonce_s[32], out[2200];
    snprintf(check, sizeof check, "%s/check", e->lab_build);
    snprintf(seed_s, sizeof seed_s, "0x%llx", (unsigned long long)seed);
    snprintf(nonce_s, sizeof nonce_s, "%llu", (unsigned long long)nonce);
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    char share[32];
    snprintf(share, sizeof share, "%g", e->man.host_copy_share);
    const char *argv[20] = {check, "--params", params, "--seed", seed_s, "--nonce", nonce_s, "--out", out, "--stdout", w->sout};
    int n = 11;
    if (e->man.require_kernel)
        argv[n++] = "--require-kernel";
    if (e->man.forbid_libraries)
        argv[n++] = "--forbid-libraries";
    argv[n++] = "--evidence";
    argv[n++] = e->man.evidence;
    argv[n++] = "--host-copy-share";
    argv[n++] = share;
    argv[n] = NULL;
    proc_opts o = {0};
    o.out_cap = 4u << 20;
    o.env = (const char *const *)environ; /* kit code: the grader's own environment */
    /* A slot keeps CPU-heavy kit work from disturbing a timing run.  Taken
     * only without a GPU lock (run_case released it); a case server checks
     * under its shared lock, during which no timing run can start anyway. */
    k->slot.fd = -1;
    if (e->gpu && use_slot)
        cpu_slot_acquire(&k->slot);
    k->t0 = kit_now();
    k->s = proc_start(argv, &o, -1, &k->r); /* NULL: r says why (checker_finish) */
    return k;
}

int checker_ended(checker_run *k) { return !k || proc_exited(k->s); }

/* Ends the checker's process (CHECKER_TIMEOUT from its start), frees its
 * slot; its result stays in k->r. */
static void checker_end(checker_run *k)
{
    double left = CHECKER_TIMEOUT - (kit_now() - k->t0);
    proc_end(k->s, left > 0.001 ? left : 0.001);
    k->s = NULL;
    cpu_slot_release(&k->slot);
}

double checker_finish(checker_run *k, outcome *c)
{
    if (!k) {
        sb_add(&c->text, "internal error: the lab's checker could not start: out of memory\n");
        c->pass = 0;
        return 0;
    }
    checker_end(k);
    double seconds = kit_now() - k->t0;
    cJSON *v = proc_ok(&k->r) ? cJSON_Parse(sb_str(&k->r.out)) : NULL;
    if (!v) {
        strbuf d;
        sb_init(&d);
        proc_describe(&k->r, &d);
        sb_printf(&c->text, "internal error: the lab's checker %s\n", sb_str(&d));
        add_tail(&c->text, &k->r.err, 5, "  ");
        sb_free(&d);
        c->pass = 0;
    } else {
        read_verdict(v, c);
        cJSON_Delete(v);
    }
    proc_result_free(&k->r);
    free(k);
    return seconds;
}

void checker_cancel(checker_run *k)
{
    if (!k)
        return;
    proc_kill(k->s);
    checker_end(k);
    proc_result_free(&k->r);
    free(k);
}

void run_checker(const engine *e, const workdirs *w, const char *params, uint64_t seed, uint64_t nonce, int use_slot,
                 outcome *c)
{
    checker_finish(checker_start(e, w, params, seed, nonce, use_slot), c);
}

int check_settle(outcome *c, int wait)
{
    if (!c || !c->check)
        return 0;
    if (!wait && !checker_ended(c->check))
        return 1;
    c->check_s = checker_finish(c->check, c);
    c->check = NULL;
    return 0;
}

/* The checkers still running beside the grading's other work (the early
 * tests' last cases, the correctness runs checked beside the next cases):
 * each whose end is seen (wait: each) waited for, its verdict into its
 * outcome; how many still run. */
static int checks_end(grading *g, int wait)
{
    int running = 0;
    for (int i = 0; i < g->n_early; i++) {
        early_perf *ep = &g->early[i];
        running += check_settle(ep->n_run > 0 ? &ep->cases[ep->n_run - 1] : NULL, wait);
    }
    for (int i = 0; i < MAX_CHECKS_BESIDE; i++)
        running += check_settle(g->beside[i], wait);
    return running;
}

int checks_beside(grading *g) { return checks_end(g, 0); }

void checks_settle(grading *g) { checks_end(g, 1); }

/* Why a runner process did not finish normally, in the student's terms. */
void describe_run_failure(const engine *e, const proc_result *r, strbuf *b)
{
    strbuf d;
    sb_init(&d);
    proc_describe(r, &d);
    if (r->timed_out)
        sb_printf(b, "the run was %s (an endless loop on the host, outside your functions?)\n", sb_str(&d));
    else if (r->disk_exceeded)
        sb_printf(b, "the run was %s\n", sb_str(&d));
    else if (r->exited && r->exit_code == KIT_EXIT_CUDA_CHECK)
        sb_printf(b, "a CUDA call in your code failed (CUDA_CHECK):\n");
    else if (r->exited && r->exit_code == KIT_EXIT_STUDENT_CUDA)
        sb_printf(b, "your code left a CUDA error behind:\n");
    else if (r->exited && r->exit_code == KIT_EXIT_TIMED_NO_KERNEL)
        sb_printf(b, "not timed: a timed call of your function launched no kernel:\n");
    else
        sb_printf(b, "the program %s\n", sb_str(&d));
    if (r->signaled && r->signal == SIGXFSZ)
        sb_printf(b, "  (a file may have at most %ld MB)\n", e->rub.file_mb);
    add_tail(b, &r->err, 6, "  ");
    if (r->out_capped || r->err_capped)
        sb_printf(b, "  (output capped: %zu bytes written; the first %ld KiB of stdout and the first and last %ld KiB "
                     "of stderr kept)\n",
                  r->out_total + r->err_total, e->rub.output_kb, e->rub.output_kb / 2);
    sb_free(&d);
}

/* The runner's result file, as the checker will open it: a regular file,
 * not a link or a FIFO the submission put in its place (every process of
 * the run is gone by now, so it cannot change any more). */
static int regular_result(const char *out, strbuf *why)
{
    struct stat st;
    if (lstat(out, &st) != 0)
        return 1; /* missing: the checker says so in its own words */
    if (S_ISREG(st.st_mode))
        return 1;
    sb_printf(why, "the result file out.bin was replaced by %s: only the kit's runner writes it (the run does not "
                   "count)\n",
              S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO" : "something not a regular file");
    return 0;
}

int result_file_ok(const workdirs *w, strbuf *why)
{
    char out[2200];
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    return regular_result(out, why);
}

int result_finished(const engine *e, const char *out, uint64_t nonce, strbuf *why)
{
    if (!regular_result(out, why))
        return 0;
    char err[256];
    kit_blobfile *b = kit_blob_load(out, nonce, (uint64_t)(e->rub.file_mb + 1) << 20, err, sizeof err);
    char *status = b ? kit_blob_text(b, KIT_KEY_RUNNER_STATUS) : NULL;
    int ok = status && !strcmp(status, KIT_RUNNER_OK);
    if (!ok)
        sb_printf(why, "the program exited without finishing its work (%s): the test counts only a complete run\n",
                  b ? "its result file is incomplete" : err);
    free(status);
    kit_blob_free(b);
    return ok;
}

/* Did the runner finish its work (its own result file, complete)? */
int run_finished(const engine *e, const workdirs *w, uint64_t nonce, strbuf *why)
{
    char out[2200];
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    return result_finished(e, out, nonce, why);
}

/* CUDA's words for a full GPU (cudaErrorMemoryAllocation), in the run's output. */
int mentions_out_of_memory(const proc_result *r)
{
    return strstr(sb_str(&r->err), "out of memory") || strstr(sb_str(&r->out), "out of memory");
}

/* The checker reads stdout from a file (lab01 judges printed lines),
 * written where the submission cannot reach: the run folder is the
 * submission's, and a symbolic link planted there (stdout.txt ->
 * /etc/passwd) must not make the grader write through it. */
int write_run_stdout(const workdirs *w, const char *data, size_t len, strbuf *why)
{
    const char *sout = w->sout;
    if (unlink(sout) != 0 && errno != ENOENT) {
        sb_printf(why, "internal error: cannot remove %s: %s\n", sout, strerror(errno));
        return -1;
    }
    int fd = open(sout, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t done = 0;
    while (fd >= 0 && done < len) {
        ssize_t k = write(fd, data + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    int e = fd < 0 || done < len ? errno : 0;
    if (fd >= 0 && close(fd) != 0 && !e)
        e = errno;
    if (fd < 0 || done < len || e) {
        sb_printf(why, "internal error: cannot write the run's output for the checker to %s: %s\n", sout, strerror(e));
        return -1;
    }
    return 0;
}

int sanitizer_argv(const grading *g, const rubric_test *t, const char *const runner_args[], const char **argv, int max)
{
    int n = 0;
    argv[n++] = g->e->conf.compute_sanitizer;
    argv[n++] = "--tool";
    argv[n++] = t->tool;
    argv[n++] = "--error-exitcode";
    argv[n++] = "99";
    argv[n++] = "--print-limit";
    argv[n++] = "200";
    if (!strcmp(t->tool, "memcheck"))
        argv[n++] = "--leak-check", argv[n++] = "no";
    int program = n;
    for (int i = 0; runner_args[i] && n < max - 1; i++)
        argv[n++] = runner_args[i];
    /* synccheck runs the barrier-checked build of the same files (build.c) */
    if (!strcmp(t->tool, "synccheck") && g->barriers > 0 && n > program)
        argv[program] = g->barrier_runner;
    argv[n] = NULL;
    return n;
}

int sanitizer_errors(const rubric_test *t, const proc_result *r, san_report *rep)
{
    sanitizer_parse(sb_str(&r->out), r->out.len, rep);
    sanitizer_parse(sb_str(&r->err), r->err.len, rep);
    /* racecheck's warnings are hazards that only warp-synchronous execution
     * would hide - which Volta's independent thread scheduling ended: bugs. */
    int errors = san_error_count(rep);
    if (!strcmp(t->tool, "racecheck"))
        for (int i = 0; i < rep->n; i++)
            errors += rep->items[i].warning;
    return errors;
}

int test_wanted(const engine *e, const rubric_test *t)
{
    if (e->only_test) /* "name" or "name,name,..." */
        return kit_list_has(e->only_test, t->name);
    return !e->student_mode || t->vis == VIS_VISIBLE;
}
