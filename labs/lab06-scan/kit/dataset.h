/* dataset.h - lab06 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  part   1: scan_block / scan_block_int (one block, n <= SCAN_BLOCK_MAX)
 *                     2: scan / scan_int (any n; default)
 *              n      number of elements (>= 0)
 *              type   float (default) | int
 *              dist   uniform: floats in [-1, 1) (default)
 *                     positive: floats in [0, 1) (prefixes grow with i: a
 *                               lost or doubled block shows clearly)
 *              ints are always uniform in [-8, 8], so |prefix| <= 8n fits in
 *              an int for n < 2^28.
 */
#ifndef LAB06_DATASET_H
#define LAB06_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The output, as harness.cu writes it and check.c reads it: the n prefixes. */
#define LAB06_OUT "out"

/* Outputs of a benchmark run besides out: for a few timed calls of scan,
 * the (shift, scale) of their fresh input and LAB06_TIMED_SAMPLE sampled
 * output elements (index, value) each, under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */
#define LAB06_TIMED_SAMPLE 4096

typedef struct {
    int part, is_int, n;
    float *fin;
    int32_t *iin;
} lab06_data;

int lab06_generate(const kit_params *p, uint64_t seed, lab06_data *d, char *err, size_t errlen);
void lab06_free(lab06_data *d);
/* The name of the function a case calls ("scan_block", "scan_int", ...). */
const char *lab06_function(const lab06_data *d);

#ifdef __cplusplus
}
#endif
#endif
