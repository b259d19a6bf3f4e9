/* Known-bad lab02 submission: the reference solution, except that
 * vector_add() never copies the sum back into h_c. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "parallel_add.h"

#define THREADS 256
#define BLOCKS_PER_SM 32

__global__ void add_kernel(const float *a, const float *b, float *c, int n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += stride)
        c[i] = a[i] + b[i];
}

/* Enough blocks to fill the GPU, never more than n needs. */
static int grid_for(int n)
{
    static int max_blocks; /* asked once: the SM count does not change */
    if (max_blocks == 0) {
        int dev, sms;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        max_blocks = sms * BLOCKS_PER_SM;
    }
    int needed = (int)(((long long)n + THREADS - 1) / THREADS);
    return needed < max_blocks ? needed : max_blocks;
}

void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n)
{
    if (n <= 0)
        return; /* an empty grid is a launch error */
    add_kernel<<<grid_for(n), THREADS>>>(d_a, d_b, d_c, n);
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
    CUDA_CHECK(cudaDeviceSynchronize());
    (void)h_c;
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
}
