/* Known-bad lab02 submission (for exercise 2 only): one thread per element,
 * a grid that grows with n.  Right sums, fast, but not what exercise 2 asks. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "parallel_add.h"

#define THREADS 256

__global__ void add_kernel(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n)
{
    if (n <= 0)
        return;
    add_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_c, n);
    CUDA_CHECK_LAUNCH();
}

void vector_add(const float *h_a, const float *h_b, float *h_c, int n)
{
    if (n <= 0)
        return;
    size_t bytes = (size_t)n * sizeof(float);
    float *d_a, *d_b, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
    vector_add_device(d_a, d_b, d_c, n);
    /* Waits for the kernel (same stream); an error inside it is reported here. */
    CUDA_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
}
