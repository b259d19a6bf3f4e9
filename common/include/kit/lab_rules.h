/* lab_rules.h - the rules of a student call, as data the lab declares and
 * code the driver (lab_driver.cu) applies; plain C, so unit tests hold them
 * without a GPU (common/tests/test_lab_rules.c).
 *
 * A lab describes each student call (kit_lab_call): its name as the checker
 * knows it, whether it may launch no kernel, the function that makes it, and
 * its outputs.  Every output declares its poison - the bytes written over it
 * before the call, so an element the call never writes cannot pass - or says
 * that it has none on purpose (KIT_POISON_NONE: the call factors its input in
 * place), or the complement of the data (KIT_POISON_COMPLEMENT: lab11's words).  A call whose declaration breaks a rule is not made: the driver says
 * which rule and returns a harness error.
 */
#ifndef KIT_LAB_RULES_H
#define KIT_LAB_RULES_H
#include <stddef.h>
#include <stdint.h>
#include "kit/blob.h"
#ifdef __cplusplus
extern "C" {
#endif

/* kit_lab_out.poison: 0 (not declared) is refused. */
#define KIT_POISON(byte) (0x100 | ((byte) & 0xFF)) /* every byte of the output, before the call */
#define KIT_POISON_NONE 0x200                      /* none on purpose (say why where it is declared) */
/* Each 4-byte element the complement of the same element of complement_of
 * (host memory, count elements): differs from the right value wherever it is
 * its input's (lab11's round trips), or rarely equals it (lab11's mixed words). */
#define KIT_POISON_COMPLEMENT 0x400

#define KIT_LAB_MAX_OUTS 4
#define KIT_LAB_MAX_METRICS 6

/* One output of a student call. */
typedef struct {
    const char *name; /* its record (dataset.h); NULL: poisoned and read back for the lab's after() only */
    kit_type type;
    void *at;         /* where the call leaves it: device memory, or host memory when on_host */
    int on_host;
    uint64_t count;   /* elements */
    size_t stride;    /* bytes from one element to the next at `at` (0: the type's size) */
    size_t offset;    /* of the element in each stride (lab07's records: key 0, tag 4) */
    int poison;       /* KIT_POISON(byte), KIT_POISON_COMPLEMENT or KIT_POISON_NONE */
    const void *complement_of; /* KIT_POISON_COMPLEMENT: the words it is poisoned with the complement of */
} kit_lab_out;

typedef struct {
    const char *name;      /* the traced call: "dot_shared" */
    int kernel_optional;   /* the call may launch no kernel (an empty input, a query, copies) */
    void (*invoke)(void *state); /* makes the call (a kit_timed_fn too: show mode times it) */
    kit_lab_out out[KIT_LAB_MAX_OUTS];
    int n_out;
} kit_lab_call;

/* 0 when c may be made; else -1 with why in err ("output 'c' declares no poison"). */
int kit_lab_check_call(const kit_lab_call *c, char *err, size_t len);
/* The kernel_optional the driver sets: the declaration's, or 1 when every
 * output is empty (nothing to compute). */
int kit_lab_kernel_optional(const kit_lab_call *c);
/* Bytes between two elements of out; bytes poisoned and allocated for it
 * (at least one element, as the labs allocate); bytes read back. */
size_t kit_lab_out_stride(const kit_lab_out *o);
size_t kit_lab_out_span(const kit_lab_out *o);
size_t kit_lab_out_bytes(const kit_lab_out *o);
/* The first output before out[i] with the same buffer, or i: a buffer is
 * poisoned and read back once, whatever it holds (lab07: keys and tags). */
int kit_lab_out_first(const kit_lab_call *c, int i);
/* KIT_POISON_COMPLEMENT: out's count words of poison into dst (its buffer,
 * or a host copy the driver uploads). */
void kit_lab_complement(const kit_lab_out *o, void *dst);
/* out[i]'s elements, packed, from raw (the buffer read back). */
void kit_lab_out_unpack(const kit_lab_out *o, const void *raw, void *packed);
/* The record name of a metric: KIT_KEY_METRIC_PREFIX + label, "%s" in the
 * label replaced by fn (the timed function). */
void kit_lab_metric_key(const char *label, const char *fn, char *key, size_t len);
/* Metric `label`'s value in a record of bench mode, whatever function's
 * name (a C identifier) the driver put for its "%s"; 0 when it has none. */
double kit_lab_metric_find(const kit_blobfile *b, const char *label);

#ifdef __cplusplus
}
#endif
#endif
