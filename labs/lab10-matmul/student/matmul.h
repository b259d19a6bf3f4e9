/* matmul.h - lab10: the function the kit's harness calls.  Do not change this
 * file: the grader uses its own copy.
 *
 * C = A B for row-major float matrices stored row by row:
 *   A is m x k   (a[i*k + p] is row i, column p),
 *   B is k x n   (b[p*n + j]),
 *   C is m x n   (c[i*n + j] = sum over p of a[i*k + p] * b[p*n + j]).
 * d_a, d_b, d_c are DEVICE pointers; m, n, k >= 0 and need not be multiples
 * of anything.  k == 0 means C is all zeros; m == 0 or n == 0 means C is
 * empty.  Every element of C must be written: the harness fills C with NaN
 * before the call.  The work must be done by your own kernels (no cuBLAS).
 */
#ifndef LAB10_MATMUL_H
#define LAB10_MATMUL_H

/* Tiled: each block computes one tile of C, walking along a strip of A and a
 * strip of B one tile at a time through shared memory. */
void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k);

#endif
