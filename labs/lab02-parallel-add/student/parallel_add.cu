/* lab02 - adding two vectors on the GPU.
 *
 * Read labs/lab02-parallel-add/handout.md first.  Check your work with:   make lab02
 * Run it once:   make run-lab02 P="n=1000"      (add time=1 for timings)
 *
 * vector_add() does the whole round trip from host memory; vector_add_device()
 * only launches the kernel on data already on the GPU.  This starter works
 * for small n at best: it launches one block of n threads, and the sum never
 * reaches the host.  The TODOs say what to do.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "parallel_add.h"

__global__ void add_kernel(const float *a, const float *b, float *c, int n)
{
    /* TODO 2: once the grid has more threads than elements, some threads
     * have no element: make sure they touch no memory.  Then (exercise 2)
     * let each thread add several elements - a loop that moves on by the
     * number of threads in the whole grid - so that the grid size no longer
     * has to grow with n.  No two threads may add the same element. */
    int i = threadIdx.x;
    c[i] = a[i] + b[i];
    (void)n;
}

void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n)
{
    /* TODO 1: one block holds at most 1024 threads, so this launch fails for
     * larger n (try make run-lab02 P="n=1025").  Choose a block size and
     * a number of blocks that covers all n elements.  What should happen
     * when n is 0? */
    add_kernel<<<1, n>>>(d_a, d_b, d_c, n);
    CUDA_CHECK_LAUNCH();
}

void vector_add(const float *h_a, const float *h_b, float *h_c, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *d_a, *d_b, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));

    vector_add_device(d_a, d_b, d_c, n);

    /* TODO 3: the sum is still in device memory.  Bring it back into h_c
     * (and check the call) before the device memory is freed. */
    (void)h_c;

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
}
