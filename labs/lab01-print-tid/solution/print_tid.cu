/* lab01 reference solution - which thread am I?
 *
 * Each thread prints one line with its block index, thread index and global
 * id; print_tids() waits for the kernel, which is also what makes the
 * device's printf buffer appear on stdout before it returns.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "print_tid.h"

__global__ void print_tid_kernel(void)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d thread %d tid %d\n", (int)blockIdx.x, (int)threadIdx.x, tid);
}

void print_tids(int blocks, int threads)
{
    if (blocks <= 0 || threads <= 0)
        return; /* nothing to launch: an empty grid is a launch error */
    print_tid_kernel<<<blocks, threads>>>();
    CUDA_CHECK_LAUNCH();
    /* Waits for the kernel; device printf output is flushed here. */
    CUDA_CHECK(cudaDeviceSynchronize());
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
