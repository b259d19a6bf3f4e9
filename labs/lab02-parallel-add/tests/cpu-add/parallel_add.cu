/* lab02 - known-bad test submission: adds the vectors on the CPU.
 * vector_add() loops over the host arrays it was given and never touches the
 * GPU; vector_add_device() copies the device arrays to the host, adds there
 * and copies the sum back.  The sums are right, but no kernel of its own
 * ran: every correctness test fails the device-execution check, saying so
 * (the memcheck test, which checks memory errors only, passes). */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "kit/cuda_check.cuh"
#include "parallel_add.h"

void vector_add(const float *h_a, const float *h_b, float *h_c, int n)
{
    for (int i = 0; i < n; i++)
        h_c[i] = h_a[i] + h_b[i];
}

void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n)
{
    if (n <= 0)
        return;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    CUDA_CHECK(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b, d_b, bytes, cudaMemcpyDeviceToHost));
    vector_add(a, b, a, n);
    CUDA_CHECK(cudaMemcpy(d_c, a, bytes, cudaMemcpyHostToDevice));
    free(a);
    free(b);
}
