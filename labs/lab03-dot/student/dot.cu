/* lab03 - dot product with a shared-memory reduction.
 *
 * Read labs/lab03-dot/handout.md first.  Check your work with:   make lab03
 *
 * The harness gives you device pointers d_a, d_b (n elements each) and
 * expects the dot product back.  This starter computes per-thread products,
 * stores them in shared memory and lets thread 0 add them up - but it has a
 * race, it is slow, and the int version is missing.  The TODOs say what to do.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS_PER_BLOCK 256

__global__ void dot_kernel(const float *a, const float *b, float *block_sums, int n)
{
    __shared__ float partial[THREADS_PER_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    partial[tid] = (i < n) ? a[i] * b[i] : 0.0f;

    /* TODO 1: thread 0 reads every other thread's partial below.  What
     * guarantees those values have been stored when it does?  Run
     *     make lab03 TEST=racecheck
     * and read the line it reports. */

    /* TODO 2: thread 0 adds 256 numbers one after the other while the other
     * threads wait.  Replace this with a tree reduction in shared memory
     * (sequential addressing: in each step, thread t < s adds partial[t + s]). */
    if (tid == 0) {
        float sum = 0.0f;
        for (int t = 0; t < THREADS_PER_BLOCK; t++)
            sum += partial[t];
        block_sums[blockIdx.x] = sum;
    }
}

float dot_shared(const float *d_a, const float *d_b, int n)
{
    if (n <= 0)
        return 0.0f;
    /* TODO 3: one block per 256 elements means n/256 block sums to add on the
     * host.  Let each thread accumulate several products first (a grid-stride
     * loop), so a few hundred blocks cover any n, and finish on the GPU. */
    int blocks = (n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    float *d_sums;
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    dot_kernel<<<blocks, THREADS_PER_BLOCK>>>(d_a, d_b, d_sums, n);
    CUDA_CHECK_LAUNCH();

    float *sums = (float *)malloc(blocks * sizeof(float));
    CUDA_CHECK(cudaMemcpy(sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    float total = 0.0f;
    for (int b = 0; b < blocks; b++)
        total += sums[b];
    free(sums);
    CUDA_CHECK(cudaFree(d_sums));
    return total;
}

int dot_shared_int(const int *d_a, const int *d_b, int n)
{
    /* TODO 4 (exercise 6): the same computation for int arrays, with a kernel
     *     __global__ void dot_kernel_int(const int *a, const int *b, int *block_sums, int n)
     */
    (void)d_a, (void)d_b, (void)n;
    return 0;
}
