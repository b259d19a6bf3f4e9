/* gen.h - input generators for the labs.  All are driven by kit_rng, so a
 * (seed, parameters) pair always gives the same data on every machine.
 *
 * Distributions (documented because students reproduce failures with them):
 *  uniform   every value in [lo, hi] equally likely
 *  skewed    with probability p the value `hot`, otherwise uniform in [lo, hi]
 *            (two draws an element, hot or not: the decision, then the value)
 *            (p = 0.9 in the histogram lab: heavy atomic contention on one bin)
 *  equal     every value is `hot` (maximum contention)
 *  sorted    uniform values sorted ascending; with a small range this gives
 *            long runs of duplicates (merge stability)
 */
#ifndef KIT_GEN_H
#define KIT_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "kit/rng.h"
#ifdef __cplusplus
extern "C" {
#endif

void kit_gen_uniform_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi);
void kit_gen_skewed_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi, double p_hot,
                        int32_t hot);
void kit_gen_uniform_f32(kit_rng *r, float *out, size_t n, float lo, float hi);
/* The labs' float distributions by name: "uniform" -> values in [-1, 1),
 * "positive" -> [0, 1) (no cancellation: a lost or doubled term always shows).
 * Sets *lo (hi is 1); returns 0, or -1 with "dist must be uniform or positive
 * (got '...')" in err. */
int kit_gen_float_dist(const char *dist, float *lo, char *err, size_t errlen);
/* Sorted ascending, values uniform in [lo, hi] (duplicates when the range is small). */
void kit_gen_sorted_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi);

/* Compressed sparse row matrix; float values, int indices (as in the lab). */
typedef struct {
    int rows, cols;
    int64_t nnz;
    int *row_ptr; /* rows + 1 */
    int *col;     /* nnz, sorted within each row, no duplicates */
    float *val;   /* nnz */
} kit_csr;

/* Exactly `per_row` nonzeros in every row (capped at cols), distinct sorted
 * columns, values uniform in [-1, 1).  Returns 0 or -1 (allocation/size). */
int kit_gen_csr_fixed(kit_rng *r, kit_csr *m, int rows, int cols, int per_row);
/* Row lengths follow a power law: len = floor(max_per_row * u^alpha) with u
 * uniform (alpha > 1 gives many short rows and a few very long ones); a
 * fraction `empty_frac` of rows is forced empty (exactly round(empty_frac *
 * rows) rows chosen at random; other rows may also come out empty). */
int kit_gen_csr_powerlaw(kit_rng *r, kit_csr *m, int rows, int cols, int max_per_row, double alpha,
                         double empty_frac);
/* Copies arrays into a kit_csr (allocating); validates the structure: returns
 * -1 with err when row_ptr is not monotone, columns are out of range, ... */
int kit_csr_from_arrays(kit_csr *m, int rows, int cols, const int *row_ptr, const int *col,
                        const float *val, char *err, size_t errlen);
int kit_csr_validate(const kit_csr *m, char *err, size_t errlen);
void kit_csr_free(kit_csr *m);

/* Dense n x n row-major matrices (double; labs convert to float as needed). */
/* Strictly diagonally dominant by rows and columns: off-diagonal uniform in
 * [-1, 1), a_ii = +-(row/col sum of |off| + 1 + u): every leading minor nonsingular. */
void kit_gen_diag_dominant(kit_rng *r, double *a, int n);
/* The 5-point 2D Poisson matrix on a g x g grid (n = g*g): 4 on the diagonal,
 * -1 for grid neighbours.  Symmetric positive definite. */
void kit_gen_poisson2d(double *a, int g);
/* A = L*U with random well-conditioned unit-upper U and lower L, adjusted so
 * that the diagonal entries a_ii of the rows listed by `zero_every` (every
 * k-th row: i = k, 2k, 3k, ... 0-based; k >= 2) are exactly zero while every
 * leading minor stays nonsingular (|l_ii| >= 0.5): Crout without pivoting
 * must still succeed.  If l/u are not NULL the exact factors are returned. */
void kit_gen_zero_diag_regular(kit_rng *r, double *a, int n, int zero_every, double *l, double *u);
/* Diagonally dominant except that the leading k x k minor is singular
 * (its last row is a copy of the one above it): Crout must fail at column k-1. */
void kit_gen_singular_minor(kit_rng *r, double *a, int n, int k);

#ifdef __cplusplus
}
#endif
#endif
