/* dataset.h - lab03 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n      number of elements (>= 0)
 *              type   float (default) | int
 *              dist   uniform: floats in [-1, 1)   (default)
 *                     positive: floats in [0, 1)   (no cancellation: a lost
 *                               block shows at large n)
 *              ints are always uniform in [-3, 3], so |partial sums| <= 9n fits in int for n < 2^27.
 *              variant dot (default): the graded dot product
 *                      ladder: `make run-lab03` only - times the four block
 *                              reductions of the ladder (ladder.h) on n
 *                              floats (default 2^24, a multiple of 512)
 */
#ifndef LAB03_DATASET_H
#define LAB03_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The outputs, as harness.cu writes them and check.c reads them: the one
 * result of dot_shared (float) or of dot_shared_int.  A benchmark run adds
 * the result of a few timed calls of dot_shared with the (shift, scale) of
 * their b, under the KIT_KEY_TIMED_* names (kit/protocol.h, kit/timed.h). */
#define LAB03_OUT_RESULT "result"
#define LAB03_OUT_RESULT_INT "result_int"

typedef struct {
    int is_int;
    int ladder; /* variant=ladder */
    int n;
    float *fa, *fb;
    int32_t *ia, *ib;
} lab03_data;

int lab03_generate(const kit_params *p, uint64_t seed, lab03_data *d, char *err, size_t errlen);
void lab03_free(lab03_data *d);

#ifdef __cplusplus
}
#endif
#endif
