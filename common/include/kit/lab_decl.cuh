/* lab_decl.cuh - a lab declared as data: its buffers, its call and outputs,
 * its refusals, its timed calls, its metrics, read by one interpreter
 * (common/src/lab_decl.cu) that fills the driver's structs (kit/lab.cuh).
 *
 * A harness points KIT_LAB.decl at a kit_lab_decl and leaves the hooks it
 * replaces (buffers, call, refuse, timed, show_time, metrics) NULL; a hook
 * that is set wins over the table, so what does not fit stays a small named
 * hook beside it (the adapter that calls the student's function, the
 * baseline, lab04's hot-bin line).  Every size, pointer and condition is a
 * field of the lab's state, named by KIT_AT (kit/field.h).
 *
 * What the table decides, and what the interpreter does with it:
 *   bufs     allocated at its stage, max(count, 1) elements of its type
 *            (on the device, or pinned host memory), uploaded from `host`
 *            (count elements; or count ints as tagged records, count
 *            doubles as floats) when set;
 *   calls    the case's one student call: the first whose `when` holds
 *            (none when `no_call_if` is nonzero); its outputs in the state
 *            (`where`: a pointer to device memory; KIT_DECL_IN_STATE: the
 *            value itself, a result returned by value; KIT_DECL_HOST: a
 *            pointer to host memory) with their poison;
 *   refuse   "tag: why" when a field is outside [lo, hi] at a stage;
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
 *            GFLOP/s), where `when` holds;
 *   show     `make run-labNN` prints the outputs (kit_decl_summary) and, with
 *            time=1 (or `always`), the call timed alone where show_time.alone_if holds,
 *            else the speedup line where bench mode's timing takes the case
 *            (no KIT_LAB_BENCH_AFTER refusal) - also a case the benchmark
 *            does not grade (KIT_LAB_BENCH_BEFORE: lab06's part=1).
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
    const char *name;     /* its record (dataset.h) */
    kit_type type;
    kit_at at;            /* the pointer field, or the value itself (KIT_DECL_IN_STATE) */
    kit_at count;         /* int field; 0: one element */
    int poison;           /* KIT_POISON(byte) or KIT_POISON_NONE */
    kit_decl_where where;
    /* Records in one buffer (lab07's {key, tag}): bytes from one element to
     * the next and of this one in each; 0, 0: packed elements of `type`. */
    size_t stride, offset;
} kit_decl_out;

typedef struct {
    const char *name;
    void (*invoke)(void *state);
    kit_when when;
    kit_at optional_if_zero; /* int field: the call may launch no kernel when it is 0 */
    kit_decl_out out[KIT_LAB_MAX_OUTS];
} kit_decl_call;

typedef struct {
    kit_lab_stage stage;
    kit_at field;
    int lo, hi;           /* refused outside [lo, hi] */
    const char *why;
    int show_runs;        /* KIT_LAB_RUN_BEFORE: show mode runs the case anyway */
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
} kit_decl_timed;

typedef struct {
    const char *label;    /* as kit_lab's metrics */
    kit_at count;         /* int field */
    double per;           /* units per count, in G units/s: value = per * count / 1e9 / (ms / 1e3) */
    int baseline;         /* the baseline's time */
    kit_at times;         /* int field: count multiplied by it (n * mask_size terms); 0: none */
    kit_when when;        /* the case's metric only where it holds (lab11's parts); NaN elsewhere: not recorded */
} kit_decl_metric;

#define KIT_DECL_MAX_CALLS 4
#define KIT_DECL_MAX_REFUSE 4

struct kit_lab_decl {
    kit_decl_buf bufs[KIT_LAB_MAX_BUFS];
    kit_decl_call calls[KIT_DECL_MAX_CALLS];
    kit_at no_call_if;
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
};

/* ---- the interpreter (common/src/lab_decl.cu), the hooks' equivalents ---- */
int kit_decl_buffers(const kit_lab_decl *d, void *state, kit_lab_stage stage, kit_lab_buf *b);
/* What the driver uploads for a buffer made on the host first (b->upload
 * bytes into dst): a tagged buffer's records (kit_lab_buf.tagged: rec[2i] =
 * keys[i], rec[2i + 1] = tag_base + i), or floats from doubles
 * (kit_lab_buf.from_f64). */
void kit_decl_made_upload(const kit_lab_buf *b, void *dst);
/* The call whose `when` holds (NULL: none); kit_decl_fill_call fills c from it (0: no call k). */
const kit_decl_call *kit_decl_the_call(const kit_lab_decl *d, const void *state);
int kit_decl_fill_call(const kit_lab_decl *d, void *state, int k, kit_lab_call *c);
const char *kit_decl_refused(const kit_lab_decl *d, const kit_run_ctx *ctx, const void *state, kit_lab_stage stage);
int kit_decl_timed_calls(const kit_lab_decl *d, void *state, kit_timed_calls *tc, kit_lab_swap *sw);
double kit_decl_metric_value(const kit_decl_metric *m, const void *state, double ms);
/* Show mode: the call's outputs (host[i], packed), for a student to compare
 * with what they expect - one value: "NAME(PARAMS) = v"; an array: its
 * length, sum, non-zero elements and largest (integers) or NaN elements
 * (floats; poisoned with NaN: never written), and its first 8. */
void kit_decl_summary(const kit_lab_call *c, const kit_params *p, void *const *host);
/* Show mode, after the calls, with time=1: the call alone or the speedup line (show above). */
int kit_decl_show_time(const kit_lab_decl *d, kit_run_ctx *ctx, void *state);

#endif
