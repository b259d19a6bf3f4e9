/* dataset.h - lab01 case parameters, read identically by the runner and the checker.
 *
 * lab01 has no input data: a case is a launch configuration and a choice of part.
 *
 * Parameters:  blocks   number of blocks   (default 2; >= 1)
 *              threads  threads per block  (default 3; 1 ... 1024)
 *                       blocks * threads <= 4096: one printed line per thread,
 *                       and the grader keeps 256 KiB of a run's output.
 *              part     tids   print_tids(blocks, threads) only
 *                       query  query_device() only
 *                       all    both, in this order (default; what make run-lab01 shows)
 */
#ifndef LAB01_DATASET_H
#define LAB01_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB01_MAX_THREADS_PER_BLOCK 1024
#define LAB01_MAX_THREADS 4096

/* The outputs, as harness.cu writes them and check.c reads them: the launch
 * print_tids made (i32 blocks, threads), and query_device's answer. */
#define LAB01_OUT_LAUNCH "launch"
#define LAB01_OUT_NAME "device.name" /* text */
#define LAB01_OUT_MAJOR "device.major"
#define LAB01_OUT_MINOR "device.minor"
#define LAB01_OUT_MULTIPROCESSORS "device.multiprocessors"
#define LAB01_OUT_MAX_THREADS_PER_BLOCK "device.max_threads_per_block"
#define LAB01_OUT_SHARED_MEM_PER_BLOCK "device.shared_mem_per_block" /* i64 */

typedef struct {
    int blocks, threads;
    int do_tids, do_query;
} lab01_data;

/* The case from its parameters (no data: the seed is not used); lab01_free
 * frees nothing, so the harness and the checker take both as every lab's
 * dataset (KIT_LAB_DATASET, KIT_CHECK_DATASET). */
int lab01_generate(const kit_params *p, uint64_t seed, lab01_data *c, char *err, size_t errlen);
void lab01_free(lab01_data *c);

#ifdef __cplusplus
}
#endif
#endif
