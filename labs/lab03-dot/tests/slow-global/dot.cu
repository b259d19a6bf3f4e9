/* lab03 - known-bad test submission: correct but slow.
 * No shared memory: every thread adds its product straight into one global
 * total with atomicAdd (a double total for floats, so the value stays within
 * the error bound), and all the additions queue on one address.  Right
 * values, clean sanitizers, but far slower than the kit's global-memory
 * baseline: the correctness points, none of the performance points, the
 * timings shown. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256

/* Acc: the type of the total (double for float inputs: 2^26 float additions
 * in a float would lose far more than the error bound allows). */
template <typename T, typename Acc> __global__ void dot_atomic(const T *a, const T *b, Acc *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (Acc)a[i] * (Acc)b[i]);
}

template <typename T, typename Acc> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    Acc *d_total, total;
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(Acc)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(Acc)));
    dot_atomic<T, Acc><<<(n + THREADS - 1) / THREADS, THREADS>>>(d_a, d_b, d_total, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(Acc), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_total));
    return (T)total;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot<int, int>(d_a, d_b, n); }
