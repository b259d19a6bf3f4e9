/* check_driver.h - a lab's checker as a declaration: const kit_check KIT_CHECK.
 *
 * The checker's side of the runner's KIT_LAB (kit/lab.cuh).  Every lab's
 * check once repeated the same loop; common/src/check_driver.c owns it and
 * defines lab_check() (kit/checker.h) from the lab's KIT_CHECK:
 *
 *   1. generate the case's inputs from (params, seed); bad parameters fail
 *      with "bad test parameters: <why>" and nothing else runs;
 *   2. declare the input the kernels must read (the evidence rules);
 *   3. for each output of the case, in order: fetch it by name and type,
 *      refuse a wrong length, compute the reference and compare (a bound per
 *      element for floats, exactly for integers), say what a wrong value's
 *      elements show (never written - still the row's poison -, wrong only
 *      at the ends, a mistake, a note: poison, edge_of, mistake, note), then the
 *      output's `after` hook (a note on a pass, an explanation of a failure;
 *      an output without a reference fails when its `after` fails it); or,
 *      for an exact map of the data's words, element by element (`map`).
 *      The first output that fails ends the loop: later outputs are not
 *      looked at (but for `beside` ones);
 *   4. a declared matrix product's judgement (`product`, when every output
 *      passed), then the lab's own (`judge`), told whether every output
 *      passed, the copies a call's trace shows (`copies`, when nothing
 *      failed), the lines a call printed, one per thread of its launch
 *      (`lines`, when nothing failed), the threads the call launched
 *      (`threads`) and a call's answer field by field against a reference
 *      (`fields`);
 *   5. the timed calls of a benchmark run (`timed`, or the data's check:
 *      timed_rotated, timed_fresh, timed_sampled, timed_offset,
 *      timed_xor), when nothing failed (or always, `timed_always`);
 *   6. free the inputs and the references.
 *
 * A check.c keeps only what is its own judgement: the reference, the bound,
 * the explanation of a wrong result, the timed calls' recomputation.  Output
 * names are macros of the lab's dataset.h, the harness writes them under the
 * same names.
 */
#ifndef KIT_CHECK_DRIVER_H
#define KIT_CHECK_DRIVER_H
#include <stddef.h>
#include <stdint.h>
#include "kit/checker.h"
#include "kit/field.h"
#include "kit/lab_rules.h" /* KIT_POISON: an output's poison, as the harness declares it */
#include "kit/product.h"
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_CHECK_MAX_OUT 8

typedef struct kit_check_got kit_check_got;
typedef struct kit_check_wrong kit_check_wrong;

/* Where a reference goes: one buffer of len elements seen as the output's
 * type wants it - f (F32, F64: with bound, the allowed error of each
 * element), i (I32, I64) or u (U32; bound NULL for integers). */
typedef struct {
    double *f;
    int64_t *i;
    uint64_t *u;
    double *bound;
} kit_check_ref;

/* One output of a case, as the lab's outputs() declares it. */
typedef struct {
    const char *name; /* as the harness writes it (a macro of dataset.h) */
    kit_type type;    /* F32/F64: compared within a bound; I32/I64/U32: exactly */
    uint64_t len;     /* the elements it must have: the reference's length */
    int len_any;      /* any length is fetched: the comparison (kit_cmp) or judge() says a wrong one */
    /* The refusal of a wrong length, a format of (got, len) as unsigned long
     * long; NULL: "output 'NAME' has %llu elements, expected %llu". */
    const char *len_fmt;
    const char *what; /* the first words of a wrong value's failure ("dot_shared: ...") */
    /* The reference, len elements into r.  NULL: the output is only
     * fetched (judge() judges it). */
    void (*reference)(const void *data, const kit_check_ref *r);
    /* After the comparison, passed or not (g->ok): a note, or what the
     * failure means.  explain_first: on a failure, before the comparison's
     * own message, which it then follows as a detail. */
    void (*after)(kit_check_ctx *ctx, const void *data, const kit_check_got *g);
    int explain_first;
    /* In KIT_CHECK.out (a table, no outputs() hook): len is the data's int
     * field len_of when set; the row is the case's output when `when` holds. */
    kit_at len_of;
    kit_when when;
    /* The reference element by element, where `reference` is NULL (floats):
     * element(data, i, 0, 1, &bound[i]) - the timed_sampled element at shift
     * 0, scale 1, so the lab's computation is written once for the checked
     * and the timed calls (lab02's sums, lab05's convolution). */
    double (*element)(const void *data, int64_t i, int64_t shift, double scale, double *bound);
    /* Floats whose reference leaves in bound[i] the sum of the magnitudes of
     * element i's terms (kit_ref_scan_f32's out_abs): the driver makes it
     * kit_sum_bound(terms, that sum, u of the type), terms = terms_add + the
     * int field terms_of (when set) + i (when terms_index).  All 0: the
     * reference's bounds as they are. */
    kit_at terms_of;
    int terms_add, terms_index;
    /* What a wrong value's elements say (check_explain.c), after the
     * comparison's message (before it with explain_first) and before
     * `after`; nothing on a wrong length.  poison: the harness's
     * (KIT_POISON(byte), kit/lab_rules.h) - a wrong element that still holds
     * it, bit for bit, was never written.  All of them: unwritten_all, a
     * format of (what, len), or "WHAT: no element of NAME was written (all
     * LEN still hold the V the kit filled NAME with)", V NaN or -1; with
     * unwritten_where also some of them, by where they are.  Floats (the
     * poison is a NaN no arithmetic makes): the last ones ("WHAT: elements
     * I..J of NAME were never written ... do your blocks cover all LEN
     * elements?") or others ("WHAT: K of LEN elements of NAME were never
     * written ..., the first at index I").  Integers (the poison is a value
     * a computation gives too: only the reference tells), instead: the last
     * elements that hold it where the reference does not, all of them
     * included, as a hint after the comparison's message - "the last N
     * outputs (NAME[a] to NAME[b]) still hold P, the value the harness
     * filled NAME with before your call: were they ever written?" (lab07's
     * C).  NAME: shown_as, or the record's name where it is NULL. */
    int poison;
    const char *unwritten_all;
    int unwritten_where;
    const char *shown_as;
    /* Every wrong element within the int field edge_of of either end, and
     * elements between the two ends: edge_note, a format of that width
     * (lab05: the halo outside [0, n)). */
    kit_at edge_of;
    const char *edge_note;
    /* A mistake a wrong value may show, tried where not every element was
     * unwritten: looks_like(data, got, lim, p) for p = p_from, 2 p_from, ...
     * up to p_to while p < the output's length, on its first lim = min(length,
     * span * p) elements (span 0: all of them); the first p that fits is said,
     * `says` a format of p (size_t).  lab06: a scan of each block on its own,
     * blocks of 32 to 2048. */
    struct {
        int (*looks_like)(const void *data, const void *got, size_t lim, size_t p);
        size_t p_from, p_to, span;
        const char *says;
    } mistake;
    /* Said last, where note_when holds (lab05's worked example); with
     * note_unexplained, only where neither "every element unwritten" nor the
     * mistake was said (lab06: a race, when nothing else explains it). */
    const char *note;
    kit_when note_when;
    int note_unexplained;
    /* Integers, where reference and element are NULL: the reference is
     * the data's array at this pointer field, len elements of the output's
     * type, made by the lab's generate (lab07's stable merge, which its
     * tags and co-ranks read too). */
    kit_at ref_of;
    /* U32 outputs where reference, element and ref_of are NULL: element i
     * must be of(data, in[i]), an image of the data's u32 word in[i] alone
     * (in[i] itself where `of` is NULL: a copy) - lab11's round trips and
     * its results -, exactly; every element while len * (1 + the int field
     * cost_of) <= full_max (0: always), else a sample: the first and last
     * `edge`, the 4 around each boundary of an even split into the int field
     * parts_of parts, `random` drawn from the case's seed and `stream`.  No
     * reference array is made (lab11: 2^26 words of up to 4096 rounds each).
     * Wrong elements: wrong(), the failure in the lab's words (check_map.c;
     * kit_check_wrong below).  in 0: none. */
    struct {
        kit_at in;
        uint32_t (*of)(const void *data, uint32_t word);
        long long full_max;
        kit_at cost_of, parts_of;
        int edge, random, stream;
        void (*wrong)(kit_check_ctx *ctx, const void *data, const kit_check_wrong *w);
    } map;
    /* Judged even when the output before it failed (lab11's two round
     * trips, each on its own); the loop goes on past a failure only through
     * such rows. */
    int beside;
} kit_check_output;

/* What a map row (kit_check_output.map) found wrong: the first wrong
 * element it met (at, got, want; unwritten: got is still the complement of
 * its word, where the row's poison is KIT_POISON_COMPLEMENT - never
 * written), how many were wrong of how many it checked. */
struct kit_check_wrong {
    const kit_check_output *out;
    long long at, bad, checked;
    uint32_t got, want;
    int unwritten;
};

/* unwritten_all in the words of the labs whose interface names the output
 * d_out (lab05, lab06); v: the poison as the type reads it ("NaN", "-1"). */
#define KIT_UNWRITTEN_D_OUT(v) \
    "no output element was written: they all still hold the value the harness filled d_out with (" v ")"

/* An output as the driver found it. */
struct kit_check_got {
    const kit_check_output *out;
    const void *got;     /* NULL: missing, or not reached (an earlier output failed) */
    uint64_t count;
    kit_check_ref ref;   /* the reference (all NULL without one) */
    kit_cmp cmp;         /* with a reference */
    int ok;              /* present, the right length and (with a reference) right */
    uint64_t unwritten;  /* wrong elements still holding the poison (kit_check_output.poison) */
};

/* One field of a struct a call filled, recorded under its own name and
 * compared with the same field of the lab's reference (kit_check.fields). */
typedef struct {
    const char *name;   /* its record */
    kit_type type;      /* I32, I64 (exactly) or TEXT (as a string) */
    const char *what;   /* its name in messages */
    size_t offset;      /* in the reference struct (offsetof) */
} kit_check_field;

#define KIT_CHECK_MAX_FIELDS 8
/* A row of kit_check.copies (below). */
typedef struct {
    const char *call, *what; /* the traced call; what it copies, in messages */
    kit_at count_of;         /* int field: the elements it must copy */
    unsigned per[2];         /* bytes per element host-to-device, device-to-host */
    kit_when when;
    const char *too_few, *note; /* formats (kit_check_copies, kit/timeline.h) */
} kit_check_copy;
#define KIT_CHECK_MAX_COPIES 2
/* A row of kit_check.timed_xor (below). */
typedef struct {
    const char *call, *out, *fresh; /* the function timed, its output and its fresh input, in messages */
    kit_at in, count;               /* the u32 input's pointer field, its words' int field */
    int per;                        /* words sampled per call */
    uint32_t (*element)(const void *data, uint32_t word);
    kit_when when;
} kit_check_xor;

typedef struct kit_check {
    size_t data_size; /* the lab's dataset struct */
    int (*generate)(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen);
    void (*release)(void *data); /* NULL: nothing to free (not called after a failed generate) */
    /* Evidence: the bytes of input every call's kernels must read, on the
     * device, or in host memory when input_on_host says so.  NULL: the lab
     * declares none. */
    double (*input)(const void *data);
    int (*input_on_host)(const void *data);
    /* Where input is NULL: input_per bytes for each of the data's int field input_of (0: none). */
    kit_at input_of;
    double input_per;
    /* The case's outputs into out[KIT_CHECK_MAX_OUT]; returns how many. */
    int (*outputs)(const void *data, kit_check_output *out);
    /* Where outputs is NULL: the outputs as data (rows with a name whose `when` holds, in order). */
    kit_check_output out[KIT_CHECK_MAX_OUT];
    /* The lab's own judgement after the outputs (outs as outputs() declared
     * them; ok: all passed). */
    void (*judge)(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok);
    /* The timed calls of a benchmark run (kit/timed.h). */
    void (*timed)(kit_check_ctx *ctx, const void *data, const kit_check_got *outs);
    int timed_always; /* also after a failure (its own failures follow as details) */
    /* Where timed is NULL, the driver's own check of a rotating output
     * (fresh.cuh's KIT_FRESH_OFFSET with modulus = the output's length: a
     * histogram of shifted values): the first output, integer, recorded
     * whole; timed call k's element (i + shift) % len must be the
     * reference's element i.  Failures: "timed call K of CALL (fresh FRESH
     * each call): ELEMENT j holds got, expected exp: ...".  call NULL: none. */
    struct {
        const char *call, *fresh, *element;
    } timed_rotated;
    /* Where timed is NULL, the driver's check of recomputed timed calls: the
     * first output, recorded whole, must be its reference on the case's data
     * as timed call k had it - the float arrays `in` (pointer fields of the
     * data, shift_of elements each) made scale * (rotated by shift)
     * (KIT_FRESH_ROTATE_SCALE, fresh.cuh) - within the bound (floats) or
     * exactly; with `per`, only the per elements the record sampled (their
     * indices recorded).  The case has timed calls when `when` holds and the
     * int field shift_of (the shifts' limit) is positive.  Failures: "timed
     * call K of CALL (fresh INPUT each call): returned got, expected exp:
     * ..." (one element) or "NAME[i] = got, expected exp".  call NULL: none. */
    struct {
        const char *call, *input;
        kit_at in[2];
        kit_at shift_of;
        kit_when when;
        int per; /* elements sampled per call; 0: the whole output recorded */
    } timed_fresh;
    /* Where timed is NULL, the driver's check of sampled timed calls
     * (kit_timed_check_samples, timed.h): `per` elements of the first
     * output (its len the output's length and, without shift_of, the
     * shifts' limit) of each recorded call, each recomputed by element() from its index and
     * the call's (shift, scale), within the bound element() gives; the
     * function named in messages is the output's `what`, `fresh` the input
     * refreshed.  When nothing failed and `when` holds.  element NULL: none.
     * For outputs whose elements are cheap alone (lab02's sums, lab05's
     * convolution); one that needs the whole input (lab06's prefixes) is
     * timed_fresh with per: the reference on the fresh input, sampled. */
    struct {
        const char *fresh;
        int per;
        double (*element)(const void *data, int64_t i, int64_t shift, double scale, double *bound);
        kit_when when;
        kit_at shift_of; /* int field: the shifts' limit (lab10: m * k, A's elements); 0: len */
    } timed_sampled;
    /* After judge(), whether the values were right or not: the threads the
     * case's call (the first output's `what`) launched in all, from the
     * trace, at most the int fields count_of / per_of where per_of > 1 and
     * count_of > 0 (lab02's exercise 2: several elements per thread); over
     * it, `why`, a format of (call, threads, count, per, the limit) as
     * (const char *, long long, int, int, long long).  No trace, no kernel:
     * not judged (the device-execution policy says why).  why NULL: none. */
    struct {
        kit_at count_of, per_of;
        const char *why;
    } threads;
    /* After that, where `when` holds: a call's answer field by field (lab01's
     * query_device) against a reference the lab's truth() fills (`size`
     * bytes; -1 with why in err: no_truth, a format of why - the grading
     * machine's problem, not the student's).  Every field is fetched first
     * (each missing one named; then nothing is compared); each wrong one
     * fails: "CALL: WHAT is GOT, SOURCE says WANT", with " (never set: still
     * the kit's fill value)" where an int holds -1 (the harness's 0xFF
     * poison); text: "CALL: WHAT was never set, SOURCE says 'WANT'" where it
     * starts with a 0xFF byte, else "CALL: WHAT is 'GOT' ..." (kit_quote).
     * truth NULL: none. */
    struct {
        const char *call, *source;
        int (*truth)(void *ref, char *err, size_t len);
        size_t size;
        const char *no_truth;
        kit_check_field f[KIT_CHECK_MAX_FIELDS];
        kit_when when;
    } fields;
    /* Where timed is NULL, the driver's check of timed calls whose inputs
     * got an offset added (fresh.cuh's KIT_FRESH_OFFSET without a modulus,
     * on a computation that keeps order and ties: lab07's merge): `per`
     * sampled elements of the first output (an integer one, with a
     * reference) of each recorded call must be the reference's plus that
     * call's offset (its shift), so an output left from an earlier call
     * fails: "timed call K of WHAT (fresh FRESH each call): FRESH shifted by
     * S: ELEMENT[i] = got, expected exp" (WHAT: the output's).  When
     * nothing failed and `when` holds; per 0: none. */
    struct {
        const char *fresh, *element;
        int per;
        kit_when when;
    } timed_offset;
    /* Where timed is NULL, the driver's check of timed calls on fresh words
     * (fresh.cuh's KIT_FRESH_ROTATE_XOR: the data's u32 array `in`, `count`
     * words, rotated by shift and XORed with a 32-bit mask, recorded as the
     * scale): each of the `per` sampled words of each recorded call must be
     * element(data, its input word) - the word itself where element is NULL
     * (a copy: lab11's round trip) - so an output left from an earlier call
     * fails; a shift outside [0, count) or a mask that is no 32-bit value:
     * "timed call K of CALL: its inputs were not recorded".  Failures:
     * "timed call K of CALL (fresh FRESH each call): OUT[i] = got, expected
     * exp".  The first row whose `when` holds (call NULL ends the rows),
     * when nothing failed and the case has words. */
    kit_check_xor timed_xor[2];
    /* Where product.m is set, the first output is the float matrix product
     * C = A B of the data's fields (kit/product.h: m, n, k int fields, a and
     * b float pointer fields), declared without a reference: once every
     * output passed, kit_product_check judges it (every element up to
     * full_max products, else the sample and the probes, from the case's
     * seed and `stream`), `explain` after a wrong element; the evidence
     * input is A and B (where input and input_of are not set); and
     * timed_sampled without an element recomputes C's sampled elements on
     * A refreshed by whole rows (kit_product_element). */
    struct {
        kit_at m, n, k, a, b;
        const char *name; /* C, in messages */
        long long full_max;
        int edge, random, probes, stream;
        int tiles[KIT_PRODUCT_MAX_TILES];
        kit_product_explain explain;
    } product;
    /* Where `when` holds and nothing failed before (after judge()): lines
     * a call printed, one per thread of its one-dimensional launch of the
     * int fields blocks_of x threads_of threads (check_launch_lines.c), as
     * data: `words`, the line's three words before its numbers - the block,
     * the thread, the id (lab01: "block thread tid") - and `format`, the
     * line in messages ("block B thread T tid N").  Judged from the
     * runner's stdout before the kit's mark (what was visible when CALL
     * returned: device printf shows only at a synchronisation), in any
     * order, other lines ignored: each id 0 .. blocks*threads-1 printed
     * exactly once, on a line whose block and thread are in the launch and
     * give it (id = block * threads + thread); and the trace must show a
     * kernel of blocks*threads threads inside the call, so lines the host
     * printed do not count (no trace or no kernel: the policy says why).
     * The nouns of the messages are the words' (the id's plural: "tids").
     * With `launch`, the runner's record of the launch it asked for (i32
     * blocks, threads) comes first and must be the case's (missing, or
     * "the run used blocks=B threads=T, the case asks for B' x T'": the
     * lines are then not judged).  call NULL: none. */
    struct {
        const char *call, *words, *format;
        kit_at blocks_of, threads_of;
        kit_when when;
        const char *launch;
    } lines;
    /* After judge(), when nothing failed: each row that holds, the copies
     * its call's trace shows, at least per[k] * count_of bytes each way
     * (kit_check_copies, kit/timeline.h: lab11's round trips must go through
     * the device; lab02's vector_add could be held so).  call NULL: none. */
    kit_check_copy copies[KIT_CHECK_MAX_COPIES];
} kit_check;

/* A kit_check.fields truth: device 0's struct cudaDeviceProp as the CUDA
 * runtime gives it in the checker's own process (cudaGetDeviceProperties;
 * the runner's CUDA_VISIBLE_DEVICES), so a call that answers with some of
 * its fields is compared with it as data - rows at offsetof(struct
 * cudaDeviceProp, member), size sizeof(struct cudaDeviceProp) (lab01's
 * query_device).  -1 with the runtime's error in err ("no CUDA-capable
 * device is detected (cudaErrorNoDevice)").  check_device.c: a checker
 * that names it links the CUDA runtime. */
int kit_device_truth(void *prop, char *err, size_t len);

/* Defined by the lab's check.c. */
extern const kit_check KIT_CHECK;

/* The loop above on `lab` (lab_check() is kit_check_run(ctx, &KIT_CHECK)). */
int kit_check_run(kit_check_ctx *ctx, const kit_check *lab);

/* The same loop in three parts, for many outputs of one case (make bench:
 * every row of a case, where generating the inputs and computing the
 * references cost seconds of CPU each time).  open: step 1 once (NULL with
 * err filled when the parameters are bad); run: steps 2-5 on ctx's outputs,
 * each reference computed at the first run that reaches its output and
 * kept for the next (the hooks see the same data, read only); close: step 6. */
typedef struct kit_check_case kit_check_case;
kit_check_case *kit_check_case_open(const kit_check *lab, const kit_params *p, uint64_t seed, char *err, size_t len);
int kit_check_case_run(kit_check_ctx *ctx, kit_check_case *c);
void kit_check_case_close(kit_check_case *c);
/* kit_check_run on the case *held, opened at the first call (ctx's
 * parameters and seed) and left open for the next run of them (make
 * bench's rows; kit_check_run's own is closed at once). */
int kit_check_held(kit_check_ctx *ctx, const kit_check *lab, kit_check_case **held);

/* KIT_CHECK_DATASET(lab03): generate and release for KIT_CHECK from
 * dataset.h's lab03_generate and lab03_free on a lab03_data. */
#define KIT_CHECK_DATASET(prefix)                                                                          \
    static int check_generate(const kit_params *p, uint64_t seed, void *d, char *err, size_t len)           \
    {                                                                                                      \
        return prefix##_generate(p, seed, (prefix##_data *)d, err, len);                                    \
    }                                                                                                      \
    static void check_release(void *d) { prefix##_free((prefix##_data *)d); }

#ifdef __cplusplus
}
#endif
#endif
