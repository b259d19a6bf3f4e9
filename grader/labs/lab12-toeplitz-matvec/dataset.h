/* dataset.h - lab12 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n      number of elements (0 <= n <= 2^27)
 * Inputs:      in     n floats, uniform in [-1, 1)
 */
#ifndef LAB12_DATASET_H
#define LAB12_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Output elements of a few timed calls a benchmark run records for the
 * checker (KIT_KEY_TIMED_*, kit/protocol.h; see harness.cu). */
#define LAB12_TIMED_SAMPLE 4096

typedef struct {
    int n;
    float *in;
} lab12_data;

int lab12_generate(const kit_params *p, uint64_t seed, lab12_data *d, char *err, size_t errlen);
void lab12_free(lab12_data *d);

#ifdef __cplusplus
}
#endif
#endif
