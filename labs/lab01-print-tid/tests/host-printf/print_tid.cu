/* Known-bad lab01 submission: the right lines, printed by the host next to
 * a one-thread kernel that prints nothing. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "print_tid.h"

__global__ void print_tid_kernel(void) {}

void print_tids(int blocks, int threads)
{
    if (blocks <= 0 || threads <= 0)
        return; /* nothing to launch: an empty grid is a launch error */
    print_tid_kernel<<<1, 1>>>();
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            printf("block %d thread %d tid %d\n", b, t, b * threads + t);
}

void query_device(device_info *info)
{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->multiprocessors = prop.multiProcessorCount;
    info->max_threads_per_block = prop.maxThreadsPerBlock;
    info->shared_mem_per_block = prop.sharedMemPerBlock;
}
