/* lu.h - lab09: the functions the kit's harness calls.  Do not change this
 * file: the grader uses its own copy.
 *
 * Crout LU factorization without pivoting, A = L U with L lower triangular
 * (its diagonal holds the pivots) and U UNIT upper triangular, of a dense
 * n x n matrix stored row by row: a[i*n + j] is row i, column j.
 *
 * In place: on return d_a holds L on and below the diagonal and U strictly
 * above it (U's diagonal of ones is not stored).  d_a is a DEVICE pointer;
 * n >= 0.  The work must be done by your own kernels.
 *
 * Pivots: without pivoting, Crout divides by l_jj at every step.  A pivot
 * counts as zero when
 *     |l_jj| <= LU_PIVOT_RTOL(n, u) * s_j,
 *     s_j = the largest |a_jk| or |a_kj| over row j and column j of the
 *           ORIGINAL matrix, u = LU_U_FLOAT or LU_U_DOUBLE,
 * (rounding errors make an exact "l_jj == 0" test useless: see the handout).
 * Then stop: return j + 1 for the first such column j and never divide by
 * that pivot - no NaN or infinity may appear anywhere in d_a.  Otherwise
 * return LU_OK.
 */
#ifndef LAB09_LU_H
#define LAB09_LU_H

#define LU_OK 0
#define LU_U_FLOAT 5.9604644775390625e-08  /* 2^-24 */
#define LU_U_DOUBLE 1.1102230246251565e-16 /* 2^-53 */
#define LU_PIVOT_RTOL(n, u) (16.0 * (double)(n) * (u))

/* Part 1: one kernel launch per step j computes column j of L and row j of
 * U; the launch boundary orders the steps. */
int lu_crout(float *d_a, int n);
int lu_crout_double(double *d_a, int n);

/* Part 2: blocked - the update of the trailing matrix is done tile by tile
 * in shared memory. */
int lu_crout_blocked(float *d_a, int n);

#endif
