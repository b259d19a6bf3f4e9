/* lab03 - known-bad test submission: lets Thrust do the whole job.
 * thrust::inner_product on the device pointers: right values, computed on
 * the GPU, but by library kernels (CUB under Thrust), which this lab
 * forbids: every correctness test fails the device-execution check. */
#include <thrust/device_ptr.h>
#include <thrust/inner_product.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

float dot_shared(const float *d_a, const float *d_b, int n)
{
    thrust::device_ptr<const float> a(d_a), b(d_b);
    return thrust::inner_product(a, a + n, b, 0.0f);
}

int dot_shared_int(const int *d_a, const int *d_b, int n)
{
    thrust::device_ptr<const int> a(d_a), b(d_b);
    return thrust::inner_product(a, a + n, b, 0);
}
