/* print_tid.h - lab01: the functions the kit's harness calls.  Do not change
 * this file: the grader uses its own copy.
 */
#ifndef LAB01_PRINT_TID_H
#define LAB01_PRINT_TID_H
#include <stddef.h>

/* Part 1.  Launch a kernel with `blocks` blocks of `threads` threads each
 * (1 <= threads <= 1024, blocks * threads <= 4096).  Every thread prints
 * exactly ONE line, in exactly this form:
 *
 *     block B thread T tid N
 *
 * where B is its block index, T its thread index within the block and N its
 * global thread id, unique in 0 ... blocks*threads - 1.  Lines may come out in
 * any order.  Return only when the lines are visible: the grader counts the
 * lines printed before print_tids() returns, and nothing printed after. */
void print_tids(int blocks, int threads);

/* Part 2.  What the CUDA runtime says about device 0. */
typedef struct {
    char name[256];              /* the device's name, NUL-terminated */
    int major, minor;            /* compute capability major.minor */
    int multiprocessors;         /* number of streaming multiprocessors (SMs) */
    int max_threads_per_block;   /* the largest block a launch may use */
    size_t shared_mem_per_block; /* bytes of shared memory a block gets without
                                    opting in to more (sharedMemPerBlock) */
} device_info;

/* Fill every field of *info for device 0. */
void query_device(device_info *info);

#endif
