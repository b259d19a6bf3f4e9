/* An independent lab03 answer (tests/course: the "honest" hand-in of the
 * similarity test): warp shuffles instead of a shared-memory tree, and one
 * atomic add per warp into a device total. */
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

static const int kBlock = 128;

template <typename V> __device__ V warp_total(V v)
{
    for (int lane_gap = 16; lane_gap >= 1; lane_gap >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, lane_gap);
    return v;
}

template <typename V> __global__ void products(const V *x, const V *y, V *total, int count)
{
    V mine = V(0);
    int first = blockIdx.x * kBlock + threadIdx.x, jump = gridDim.x * kBlock;
    while (first < count) {
        mine += x[first] * y[first];
        first += jump;
    }
    mine = warp_total(mine);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, mine);
}

template <typename V> V run_products(const V *x, const V *y, int count)
{
    V host_total = V(0), *dev_total = nullptr;
    if (count < 1)
        return host_total;
    CUDA_CHECK(cudaMalloc(&dev_total, sizeof(V)));
    CUDA_CHECK(cudaMemset(dev_total, 0, sizeof(V)));
    int grid = min((count + kBlock - 1) / kBlock, 2048);
    products<V><<<grid, kBlock>>>(x, y, dev_total, count);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&host_total, dev_total, sizeof(V), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dev_total));
    return host_total;
}

int dot_shared_int(const int *d_a, const int *d_b, int n) { return run_products(d_a, d_b, n); }

float dot_shared(const float *d_a, const float *d_b, int n) { return run_products(d_a, d_b, n); }
