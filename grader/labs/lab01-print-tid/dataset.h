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
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB01_MAX_THREADS_PER_BLOCK 1024
#define LAB01_MAX_THREADS 4096

typedef struct {
    int blocks, threads;
    int do_tids, do_query;
} lab01_case;

int lab01_parse(const kit_params *p, lab01_case *c, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
