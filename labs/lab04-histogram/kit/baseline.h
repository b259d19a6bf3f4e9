/* baseline.h - lab04's kit-owned global-atomics histogram (the timing baseline). */
#ifndef LAB04_BASELINE_H
#define LAB04_BASELINE_H
/* Clears d_bins, then one thread per element does atomicAdd on the global
 * counter of its value.  Returns 0, or -1 on a CUDA error (reported on stderr). */
int kit_histogram_global(const int *d_in, int n, unsigned int *d_bins, int bins);
#endif
