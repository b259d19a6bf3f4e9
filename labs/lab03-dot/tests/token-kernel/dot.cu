/* lab03 - cheat (evidence that the kernels did the work): the dot product is summed on the host, and a
 * one-thread kernel that reads a[0] runs beside it so that "a kernel of its
 * own" ran.  Scored 70/90 before the device-execution evidence; now the
 * device-to-host copies of both inputs inside the call fail every
 * correctness test and, with them, the sanitizer credit. */
#include <stdlib.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

template <typename T> __global__ void touch(const T *a, T *sink)
{
    if (threadIdx.x == 0)
        *sink = a[0];
}

template <typename T, typename Acc> static T dot_on_host(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    T *a = (T *)malloc((size_t)n * sizeof(T)), *b = (T *)malloc((size_t)n * sizeof(T)), *sink;
    CUDA_CHECK(cudaMalloc(&sink, sizeof(T)));
    touch<T><<<1, 1>>>(d_a, sink);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(a, d_a, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, d_b, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    Acc sum = 0;
    for (int i = 0; i < n; i++)
        sum += (Acc)a[i] * b[i];
    free(a);
    free(b);
    CUDA_CHECK(cudaFree(sink));
    return (T)sum;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot_on_host<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot_on_host<int, long long>(d_a, d_b, n); }
