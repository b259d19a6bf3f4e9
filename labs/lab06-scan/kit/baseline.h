/* baseline.h - lab06's kit-owned scan in global memory (the timing baseline). */
#ifndef LAB06_BASELINE_H
#define LAB06_BASELINE_H
/* Kogge-Stone (Hillis-Steele) over the whole array in global memory: one
 * launch per stride, ping-ponging between d_out and a scratch array.
 * Returns 0, or -1 on a CUDA error (reported on stderr). */
int kit_scan_global(const float *d_in, float *d_out, int n);
#endif
