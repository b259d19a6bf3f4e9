/* dataset.h - lab11 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  part     1: pinned_alloc + round_trip;  2 (default): process_streams
 *              n        number of 32-bit words (part 1: 1 .. 2^28; part 2: 0 .. 2^26)
 *              chunks   part 2: 1 .. 1024 (default 8)
 *              streams  part 2: 1 .. 32 (default 4)
 *              rounds   part 2: rounds of lab11_mix per element, 0 .. 4096 (default 64)
 *              min_overlap  part 2, checker only: the fraction of the shorter of
 *                       (copy time, kernel time) that must overlap the other,
 *                       measured from the CUPTI timeline (absent: not judged)
 * Data: uniformly random 32-bit words.
 */
#ifndef LAB11_DATASET_H
#define LAB11_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The outputs, as harness.cu writes them and check.c reads them: Part 1's
 * round trips (u32, n each) and what kind of memory pinned_alloc returned
 * (text); Part 2's results (u32, n). */
#define LAB11_OUT_BACK_PAGEABLE "back_pageable"
#define LAB11_OUT_BACK_PINNED "back_pinned"
#define LAB11_OUT_PINNED_KIND "pinned_kind"
#define LAB11_OUT "out"

/* Outputs of a benchmark run besides the checked call's: for a few timed
 * calls (Part 1: round_trip between pinned_alloc's buffers; Part 2:
 * process_streams), the rotation (shift) and 32-bit XOR mask (scale) of
 * their fresh input words and LAB11_TIMED_SAMPLE words of their destination
 * (index, value), under the KIT_KEY_TIMED_* names (kit/protocol.h,
 * kit/timed.h; see harness.cu). */
#define LAB11_TIMED_SAMPLE 4096

typedef struct {
    int part;
    long long n;
    int words;          /* n, as an int (the descriptors' counts, kit/field.h): n <= 2^28 */
    int chunks, streams, rounds;
    double min_overlap; /* < 0: not judged */
    uint32_t *in;       /* n words */
} lab11_data;

int lab11_generate(const kit_params *p, uint64_t seed, lab11_data *d, char *err, size_t errlen);
void lab11_free(lab11_data *d);

#ifdef __cplusplus
}
#endif
#endif
