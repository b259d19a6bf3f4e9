/* lab.cuh - a lab declared: the descriptor each lab's harness.cu fills in,
 * and the one driver (common/src/lab_driver.cu) that runs it.
 *
 * The driver owns the runner's modes (kit_lab_run, kit_lab_bench, below), so
 * run, serve, bench and show mode are written once.  For every case it
 *   - generates the inputs (generate: the lab's dataset.c) and says
 *     "labNN: <why>" when the parameters are bad;
 *   - allocates the case's buffers, then uploads them, in the order declared,
 *     every CUDA call checked (KIT_HCHECK);
 *   - before each student call: checks the call's declaration
 *     (kit_lab_check_call: every output declares its poison), poisons every
 *     output, sets ctx->kernel_optional from the declaration (or when the
 *     call has nothing to compute), brackets the call with
 *     kit_student_begin/end and returns KIT_RC_STUDENT_CUDA when the call left
 *     a CUDA error; reads the outputs back and records them (kit_out);
 *   - in bench mode: refuses cases the lab does not time (refuse), times the
 *     lab's kit_timed_calls against its baseline (fresh.cuh), says
 *     "labNN: the baseline failed" when it did, records KIT_KEY_STUDENT_MS,
 *     KIT_KEY_BASELINE_MS and each metric as KIT_KEY_METRIC_PREFIX + label;
 *   - frees everything, whatever happened.
 * A lab's harness.cu writes only its descriptor - how its inputs are made,
 * its buffers, its calls with their adapters and outputs - and what it alone
 * needs (a show-mode printout, lab11's pinned buffers freed through the
 * student's pinned_free); what a run's outputs mean is its checker's
 * (check.c: lab01's device query is judged there).
 */
#ifndef KIT_LAB_CUH
#define KIT_LAB_CUH
#include <stddef.h>
#include <stdint.h>
#include "kit/blob.h"
#include "kit/lab_rules.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"

/* A descriptor names only the hooks its lab uses (designated initializers):
 * the rest are NULL on purpose, which -Wextra would otherwise call missing.
 * A file that declares descriptors says so once, after its includes, for
 * itself alone (a pragma here reached every file that includes this one):
 *     KIT_LAB_DESCRIPTORS_OMIT_FIELDS
 */
#define KIT_LAB_DESCRIPTORS_OMIT_FIELDS _Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"")

/* A buffer of the case, allocated by the driver and freed by it. */
typedef struct {
    void **at;          /* where its pointer goes (in the lab's state) */
    size_t bytes;       /* allocated (labs allocate at least one element) */
    const void *host;   /* uploaded from here after every buffer is allocated; NULL: not */
    size_t upload;      /* bytes uploaded */
    int pinned;         /* page-locked host memory (cudaMallocHost; uploaded with memcpy), not device */
    int pageable;       /* plain host memory (malloc; uploaded with memcpy), not device */
    /* host holds ints, uploaded as 8-byte records {host[i], tag_base + i}
     * (upload: the records' bytes): each element tagged with where it came
     * from, for a check of stability (lab07's type=rec). */
    int tagged, tag_base;
    /* host holds doubles, uploaded converted to floats (upload: the floats'
     * bytes): lab09's matrix, generated in double and rounded once. */
    int from_f64;
} kit_lab_buf;

#define KIT_LAB_MAX_BUFS 8

/* When the lab's hooks are asked (refuse, buffers). */
typedef enum {
    KIT_LAB_CASE,         /* run, show and bench: the buffers of every case */
    KIT_LAB_TIMING,       /* the buffers only timing needs (a baseline's output), before the first timing */
    KIT_LAB_RUN_BEFORE,   /* refuse: run/show mode, before the student's calls */
    KIT_LAB_BENCH_BEFORE, /* refuse: bench mode, before the checked call */
    KIT_LAB_BENCH_AFTER,  /* refuse: bench mode, after it */
} kit_lab_stage;

/* after(): stop here, the case is done (lab11: pinned_alloc gave nothing usable). */
#define KIT_LAB_STOP 1
/* timed(): nothing to time in this case, and that is no error. */
#define KIT_LAB_UNTIMED 1

/* timed(): the state's pointers a timed call swaps (NULL: none). */
typedef struct {
    void (*invoke)(void *state);
    void **in[KIT_FRESH_MAX_IN];
    void **out;
    /* The call works in place (kit_decl_timed.in_place): each timed call
     * first copies in[0].work into out, timed with it. */
    int in_place;
} kit_lab_swap;

typedef struct kit_lab kit_lab;
typedef struct kit_lab_decl kit_lab_decl; /* kit/lab_decl.cuh */
struct kit_lab {
    const char *tag;    /* "lab03": the first word of every message */
    size_t state_size;  /* the lab's state: zeroed, handed to every hook */
    /* Inputs from (params, seed) into the state; nonzero with err filled
     * (the driver prints "tag: err").  What a lab builds on the host from
     * them (lab07's records) is made here too. */
    int (*generate)(const kit_params *p, uint64_t seed, void *state, char *err, size_t len);
    /* Frees what generate made (the driver frees the buffers itself). */
    void (*release)(kit_run_ctx *ctx, void *state);
    /* The buffers of stage (KIT_LAB_CASE or KIT_LAB_TIMING) into b; their number. */
    int (*buffers)(kit_run_ctx *ctx, void *state, kit_lab_stage stage, kit_lab_buf *b);
    /* Describes student call k (0, 1, ...) of this case into c; 0 when there is none. */
    int (*call)(kit_run_ctx *ctx, void *state, int k, kit_lab_call *c);
    /* After call k returned and its outputs were recorded (host[i]: out[i]
     * on the host, packed): extra records, the show-mode printout.  0,
     * KIT_LAB_STOP, or an error status.  NULL: nothing. */
    int (*after)(kit_run_ctx *ctx, void *state, int k, void *const *host);
    /* Student functions of this case that run on the host and launch
     * nothing (lab07's co_rank_host): called untraced, after the traced
     * calls; they record their own outputs.  0 or an error status. */
    int (*untraced)(kit_run_ctx *ctx, void *state);
    /* Why this case is not run at this stage (the driver prints "tag: why"),
     * or NULL.  NULL hook: every case runs. */
    const char *(*refuse)(kit_run_ctx *ctx, const void *state, kit_lab_stage stage);

    /* ---- timing (NULL timed: the lab has no benchmark) ---- */
    /* Declares the timed calls of the student's function (fresh.cuh: name,
     * call, how, inputs, output, poison, sample...; tc->lab is the state).
     * tc->call left NULL: each timed call is the case's own call, sw->invoke,
     * with the state's pointers sw->in[i] set to tc->in[i].work and sw->out
     * to tc->out for its duration (one adapter for checked and timed calls).
     * 0, KIT_LAB_UNTIMED, or an error status. */
    int (*timed)(kit_run_ctx *ctx, void *state, kit_timed_calls *tc, kit_lab_swap *sw);
    /* One call of the kit's baseline; nonzero when it failed. */
    int (*baseline)(void *state);
    /* Timing buffers before the checked call in bench mode (lab09: the
     * pristine matrix every timed call restores), not just before timing. */
    int timing_first;
    /* After a timing: what else the lab measures (lab02's CPU loop). */
    int (*after_timing)(kit_run_ctx *ctx, void *state);
    /* Bench-mode records after KIT_KEY_STUDENT_MS and KIT_KEY_BASELINE_MS,
     * each KIT_KEY_METRIC_PREFIX + label ("%s" in label: the timed function's
     * name), value(state, the student's median ms, or the baseline's when
     * `baseline`); a NaN value is not recorded (not this case's). */
    struct {
        const char *label;
        double (*value)(const void *state, double ms);
        int baseline;
    } metrics[KIT_LAB_MAX_METRICS];
    /* Show mode, after the calls: the lab's own timing printout (it calls
     * kit_lab_time).  Its status is the run's. */
    int (*show_time)(kit_run_ctx *ctx, void *state);
    /* The lab as data (kit/lab_decl.cuh): buffers, call, refuse, timed,
     * metrics and show_time from the table where their hooks are NULL, and
     * in show mode a summary of the outputs before `after`. */
    const kit_lab_decl *decl;
};

/* generate and release for a state whose member `d` is the dataset's data:
 * KIT_LAB_DATASET(inputs, lab03) calls lab03_generate and lab03_free. */
#define KIT_LAB_DATASET(state_t, prefix)                                                                   \
    static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)                \
    {                                                                                                      \
        return prefix##_generate(p, seed, &((state_t *)s)->d, err, len);                                   \
    }                                                                                                      \
    static void release(kit_run_ctx *, void *s) { prefix##_free(&((state_t *)s)->d); }

/* The one-statement adapters of a harness, on the lab's state as `in`:
 *   KIT_LAB_INVOKE(inputs, histogram, histogram_shared(in->d_in, in->d.n, in->d_bins, in->d.bins))
 * defines void histogram(void *state) (a call's invoke);
 *   KIT_LAB_BASELINE(inputs, baseline, kit_histogram_global(...))
 * defines int baseline(void *state) returning the expression (nonzero: it failed). */
#define KIT_LAB_INVOKE(state_t, fn, ...)                                                                     \
    static void fn(void *state_)                                                                           \
    {                                                                                                      \
        state_t *in = (state_t *)state_;                                                                   \
        __VA_ARGS__;                                                                                       \
    }
#define KIT_LAB_BASELINE(state_t, fn, ...)                                                                   \
    static int fn(void *state_)                                                                            \
    {                                                                                                      \
        state_t *in = (state_t *)state_;                                                                   \
        return (__VA_ARGS__);                                                                              \
    }

/* call(): the case's one student call, with one output; returns 1. */
static inline int kit_lab_one_call(kit_lab_call *c, const char *name, int kernel_optional, void (*invoke)(void *),
                                   kit_lab_out out)
{
    *c = kit_lab_call{name, kernel_optional, invoke, {out}, 1};
    return 1;
}

/* The lab's metrics as one list (lab_metrics.cu), what the driver records
 * in bench mode: metric i (0, 1, ...: its hooks' - the first
 * kit_lab_hook_metrics of them -, then its table's), its label or NULL past
 * the last; *baseline: valued at the baseline's time. */
int kit_lab_hook_metrics(const kit_lab *lab);
const char *kit_lab_metric(const kit_lab *lab, int i, int *baseline);
/* The label of the metric that rates the call (make bench's rate column):
 * the first of the call's own (not the baseline's) in GB/s, else in
 * GFLOP/s; NULL when none is (lab04's elements/s). */
const char *kit_lab_rate_label(const kit_lab *lab);

/* The lab's descriptor: each harness.cu defines it. */
extern const kit_lab KIT_LAB;

/* The runner's modes on a lab (runner_main.cu passes &KIT_LAB): run and
 * show (ctx->show), bench, baseline alone (runner.h says what each writes). */
int kit_lab_run(kit_run_ctx *ctx, const kit_lab *lab);
int kit_lab_bench(kit_run_ctx *ctx, const kit_lab *lab);
int kit_lab_baseline(kit_run_ctx *ctx, const kit_lab *lab);

/* One case of a mode into the result file out_path (run_case.cu): the
 * parameters' words parsed, the mode run on lab (decided: bench mode's
 * bounds, or NULL), the trace's records and KIT_KEY_RUNNER_STATUS written
 * after it, the trace's records forgotten for the next case.  A KIT_EXIT_*
 * status, said on stderr.  The runner's run, bench, baseline and each case
 * it serves; each row of make bench (bench_main.cu), on the row's lab.
 * kit_run_ctx_init: the context of one case, -1 (said) when the words are
 * bad parameters; kit_run_exit_status: the KIT_EXIT_* of a mode's status. */
typedef enum { KIT_MODE_RUN, KIT_MODE_BENCH, KIT_MODE_BASELINE } kit_run_mode;
int kit_run_case(const kit_lab *lab, kit_run_mode mode, const char *words, uint64_t seed, uint64_t nonce,
                 const char *out_path, int warmup, int reps, const kit_decided *decided);
int kit_run_ctx_init(kit_run_ctx *ctx, kit_params *params, const char *words, uint64_t seed, int warmup, int reps);
int kit_run_exit_status(int rc);

/* Poisons call c's outputs as the driver does before each call (their
 * declared poison, or the complement of their source); -1 when it failed. */
int kit_lab_poison(const kit_lab_call *c);

/* Times the lab's timed calls against its baseline (warmup + reps each),
 * allocating the timing buffers first; 0, -1 (said on stderr), KIT_LAB_UNTIMED,
 * or KIT_TIME_NO_KERNEL.  ts/tb: the student's and the baseline's medians
 * (of fewer calls once the score's bounds, ctx->decided, decide the score:
 * the runner's --decided, given in bench mode by the grader alone). */
int kit_lab_time(kit_run_ctx *ctx, void *state, int warmup, int reps, kit_timing *ts, kit_timing *tb);

/* The common timed calls (fill them in timed()): the case's own call,
 * invoke, on one float input refreshed as scale * (input rotated by shift)
 * (KIT_FRESH_ROTATE_SCALE; *in is the state's pointer to the original, count
 * its elements) and an output of its own poisoned with NaN (*out: the
 * state's pointer, out_count elements); sample: output elements recorded (0: all). */
void kit_lab_timed_rotate(kit_timed_calls *tc, kit_lab_swap *sw, const char *name, void (*invoke)(void *), void **in,
                          int64_t count, void **out, int64_t out_count, int sample);

/* Show mode (make run-labNN P="... time=1"): the student's function and the
 * baseline timed (kit_lab_time), one line
 *   "  medians of REPS: NAME x ms, BASELINE y ms: speedup zx";
 * or the student's call alone (invoke: the baseline does not take this case),
 *   "  median of REPS: NAME x ms (NOTE)".  0, or -1 when the timing failed. */
int kit_lab_show_speedup(kit_run_ctx *ctx, void *state, int warmup, int reps, const char *name, const char *baseline);
int kit_lab_show_alone(void (*invoke)(void *), void *state, int warmup, int reps, const char *name, const char *note);

#endif
