/* dataset.h - lab09 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n        matrix size (0 <= n <= 4096)
 *              matrix   dd (default): strictly diagonally dominant, off-diagonal
 *                                     entries uniform in [-1, 1)
 *                       poisson:      5-point 2D Laplacian on a g x g grid, n = g^2
 *                       zerodiag:     A = L U with random well-conditioned factors,
 *                                     a_ii = 0 exactly for i = every, 2*every, ...
 *                                     but every leading minor nonsingular
 *                       singular:     dd except that the leading k x k minor is
 *                                     singular: Crout must stop at column k - 1
 *              every    zerodiag: spacing of the zero diagonal entries (default 3)
 *              k        singular: size of the singular leading minor
 *                       (2 <= k <= n, default n/2 + 1)
 *              type     float (default) | double
 *              impl     step (default): lu_crout / lu_crout_double
 *                       blocked:        lu_crout_blocked (float only)
 * The matrix is generated in double (common/'s kit_gen_*) and rounded to the
 * type once: `a` holds exactly what the student's function receives.
 */
#ifndef LAB09_DATASET_H
#define LAB09_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB09_MAX_N 4096

/* The outputs, as harness.cu writes them and check.c reads them: the status
 * (i32) and the factored matrix (f32 or f64, n*n). */
#define LAB09_OUT_STATUS "status"
#define LAB09_OUT_A "a"

/* Outputs of a benchmark run besides status and a: for a few timed calls
 * of the benchmarked function, the (shift, scale) of their fresh A (scale *
 * A with rows and columns rotated by shift: a symmetric permutation, so
 * diagonal dominance and definiteness survive; shift 0 for the other
 * classes) and LAB09_TIMED_LINES whole rows, then as many whole columns, of
 * the factored matrix (index, value), under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu).  The checker forms A - LU at
 * every crossing of a recorded row and column. */
#define LAB09_TIMED_LINES 4
/* Whether the benchmark's timed calls rotate this class (else: scale only). */
#define LAB09_TIMED_ROTATES(cls) ((cls) == LAB09_DD || (cls) == LAB09_POISSON)

typedef enum { LAB09_DD, LAB09_POISSON, LAB09_ZERODIAG, LAB09_SINGULAR } lab09_class;

typedef struct {
    int n;
    int nn;     /* n * n entries (< 2^24; int: the descriptors' counts, kit/field.h) */
    lab09_class cls;
    int is_double;
    int blocked;
    int k;      /* singular: size of the singular leading minor (Crout fails at column k-1) */
    int rotates; /* LAB09_TIMED_ROTATES(cls), a field for the descriptor's condition */
    int bytes;   /* of A in its type (n * n * 4 or 8 < 2^27): the input every call must read */
    double *a;  /* n x n row-major, already rounded to the type */
    double u;   /* unit roundoff of the type */
} lab09_data;

int lab09_generate(const kit_params *p, uint64_t seed, lab09_data *d, char *err, size_t errlen);
void lab09_free(lab09_data *d);

#ifdef __cplusplus
}
#endif
#endif
