/* baseline.h - lab03's kit-owned global-memory dot product (the timing baseline). */
#ifndef LAB03_BASELINE_H
#define LAB03_BASELINE_H
/* Every product written to global memory, then summed by halving passes in
 * global memory (one launch per pass).  Returns the dot product. */
float kit_dot_global(const float *d_a, const float *d_b, int n);
#endif
