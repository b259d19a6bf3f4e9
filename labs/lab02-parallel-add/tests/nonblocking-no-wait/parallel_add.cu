/* lab02 known-bad (a kernel left running on a non-blocking stream): the reference kernel, launched on a stream of
 * its own created with cudaStreamNonBlocking, and vector_add_device returns
 * without waiting for it.  The legacy default stream does not wait for such a
 * stream: a caller's cudaMemcpy right after the call would read c unfinished,
 * and the kit's timing used to stop before the kernel ended (100/100, "17x",
 * 50,080 GB/s on an H100).  vector_add waits itself, so only the device entry
 * returns early. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "parallel_add.h"

#define THREADS 256
#define BLOCKS_PER_SM 32

__global__ void add_kernel(const float *a, const float *b, float *c, int n, int vector_loads)
{
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    size_t n4 = vector_loads ? (size_t)n / 4 : 0;
    for (size_t i = first; i < n4; i += stride) {
        float4 x = ((const float4 *)a)[i], y = ((const float4 *)b)[i];
        ((float4 *)c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    for (size_t i = 4 * n4 + first; i < (size_t)n; i += stride)
        c[i] = a[i] + b[i];
}

static int aligned16(const void *p) { return (uintptr_t)p % 16 == 0; }

static int grid_for(int n)
{
    static int max_blocks;
    if (max_blocks == 0) {
        int dev, sms;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        max_blocks = sms * BLOCKS_PER_SM;
    }
    int needed = (int)(((long long)n + THREADS - 1) / THREADS);
    return needed < max_blocks ? needed : max_blocks;
}

static cudaStream_t stream;

void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n)
{
    if (n <= 0)
        return;
    if (!stream)
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    int vector_loads = aligned16(d_a) && aligned16(d_b) && aligned16(d_c);
    add_kernel<<<grid_for(vector_loads ? (n + 3) / 4 : n), THREADS, 0, stream>>>(d_a, d_b, d_c, n, vector_loads);
    CUDA_CHECK_LAUNCH();
    /* the twist: no cudaStreamSynchronize(stream) */
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
    CUDA_CHECK(cudaStreamSynchronize(stream)); /* the host path does wait */
    CUDA_CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
}
