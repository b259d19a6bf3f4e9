/* lab03 - known-bad test submission: computes the dot product on the CPU.
 * Copies both vectors to the host and sums there (exactly: double, long
 * long).  The results are right, but no kernel of its own ran: every
 * correctness test fails the device-execution check, saying so. */
#include <stdlib.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

template <typename T, typename Acc> static T dot_on_host(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    T *a = (T *)malloc((size_t)n * sizeof(T)), *b = (T *)malloc((size_t)n * sizeof(T));
    if (!a || !b) {
        free(a);
        free(b);
        return 0;
    }
    CUDA_CHECK(cudaMemcpy(a, d_a, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, d_b, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    Acc sum = 0;
    for (int i = 0; i < n; i++)
        sum += (Acc)a[i] * b[i];
    free(a);
    free(b);
    return (T)sum;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot_on_host<float, double>(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot_on_host<int, long long>(d_a, d_b, n); }
