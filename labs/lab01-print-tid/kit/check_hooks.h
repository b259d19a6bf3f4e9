/* check_hooks.h - lab01 checker internals that its unit tests replace.
 *
 * The device query is judged against the CUDA runtime's own answer, asked
 * by the checker in its own process (device 0, same CUDA_VISIBLE_DEVICES as
 * the runner).  test_check.c has no GPU: it points lab01_device_truth at a
 * fake answer.
 */
#ifndef LAB01_CHECK_HOOKS_H
#define LAB01_CHECK_HOOKS_H
#include <stddef.h>
#include "print_tid.h"

/* Fills *prop, a struct cudaDeviceProp, for device 0 (kit_device_truth,
 * kit/check_driver.h); returns 0, or -1 with a reason in err. */
typedef int (*lab01_truth_fn)(void *prop, char *err, size_t errlen);
extern lab01_truth_fn lab01_device_truth;

/* The format every line must have (documented in print_tid.h). */
#define LAB01_LINE_FORMAT "block B thread T tid N"

#endif
