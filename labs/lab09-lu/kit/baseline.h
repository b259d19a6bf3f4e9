/* baseline.h - lab09's kit-owned per-step Crout LU (the timing baseline). */
#ifndef LAB09_BASELINE_H
#define LAB09_BASELINE_H
/* In-place float Crout LU of the n x n device matrix d_a, one launch per
 * step, global memory only; same storage and status as lu_crout (lu.h). */
int kit_lu_step(float *d_a, int n);
#endif
