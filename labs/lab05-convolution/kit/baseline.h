/* baseline.h - lab05's kit-owned convolution without tiling (the timing baseline). */
#ifndef LAB05_BASELINE_H
#define LAB05_BASELINE_H
/* Exercise 13's version: the mask copied from the host into an ordinary
 * device array (global memory) on every call - as the student's function
 * copies it into constant memory - then one thread per output reading its
 * inputs and the mask from global memory, no tile.  mask_size <= CONV_MAX_MASK.
 * Returns 0, or -1 on a CUDA error (reported on stderr). */
int kit_conv1d_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size);
#endif
