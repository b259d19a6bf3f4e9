/* baseline.h - lab12's kit-owned global-memory version of toeplitz_matvec
 * (the timing baseline). */
#ifndef LAB12_BASELINE_H
#define LAB12_BASELINE_H
/* u = A p as toeplitz_matvec.h says, one thread per point of u, every B and
 * p read from global memory (the thesis's Algorithm 4.2). */
void kit_toeplitz_matvec_global(const float *d_B, const float *d_p, float *d_u, int nx, int ny);
#endif
