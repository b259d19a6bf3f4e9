/* lab01 - which thread am I?
 *
 * Read labs/lab01-print-tid/handout.md first.  Check your work with:   make lab01
 * Run it once with a launch of your choice:   make run-lab01 P="blocks=4 threads=3"
 *
 * print_tids() launches a kernel in which every thread prints its block
 * index, its thread index and its global thread id.  This starter compiles
 * and runs, but it is wrong in two ways, and query_device() is unfinished.
 * The TODOs say where to look.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "print_tid.h"

__global__ void print_tid_kernel(void)
{
    /* TODO 1: this is not a global thread id.  Every thread of the launch
     * must get a different tid in 0 ... blocks*threads - 1.  Run with
     * P="blocks=4 threads=3" (exercise 1) and compare the ids you get with
     * the handout's background section. */
    int tid = blockIdx.x * gridDim.x + threadIdx.x;
    printf("block %d thread %d tid %d\n", (int)blockIdx.x, (int)threadIdx.x, tid);
}

void print_tids(int blocks, int threads)
{
    print_tid_kernel<<<blocks, threads>>>();
    CUDA_CHECK_LAUNCH();
    /* TODO 2: a kernel launch returns at once, while the GPU is still
     * working, and device printf output is only shown at certain points.
     * As written, the grader sees no line at all.  What must happen before
     * this function returns? */
}

void query_device(device_info *info)
{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    /* TODO 3: fill in multiprocessors, max_threads_per_block and
     * shared_mem_per_block (see print_tid.h; cudaDeviceProp has them all). */
}
