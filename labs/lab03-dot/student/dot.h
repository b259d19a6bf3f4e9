/* dot.h - lab03: the functions the kit's harness calls.  Do not change this file:
 * the grader uses its own copy.
 *
 * d_a and d_b are DEVICE pointers to n elements each (the harness copied the
 * inputs to the GPU).  n >= 0.  Return the dot product sum_i a[i]*b[i].
 * The work must be done by your own kernels; the harness checks which kernels ran.
 */
#ifndef LAB03_DOT_H
#define LAB03_DOT_H

/* Part 1: shared-memory reduction of floats. */
float dot_shared(const float *d_a, const float *d_b, int n);

/* Part 2 (exercise 6): the same for ints.  The grader's inputs are chosen so
 * that every partial sum fits in an int. */
int dot_shared_int(const int *d_a, const int *d_b, int n);

#endif
