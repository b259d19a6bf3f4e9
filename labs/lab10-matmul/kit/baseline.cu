/* baseline.cu - lab10 timing baseline: the naive global-memory matrix multiply.
 *
 * The "without shared memory" kernel student reports time against the
 * tiled one (2022: 2-4x on a GTX 1070, and 1.6-3.1x): one thread per
 * element of C, 16 x 16 threads per block, a k-long dot product read straight
 * from global memory.  Reads of B are coalesced (neighbouring threads,
 * neighbouring columns) and a warp's reads of A are one broadcast, so on a
 * GPU with caches it is not as slow as its 2k global loads per element
 * suggest: the tiled kernel should still beat it.
 */
#include <cuda_runtime.h>

#include "baseline.h"

#define KIT_BLOCK 16

__global__ void kit_matmul_naive_kernel(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += A[(size_t)row * k + p] * B[(size_t)p * n + col];
    C[(size_t)row * n + col] = sum;
}

void kit_matmul_naive(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    dim3 block(KIT_BLOCK, KIT_BLOCK);
    dim3 grid((n + KIT_BLOCK - 1) / KIT_BLOCK, (m + KIT_BLOCK - 1) / KIT_BLOCK);
    kit_matmul_naive_kernel<<<grid, block>>>(d_a, d_b, d_c, m, n, k);
}
