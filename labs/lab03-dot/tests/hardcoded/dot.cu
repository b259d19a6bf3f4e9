/* lab03 - known-bad test submission: hard-coded results.
 * The results of the visible tests, written down from one run with a fixed
 * seed, returned from a table (after a dummy kernel launch, so that "a
 * kernel ran").  The grader's data is fresh for every seed: every
 * correctness test fails with the wrong value shown. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

/* dot_shared(n) as printed by one run of `make lab03 SEED=0x5eed` */
static const struct {
    int n;
    double value;
} seen[] = {{1, 0.41836}, {31, -1.9303}, {255, 3.0117}, {256, -4.2211}, {257, 2.8874}, {1000, 6.1093},
            {1000001, 21.402}, {67108864, 5592352.5}, {4097, -7.0921}, {3145745, 786431.25}};

__global__ void warm_up(void) {}

static double lookup(int n)
{
    warm_up<<<1, 1>>>();
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++)
        if (seen[i].n == n)
            return seen[i].value;
    return 0;
}

float dot_shared(const float *d_a, const float *d_b, int n)
{
    (void)d_a, (void)d_b;
    return (float)lookup(n);
}

int dot_shared_int(const int *d_a, const int *d_b, int n)
{
    (void)d_a, (void)d_b;
    return (int)lookup(n) * 3 + 1;
}
