/* engine_int.h - inside the engine: one grading's state, its work folders,
 * its sandboxed processes and its runs of cases.
 *
 * Seven files, each calling only the ones listed before it (no loop):
 *   runs.c   what every run shares: the sandboxed process, the checker, the
 *            result files, the grading's shared GPU hold, case parameters;
 *   hang.c   a student call's time limit, and a call that did not return:
 *            the verdict, what the case needs, where it waits;
 *   serve.c  many cases in one runner process (the case server, the
 *            sanitizer sessions), timing runs through the gate, and the end
 *            of every GPU process of a grading (gpu_release_all);
 *   cases.c  one run of one case on its own (runner or compute-sanitizer);
 *   build.c  the work folder and the runner's build (build.h);
 *   kinds.c  what a test of each kind runs, and how its result is made;
 *   engine.c the tests of a rubric in their order (the performance tests
 *            first where they may be), the whole grading. */
#ifndef GRADER_ENGINE_INT_H
#define GRADER_ENGINE_INT_H
#include <stdint.h>
#include "grading/timings.h"
#include "grading/engine.h"
#include "kit/protocol.h"
#include "kit/timing_decided.h"
#include "kit/watchdog.h"
#include "process/lock.h"
#include "process/proc.h"
#include "grading/sanitizer.h"
#include "util/strbuf.h"

/* The work folder of one grading: src (the student's files and the kit's
 * headers), lib (kit objects), bin (the runner), run (the runs' folder,
 * the submission's to write), sout (a run's stdout written for the checker,
 * where the submission cannot reach).  A run whose checker goes on beside
 * later runs has a run folder and sout of its own (engine.c). */
typedef struct {
    char root[2048], src[2100], lib[2100], bin[2100], run[2100], runner[2200], sout[2200];
} workdirs;

#define MAX_SAN_SESSIONS 8
#define MAX_HUNG 8        /* calls found not to return, per grading */
#define MAX_BASELINES 64  /* cases whose baseline time a grading measured */

/* A student call that did not return in a run of this grading: its other
 * runs are not made again (the runner's --skip-calls). */
typedef struct {
    char call[64], test[64], params[256];
} hung_call;

/* What the kit's baseline needs for a case on this GPU (hang.c). */
typedef struct {
    char params[256];
    double ms; /* < 0: no time (the lab has no baseline, or it failed) */
} case_baseline;

/* A performance test run before the grading's other tests (engine.c): its
 * cases' outcomes, the last one's checker maybe still running beside those
 * tests (checks_beside); its result is made at its turn in the rubric. */
typedef struct {
    const rubric_test *t;
    struct outcome *cases; /* t->n_cases; the first n_run were run (the runs stop at the first failure) */
    int n_run;
    double waited;    /* for the GPU lock (not timed) */
    double seconds;   /* its runs, before the other tests */
    test_times times; /* where those went (--timings) */
    char run[2100];   /* its run folder and stdout file: its own, as its checker may read them late */
    char sout[2200];
} early_perf;
#define MAX_EARLY 4
/* Correctness runs of one test whose checkers run at once beside the case
 * server's next cases (kinds.c correctness_runs, serve.c): a few, as each checker
 * regenerates its case's inputs and may use every core (OpenMP). */
#define MAX_CHECKS_BESIDE 3

/* One grading of one submission while it runs (engine_grade makes it and
 * ends it): what the engine's configuration and session (engine.h) do not
 * hold.  Nothing of it outlives the grading. */
typedef struct grading {
    engine *e;                  /* the configuration and session it runs in */
    workdirs w;                 /* its work folder */
    /* the builds */
    char build_reused[160];     /* the build came from the cache: what was unchanged; "" built */
    /* The synccheck test's runner, built with kit/barrier_check.cuh (every
     * __syncthreads() of the student's files counts its arrivals): 1 built
     * (barrier_runner is its path), -1 its build failed (barrier_log says
     * why), 0 not built (no synccheck test in this grading). */
    int barriers;
    char barrier_runner[2200];
    char barrier_log[2048];
    /* the GPU */
    gpu_lock shared;            /* its one shared hold of the GPU (gpu_share) */
    int shared_held;            /* 1 held, -1 asked for and not got, 0 not asked */
    struct case_server *server; /* the runner serving its correctness cases (serve.c), or NULL */
    int serve_deaths;           /* server processes that ended mid-case */
    int next_alone;             /* the next run_case starts with the GPU alone (its case hit the
                                   time limit in the case server) */
    struct san_session *sanitizers[MAX_SAN_SESSIONS]; /* sanitizer tests running meanwhile (serve.c) */
    int n_sanitizers;
    /* calls that did not return (hang.c) */
    hung_call hung[MAX_HUNG];
    int n_hung;
    case_baseline baselines[MAX_BASELINES];
    int n_baselines;
    double next_limit;          /* the next run_case's call limit (the last one was too short for its
                                   case), 0: the usual one */
    /* what its tests found, decided on once every test ran */
    int not_own_right, not_own_wrong; /* runs without the student's own kernels, with right / wrong
                                         values (sanitizer credit, kinds.c) */
    test_times times;           /* where the current test's seconds go (timings.h; --timings) */
    early_perf early[MAX_EARLY]; /* the performance tests run first (engine.c) */
    int n_early;
    /* correctness runs whose checkers run beside the next cases (serve.c): their outcomes
     * (run_correctness's, registered until judged), and the folders made for them so far */
    struct outcome *beside[MAX_CHECKS_BESIDE];
    int n_check_dirs;
    struct run_queue *runs; /* correctness runs not judged yet (kinds.c), NULL before the first */
} grading;

/* ---- runs.c: what every run shares ---- */

/* A submission process (build, run, sanitizer run, show): the rubric's
 * limits, a minimal environment (HOME = `home`), `cwd` its working folder,
 * `rw` the one folder it may write (watched for floods), `ro` up to two more
 * folders it may read.  Lives on the caller's stack: o points into it. */
typedef struct {
    proc_opts o;
    const char *rw[2], *ro[3];
    char store[16][512];
    const char *env[16];
    int n_env;
} sandboxed;

void sandboxed_init(sandboxed *s, const engine *e, double timeout, const char *cwd, const char *home, const char *rw,
                    const char *ro1, const char *ro2);
/* One more "NAME=value" in its environment (at most 16 in all). */
void sandboxed_setenv(sandboxed *s, const char *name, const char *value);

/* What one run of one case came to. */
typedef struct outcome {
    int pass;
    int timed_out;   /* killed at the time limit */
    strbuf text;     /* why it failed (several lines), or notes */
    strbuf kernels;  /* "name (grid x block) ms" lines */
    double student_ms, baseline_ms;
    int timed_pairs;   /* bench: calls of each side timed (0: not said) */
    int timed_decided; /* bench: KIT_DECIDED_FULL or _NONE when the timing stopped early, the
                          score decided by the bounds given (kit/timing_decided.h); 0: in full */
    double waited_s; /* for the GPU lock */
    strbuf metrics;  /* "label: value" lines */
    int not_own;     /* the device-execution check failed (no own kernel, library kernels) */
    int elsewhere;   /* ... and the values were right */
    int hung;        /* a student call did not return (hang.c): the run was ended */
    int skipped;     /* its student call was not made: it did not return in an earlier run */
    int defer_check; /* asked by the caller: start the checker and leave it running (check) */
    struct checker_run *check; /* its checker, still running: no verdict yet (checker_finish) */
    double check_s;  /* a checker left running: its seconds, until its end was seen */
    char *check_dir; /* a case server's run checked beside the next cases: the folder holding its
                        result file and stdout (serve.c), removed with the outcome */
} outcome;

void outcome_init(outcome *c);
/* Frees c; a checker of it still running is killed (no one waits for its verdict). */
void outcome_free(outcome *c);

/* The GPU lock of a grading: its correctness and sanitizer runs (the case
 * server, sanitizer processes, single runs) share the GPU under ONE shared
 * hold, taken at the first and kept until a timing run or the end.  Never
 * two holds at once: a shared request waits while a timing run waits for
 * the GPU, and that run would wait for the hold already held. */
void gpu_share(grading *g);
/* Ends the grading's shared hold (its GPU processes must be gone). */
void gpu_unshare(grading *g);
/* Does a run that ended so, while it shared the GPU, run again alone?  (It
 * hit its time limit, and there is a device whose load could be to blame.) */
int rerun_alone_after(const engine *e, const proc_result *r);

/* Does this grading run test t (--test; a student check: the visible tests)? */
int test_wanted(const engine *e, const rubric_test *t);
uint64_t random_nonce(void);
/* The parameters of case i of test t: the test's common ones, then the case's. */
void case_params(const rubric_test *t, int i, char *buf, size_t len);
/* Empties the run folder (owned by the sandbox uid): 0, or -1 (errno says why). */
int clean_run_dir(const engine *e, const workdirs *w);
/* The last `lines` lines of a program's stderr, sanitized and indented. */
void add_tail(strbuf *b, const strbuf *text, int lines, const char *indent);
/* Why a runner process did not finish normally, in the student's terms. */
void describe_run_failure(const engine *e, const proc_result *r, strbuf *b);
/* The runner's result file is a regular file (or missing), not a planted link or FIFO. */
int result_file_ok(const workdirs *w, strbuf *why);
/* Prints line `line` of the student's file (its copy in w->src) under a finding. */
void add_source_line(const workdirs *w, const char *file, int line, strbuf *b);
/* CUDA's words for a full GPU in a run's output. */
int mentions_out_of_memory(const proc_result *r);
/* Runs the kit's checker on a finished run (its outputs in w->run, its
 * stdout in w->sout) and reads its verdict into c.  use_slot: take a CPU
 * slot (lock.h) for it. */
void run_checker(const engine *e, const workdirs *w, const char *params, uint64_t seed, uint64_t nonce, int use_slot,
                 outcome *c);
/* The same in two steps, for a checker that runs beside other work:
 * checker_start starts it (after a CPU slot when use_slot, held until its
 * end: never wait for another slot meanwhile, lock.h); checker_ended says,
 * without a wait, whether it ended; checker_finish waits for it
 * (CHECKER_TIMEOUT from its start), reads its verdict into c as run_checker
 * does, frees k and returns its seconds; checker_cancel kills it.  The
 * files it reads must stay as they are until then. */
typedef struct checker_run checker_run;
checker_run *checker_start(const engine *e, const workdirs *w, const char *params, uint64_t seed, uint64_t nonce,
                           int use_slot);
int checker_ended(checker_run *k);
double checker_finish(checker_run *k, outcome *c);
void checker_cancel(checker_run *k);
/* The checkers of the performance tests run first that still run beside
 * the grading's other work (engine.c): checks_beside waits for those whose
 * end it sees now (their verdicts in, their CPU slots free) and returns how
 * many still run; checks_settle waits for all.  While one runs, the grading
 * holds its CPU slot: it keeps its shared GPU hold (gpu_idle) and ends
 * them before it gives the hold back or waits for a slot (gpu_release_all). */
int checks_beside(grading *g);
void checks_settle(grading *g);
/* c's checker, if one still runs (c->check): its verdict into c and its
 * seconds into c->check_s once its end is seen, or waited for (wait); 1
 * while it still runs. */
int check_settle(outcome *c, int wait);
/* Writes a run's stdout for the checker (w->sout, never through a link):
 * 0, or -1 with an internal error's line in why. */
int write_run_stdout(const workdirs *w, const char *data, size_t len, strbuf *why);
/* Did the runner finish its work (its own result file, complete, nonce)? */
int run_finished(const engine *e, const workdirs *w, uint64_t nonce, strbuf *why);
/* The same for the result file at path out (a sanitizer session's). */
int result_finished(const engine *e, const char *out, uint64_t nonce, strbuf *why);
/* compute-sanitizer with t's tool and the kit's options, then runner_args
 * (synccheck: the barrier-checked runner, g->barrier_runner, in place of
 * runner_args[0] when it was built); returns the count of argv
 * (NULL-terminated, at most max entries). */
int sanitizer_argv(const grading *g, const rubric_test *t, const char *const runner_args[], const char **argv, int max);
/* The findings of a sanitizer run in rep; returns the errors that fail the
 * test (racecheck: its warnings too). */
int sanitizer_errors(const rubric_test *t, const proc_result *r, san_report *rep);

/* ---- hang.c: a student call's time limit; a call that did not return ---- */

#define CALL_MARGIN 20.0    /* a call may take 20x what the kit's baseline needs for its case */
#define CALL_GRACE 4.0      /* the GPU shared with other gradings: a call is ended at 4x its limit,
                               and reruns alone if it returned after its limit (another process's
                               work may be to blame: a context torn down beside 20 others took 5 s) */
#define CALL_GRACE_OWN 1.5  /* the GPU shared with this grading's own sanitizer runs only */

/* The time limit of one student call in a run of case `params`:
 * the rubric's call_limit, or CALL_MARGIN x what the kit's baseline needs
 * for the case when that is known and more (g->next_limit when set). */
double call_limit(const grading *g, const char *params);
/* The grace of a run's calls: 1 alone, else CALL_GRACE while other
 * processes hold the GPU's lock, CALL_GRACE_OWN when none does. */
double call_grace(const grading *g, int alone);
/* Under compute-sanitizer, which slows kernels many times over, the call's
 * limit only names the call before the backstop ends the run. */
double sanitizer_call_limit(const rubric_test *t);
/* The backstop of a whole run: the test's limit for the kit's and the
 * host's work, plus grace x the call limit. */
double run_limit(const rubric_test *t, double limit, double grace);
/* The runner's arguments for a call limit: --call-limit, --call-grace and
 * --skip-calls (the calls that did not return before); appended to argv
 * at n (store holds their text), the new count returned. */
typedef struct {
    char limit[32], grace[32], skip[MAX_HUNG * 66];
} call_args;
int add_call_args(const grading *g, double limit, double grace, call_args *a, const char **argv, int n);
/* A timing run's arguments (cases.c): --warmup and --reps, and for a
 * performance test of one case --decided MIN,FULL (its min_speedup and
 * threshold: kit/timing_decided.h); appended to argv at n (a holds their
 * text), NULL after them, the new count returned. */
typedef struct {
    char warmup[16], reps[16], decided[64];
} bench_args;
int add_bench_args(const rubric_test *t, bench_args *a, const char **argv, int n);
/* Did a student call not return in the run that ended so (KIT_EXIT_HUNG,
 * its record in dir: kit/watchdog.h)?  1 with h filled. */
int run_hung(const proc_result *r, const char *dir, kit_hang_record *h);
/* A call of case `params` that did not return (h) in a run that shared
 * the GPU (`shared`: other processes' kernels took turns with it) or ran
 * alone: 0 when that is no verdict yet - the limit was too short for what
 * the case needs, or the GPU was shared (g->next_limit is set: run the case
 * again, alone, with that limit); else 1 with the verdict in c (c->hung),
 * the call recorded in g->hung (not for a sanitizer run), the kernel it
 * left running, and the first time what the kit's barrier check says on
 * the case.  A sanitizer run is judged where it ran. */
int hang_judge(grading *g, const rubric_test *t, const char *params, uint64_t seed, const kit_hang_record *h,
               int shared, int sanitizer, outcome *c);
/* A run that ended KIT_EXIT_SKIPPED: the call it did not make (1), else 0. */
int skipped_call_of(const proc_result *r, char *call, size_t len);
/* A case whose call was not made (it did not return before): its one line. */
void hang_skipped(const grading *g, const char *call, outcome *c);

/* ---- serve.c: many cases in one runner process; the gate; the end of a grading's GPU processes ----
 * (the conversation's descriptor and words: kit/protocol.h) */

/* KIT_SERVE=0: one process per case, timing runs alone from start to end. */
int serve_enabled(void);
/* Runs one correctness case in the submission's case server (started, under
 * a shared GPU lock, when none runs).  1: c holds the case's verdict (the
 * checker's, or a time limit hit); 0: run the case on its own (run_case):
 * no server could start, or the case ended the process (a crash, a CUDA
 * error left behind), or its output was cut. */
int serve_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, outcome *c);
/* Starts every case of sanitizer test t in one compute-sanitizer process
 * around the runner's serve mode, in a folder of its own, to run while the
 * correctness cases do (nothing when the server is off). */
void serve_sanitizer_start(grading *g, const rubric_test *t);
/* What a sanitizer session decided for one case of its test. */
enum { SAN_RUN = 0 /* run it on its own (run_sanitizer_case) */, SAN_CLEAN /* finished, clean report */,
       SAN_SKIPPED /* its call did not return in an earlier run: not made */ };
typedef struct {
    int state;
    char call[64]; /* SAN_SKIPPED: the call */
} san_case;
/* Waits for test t's sanitizer process (started now if it was not) and
 * fills cases[0 .. t->n_cases): 1 when each case finished its work and the
 * report is clean (the test passes), else 0: the SAN_RUN cases run one by
 * one (run_sanitizer_case) for their own findings and messages. */
int serve_sanitizer_clean(grading *g, const rubric_test *t, san_case *cases);
/* A call did not return: every sanitizer session not judged yet starts
 * again, told not to make it (its cases that would are answered "skipped"). */
void serve_sanitizers_restart(grading *g);
/* Does a sanitizer session of the grading run beside its correctness runs? */
int serve_sanitizers_running(const grading *g);
/* Reads the answers the sessions beside have given so far, waiting for
 * none: the time each had answered all its cases, for --timings (a session
 * is collected only at its test's turn, often long after); one that has
 * answered them all is told it is done, and ends meanwhile. */
void serve_sanitizers_poll(grading *g);
/* The grading's correctness cases are done: its case server is told so
 * and exits (its CUDA context torn down) while the grading goes on, still
 * under its shared hold (gpu_idle and gpu_release_all collect it before
 * giving the hold back); nothing while the server is paused or the hold
 * not held.  A later correctness case would start a new server. */
void serve_done(grading *g);
/* The grading's shared hold given back while its checker (CPU work) runs,
 * when no sanitizer session and no checker of a test run first runs beside
 * (the case server stopped till the next case): 1 when given back (the
 * checker then takes a CPU slot). */
int gpu_idle(grading *g);
/* Waits for the checkers beside (checks_settle), ends the grading's GPU
 * processes (case server, sanitizer sessions: one that has answered every
 * case keeps its verdict for its test's turn) and then its shared hold:
 * before a timing run, a run alone, and at the end of a grading. */
void gpu_release_all(grading *g);
/* Forgets the sanitizer verdicts gpu_release_all kept (the grading's end). */
void serve_forget_all(grading *g);
/* A timing run (argv: runner bench ... --gate-fd KIT_CTL_FD_S) that shares the GPU but
 * for its timing loop, which gets it alone (host_alone: the CPU slots too,
 * rubric `host = alone`); r as from proc_run, waited_s grows by the time
 * spent waiting for the locks (not part of the limit). */
void run_gated(grading *g, const char *const argv[], const sandboxed *sb, double limit, int host_alone,
               proc_result *r, double *waited_s);

/* ---- cases.c: one run of one case on its own ---- */

/* gpu_release_all, then the GPU alone (exclusive lock): 1 when held
 * (gpu_lock_release it); the wait is added to *waited_s, never to a limit. */
int gpu_take_alone(grading *g, gpu_lock *lock, double *waited_s);
/* One run of one case on its own: the runner in the sandbox (bench: timed),
 * then the checker (c->defer_check: started and left running in c->check). */
void run_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, int bench, outcome *c);
/* One case under compute-sanitizer (t->tool). */
void run_sanitizer_case(grading *g, const rubric_test *t, const char *params, uint64_t seed, outcome *c);

/* ---- kinds.c: what a test of each kind runs ---- */

/* A timed case's line of the report: the medians, how many calls
 * they are of, the speedup.  A timing that stopped early (c->timed_decided)
 * says how many calls it timed, why no more, and that the score is the one
 * more calls would give. */
void timing_line(const rubric_test *t, const char *params, const outcome *c, strbuf *out);

/* What each kind of test runs (into tr), and what is decided of its result
 * once every test ran (NULL: nothing). */
typedef struct {
    void (*run)(grading *gr, const rubric_test *t, test_result *tr);
    void (*after)(const grading *gr, test_result *tr);
} test_kind_ops;
extern const test_kind_ops test_kinds[];
/* The runs of performance test t into ep, case by case until one does not
 * count; defer_last: the last case's checker is left running (checks_beside). */
void performance_runs(grading *gr, const rubric_test *t, early_perf *ep, int defer_last);
/* The result of performance test t from its runs (ep, their checkers done). */
void performance_result(const grading *gr, const rubric_test *t, early_perf *ep, test_result *tr);
/* Frees ep's outcomes (a checker still running is ended). */
void early_free_cases(early_perf *ep);
/* Ends and frees the correctness runs not judged (gr->runs; none once every
 * test ran: a test's runs made ahead are judged at its turn). */
void correctness_queue_free(grading *gr);

/* ---- engine.c: the tests of a rubric ---- */

/* The rubric's tests once the build is done (engine_grade), into g: its
 * performance tests first where they may be (engine.c), every result in the
 * rubric's order. */
void grade_tests(grading *gr, grade_result *g);

#endif
