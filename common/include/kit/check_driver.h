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
 *      element for floats, exactly for integers), then the output's `after`
 *      hook (a note on a pass, an explanation of a failure).  The first
 *      output that fails ends the loop: later outputs are not looked at;
 *   4. the lab's own judgement (`judge`), told whether every output passed;
 *   5. the timed calls of a benchmark run (`timed`), when nothing failed
 *      (or always, `timed_always`);
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
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_CHECK_MAX_OUT 8

typedef struct kit_check_got kit_check_got;

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
} kit_check_output;

/* An output as the driver found it. */
struct kit_check_got {
    const kit_check_output *out;
    const void *got;     /* NULL: missing, or not reached (an earlier output failed) */
    uint64_t count;
    kit_check_ref ref;   /* the reference (all NULL without one) */
    kit_cmp cmp;         /* with a reference */
    int ok;              /* present, the right length and (with a reference) right */
};

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
} kit_check;

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
