/* ref.h - CPU reference implementations of every lab's computation, in higher
 * precision (double) or exact integers.  Where a float result is compared,
 * the reference also returns the sum of magnitudes that the error bound of
 * compare.h needs.
 */
#ifndef KIT_REF_H
#define KIT_REF_H
#include <stddef.h>
#include <stdint.h>
#include "kit/gen.h"
#ifdef __cplusplus
extern "C" {
#endif

/* c[i] = a[i] + b[i], exact in double. */
void kit_ref_vadd_f32(const float *a, const float *b, double *c, size_t n);
/* Dot product in double (each product exact); *sum_abs = sum |a_i b_i|. */
double kit_ref_dot_f32(const float *a, const float *b, size_t n, double *sum_abs);
int64_t kit_ref_dot_i32(const int32_t *a, const int32_t *b, size_t n);
/* counts[v] for v in [0, bins).  Returns the number of values outside
 * [0, bins) (which are not counted). */
size_t kit_ref_histogram(const int32_t *in, size_t n, int bins, uint64_t *counts);
/* 1D convolution, output size = input size, mask of odd length m centred on i:
 *   out[i] = sum_{j=0}^{m-1} mask[j] * in[i + j - m/2],
 * terms whose input index falls outside [0, n) are ignored (not clamped,
 * not wrapped).  out_abs (may be NULL) gets sum |mask[j]*in[...]|. */
void kit_ref_conv1d_f32(const float *in, size_t n, const float *mask, int m, double *out, double *out_abs);
void kit_ref_conv1d_i32(const int32_t *in, size_t n, const int32_t *mask, int m, int64_t *out);
/* Inclusive scan: out[i] = in[0] + ... + in[i]; out_abs[i] = |in[0]|+...+|in[i]|. */
void kit_ref_scan_f32(const float *in, size_t n, double *out, double *out_abs);
void kit_ref_scan_i32(const int32_t *in, size_t n, int64_t *out);
/* Whether out is an inclusive scan of in restarted every `block` elements
 * (0: never), out[i] = in[i - i % block] + ... + in[i]: the first i < n
 * where it is not - exactly for ints, beyond kit_sum_bound(i % block + 1,
 * the magnitudes, u_float) from a running double sum for floats - or n.
 * (lab06: its show mode's "is out a scan of in", its checker's "a scan of
 * each block on its own".) */
size_t kit_scan_first_wrong_f32(const float *in, const float *out, size_t n, size_t block);
size_t kit_scan_first_wrong_i32(const int32_t *in, const int32_t *out, size_t n, size_t block);
/* Stable merge of sorted a (m) and b (n) into c (m+n): on ties a's elements
 * come first.  If src is not NULL, src[k] tells where c[k] came from:
 * index i in a as i, index j in b as m + j. */
void kit_ref_merge_i32(const int32_t *a, size_t m, const int32_t *b, size_t n, int32_t *c, uint32_t *src);
/* y = A x in double; y_abs[i] = sum_j |a_ij x_j| (for the bound, whose term
 * count for row i is that row's nnz; y_abs may be NULL). */
void kit_ref_spmv_csr(const kit_csr *A, const float *x, double *y, double *y_abs);

/* Crout LU without pivoting: A = L U, L lower (with its diagonal), U unit
 * upper.  Row-major n x n; l and u are full n x n arrays (zeros outside the
 * triangles).  A pivot l_jj is rejected when
 *   |l_jj| <= pivot_rel_tol * max(|a_jj|, max_{k} |a_jk|, max_k |a_kj|)
 * (a relative threshold, never an exact "== 0" test).  Returns 0 on success,
 * or KIT_LU_SINGULAR with *fail_col = j; the factors are then incomplete but
 * contain no NaN.  pivot_rel_tol <= 0 selects n * KIT_U_F64 * 16. */
#define KIT_LU_OK 0
#define KIT_LU_SINGULAR 1
int kit_ref_crout(const double *a, int n, double *l, double *u, double pivot_rel_tol, int *fail_col);

#ifdef __cplusplus
}
#endif
#endif
