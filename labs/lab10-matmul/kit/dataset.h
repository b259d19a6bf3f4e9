/* dataset.h - lab10 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  m, n, k  C = A B with A m x k, B k x n, C m x n (each 0 .. 2^16,
 *                       every matrix at most 2^26 elements); n defaults to m,
 *                       k to n, so "m=512" is a square product
 *              dist     uniform (default): entries uniform in [-1, 1)
 *                       positive: uniform in [0, 1) (no cancellation: a lost
 *                                 or extra product always shows)
 * Never constant matrices: a student report tested with all-ones A and a constant
 * B, where a product taken from the wrong row or column has the right value.
 */
#ifndef LAB10_DATASET_H
#define LAB10_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB10_MAX_DIM (1 << 16)
#define LAB10_MAX_ELEMS (1LL << 26)

/* The output, as harness.cu writes it and check.c reads it: C, m*n floats. */
#define LAB10_OUT_C "c"

/* Outputs of a benchmark run besides c: for a few timed calls, the
 * (shift, scale) of their fresh A (rows rotated by shift / k, scaled) and
 * LAB10_TIMED_SAMPLE sampled elements of C (index, value) each, under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */
#define LAB10_TIMED_SAMPLE 1024

typedef struct {
    int m, n, k;
    int a_count, b_count, c_count; /* m k, k n, m n (int: the descriptors' counts, kit/field.h) */
    int nonempty;                  /* m, n, k > 0: C has a product to compute (else no kernel is needed) */
    float *a; /* m x k */
    float *b; /* k x n */
} lab10_data;

int lab10_generate(const kit_params *p, uint64_t seed, lab10_data *d, char *err, size_t errlen);
void lab10_free(lab10_data *d);

#ifdef __cplusplus
}
#endif
#endif
