/* lab_decl.cuh - a lab declared as data: its buffers, its call and outputs,
 * its refusals, its timed calls, its metrics, read by one interpreter
 * (common/src/lab_decl.cu) that fills the driver's structs (kit/lab.cuh).
 *
 * A harness points KIT_LAB.decl at a kit_lab_decl and leaves the hooks it
 * replaces (buffers, call, refuse, timed, after_timing, show_time, metrics)
 * NULL; a hook
 * that is set wins over the table, so what does not fit stays a small named
 * hook beside it (the adapter that calls the student's function, the
 * baseline, lab04's hot-bin line).  Every size, pointer and condition is a
 * field of the lab's state, named by KIT_AT (kit/field.h).
 *
 * What the table decides, and what the interpreter does with it:
 *   bufs     allocated at its stage, max(count, 1) elements of its type
 *            (on the device, or pinned or pageable host memory), uploaded
 *            from `host` (count elements; or count ints as tagged records,
 *            count doubles as floats) when set;
 *   calls    the case's one student call: the first whose `when` holds
 *            (none when `no_call_if` is nonzero; with every_call, each that
 *            holds, in order); its outputs in the state
 *            (`where`: a pointer to device memory; KIT_DECL_IN_STATE: the
 *            value itself, a result returned by value; KIT_DECL_HOST: a
 *            pointer to host memory) with their poison;
 *   refuse   "tag: why" when a field is outside [lo, hi] at a stage, or
 *            its `needs` does not hold;
 *   timed    the call's timed calls (fresh.cuh) - of the call row named
 *            `call` whatever the case's entry, else the case's call: the pointer fields
 *            refreshed (their counts from their bufs rows), the call's first
 *            output poisoned as it declares; the shift range from `how`
 *            (ROTATE_SCALE: [0, count), or whole `step`s of it; OFFSET:
 *            [1, modulus) when modulus > 1, else [shift_lo, shift_hi]);
 *            the bytes of the case's uploaded inputs that are not refreshed
 *            counted as read by every call, and each call's flops
 *            (plausible.h);
 *   metrics  per * count (* times) / 1e9 / seconds (G elements/s, GB/s,
 *            GFLOP/s), where `when` holds; or a time the lab measured
 *            (also_timed: more of its functions timed after the call);
 *   show     `make run-labNN` prints the outputs (kit_decl_summary), the
 *            first one held to the lab's property (show_check) or to a CPU
 *            reference (show_ref) and, with
 *            time=1 (or `always`), a table of times (show_table), or the
 *            call timed alone where show_time.alone_if holds,
 *            else the speedup line where bench mode's timing takes the case
 *            (no KIT_LAB_BENCH_AFTER refusal) - also a case the benchmark
 *            does not grade (KIT_LAB_BENCH_BEFORE: lab06's part=1); or in
 *            every run the lab's own time line (show_line).
 */
#ifndef KIT_LAB_DECL_CUH
#define KIT_LAB_DECL_CUH
#include <stddef.h>
#include "kit/field.h"
#include "kit/lab.cuh"

typedef struct {
    kit_at at;            /* the pointer field it is allocated into */
    kit_type type;        /* of its elements */
    kit_at count;         /* int field: its elements */
    kit_at host;          /* pointer field: uploaded from there (0: not uploaded) */
    kit_lab_stage stage;  /* KIT_LAB_CASE (0) or KIT_LAB_TIMING */
    kit_when when;
    int pinned;           /* page-locked host memory (kit_lab_buf.pinned: lab11's h_in, h_out), not device */
    int pageable;         /* plain host memory (malloc): lab02's h_c, its host entry's output */
    int when_timed;       /* also where `when` does not hold, in a run that times (bench mode, show
                             mode's time=1): lab02's device arrays, timed whatever the entry */
    /* Ints from `host` uploaded as records {key, tag}: tag = tag_base (an
     * int field; 0: none) + the index (kit_lab_buf.tagged: lab07's records
     * say where they came from); `type` an 8-byte one. */
    int tagged;
    kit_at tag_base;
    int from_f64;         /* `host` holds doubles, uploaded as floats (kit_lab_buf.from_f64); type F32 */
} kit_decl_buf;

/* Where an output is (kit_decl_out.where). */
typedef enum {
    KIT_DECL_DEVICE,   /* `at` is a pointer field to device memory */
    KIT_DECL_IN_STATE, /* host memory: the state's field is the output (a result returned by value) */
    KIT_DECL_HOST,     /* `at` is a pointer field to host memory (an entry on host arrays) */
} kit_decl_where;

typedef struct {
    const char *name;     /* its record (dataset.h); NULL: poisoned and read back for the lab's after() only */
    kit_type type;
    kit_at at;            /* the pointer field, or the value itself (KIT_DECL_IN_STATE) */
    kit_at count;         /* int field; 0: one element */
    int poison;           /* KIT_POISON(byte), KIT_POISON_COMPLEMENT (of complement_of) or KIT_POISON_NONE */
    kit_decl_where where;
    /* Records in one buffer (lab07's {key, tag}): bytes from one element to
     * the next and of this one in each; 0, 0: packed elements of `type`. */
    size_t stride, offset;
    kit_at complement_of; /* KIT_POISON_COMPLEMENT: the pointer field of its host words (lab11's input) */
} kit_decl_out;

typedef struct {
    const char *name;
    void (*invoke)(void *state);
    kit_when when;
    kit_at optional_if_zero; /* int field: the call may launch no kernel when it is 0 */
    kit_decl_out out[KIT_LAB_MAX_OUTS];
    int kernel_optional;     /* the call may always launch no kernel (lab01's device query) */
} kit_decl_call;

typedef struct {
    kit_lab_stage stage;
    kit_at field;
    int lo, hi;           /* refused outside [lo, hi] */
    const char *why;
    int show_runs;        /* KIT_LAB_RUN_BEFORE: show mode runs the case anyway */
    kit_when needs;       /* refused also where it does not hold (lab06: part=2 type=float) */
} kit_decl_refuse;

typedef struct {
    kit_fresh_how how;
    kit_at in[KIT_FRESH_MAX_IN]; /* the pointer fields refreshed; in[0] 0: the lab has no benchmark */
    kit_at modulus;              /* KIT_FRESH_OFFSET: int field */
    kit_at step;                 /* ROTATE_SCALE, int field: every shift a multiple of it (lab10: whole
                                    rows of A, k floats), in [0, count / step); 0: any element */
    int sample;                  /* output elements recorded per call; 0: all */
    const char *call;            /* the calls row timed (by name); NULL: the case's call */
    /* One call's floating-point operations: flops_per * the int fields
     * flops_of (those set); flops_per 0: not a measure of this lab. */
    double flops_per;
    kit_at flops_of[2];
    /* KIT_FRESH_OFFSET without a modulus: the offsets' range [shift_lo,
     * shift_hi] where shift_hi > shift_lo (lab07: any offset that keeps its
     * keys ints).  poison: KIT_POISON(byte) for the timed calls' output when
     * it differs from the checked call's (lab07: a key no input has); 0: the
     * call's. */
    int64_t shift_lo, shift_hi;
    int poison;
    /* KIT_FRESH_ROTATE_SQUARE: the int field of the matrix's side; shifts in
     * [0, side) where rotate_if holds, else 0, the scale alone (lab09: the
     * classes whose structure a rotation would break). */
    kit_at side;
    kit_when rotate_if;
    /* The output sampled as `lines` random whole rows, then as many whole
     * columns, of a side x side matrix (sample: 2 * lines * side elements):
     * a matrix whose checker needs whole lines (lab09: A - LU at their
     * crossings; lab10's C could be sampled so).  0: `sample` elements. */
    int lines;
    /* The call works in place: its first output is the buffer it reads
     * (lab09's A, factored in place).  Each timed call copies its fresh
     * input into its output first; before the baseline the driver puts the
     * untouched input (in[0], a KIT_LAB_TIMING row) back into the output:
     * both sides pay the same copy (kit_decl_in_place). */
    int in_place;
    int out; /* the call's output timed (poisoned, sampled; in place: written), by index (lab09: 1, A) */
} kit_decl_timed;

typedef struct {
    const char *label;    /* as kit_lab's metrics */
    kit_at count;         /* int field */
    double per;           /* units per count, in G units/s: value = per * count / 1e9 / (ms / 1e3) */
    int baseline;         /* the baseline's time */
    kit_at times;         /* int field: count multiplied by it (n * mask_size terms); 0: none */
    kit_when when;        /* the case's metric only where it holds (lab11's parts); NaN elsewhere: not recorded */
    /* A time the lab measured itself (a double field, ms; also_timed): the
     * metric is that time, or with `vs` that time over the call's (x faster). */
    kit_at ms_of;
    int vs;
} kit_decl_metric;

/* One more of the lab's functions timed after each timing of its call
 * (kit_lab_time), the median of reps calls after warmup into a double field
 * of the state (ms): on the host's clock (on_cpu: lab02's serial loop, a CPU
 * at work) or CUDA's (kit_time_median: lab02's round trip through
 * vector_add); show_only: in show mode only. */
typedef struct {
    void (*invoke)(void *state);
    kit_at ms;
    int warmup, reps;
    int on_cpu, show_only;
} kit_decl_also;

/* A row of show mode's timing table (kit_lab_decl.show_table). */
typedef struct {
    const char *label;    /* 35 columns wide; after a '\n' it goes on in the next line */
    kit_at ms;            /* double field with its median (also_timed); 0: the timed call's */
    int baseline;         /* ms 0: the baseline's median instead */
    double per;           /* bytes per count element: its GB/s too; 0: none */
} kit_decl_show_row;

/* A row of kit_lab_decl.show_line. */
typedef struct {
    const char *self, *base; /* the call and the baseline in the line; self NULL: the call's name */
    const char *ratio;       /* a format of the baseline's time over the call's ("speedup %.2fx") */
    const char *unit;        /* with it, each side's rate (the first metric of its time that holds) */
    int digits;              /* the rates' decimals */
    kit_when when;
    kit_at some;             /* int field: no line where it is 0 (nothing to time) */
} kit_decl_show_line;

#define KIT_DECL_MAX_CALLS 4
#define KIT_DECL_MAX_REFUSE 4
#define KIT_DECL_MAX_ALSO 2
#define KIT_DECL_MAX_SHOW_ROWS 4
#define KIT_DECL_MAX_SHOW_LINES 2

struct kit_lab_decl {
    kit_decl_buf bufs[KIT_LAB_MAX_BUFS];
    kit_decl_call calls[KIT_DECL_MAX_CALLS];
    kit_at no_call_if;
    /* every_call: the case's calls are every row whose `when` holds, in
     * order (lab01: print_tids, then query_device), not the first alone;
     * timed calls and show-mode timing still take the first. */
    int every_call;
    /* Show mode prints the lab's own lines (its `after`), not the generic
     * summary of the outputs (lab01: the lines printed, the device's fields). */
    int no_summary;
    kit_decl_refuse refuse[KIT_DECL_MAX_REFUSE];
    kit_decl_timed timed;
    kit_decl_metric metrics[KIT_LAB_MAX_METRICS];
    /* time=1 in show mode: kit_lab_show_speedup against `baseline` (NULL: no
     * timing); where alone_if holds (a case the baseline cannot take: int
     * data), the call timed alone with alone_note (kit_lab_show_alone).
     * always: every show run times, no time=1 asked (lab07's and lab08's
     * handouts: make run-labNN prints the times). */
    struct {
        const char *baseline;
        int warmup, reps;
        const char *alone_note;
        kit_when alone_if;
        int always;
    } show_time;
    /* Show mode, after the summary of a call's outputs: its first output
     * held to a property the lab names, so a student sees a wrong result
     * without the grader (lab06: out is a scan of in) - first_wrong(state,
     * the output on the host, its length): the first element that breaks
     * it, or the length.  "  RULE holds for every i" or "  RULE first fails
     * at i = I".  NULL: none. */
    struct {
        size_t (*first_wrong)(const void *state, const void *out, size_t n);
        const char *rule;
    } show_check;
    kit_decl_also also_timed[KIT_DECL_MAX_ALSO];
    /* time=1 in show mode as a table of times instead of the speedup line
     * (lab02's exercise 5): `title`, a format of the int field `count` (or
     * `none` where it is 0, nothing timed), then each row: "  LABEL  x ms"
     * and, with per, "  y GB/s".  show_time.warmup and reps: 0, the
     * runner's. */
    struct {
        const char *title, *none;
        kit_at count;
        kit_decl_show_row rows[KIT_DECL_MAX_SHOW_ROWS];
    } show_table;
    /* Show mode, after the summary (and show_check): the call's first
     * output, i32, against a CPU reference the lab computes, so a student
     * sees what is wrong without the grader - reference(state, ref, n)
     * fills ref[0] (n ints) and, where the call has a second output and
     * `aside` is set, ref[1] (NULL otherwise).  "  K of N outputs differ
     * from SOURCE; first at NAME[i]: got, expected e" or "  all N outputs
     * match SOURCE"; with ref[1], "  K outputs hold ASIDE": the second
     * output's elements wrong where the first's are right (lab07: a
     * record's tag, "an equal key from the wrong place (instability)").
     * reference NULL: none. */
    struct {
        void (*reference)(const void *state, int32_t *const *ref, size_t n);
        const char *source, *name, *aside;
    } show_ref;
    /* Show mode, every run (no time=1 asked): the call timed against the
     * baseline (show_time.warmup and reps) in one line of the lab's words,
     * from the first row whose `when` holds (lab09, lab10, lab11's parts):
     *   "time: SELF x ms, BASE y ms (medians of REPS): RATIO"
     * or, with a unit, each side's rate too:
     *   "time: SELF x ms (r UNIT), BASE y ms (s UNIT), medians of REPS: RATIO".
     * A case with nothing to time (KIT_LAB_UNTIMED, no kernel) has no line;
     * a timing that failed is the run's failure. */
    kit_decl_show_line show_line[KIT_DECL_MAX_SHOW_LINES];
};

/* ---- the interpreter (common/src/lab_decl.cu), the hooks' equivalents ---- */
int kit_decl_buffers(const kit_lab_decl *d, void *state, kit_lab_stage stage, kit_lab_buf *b);
/* The same in a run: rows with when_timed too where the run times (kit_decl_times). */
int kit_decl_buffers_run(const kit_lab_decl *d, const kit_run_ctx *ctx, void *state, kit_lab_stage stage,
                         kit_lab_buf *b);
/* The run times the call: bench mode, or show mode with time=1 (or show_time.always). */
int kit_decl_times(const kit_lab_decl *d, const kit_run_ctx *ctx);
/* After each timing: the also_timed rows (0, or -1 when a timing failed). */
int kit_decl_after_timing(const kit_lab_decl *d, const kit_run_ctx *ctx, void *state);
/* What the driver uploads for a buffer made on the host first (b->upload
 * bytes into dst): a tagged buffer's records (kit_lab_buf.tagged: rec[2i] =
 * keys[i], rec[2i + 1] = tag_base + i), or floats from doubles
 * (kit_lab_buf.from_f64). */
void kit_decl_made_upload(const kit_lab_buf *b, void *dst);
/* The call whose `when` holds (NULL: none); kit_decl_fill_call fills c from
 * it, or from the k-th that holds with every_call (0: no call k). */
const kit_decl_call *kit_decl_the_call(const kit_lab_decl *d, const void *state);
int kit_decl_fill_call(const kit_lab_decl *d, void *state, int k, kit_lab_call *c);
const char *kit_decl_refused(const kit_lab_decl *d, const kit_run_ctx *ctx, const void *state, kit_lab_stage stage);
int kit_decl_timed_calls(const kit_lab_decl *d, void *state, kit_timed_calls *tc, kit_lab_swap *sw);
/* timed.in_place: what puts the input back (b->at: the state's pointer to
 * the output, b->host: the untouched input, b->upload: the bytes, pinned or
 * pageable: host memory, else device); 1, or 0 when the call is not in place. */
int kit_decl_in_place(const kit_lab_decl *d, void *state, kit_lab_buf *b);
double kit_decl_metric_value(const kit_decl_metric *m, const void *state, double ms);
/* Show mode: the call's outputs (host[i], packed), for a student to compare
 * with what they expect - one named value: "NAME(PARAMS) = v"; an array: its
 * length, sum, non-zero elements and largest (integers) or NaN elements
 * (floats; poisoned with NaN: never written), and its first 8. */
void kit_decl_summary(const kit_lab_call *c, const kit_params *p, void *const *host);
/* Show mode, after the summary: the show_check and show_ref lines (above), where the table has them. */
void kit_decl_show_check(const kit_lab_decl *d, const void *state, const kit_lab_call *c, void *const *host);
/* Show mode, a matrix result in a lab's after(), so a student compares it
 * with a hand computation (lab09's factors, lab10's C): "top-left R x C of
 * WHAT:" (R, C: rows and cols, at most 4 each), then the corner's R rows of
 * C elements of the row-major rows x cols matrix m (KIT_T_F32 or
 * KIT_T_F64), "  " and " %12.6g" each.  Here, not in a file of its own: the
 * bench program links every shared object's harness against this file. */
void kit_show_corner(const char *what, kit_type type, const void *m, int rows, int cols);
/* Show mode, after the calls: the lab's time line (show_line), or with
 * time=1 the call alone or the speedup line (show above). */
int kit_decl_show_time(const kit_lab_decl *d, kit_run_ctx *ctx, void *state);

#endif
