/* baseline.h - lab12's kit-owned version of toeplitz_matvec (the timing baseline). */
#ifndef LAB12_BASELINE_H
#define LAB12_BASELINE_H
/* out[i] = in[i] * in[i] + 1 on device arrays, one thread per element. */
void kit_toeplitz_matvec_global(const float *d_in, float *d_out, int n);
#endif
