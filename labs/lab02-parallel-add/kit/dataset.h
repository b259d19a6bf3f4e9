/* dataset.h - lab02 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  n          number of elements (0 <= n <= 2^27)
 *              entry      host: vector_add() on host arrays (default)
 *                         device: vector_add_device() on device arrays
 *              per_thread k > 1: the call's kernels may launch at most n/k
 *                         threads in all, i.e. each thread adds k elements
 *                         on average (exercise 2); 1 (default): no limit.
 *                         Judged by the checker from the kernel trace.
 *              time       1: `make run-lab02` also times the kernel, the
 *                         round trip and a serial CPU loop (exercises 3-5).
 * Data: a uniform in [-1, 1), b uniform in [-100, 100) (different scales,
 * so that most sums are rounded and the comparison's bound matters).
 */
#ifndef LAB02_DATASET_H
#define LAB02_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The output, as harness.cu writes it and check.c reads it: the sums. */
#define LAB02_OUT_C "c"

/* Outputs of a benchmark run besides c: for a few timed calls of
 * vector_add_device, the (shift, scale) of their fresh a and b and
 * LAB02_TIMED_SAMPLE sampled elements of c (index, value) each, under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */
#define LAB02_TIMED_SAMPLE 4096

typedef struct {
    int n;
    int on_device;   /* entry=device */
    int per_thread;  /* >= 1 */
    float *a, *b;    /* n elements each (at least one allocated) */
} lab02_data;

int lab02_generate(const kit_params *p, uint64_t seed, lab02_data *d, char *err, size_t errlen);
void lab02_free(lab02_data *d);

#ifdef __cplusplus
}
#endif
#endif
