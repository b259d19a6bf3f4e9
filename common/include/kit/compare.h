/* compare.h - comparing a GPU result with the CPU reference.
 *
 * Floating-point results are compared element by element against a bound
 * derived from an error analysis of the computation (number of terms, unit
 * roundoff, sum of magnitudes), never against a fixed constant.  Integer
 * results must be exact.  NaN and infinities never pass, a wrong length never
 * passes.  The result records what a student needs to find the bug: how many
 * elements differ, the first wrong index with expected/got/bound, and the
 * largest error relative to its bound.
 */
#ifndef KIT_COMPARE_H
#define KIT_COMPARE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_U_F32 5.9604644775390625e-08 /* 2^-24, unit roundoff of float */
#define KIT_U_F64 1.1102230246251565e-16 /* 2^-53, unit roundoff of double */

/* Higham's gamma_k = k u / (1 - k u); +inf when k u >= 1. */
double kit_gamma(double k, double u);

/* Bound on |computed - exact| for a sum of `terms` rounded terms whose
 * magnitudes sum to `sum_abs`, in any order of evaluation:
 *   min( gamma_terms(u),  lambda*sqrt(terms)*u + terms*u^2 )  * sum_abs
 * The first is the worst case (Higham, Accuracy and Stability, thm 4.4 / 3.1);
 * the second the probabilistic bound of Higham & Mary (2019) with
 * lambda = KIT_LAMBDA, which fails with probability < 1e-13 for independent
 * roundings and keeps the bound meaningful when terms*u approaches 1.
 * Products feeding the sum (dot, convolution, SpMV) count as one more term. */
#define KIT_LAMBDA 8.0
double kit_sum_bound(double terms, double sum_abs, double u);
/* b[i] = kit_sum_bound(terms + (per_index ? i : 0), b[i], u) for i < n, the
 * same values (on threads: each element alone, so the same on any number). */
void kit_sum_bounds(double *b, size_t n, double terms, int per_index, double u);

typedef struct {
    size_t expected_len, got_len;
    size_t n_bad;           /* elements outside their bound (NaN/Inf included) */
    size_t first_bad;       /* SIZE_MAX when none */
    double first_expected, first_got, first_bound;
    double max_ratio;       /* max |got-exp| / bound over all elements (inf for NaN) */
    size_t max_ratio_index;
    int length_mismatch;
    int nan_seen;           /* a NaN or Inf was returned */
    int exact;              /* integer comparison */
} kit_cmp;

/* got[i] vs exp[i] within bound[i] (bound may be NULL: exact comparison of doubles). */
void kit_cmp_f32(kit_cmp *r, const float *got, size_t got_len, const double *exp, const double *bound,
                 size_t exp_len);
void kit_cmp_f64(kit_cmp *r, const double *got, size_t got_len, const double *exp, const double *bound,
                 size_t exp_len);
void kit_cmp_i32(kit_cmp *r, const int32_t *got, size_t got_len, const int64_t *exp, size_t exp_len);
void kit_cmp_i64(kit_cmp *r, const int64_t *got, size_t got_len, const int64_t *exp, size_t exp_len);
void kit_cmp_u32(kit_cmp *r, const uint32_t *got, size_t got_len, const uint64_t *exp, size_t exp_len);
/* One scalar (a dot product, a total). */
void kit_cmp_scalar(kit_cmp *r, double got, double exp, double bound);

int kit_cmp_ok(const kit_cmp *r);
/* One line for a student: "3 of 257 elements differ; first wrong index 256:
 * expected 12.5, got 0 (allowed error 1.2e-06); largest error 4.1e+03 x its bound at index 256".
 * Returns the length written (snprintf semantics). */
int kit_cmp_describe(const kit_cmp *r, char *buf, size_t len);

/* Norm-wise check: ||got - exp||_2 <= rel_bound * ||exp||_2 (NaN fails).
 * Fills r (first_bad = first element where |got-exp| > rel_bound*||exp||_inf
 * for orientation) and returns the relative error through *rel_err. */
void kit_cmp_norm_f64(kit_cmp *r, const double *got, const double *exp, size_t n, double rel_bound,
                      double *rel_err);

#ifdef __cplusplus
}
#endif
#endif
