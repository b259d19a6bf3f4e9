/* cases.c - one run of one case on its own: the submission's runner (or
 * compute-sanitizer around it) in the sandbox, then the kit's checker.
 * Uses runs.c and serve.c (the gate, the end of the grading's other GPU
 * processes before it takes the GPU alone); engine.c calls it. */
#include "grading/engine_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/util.h"
#include "process/lock.h"
#include "grading/sanitizer.h"

/* The GPU to this grading alone: its other GPU processes end first, and
 * its shared hold with them (a later run takes it again).  Waiting for the
 * lock is no part of any time limit: a run's limit starts when it does. */
int gpu_take_alone(grading *g, gpu_lock *lock, double *waited_s)
{
    gpu_release_all(g);
    int locked = gpu_lock_acquire(lock, g->e->gpu_uuid, 1, g->e->log) == 0;
    *waited_s += locked ? lock->waited_s : 0;
    return locked;
}

/* One run of argv: sharing the GPU (the grading's one shared hold), or with
 * the GPU to itself (gpu_take_alone); host_alone: and the machine's CPU
 * slots too, taken before the GPU (lock.h). */
static void run_sharing_or_alone(grading *g, const char *const argv[], const proc_opts *o, int alone, int host_alone,
                                 proc_result *r, double *waited_s)
{
    if (!alone) {
        gpu_share(g);
        proc_run(argv, o, r);
        return;
    }
    cpu_slot_all slots = {0};
    if (host_alone && g->e->gpu) {
        gpu_release_all(g); /* never wait for a CPU slot while holding a GPU lock */
        double t0 = kit_now();
        cpu_slots_acquire_all(&slots);
        *waited_s += kit_now() - t0; /* as the gated run counts it */
    }
    gpu_lock lock;
    int locked = gpu_take_alone(g, &lock, waited_s);
    proc_run(argv, o, r);
    if (locked)
        gpu_lock_release(&lock);
    cpu_slots_release_all(&slots);
}

/* clean_run_dir failed (errno): the case is not run, and says why. */
static void run_dir_failed(const workdirs *w, outcome *c)
{
    c->pass = 0;
    sb_printf(&c->text, "internal error: cannot prepare the run folder %s: %s\n", w->run, strerror(errno));
}

/* What a run of the runner is told: its seed, a fresh nonce, its result file. */
typedef struct {
    uint64_t nonce;
    char seed[32], nonce_s[32], out[2200];
} run_ids;

/* A run's start: an empty run folder and its ids; 0, or -1 (c says why: the case is not run). */
static int start_run(const grading *g, uint64_t seed, run_ids *id, outcome *c)
{
    if (clean_run_dir(g->e, &g->w) != 0) {
        run_dir_failed(&g->w, c);
        return -1;
    }
    id->nonce = random_nonce();
    snprintf(id->seed, sizeof id->seed, "0x%llx", (unsigned long long)seed);
    snprintf(id->nonce_s, sizeof id->nonce_s, "%llu", (unsigned long long)id->nonce);
    snprintf(id->out, sizeof id->out, "%s/out.bin", g->w.run);
    return 0;
}

int add_bench_args(const rubric_test *t, bench_args *a, const char **argv, int n)
{
    snprintf(a->warmup, sizeof a->warmup, "%d", t->warmup);
    snprintf(a->reps, sizeof a->reps, "%d", t->reps);
    argv[n++] = "--warmup", argv[n++] = a->warmup;
    argv[n++] = "--reps", argv[n++] = a->reps;
    /* The score's bounds, so that the timing stops once they decide it:
     * only where one case's speedup is the score (with several, the
     * geometric mean of them all is, and no one case decides it).  %.17g:
     * the runner reads back the rubric's very numbers. */
    if (t->kind == KIND_PERFORMANCE && t->n_cases == 1) {
        snprintf(a->decided, sizeof a->decided, "%.17g,%.17g", t->min_speedup, t->threshold);
        argv[n++] = "--decided", argv[n++] = a->decided;
    }
    argv[n] = NULL;
    return n;
}

/* One run of the runner for run_case: its command line (bench: the timing
 * loop's counts and the score's bounds; gated and sharing: the gate's fd),
 * in the sandbox, through the gate, sharing the GPU or alone. */
static void run_case_once(grading *g, const rubric_test *t, const char *params, const run_ids *id, int bench,
                          int gated, int alone, double limit, proc_result *r, double *waited_s)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    double grace = call_grace(g, alone);
    const char *argv[32] = {w->runner, bench ? "bench" : "run", "--params", params, "--seed", id->seed,
                            "--nonce", id->nonce_s, "--out", id->out};
    int n = 10;
    bench_args ba;
    if (bench)
        n = add_bench_args(t, &ba, argv, n);
    call_args ca;
    n = add_call_args(g, limit, grace, &ca, argv, n);
    if (!alone && gated) /* the GPU alone for the timing loop only */
        argv[n++] = "--gate-fd", argv[n++] = KIT_CTL_FD_S, argv[n] = NULL;
    sandboxed sb;
    sandboxed_init(&sb, e, run_limit(t, limit, grace), w->run, w->run, w->run, w->bin, NULL);
    int host_alone = bench && t->host_alone;
    if (!alone && gated)
        run_gated(g, argv, &sb, sb.o.timeout_s, host_alone, r, waited_s);
    else
        run_sharing_or_alone(g, argv, &sb.o, alone, host_alone, r, waited_s);
}

/* Whether run_case's run r runs again, alone: 1 (limit: the next run's),
 * 0 to judge it, -1 when a call hung and hang_judge judged the case (r freed).
 * Runs sharing the GPU share its memory: one that ran out of it next to
 * others is rerun once with the GPU to itself, so another submission's
 * memory hog cannot fail it (a hog of its own fails alone as well); so is
 * one whose call overran its limit within the grace (rerun_alone_after).  A
 * timing run that failed while it shared the GPU runs again with the GPU to
 * itself from start to end, whatever the failure: so the gate can cost no
 * verdict.  A call that did not return while the GPU was shared runs again
 * alone; alone, it is judged, never run again (hang.c). */
static int run_again(grading *g, const rubric_test *t, const char *params, uint64_t seed, int alone, int gated,
                     proc_result *r, double *limit, outcome *c)
{
    kit_hang_record h;
    if (run_hung(r, g->w.run, &h)) {
        if (hang_judge(g, t, params, seed, &h, !alone, 0, c)) {
            serve_sanitizers_restart(g);
            times_run(&g->times, r->seconds, params);
            proc_result_free(r);
            return -1;
        }
        *limit = call_limit(g, params); /* cut short, or shared: again, alone, with what the case needs */
        g->next_limit = 0;
        return 1;
    }
    int skipped = r->exited && r->exit_code == KIT_EXIT_SKIPPED;
    return !alone && !skipped &&
           (gated ? !proc_ok(r) : !proc_ok(r) && (rerun_alone_after(g->e, r) || mentions_out_of_memory(r)));
}

/* run_case's last run r judged into c: a skipped call, its stdout, how the
 * process ended, its result file, then the kit's checker. */
static void judge_case_run(grading *g, const char *params, uint64_t seed, uint64_t nonce, const proc_result *r,
                           outcome *c)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    times_run(&g->times, r->seconds, params);
    g->times.waits += c->waited_s;
    c->timed_out = r->timed_out;
    char skipped[64];
    if (skipped_call_of(r, skipped, sizeof skipped)) {
        hang_skipped(g, skipped, c);
    } else if (write_run_stdout(w, sb_str(&r->out), r->out.len, &c->text) != 0) {
        c->pass = 0;
    } else if (!proc_ok(r)) {
        c->pass = 0;
        describe_run_failure(e, r, &c->text);
    } else if (!result_file_ok(w, &c->text)) {
        c->pass = 0;
    } else if (c->defer_check) { /* its verdict when the caller waits for it (checker_finish) */
        c->check = checker_start(e, w, params, seed, nonce, gpu_idle(g) || !g->shared_held);
        if (!c->check)
            checker_finish(NULL, c);
    } else {
        double tc = kit_now();
        int idle = gpu_idle(g);
        run_checker(e, w, params, seed, nonce, idle || !g->shared_held, c);
        g->times.checks += kit_now() - tc, g->times.n_checks++;
    }
}

void run_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, int bench, outcome *c)
{
    run_ids id;
    if (start_run(g, seed, &id, c) != 0)
        return;
    /* A case whose call overran its limit in the case server starts alone,
     * as does every case of a `gpu = alone` test (rubric_test.gpu_alone). */
    int gated = bench && serve_enabled();
    int alone_first = bench ? !gated : g->next_alone || t->gpu_alone;
    g->next_alone = 0;
    double limit = call_limit(g, params);
    g->next_limit = 0;

    proc_result r;
    for (int alone = alone_first;; alone = 1) {
        run_case_once(g, t, params, &id, bench, gated, alone, limit, &r, &c->waited_s);
        int again = run_again(g, t, params, seed, alone, gated, &r, &limit, c);
        if (again < 0)
            return;
        if (!again)
            break;
        proc_result_free(&r);
        if (start_run(g, seed, &id, c) != 0)
            return;
    }
    judge_case_run(g, params, seed, id.nonce, &r, c);
    proc_result_free(&r);
}

/* One finding of compute-sanitizer's report, in the student's terms: what
 * and where (the source line), how many, the note, the other access. */
static void describe_finding(const workdirs *w, const san_finding *f, strbuf *b)
{
    /* racecheck counts hazards; the other tools count reports */
    const char *unit = strstr(f->kind, "race") || strstr(f->kind, "hazard") ? "hazard" : "report";
    if (f->line > 0)
        sb_printf(b, "%s at %s:%d%s%s (%ld %s%s)\n", f->kind, san_basename(f->file), f->line,
                  f->func[0] ? " in " : "", f->func, f->count, unit, f->count == 1 ? "" : "s");
    else
        sb_printf(b, "%s%s%s (%ld %s%s; build with -lineinfo to see the line)\n", f->kind, f->func[0] ? " in " : "",
                  f->func, f->count, unit, f->count == 1 ? "" : "s");
    if (f->warning)
        sb_add(b, "    (a warp-level hazard: threads of one warp are not in lockstep since Volta; "
                  "use __syncwarp() or __syncthreads())\n");
    add_source_line(w, f->file, f->line, b);
    if (f->note[0])
        sb_printf(b, "    (%s)\n", f->note);
    if (f->other_line > 0 && (f->other_line != f->line || strcmp(f->other_file, f->file))) {
        sb_printf(b, "    the other access is at %s:%d\n", san_basename(f->other_file), f->other_line);
        add_source_line(w, f->other_file, f->other_line, b);
    }
}

/* One case under compute-sanitizer. */
void run_sanitizer_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, outcome *c)
{
    engine *e = g->e;
    const workdirs *w = &g->w;
    run_ids id;
    if (start_run(g, seed, &id, c) != 0)
        return;
    const char *run_args[24] = {w->runner, "run", "--no-trace", "--params", params, "--seed", id.seed,
                                "--nonce", id.nonce_s, "--out", id.out};
    call_args ca;
    add_call_args(g, sanitizer_call_limit(t), 1, &ca, run_args, 11);
    const char *argv[40];
    sanitizer_argv(g, t, run_args, argv, 40);

    sandboxed sb;
    sandboxed_init(&sb, e, t->timeout_s, w->run, w->run, w->run, w->bin, w->src);
    sb.o.out_cap = 4u << 20; /* the sanitizer's report, not the program's flood */
    proc_result r;
    kit_hang_record h;
    int hung = 0;
    for (int alone = 0;; alone = 1) {
        run_sharing_or_alone(g, argv, &sb.o, alone, 0, &r, &c->waited_s);
        hung = run_hung(&r, w->run, &h);
        /* compute-sanitizer slows every kernel many times over, more so
         * beside other gradings: a run that reached its backstop while it
         * shared the GPU runs again alone, unless a call did not return */
        if (alone || hung || !(r.timed_out || mentions_out_of_memory(&r)))
            break;
        proc_result_free(&r);
        if (clean_run_dir(e, w) != 0) {
            run_dir_failed(w, c);
            return;
        }
    }
    char skipped[64];
    if (hung || skipped_call_of(&r, skipped, sizeof skipped)) {
        if (hung)
            hang_judge(g, t, params, seed, &h, 0, 1, c);
        else
            hang_skipped(g, skipped, c);
        proc_result_free(&r);
        return;
    }

    san_report rep;
    san_report_init(&rep);
    int errors = sanitizer_errors(t, &r, &rep);
    int count_warnings = !strcmp(t->tool, "racecheck");
    c->timed_out = r.timed_out;
    c->pass = !r.timed_out && r.exited && r.exit_code == 0 && errors == 0 && !rep.tool_failed;
    /* A clean report counts only for a run that did its work: a program
     * that exits 0 before the student's code ran has nothing to check. */
    if (c->pass && !run_finished(e, w, id.nonce, &c->text))
        c->pass = 0;
    if (rep.tool_failed)
        sb_printf(&c->text, "compute-sanitizer could not check this run: %s\n", rep.tool_message);
    for (int i = 0; i < rep.n; i++) {
        const san_finding *f = &rep.items[i];
        if (f->warning && !count_warnings)
            continue;
        describe_finding(w, f, &c->text);
    }
    if (!c->pass && errors == 0 && !rep.tool_failed && !proc_ok(&r)) {
        if (r.exited && r.exit_code == 99)
            sb_printf(&c->text, "compute-sanitizer reported errors (%ld)\n", rep.summary_errors);
        else
            describe_run_failure(e, &r, &c->text);
    }
    san_report_free(&rep);
    proc_result_free(&r);
}
