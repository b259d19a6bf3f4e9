/* kinds.c - what a test of each kind runs and how its result is made:
 * correctness (its cases in the case server, each checker maybe beside the
 * next cases), sanitizer (a session's clean report, else case by case),
 * performance (timed runs, the geometric mean of the speedups against the
 * rubric's bounds).  engine.c runs the rubric's tests with them. */
#include "grading/engine_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading/build.h"
#include "grading/rerun.h"

#define MAX_FAIL_DETAILS 4 /* failing cases described in full per test */


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
    const rubric_test *t; /* whose run */
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

/* c no longer among the checkers beside (gr->beside): judged or ended. */
static void forget_beside(grading *gr, const outcome *c)
{
    for (int i = 0; i < MAX_CHECKS_BESIDE; i++)
        if (gr->beside[i] == c)
            gr->beside[i] = NULL;
}

/* Run r into the tally and the test's output, its checker's verdict waited
 * for if it still runs; r is freed. */
static void judge_run(grading *gr, const rubric_test *t, test_run *r, run_tally *k, test_result *tr)
{
    outcome *c = &r->c;
    forget_beside(gr, c);
    check_settle(c, 1);
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

/* The grading's correctness runs not judged yet, in order: ring[first], ...
 * (n of them, modulo MAX_CHECKS_BESIDE: a run is judged before a new one
 * would make more).  They are the current test's, then maybe the first runs
 * of the next one, made ahead while the current one's last checkers ran
 * (correctness_runs): `ahead` is that test, ahead_runs how many of its runs
 * were made (or skipped: ahead_skipped as correctness_runs counts it), and
 * ahead_times where their seconds went, for its --timings line. */
struct run_queue {
    test_run ring[MAX_CHECKS_BESIDE];
    int first, n;
    const rubric_test *ahead;
    int ahead_runs, ahead_skipped;
    test_times ahead_times;
};

static test_run *queue_head(struct run_queue *q) { return q->n > 0 ? &q->ring[q->first] : NULL; }

static void queue_pop(struct run_queue *q) { q->first = (q->first + 1) % MAX_CHECKS_BESIDE, q->n--; }

/* The oldest run of q judged (judge_run) and taken out. */
static void judge_oldest(grading *gr, const rubric_test *t, struct run_queue *q, run_tally *k, test_result *tr)
{
    judge_run(gr, t, queue_head(q), k, tr);
    queue_pop(q);
}

/* Run number i of test t (case i / repeat, repetition i % repeat) into
 * the next place of q; *skipped: the rest of the test is not run
 * (skip_after_timeout). */
static void make_run(grading *gr, const rubric_test *t, int i, struct run_queue *q, int *skipped)
{
    const engine *e = gr->e;
    test_run *r = &q->ring[(q->first + q->n++) % MAX_CHECKS_BESIDE];
    r->t = t;
    r->rep = i % t->repeat;
    case_params(t, i / t->repeat, r->params, sizeof r->params);
    r->seed = engine_case_seed(e->seed, t->name, i / t->repeat, r->rep);
    outcome_init(&r->c);
    r->c.defer_check = checks_beside_wanted(gr, t);
    if (t->gpu_alone || !serve_case(gr, t, r->params, r->seed, &r->c)) {
        outcome_free(&r->c); /* a run of its own: checked before the next, in the run folder */
        outcome_init(&r->c);
        run_case(gr, t, r->params, r->seed, 0, &r->c);
    }
    *skipped = skip_after_timeout(t, &r->c);
    serve_sanitizers_poll(gr); /* when the sessions beside finished (--timings) */
}

/* The runs of q not judged, ended (their checkers too) and forgotten. */
static void queue_drop(grading *gr, struct run_queue *q)
{
    for (test_run *r; (r = queue_head(q)) != NULL; queue_pop(q)) {
        forget_beside(gr, &r->c);
        outcome_free(&r->c);
    }
}

void correctness_queue_free(grading *gr)
{
    if (!gr->runs)
        return;
    queue_drop(gr, gr->runs);
    free(gr->runs);
    gr->runs = NULL;
}

/* The test that runs after t (the next wanted one), when it is a
 * correctness test whose checkers run beside its next runs: its first runs
 * may then start while t's last checkers run.  Nothing of t's verdicts
 * changes what its runs do (a call found not to return is known from the
 * run itself, hang.c), and its result is made at its turn as before. */
static const rubric_test *next_beside(const grading *gr, const rubric_test *t)
{
    const rubric *rub = &gr->e->rub;
    for (const rubric_test *n = t + 1; n < rub->tests + rub->n_tests; n++)
        if (test_wanted(gr->e, n))
            return n->kind == KIND_CORRECTNESS && n->repeat > 0 && checks_beside_wanted(gr, n) ? n : NULL;
    return NULL;
}

/* Run number ahead_runs of the next test (next_beside) into q, its seconds
 * kept apart for its own --timings line. */
static void run_ahead(grading *gr, const rubric_test *next, struct run_queue *q)
{
    test_times mine = gr->times;
    gr->times = q->ahead_times;
    q->ahead = next;
    make_run(gr, next, q->ahead_runs++, q, &q->ahead_skipped);
    q->ahead_times = gr->times;
    gr->times = mine;
}

/* The correctness test's runs in order; each run's checker may go on beside
 * the next runs (checks_beside_wanted, at most MAX_CHECKS_BESIDE at once),
 * the last ones beside the first runs of the next test (next_beside); the
 * runs are judged in their order, as their checkers end, so the output is
 * the one of checking each before the next.  A run that hit the time limit
 * skips the rest of an all-or-nothing test (skip_after_timeout). */
static void correctness_runs(grading *gr, const rubric_test *t, test_result *tr, run_tally *k, int *skipped)
{
    if (!gr->runs && !(gr->runs = calloc(1, sizeof *gr->runs))) {
        sb_add(&tr->output, "internal error: out of memory\n");
        return;
    }
    struct run_queue *q = gr->runs;
    int n = t->n_cases * t->repeat, i = 0;
    if (q->ahead == t) { /* made while the test before ended */
        i = q->ahead_runs, *skipped = q->ahead_skipped;
        times_add(&gr->times, &q->ahead_times);
    } else {
        queue_drop(gr, q); /* none: nothing else is made ahead */
    }
    q->ahead = NULL, q->ahead_runs = q->ahead_skipped = 0;
    times_reset(&q->ahead_times);
    for (; i < n; i++) {
        if (*skipped) {
            k->total++, (*skipped)++;
            continue;
        }
        if (q->n == MAX_CHECKS_BESIDE) /* the oldest judged first: its checker waited for */
            judge_oldest(gr, t, q, k, tr);
        make_run(gr, t, i, q, skipped);
        while (queue_head(q) && !queue_head(q)->c.check) /* those checked already, in order */
            judge_oldest(gr, t, q, k, tr);
    }
    const rubric_test *next = next_beside(gr, t);
    while (queue_head(q) && queue_head(q)->t == t) {
        if (next && q->n < MAX_CHECKS_BESIDE && q->ahead_runs < next->n_cases * next->repeat && !q->ahead_skipped)
            run_ahead(gr, next, q); /* a checker's place is free */
        else
            judge_oldest(gr, t, q, k, tr);
        while (queue_head(q) && queue_head(q)->t == t && !queue_head(q)->c.check)
            judge_oldest(gr, t, q, k, tr);
    }
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
void performance_runs(grading *gr, const rubric_test *t, early_perf *ep, int defer_last)
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
void performance_result(const grading *gr, const rubric_test *t, early_perf *ep, test_result *tr)
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

void early_free_cases(early_perf *ep)
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

const test_kind_ops test_kinds[] = {
    [KIND_CORRECTNESS] = {run_correctness, NULL},
    [KIND_SANITIZER] = {run_sanitizer, deny_credit_after},
    [KIND_PERFORMANCE] = {run_performance, NULL},
};
