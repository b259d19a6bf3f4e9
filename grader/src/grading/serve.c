/* serve.c - the correctness cases of one grading in one runner process
 * (and its sanitizer sessions, timing runs through the gate, and the end of
 * all its GPU processes: gpu_release_all).  Uses runs.c only.
 *
 * A new process per case costs a CUDA context (about 0.3 s on an H200)
 * for milliseconds of GPU work.  The runner's `serve` mode (runner_main.cu)
 * runs case after case in one process and context, as a program calls a
 * function many times: the grader sends "run SEED NONCE PARAMS" on a
 * control socket, the runner answers "done" once the case's result file is
 * complete, and the kit's checker judges it: before the next case is sent,
 * or beside the next cases on the files moved out of the run folder
 * (check_served, where the caller asks: kinds.c correctness_runs).
 * The trust model is the one of single runs: the same sandbox and limits,
 * a fresh nonce per case, the separate checker; each case has its own time
 * limit, counted from when it is sent.
 *
 * A case that ends the process (a crash, a CUDA error left behind: the
 * context may be unusable) is run again on its own (run_case), so its
 * verdict and message are exactly those of a single run, and the next case
 * starts a new server; so is a case whose student call returned after its
 * limit (within the grace: a neighbour's load may be to blame), with the GPU
 * to itself.  So is a call that did not return (the server shares the
 * GPU, hang.c): judged once it does not return alone, it is never run
 * again: the next server is told not to make it (--skip-calls)
 * and answers "skipped CALL" for the cases that would.  After MAX_DEATHS
 * crashes in one grading the rest runs case by case.  KIT_SERVE=0 turns the
 * server off (one process per case, and timing runs hold the GPU alone from
 * start to end, as before).
 */
#include "grading/engine_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/util.h"
#include "process/lock.h"
#include "util/fsutil.h"

#define MAX_DEATHS 3
#define READY_TIMEOUT 60 /* seconds for the runner to start (a CUDA context, CUPTI) */
#define EXIT_TIMEOUT 10  /* seconds to exit once told there are no more cases */

struct case_server {
    proc_session *s;
    proc_result r;
    sandboxed sb;
    call_args calls;
    double grace; /* its calls' (call_grace, when it started) */
    int paused; /* stopped between cases, the grading's GPU hold given back (gpu_idle) */
    int hung_up; /* told there are no more cases (serve_done): exits while the rest goes on */
    char out[2200];
};

/* KIT_SERVE_DEBUG=1: what the server does, on stderr (for kit developers). */
static void debug(const char *what, const char *detail)
{
    static int on = -1;
    if (on < 0)
        on = getenv("KIT_SERVE_DEBUG") && strcmp(getenv("KIT_SERVE_DEBUG"), "0") != 0;
    if (on)
        fprintf(stderr, "serve: %.3f %s %s\n", kit_now(), what, detail ? detail : "");
}

int serve_enabled(void)
{
    const char *env = getenv("KIT_SERVE");
    return !(env && !strcmp(env, "0"));
}

static int serve_wanted(const grading *g) { return serve_enabled() && g->serve_deaths < MAX_DEATHS; }

/* CPU-time backstop of the whole process (proc.c sets RLIMIT_CPU from it):
 * every correctness run of the rubric at its time limit. */
static double total_limit(const engine *e)
{
    double sum = 0;
    for (int i = 0; i < e->rub.n_tests; i++) {
        const rubric_test *t = &e->rub.tests[i];
        if (t->kind == KIND_CORRECTNESS)
            sum += run_limit(t, e->rub.call_limit_s, CALL_GRACE) * t->n_cases * (t->repeat > 0 ? t->repeat : 1);
    }
    return sum > 0 ? sum : e->rub.timeout_s;
}

/* Ends the process and forgets it; its result goes to keep (freed by the
 * caller) or is freed here. */
static void server_end(grading *g, proc_result *keep)
{
    struct case_server *srv = g->server;
    if (!srv)
        return;
    if (srv->paused)
        proc_signal(srv->s, SIGCONT);
    proc_end(srv->s, EXIT_TIMEOUT);
    strbuf d;
    sb_init(&d);
    proc_describe(&srv->r, &d);
    debug("closed:", sb_str(&d));
    sb_free(&d);
    if (keep)
        *keep = srv->r;
    else
        proc_result_free(&srv->r);
    free(srv);
    g->server = NULL;
}

static void server_close(grading *g) { server_end(g, NULL); }

/* A process that ended mid-case: its cases go on case by case from here. */
static void server_died(grading *g)
{
    g->serve_deaths++;
    server_close(g);
}

static int server_start(grading *g)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    struct case_server *srv = calloc(1, sizeof *srv);
    if (!srv)
        return -1;
    if (clean_run_dir(e, w) != 0) { /* the case runs on its own, which says why */
        free(srv);
        return -1;
    }
    g->server = srv;
    snprintf(srv->out, sizeof srv->out, "%s/out.bin", w->run);
    const char *argv[16] = {w->runner, "serve", "--ctl-fd", KIT_CTL_FD_S, "--out", srv->out};
    srv->grace = call_grace(g, 0);
    add_call_args(g, 0, srv->grace, &srv->calls, argv, 6); /* each case line says its own limit */
    sandboxed_init(&srv->sb, e, total_limit(e), w->run, w->run, w->run, w->bin, NULL);
    gpu_share(g);
    double t0 = kit_now();
    srv->s = proc_start(argv, &srv->sb.o, KIT_CTL_FD, &srv->r);
    char line[64];
    int got = srv->s ? proc_receive(srv->s, READY_TIMEOUT, line, sizeof line) : -2;
    g->times.start += kit_now() - t0;
    debug("start", got == 1 ? line : got == 0 ? "(exited)" : "(killed or not started)");
    if (got != 1 || strcmp(line, KIT_SERVE_READY) != 0) {
        server_died(g);
        return -1;
    }
    return 0;
}

/* The line that sends one case to a serving runner (runner_main.cu serve()). */
static void case_line(char *msg, size_t len, uint64_t seed, uint64_t nonce, double limit, const char *params)
{
    snprintf(msg, len, KIT_SERVE_RUN " 0x%llx %llu %.3f %s\n", (unsigned long long)seed, (unsigned long long)nonce,
             limit, params);
}

/* "skipped CALL": the case's call did not return before; its name, or NULL. */
static const char *skipped_call(const char *line)
{
    size_t n = strlen(KIT_SERVE_SKIPPED);
    return !strncmp(line, KIT_SERVE_SKIPPED, n) && line[n] == ' ' ? line + n + 1 : NULL;
}

/* The server ended mid-case: a call that did not return, one that overran,
 * or a crash runs again on its own (0); 1 (c filled) only where hang_judge
 * gives a verdict, which it does not for a run that shared the GPU: a
 * server always does (its grading's sanitizer runs at least). */
static int server_ended(grading *g, const rubric_test *t, const char *params, uint64_t seed, outcome *c)
{
    proc_result r;
    server_end(g, &r);
    kit_hang_record h;
    int judged = 0;
    if (run_hung(&r, g->w.run, &h)) {
        judged = hang_judge(g, t, params, seed, &h, 1, 0, c);
        g->next_alone = !judged; /* too short a limit, or a shared GPU: again, alone */
        if (judged)
            serve_sanitizers_restart(g);
    } else {
        g->next_alone = rerun_alone_after(g->e, &r) || r.timed_out;
        if (!g->next_alone)
            g->serve_deaths++; /* crashes: after MAX_DEATHS no more servers */
    }
    proc_result_free(&r);
    return judged;
}

/* A free place in g->beside, or -1. */
static int beside_slot(const grading *g)
{
    for (int i = 0; i < MAX_CHECKS_BESIDE; i++)
        if (!g->beside[i])
            return i;
    return -1;
}

/* Moves the run's result file out of the run folder, where the next case
 * writes its own, into a new folder of the grading's (<work>/check-N, out
 * of the submission's reach like the stdout file: nothing it does later
 * can replace the file there); own's run and sout point into it, and
 * c->check_dir names it.  0, or -1: nothing moved, the run folder's file
 * is checked where it is. */
static int take_result(grading *g, workdirs *own, outcome *c)
{
    char dir[2100], from[2200], to[2200];
    snprintf(dir, sizeof dir, "%s/check-%d", g->w.root, ++g->n_check_dirs);
    rm_rf(dir);
    if (mkdir(dir, 0700) != 0 || !(c->check_dir = strdup(dir))) {
        rmdir(dir);
        return -1;
    }
    snprintf(from, sizeof from, "%s/out.bin", g->w.run);
    snprintf(to, sizeof to, "%s/out.bin", dir);
    if (rename(from, to) != 0 && errno != ENOENT) { /* missing: its checker says so, as for any run */
        free(c->check_dir);
        c->check_dir = NULL;
        rmdir(dir);
        return -1;
    }
    snprintf(own->run, sizeof own->run, "%s", dir);
    snprintf(own->sout, sizeof own->sout, "%s/stdout.txt", dir);
    return 0;
}

/* A served case's stdout and result file, then the kit's checker: beside
 * the next cases when the caller asked (c->defer_check, correctness_runs)
 * and a place in g->beside is free, on the files moved into a folder of
 * their own (the grading keeps its shared hold meanwhile: its next cases
 * use the GPU, so the checker takes no CPU slot, lock.h); else now, on the
 * run folder's, as a single run's checker. */
static void check_served(grading *g, const char *params, uint64_t seed, uint64_t nonce, const char *out, size_t len,
                         outcome *c)
{
    const engine *e = g->e;
    workdirs own = g->w;
    const workdirs *w = &g->w;
    int slot = c->defer_check ? beside_slot(g) : -1;
    if (slot >= 0 && take_result(g, &own, c) == 0)
        w = &own;
    if (write_run_stdout(w, out, len, &c->text) != 0 || !result_file_ok(w, &c->text)) {
        c->pass = 0;
    } else if (w == &own) {
        c->check = checker_start(e, w, params, seed, nonce, 0);
        if (c->check)
            g->beside[slot] = c;
        else
            checker_finish(NULL, c);
    } else {
        double tc = kit_now();
        run_checker(e, w, params, seed, nonce, gpu_idle(g), c);
        g->times.checks += kit_now() - tc, g->times.n_checks++;
    }
}

int serve_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, outcome *c)
{
    const workdirs *w = &g->w;
    if (!g->server && (!serve_wanted(g) || server_start(g) != 0))
        return 0;
    struct case_server *srv = g->server;
    if (srv->hung_up) { /* told it was done: a new one */
        server_close(g);
        if (!serve_wanted(g) || server_start(g) != 0)
            return 0;
        srv = g->server;
    }
    if (srv->paused) { /* the GPU again, then the server (it may wait behind timing runs) */
        gpu_share(g);
        proc_signal(srv->s, SIGCONT);
        srv->paused = 0;
    }
    unlink(srv->out); /* as root: whatever the last case left there, a planted link too */
    char hang_file[2300];
    snprintf(hang_file, sizeof hang_file, "%s/%s", w->run, KIT_HANG_FILE);
    unlink(hang_file);
    uint64_t nonce = random_nonce();
    size_t off = proc_stdout_len(srv->s);
    size_t total_before = srv->r.out_total;
    char msg[2200], line[128];
    double limit = call_limit(g, params);
    case_line(msg, sizeof msg, seed, nonce, limit, params);
    debug("send", params);
    double t0 = kit_now();
    int sent = proc_send(srv->s, msg);
    int got = sent == 0 ? proc_receive(srv->s, run_limit(t, limit, srv->grace), line, sizeof line) : 0;
    times_run(&g->times, kit_now() - t0, params);
    debug(sent != 0 ? "not sent" : got == 1 ? "answer" : got == 0 ? "exited" : "killed", got == 1 ? line : NULL);
    const char *skipped = got == 1 ? skipped_call(line) : NULL;
    if (skipped) {
        hang_skipped(g, skipped, c);
        return 1;
    }
    /* Ended (a call over its limit, a crash), killed (its backstop, a flood
     * of files), or not the protocol's word: a hang is judged now; the rest
     * runs again on its own, and decides there. */
    if (got != 1 || strcmp(line, KIT_SERVE_DONE) != 0)
        return server_ended(g, t, params, seed, c);
    /* stdout of this case: what came since it was sent (cut when the
     * output limit was reached: then run it alone) */
    size_t len = proc_stdout_len(srv->s);
    if (srv->r.out_total - total_before != len - off)
        return 0;
    check_served(g, params, seed, nonce, sb_str(&srv->r.out) + off, len - off, c);
    return 1;
}

/* A sanitizer test's cases in one compute-sanitizer process around the
 * runner's serve mode, started early (serve_sanitizer_start: right after
 * the build, in a folder of its own) so that it runs while the correctness
 * cases do; every case is sent at once and answered in turn.  When a call
 * does not return in a correctness run, every session not yet judged starts
 * again with that call in --skip-calls (serve_sanitizers_restart): its
 * cases that would make the call are answered "skipped", so a session's
 * verdicts never depend on how far it had got when the call was found. */
struct san_session {
    const rubric_test *t;
    proc_session *s;
    proc_result r;
    sandboxed sb;
    int sent;
    uint64_t last_nonce; /* the last case's: its result file is the one left */
    int ready, answered; /* its "ready", and the cases answered so far (in order) */
    int broke;           /* another word came, or none in time */
    san_case *cases;     /* per case: SAN_CLEAN once answered "done" (until the report is read), SAN_SKIPPED */
    call_args calls;
    double limit;
    double seconds; /* from its start until collected at its test's turn (--timings) */
    double t0, done_s; /* its start; seconds from it until every case was seen answered (0: not yet) */
    int slot;       /* its index in g->sanitizers and its folder's number */
    int ended, clean; /* collected before its turn, every case answered (sanitizers_stop): san_finish's
                         verdict, its cases' in cases */
    char dir[2200], out[2300];
};

/* Sends case i of the session's test. */
static int san_send(const grading *g, struct san_session *ss, int i)
{
    char params[1024], msg[2200];
    case_params(ss->t, i, params, sizeof params);
    ss->last_nonce = random_nonce();
    case_line(msg, sizeof msg, engine_case_seed(g->e->seed, ss->t->name, i, 0), ss->last_nonce,
              sanitizer_call_limit(ss->t), params);
    if (proc_send(ss->s, msg) != 0)
        return -1;
    ss->sent++;
    return 0;
}

/* A session of test t in folder san-<slot>; send_all: every case sent now. */
static struct san_session *san_start(grading *g, const rubric_test *t, int slot, int send_all)
{
    const engine *e = g->e;
    const workdirs *w = &g->w;
    struct san_session *ss = calloc(1, sizeof *ss);
    if (!ss || !(ss->cases = calloc((size_t)t->n_cases + 1, sizeof *ss->cases))) {
        free(ss);
        return NULL;
    }
    ss->t = t;
    ss->slot = slot;
    snprintf(ss->dir, sizeof ss->dir, "%s/san-%d", w->root, slot);
    snprintf(ss->out, sizeof ss->out, "%s/out.bin", ss->dir);
    rm_rf(ss->dir);
    if (mkdirs(ss->dir, 0755) != 0 || (e->sb.drop_uid && chown(ss->dir, e->sb.uid, e->sb.gid) != 0)) {
        free(ss->cases);
        free(ss);
        return NULL;
    }
    const char *serve_args[16] = {w->runner, "serve", "--ctl-fd", KIT_CTL_FD_S, "--no-trace", "--out", ss->out};
    add_call_args(g, 0, 1, &ss->calls, serve_args, 7); /* each case line says its limit */
    const char *argv[40];
    sanitizer_argv(g, t, serve_args, argv, 40);
    ss->limit = t->timeout_s > 0 ? t->timeout_s : e->rub.sanitizer_timeout_s;
    sandboxed_init(&ss->sb, e, ss->limit * (t->n_cases + 1), ss->dir, ss->dir, ss->dir, w->bin, w->src);
    ss->sb.o.out_cap = 4u << 20; /* the sanitizer's report, not the program's flood */
    gpu_share(g);
    ss->t0 = kit_now();
    ss->s = proc_start(argv, &ss->sb.o, KIT_CTL_FD, &ss->r);
    for (int i = 0; send_all && ss->s && i < t->n_cases && san_send(g, ss, i) == 0; i++) {
    }
    debug("sanitizer started", t->name);
    return ss;
}

void serve_sanitizer_start(grading *g, const rubric_test *t)
{
    const engine *e = g->e;
    if (!serve_wanted(g) || !e->conf.compute_sanitizer[0] || g->n_sanitizers >= MAX_SAN_SESSIONS)
        return;
    struct san_session *ss = san_start(g, t, g->n_sanitizers, 1);
    if (ss)
        g->sanitizers[g->n_sanitizers++] = ss;
}

/* Reads one answer of the session ("ready", then "done" or "skipped CALL"
 * per case, in order) within timeout (0: only one already there): 1 when
 * one came; 0 when none did or another word came (then ss->broke). */
static int san_answer(struct san_session *ss, double timeout)
{
    char line[128];
    int got = timeout > 0 ? proc_receive(ss->s, timeout + (ss->ready ? 0 : READY_TIMEOUT), line, sizeof line)
                          : proc_poll(ss->s, line, sizeof line);
    if (got != 1) {
        ss->broke = timeout > 0;
        return 0;
    }
    const char *skipped = skipped_call(line);
    if (!ss->ready && !strcmp(line, KIT_SERVE_READY)) {
        ss->ready = 1;
    } else if (ss->ready && ss->answered < ss->t->n_cases && (skipped || !strcmp(line, KIT_SERVE_DONE))) {
        san_case *c = &ss->cases[ss->answered++];
        c->state = skipped ? SAN_SKIPPED : SAN_CLEAN;
        if (skipped)
            snprintf(c->call, sizeof c->call, "%.63s", skipped);
    } else {
        ss->broke = 1;
        return 0;
    }
    return 1;
}

/* Reads the session's answers until all came (1), or one did not come
 * within timeout or another word came (0, ss->broke); timeout 0: only
 * those already there. */
static int san_answers(struct san_session *ss, double timeout)
{
    while (ss->s && !ss->broke && !(ss->ready && ss->answered == ss->t->n_cases))
        if (!san_answer(ss, timeout))
            break;
    return ss->ready && ss->answered == ss->t->n_cases;
}

/* Has the session answered every case, sent all (within timeout; 0: only
 * the answers already there)? */
static int san_all_answered(struct san_session *ss, double timeout)
{
    return ss->s && ss->sent == ss->t->n_cases && san_answers(ss, timeout);
}

/* Ends a session; into cases (t->n_cases) what it decided per case: its
 * cases answered "skipped" fail with that one line (SAN_SKIPPED); the
 * others are clean (SAN_CLEAN) when every case was answered, the report is
 * clean and the last case's result file is still the runner's, complete (a
 * submission that replaces it, with a link or a FIFO say, gets no credit
 * from a clean report: its cases run one by one, each judged like a single
 * run), else they run one by one (SAN_RUN).  1 when every case is clean. */
static int san_finish(const engine *e, struct san_session *ss, san_case *cases)
{
    int n = ss->t->n_cases;
    int all = san_all_answered(ss, ss->limit);
    if (all && !ss->done_s) /* seen only now: at most this long */
        ss->done_s = kit_now() - ss->t0;
    proc_end(ss->s, ss->limit);
    ss->s = NULL;
    ss->seconds = ss->r.seconds;
    san_report rep;
    san_report_init(&rep);
    int errors = sanitizer_errors(ss->t, &ss->r, &rep);
    strbuf why;
    sb_init(&why);
    int clean = all && proc_ok(&ss->r) && errors == 0 && !rep.tool_failed &&
                (ss->cases[n - 1].state == SAN_SKIPPED || result_finished(e, ss->out, ss->last_nonce, &why));
    int all_clean = 1;
    for (int i = 0; i < n; i++) {
        cases[i] = ss->cases[i];
        if (cases[i].state == SAN_CLEAN && !clean)
            cases[i].state = SAN_RUN;
        all_clean &= cases[i].state == SAN_CLEAN;
    }
    sb_free(&why);
    san_report_free(&rep);
    proc_result_free(&ss->r);
    rm_rf(ss->dir);
    debug(all_clean ? "sanitizer clean" : "sanitizer not clean: case by case", ss->t->name);
    return all_clean;
}

static void san_free(struct san_session *ss)
{
    free(ss->cases);
    free(ss);
}

void serve_sanitizers_restart(grading *g)
{
    for (int i = 0; i < g->n_sanitizers; i++) {
        struct san_session *ss = g->sanitizers[i];
        if (!ss)
            continue; /* judged already, in the rubric's order before the call was found */
        if (!ss->ended) {
            san_case *scratch = calloc((size_t)ss->t->n_cases + 1, sizeof *scratch);
            proc_kill(ss->s);
            san_finish(g->e, ss, scratch ? scratch : ss->cases);
            free(scratch);
        }
        const rubric_test *t = ss->t;
        san_free(ss);
        g->sanitizers[i] = san_start(g, t, i, 1);
        debug("sanitizer started again, with the calls that did not return skipped:", t->name);
    }
}

/* The index of test t's session in g->sanitizers, or -1. */
static int san_find(const grading *g, const rubric_test *t)
{
    for (int i = 0; i < g->n_sanitizers; i++)
        if (g->sanitizers[i] && g->sanitizers[i]->t == t)
            return i;
    return -1;
}

/* A sanitizer test at its turn (no session beside the correctness tests):
 * its cases one at a time in one session, the grading's GPU hold given back
 * between them (gpu_idle: the session waits idle for its next case), so
 * that the timing runs queued meanwhile go first, not after every case. */
static int san_stepwise(grading *g, const rubric_test *t, san_case *cases)
{
    struct san_session *ss = san_start(g, t, g->n_sanitizers, 0);
    if (!ss)
        return 0;
    if (ss->s && !san_answer(ss, READY_TIMEOUT))
        ss->broke = 1;
    for (int i = 0; ss->s && !ss->broke && i < t->n_cases; i++) {
        gpu_share(g);
        if (san_send(g, ss, i) != 0 || !san_answer(ss, ss->limit))
            ss->broke = 1;
        gpu_idle(g);
    }
    int clean = san_finish(g->e, ss, cases);
    times_run(&g->times, ss->seconds, "its cases one at a time");
    san_free(ss);
    return clean;
}

int serve_sanitizer_clean(grading *g, const rubric_test *t, san_case *cases)
{
    memset(cases, 0, (size_t)t->n_cases * sizeof *cases);
    if (!g->e->sanitizers_beside && serve_wanted(g) && g->e->conf.compute_sanitizer[0])
        return san_stepwise(g, t, cases);
    int k = san_find(g, t);
    if (k < 0) { /* not started early: now */
        serve_sanitizer_start(g, t);
        k = san_find(g, t);
        if (k < 0)
            return 0;
    }
    struct san_session *ss = g->sanitizers[k];
    g->sanitizers[k] = NULL;
    int clean = ss->ended ? ss->clean : san_finish(g->e, ss, cases);
    if (ss->ended)
        memcpy(cases, ss->cases, (size_t)t->n_cases * sizeof *cases);
    char what[96] = "all cases, beside the correctness tests";
    if (ss->done_s > 0)
        snprintf(what, sizeof what, "all cases, beside the correctness tests; all answered after %.2f s", ss->done_s);
    times_run(&g->times, ss->seconds, what);
    san_free(ss);
    return clean;
}

/* Ends the sanitizer processes not waited for: a session that has answered
 * every case ends as at its turn (told it is done), its verdict kept for
 * that turn (a run that takes the GPU alone meanwhile, lab11's overlap
 * test, does not cost it a second session); the others are killed (a
 * grading cut short, or a session whose test starts it again at its turn).
 * keep 0: every session forgotten (the grading's end). */
static void sanitizers_stop(grading *g, int keep)
{
    int kept = 0;
    for (int i = 0; i < g->n_sanitizers; i++) {
        struct san_session *ss = g->sanitizers[i];
        if (!ss)
            continue;
        if (keep && (ss->ended || san_all_answered(ss, 0))) {
            if (!ss->ended)
                ss->clean = san_finish(g->e, ss, ss->cases), ss->ended = 1;
            kept++;
            continue;
        }
        proc_kill(ss->s);
        if (!ss->ended)
            san_finish(g->e, ss, ss->cases);
        san_free(ss);
        g->sanitizers[i] = NULL;
    }
    if (!kept)
        g->n_sanitizers = 0;
}

void serve_sanitizers_poll(grading *g)
{
    for (int i = 0; i < g->n_sanitizers; i++) {
        struct san_session *ss = g->sanitizers[i];
        if (ss && !ss->done_s && san_all_answered(ss, 0)) {
            ss->done_s = kit_now() - ss->t0;
            /* every case answered: it ends now (compute-sanitizer's last
             * report, the context's teardown) beside the correctness runs,
             * under their GPU hold, not when collected at its test's turn */
            proc_hang_up(ss->s);
        }
    }
}

void serve_done(grading *g)
{
    struct case_server *srv = g->server;
    if (!srv || srv->paused || srv->hung_up || g->shared_held != 1)
        return;
    proc_hang_up(srv->s);
    srv->hung_up = 1;
    debug("told it is done", NULL);
}

int serve_sanitizers_running(const grading *g)
{
    for (int i = 0; i < g->n_sanitizers; i++)
        if (g->sanitizers[i] && !g->sanitizers[i]->ended)
            return 1;
    return 0;
}

/* Nothing of the grading uses the GPU while its checker runs (the checker
 * is CPU work, seconds for large cases), unless a sanitizer session runs
 * beside: then the case server is sent SIGSTOP and the shared hold given
 * back, so that timing runs queued behind it go first; the next case takes
 * both again.  The signal goes to the server's process group: without the
 * sandbox that is the runner; under bubblewrap (--new-session) only bwrap
 * stops, and the runner, waiting for its next case line, launches nothing
 * of the kit's meanwhile (what a student's call left running it cannot stop). */
int gpu_idle(grading *g)
{
    if (g->shared_held != 1 || serve_sanitizers_running(g))
        return 0;
    /* a checker beside holds this grading's CPU slot: the next checker must
     * not wait for another one, so it runs under the hold kept (lock.h) */
    if (checks_beside(g) > 0)
        return 0;
    if (g->server && g->server->hung_up) /* its exit under the hold, as every end of a GPU process */
        server_close(g);
    if (g->server && !g->server->paused) {
        proc_signal(g->server->s, SIGSTOP);
        g->server->paused = 1;
    }
    gpu_unshare(g);
    return 1;
}

void gpu_release_all(grading *g)
{
    checks_settle(g); /* their slots free before any wait for the GPU or a slot */
    server_close(g);
    sanitizers_stop(g, 1);
    gpu_unshare(g);
}

void serve_forget_all(grading *g) { sanitizers_stop(g, 0); }

/* A timing run that holds the GPU alone only while it times: it starts
 * sharing the GPU like a correctness run (inputs, the untimed call, copies
 * of results), and its timing loop asks for the GPU alone through the
 * runner's gate descriptor (runner_main.cu --gate-fd).  A batch's other
 * submissions build, generate inputs and check results meanwhile; the lock
 * (lock.h) still keeps every other GPU run out of the timed loop.  Waiting
 * for the lock is not part of the time limit. */
void run_gated(grading *g, const char *const argv[], const sandboxed *sb, double limit, int host_alone,
               proc_result *r, double *waited_s)
{
    const engine *e = g->e;
    gpu_unshare(g); /* its own holds, one at a time */
    cpu_slot_all slots = {0};
    gpu_lock lock;
    int locked = gpu_lock_acquire(&lock, e->gpu_uuid, 0, e->log) == 0;
    *waited_s += locked ? lock.waited_s : 0;
    proc_session *s = proc_start(argv, &sb->o, KIT_CTL_FD, r);
    double left = limit, alone_since = 0;
    while (s) {
        char line[64];
        double t0 = kit_now();
        int got = proc_receive(s, left > 0.001 ? left : 0.001, line, sizeof line);
        left -= kit_now() - t0;
        if (got != 1)
            break;
        int alone = !strcmp(line, KIT_GATE_EXCLUSIVE);
        if (!alone && strcmp(line, KIT_GATE_SHARED) != 0) { /* not the gate's words: the run ends here */
            proc_kill(s);
            break;
        }
        if (!alone && locked && lock.exclusive) { /* back to sharing: no wait behind queued timing runs */
            gpu_lock_share(&lock);
        } else {
            if (locked)
                gpu_lock_release(&lock);
            double t_slots = kit_now();
            /* the CPU slots first (none is waited for under a GPU lock), once:
             * a runner asking twice already holds them */
            if (alone && host_alone && e->gpu && slots.n == 0)
                cpu_slots_acquire_all(&slots);
            *waited_s += kit_now() - t_slots;
            locked = gpu_lock_acquire(&lock, e->gpu_uuid, alone, e->log) == 0;
            *waited_s += locked ? lock.waited_s : 0;
        }
        if (!alone)
            cpu_slots_release_all(&slots);
        debug(alone ? "gate: alone" : "gate: shared", NULL);
        if (alone_since > 0)
            g->times.alone += kit_now() - alone_since;
        alone_since = alone ? kit_now() : 0;
        if (proc_send(s, alone ? KIT_GATE_GO "\n" : KIT_GATE_OK "\n") != 0)
            break;
    }
    proc_end(s, left > 1 ? left : 1);
    if (alone_since > 0)
        g->times.alone += kit_now() - alone_since;
    if (locked)
        gpu_lock_release(&lock);
    cpu_slots_release_all(&slots);
}
