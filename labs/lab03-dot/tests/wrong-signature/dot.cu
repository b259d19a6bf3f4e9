/* lab03 - known-bad test submission: wrong function signatures.
 * The student wrote their own prototypes instead of including dot.h: n is a
 * long and the pointers are not const, so these are other functions than the
 * ones the harness calls; dot_shared_int is not written at all.  The link
 * fails; the message must say which function is missing, as dot.h declares it. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"

#define THREADS 256

__global__ void dot_partial(float *a, float *b, float *out, long n)
{
    __shared__ float partial[THREADS];
    float sum = 0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        sum += a[i] * b[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, partial[0]);
}

float dot_shared(float *d_a, float *d_b, long n)
{
    float *d_sum, sum = 0;
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(float)));
    dot_partial<<<1024, THREADS>>>(d_a, d_b, d_sum, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_sum));
    return sum;
}
