/* conv1d.h - lab05: the functions the kit's harness calls.  Do not change
 * this file: the grader uses its own copy.
 *
 * 1D convolution, output size = input size, mask of odd length centred on
 * each element; terms whose input index falls outside [0, n) are left out:
 *
 *     out[i] = sum over j in [0, mask_size) with 0 <= i + j - mask_size/2 < n
 *              of  mask[j] * in[i + j - mask_size/2]
 *
 * d_in and d_out are DEVICE pointers to n elements each (n >= 0; d_out holds
 * garbage on entry).  h_mask is a HOST pointer to mask_size values; mask_size
 * is odd and 1 <= mask_size <= CONV_MAX_MASK.  Copy the mask into __constant__
 * memory (cudaMemcpyToSymbol) before your kernel runs.  The work must be done
 * by your own kernels; the harness checks which kernels ran.
 */
#ifndef LAB05_CONV1D_H
#define LAB05_CONV1D_H

#define CONV_MAX_MASK 31

/* Exercise 15: each block copies the input it needs - its own elements plus
 * mask_size/2 neighbours on each side (the halo) - into shared memory, all
 * threads taking part, then computes from shared memory. */
void conv1d_tiled(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size);

/* The same for ints (the classic programs use int data).  The grader's
 * inputs keep every sum well inside the int range. */
void conv1d_tiled_int(const int *d_in, int *d_out, int n, const int *h_mask, int mask_size);

/* Exercise 16: the tile holds only the block's own elements (tile width =
 * block width); the halo elements, which only a few threads use, are read
 * from global memory. */
void conv1d_halo_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size);

#endif
