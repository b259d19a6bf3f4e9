/* baseline.h - lab10's kit-owned global-memory matrix multiply (the timing baseline). */
#ifndef LAB10_BASELINE_H
#define LAB10_BASELINE_H
/* C = A B (m x k times k x n, row-major, device pointers): one thread per
 * element of C, every operand read from global memory. */
void kit_matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k);
#endif
