/* lab03 - cheat: no cudaMemcpy at all.  A kernel copies both vectors into
 * managed memory allocated inside the call, and the host sums them there:
 * the pages migrate to the host as it reads them.  The kernel reads the
 * whole input, so its time looks right; the bytes migrated device-to-host
 * (CUPTI's unified-memory counters) count like a copy and fail the
 * host-copy evidence. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

template <typename T> __global__ void copy_out(const T *a, const T *b, T *ha, T *hb, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        ha[i] = a[i];
        hb[i] = b[i];
    }
}

template <typename T, typename Acc> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    T *ha, *hb;
    CUDA_CHECK(cudaMallocManaged(&ha, (size_t)n * sizeof(T)));
    CUDA_CHECK(cudaMallocManaged(&hb, (size_t)n * sizeof(T)));
    int blocks = (n + 255) / 256;
    copy_out<T><<<blocks > 1024 ? 1024 : blocks, 256>>>(d_a, d_b, ha, hb, n);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    Acc sum = 0;
    for (int i = 0; i < n; i++)
        sum += (Acc)ha[i] * hb[i];
    CUDA_CHECK(cudaFree(ha));
    CUDA_CHECK(cudaFree(hb));
    return (T)sum;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot<int, long long>(d_a, d_b, n); }
