/* lab03 - known-good: a valid design the device-execution evidence must not
 * fail.  A fixed grid of 1024 blocks writes one partial sum per block (in
 * double, for floats), and the host adds the 1024 partials - 8 kB copied
 * back whatever n is, even for n = 1: within the allowance of one partial
 * result per block launched. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define BLOCKS 1024

template <typename T, typename Acc> __global__ void dot_blocks(const T *a, const T *b, Acc *out, int n)
{
    __shared__ Acc s[THREADS];
    Acc sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += (Acc)a[i] * b[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

template <typename T, typename Acc> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    Acc *d_part, part[BLOCKS];
    CUDA_CHECK(cudaMalloc(&d_part, BLOCKS * sizeof(Acc)));
    dot_blocks<T, Acc><<<BLOCKS, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(part, d_part, BLOCKS * sizeof(Acc), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    Acc sum = 0;
    for (int i = 0; i < BLOCKS; i++)
        sum += part[i];
    return (T)sum;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot<float, double>(d_a, d_b, n); }

/* unsigned: wraps like the int the lab asks for, without signed overflow */
int dot_shared_int(const int *d_a, const int *d_b, int n)
{
    return (int)dot<unsigned, unsigned>((const unsigned *)d_a, (const unsigned *)d_b, n);
}
