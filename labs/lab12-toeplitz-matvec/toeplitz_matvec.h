/* toeplitz_matvec.h - lab12: the function the kit's harness calls.  Do not change this
 * file: the grader uses its own copy.
 *
 * d_in and d_out are DEVICE pointers to n floats each (the harness copied the
 * input to the GPU and filled d_out with NaN).  n >= 0.  Write
 * out[i] = in[i] * in[i] + 1 for every i < n, with your own kernel.
 */
#ifndef LAB12_TOEPLITZ_MATVEC_H
#define LAB12_TOEPLITZ_MATVEC_H

void toeplitz_matvec(const float *d_in, float *d_out, int n);

#endif
