/* dataset.h - lab05 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n        number of elements (>= 0)
 *              mask     mask size, odd, 1 <= mask <= CONV_MAX_MASK (default 5)
 *              type     float (default) | int
 *              variant  tiled (default): conv1d_tiled / conv1d_tiled_int
 *                       halo: conv1d_halo_global (exercise 16; float only)
 *              data     random (default): floats uniform in [-1, 1) for input
 *                                 and mask; ints nonzero in [-9, 9] (input)
 *                                 and [-4, 4] (mask), so |out| <= 36 * mask
 *                       example: the worked example of the handout,
 *                                 input {3,1,0,2,6,3,4,1}, mask {1,2,3,2,1}
 *                                 (n and mask are then ignored)
 */
#ifndef LAB05_DATASET_H
#define LAB05_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The output, as harness.cu writes it and check.c reads it: the n sums. */
#define LAB05_OUT "out"

/* Outputs of a benchmark run besides out: for a few timed calls, the
 * (shift, scale) of their fresh input and LAB05_TIMED_SAMPLE sampled output
 * elements (index, value) each, under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */
#define LAB05_TIMED_SAMPLE 4096

typedef struct {
    int is_int, halo, example;
    int n, mask_size;
    int radius;          /* mask_size / 2: outputs this close to an end have terms outside [0, n) */
    float *fin, *fmask;  /* type=float */
    int32_t *iin, *imask; /* type=int */
} lab05_data;

int lab05_generate(const kit_params *p, uint64_t seed, lab05_data *d, char *err, size_t errlen);
void lab05_free(lab05_data *d);

#ifdef __cplusplus
}
#endif
#endif
