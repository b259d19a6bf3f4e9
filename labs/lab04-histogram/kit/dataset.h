/* dataset.h - lab04 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n      number of input values (>= 0)
 *              bins   number of bins, 1 <= bins <= HISTO_MAX_BINS (default 256)
 *              dist   uniform: every value in [0, bins) equally likely (default)
 *                     skewed:  90% of the values are one "hot" bin, the rest
 *                              uniform (heavy atomic contention on one counter)
 *                     equal:   every value is the hot bin (maximum contention)
 *                     modulo:  value i % bins - the data a student report tested
 *                              with.  Only for the handout's first exercise
 *                              (it hides both of the starter's bugs when
 *                              bins divides 256); no test uses it.
 *              The hot bin is drawn from the seed, so it moves from run to run.
 */
#ifndef LAB04_DATASET_H
#define LAB04_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB04_SKEW_P 0.9

/* The output, as harness.cu writes it and check.c reads it: the counts. */
#define LAB04_OUT_BINS "bins"

/* A benchmark run also records the whole histogram of a few timed calls of
 * histogram_shared, with the offset their input values were shifted by
 * (v became (v + offset) % bins), under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */

typedef struct {
    int n, bins;
    int32_t hot;     /* the bin that skewed/equal data favour */
    int32_t *in;     /* n values in [0, bins) */
} lab04_data;

int lab04_generate(const kit_params *p, uint64_t seed, lab04_data *d, char *err, size_t errlen);
void lab04_free(lab04_data *d);

#ifdef __cplusplus
}
#endif
#endif
