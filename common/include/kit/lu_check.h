/* lu_check.h - an LU factorization judged by its backward error, against
 * reference factors, and on its timed calls (lab09's checker; the reference
 * factors: kit_ref_crout, kit/ref.h).
 *
 * The factors are stored in place, Crout's way: L on and below the
 * diagonal, U strictly above it, U's unit diagonal implicit; the checker
 * holds them in double.  u is the unit roundoff of the factorization's type,
 * u_d that of double (the checker's own arithmetic), gamma_k(u) = k u / (1 -
 * k u).
 *
 * Backward error (rigorous).  Any LU variant in precision u, whatever the
 * order of its sums, gives computed factors with
 *     |A - L U| <= gamma_n(u) |L| |U|         (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., thm 9.3), with |L|, |U| the
 * COMPUTED factors.  kit_lu_backward(exact) forms A - LU entry by entry in
 * double and allows, per entry, gamma_n(u) (|L||U|)_ij + gamma_{n+1}(u_d)
 * (|A| + |L||U|)_ij, the second term covering its own rounding, and reports
 * ||A - LU||_F / ||A||_F.  Where O(n^3) would take too long (not exact) it
 * probes with three random vectors x: |A x - L (U x)| <= gamma_n(u) |L| (|U|
 * |x|) + gamma_{2n+2}(u_d) (|A| |x| + |L| (|U| |x|)) row by row - it holds
 * because |(A - LU) x| <= |A - LU| |x|, and a wrong entry of the factors
 * shows in A x - L(U x) unless three random x all cancel it.
 *
 * Factors against the reference, step by step (kit_lu_factors), so that the
 * first wrong column of L / row of U is named: the entries of step j carry
 * the rounding errors of their own sums, bounded by gamma_n(u) (|A| +
 * |L||U|) (|L||U| of the reference factors; for U's row divided by |l_jj|),
 * plus what they inherit from earlier steps, which stays within a small
 * multiple of the local bound for well-conditioned factors: `slack` times
 * it is allowed.
 */
#ifndef KIT_LU_CHECK_H
#define KIT_LU_CHECK_H
#include <stddef.h>
#include "kit/checker.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;
    const double *A; /* n x n, row-major */
    const double *F; /* the factors in place (above), in double */
    double u;        /* the unit roundoff of the factorization's type */
} kit_lu;

/* "L[i][j] (column j of L)" or "U[i][j] (row i of U)" for entry (i, j) of the factors. */
void kit_lu_entry_name(int i, int j, char *buf, size_t len);

/* The backward error, entry by entry (exact) or by probes (the header's
 * comment); fails naming the worst entry, or the first wrong row; a note of
 * ||A - LU||_F / ||A||_F where it was formed. */
void kit_lu_backward(kit_check_ctx *ctx, const kit_lu *f, int exact);
/* ||A - LU||_F / ||A||_F (||A - LU||_F where A is 0), formed as
 * kit_lu_backward forms it entry by entry: O(n^3).  In lu_residual.c, apart
 * from the judgement: a runner calls it (lab09's show mode) without linking
 * the checker. */
double kit_lu_relative_residual(const kit_lu *f);
/* The factored matrix m - n x n floats, or doubles where is_double - as
 * kit_lu.F holds it, in double (at least one element; the caller frees it):
 * what the checker judges and a runner's show mode forms the ratio of
 * (lab09's); in lu_residual.c. */
double *kit_lu_in_double(int n, int is_double, const void *m);

/* The entries of steps 0 .. steps-1 (column j of L, row j of U) against the
 * reference factors L and U (n x n each), within slack times their local
 * bound; fails naming the earliest wrong step.  1 when right. */
int kit_lu_factors(kit_check_ctx *ctx, const kit_lu *f, const double *L, const double *U, int steps, double slack);

/* A benchmark run's timed calls of `call` (kit/timed.h): `lines` whole rows,
 * then as many whole columns, of each recorded call's factors (f32), on A
 * refreshed as scale * (A with rows and columns rotated by shift, shifts
 * below shift_limit: fresh.cuh's ROTATE_SQUARE).  At every crossing (i, j) of
 * a recorded row and column the entry of A - LU is formed and held to the
 * backward error's bound, so a factorization remembered from an earlier call
 * (or A left unfactored) fails.  f->F is not used. */
void kit_lu_timed(kit_check_ctx *ctx, const kit_lu *f, int lines, int64_t shift_limit, const char *call);

#ifdef __cplusplus
}
#endif
#endif
