/* spmv.h - lab08: the function the kit's harness calls.  Do not change this
 * file: the grader uses its own copy.
 *
 * y = A x for a sparse matrix A of `rows` rows in CSR form:
 *   the nonzeros of row i are d_val[k] in columns d_col[k] for
 *   k = d_row_ptr[i] .. d_row_ptr[i+1]-1   (columns ascending within a row);
 *   d_row_ptr has rows + 1 entries, d_row_ptr[0] = 0; a row may be empty
 *   (d_row_ptr[i] == d_row_ptr[i+1]): its y[i] is 0.
 * d_x has one entry per column of A, d_y one per row.  All are DEVICE
 * pointers; rows >= 0.  The work must be done by your own kernels: the
 * harness records which kernels ran.
 */
#ifndef LAB08_SPMV_H
#define LAB08_SPMV_H

/* The vector kernel: one warp per row, the warp's lanes share the row's
 * nonzeros and add their partial sums with a warp reduction. */
void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y);

#endif
