/* baseline.cu - lab06 timing baseline: the scan done directly in global memory.
 *
 * The same Kogge-Stone steps as the lab, but on the whole array at once and
 * without shared memory: each stride is a launch (the launch boundary is the
 * barrier between steps), reading one array and writing the other.  That is
 * ceil(log2 n) passes over the array - 26 at n = 2^26 - where the
 * hierarchical scan needs about two.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "baseline.h"

#define KIT_THREADS 256

__global__ void kit_scan_step(const float *src, float *dst, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = i >= stride ? src[i] + src[i - stride] : src[i];
}

static float *scratch;
static int scratch_n;

int kit_scan_global(const float *d_in, float *d_out, int n)
{
    if (n <= 0)
        return 0;
    if (n > scratch_n) {
        cudaFree(scratch);
        scratch_n = 0;
        if (cudaMalloc(&scratch, (size_t)n * sizeof(float)) != cudaSuccess) {
            fprintf(stderr, "baseline: out of device memory\n");
            return -1;
        }
        scratch_n = n;
    }
    int passes = 0;
    for (long long s = 1; s < n; s *= 2)
        passes++;
    cudaError_t e = cudaSuccess;
    if (passes == 0)
        e = cudaMemcpy(d_out, d_in, sizeof(float), cudaMemcpyDeviceToDevice);
    /* Pass k writes d_out when passes-1-k is even, so the last pass lands in d_out. */
    const float *src = d_in;
    int grid = (n + KIT_THREADS - 1) / KIT_THREADS;
    for (int k = 0, stride = 1; k < passes && e == cudaSuccess; k++, stride *= 2) {
        float *dst = (passes - 1 - k) % 2 == 0 ? d_out : scratch;
        kit_scan_step<<<grid, KIT_THREADS>>>(src, dst, n, stride);
        e = cudaGetLastError();
        src = dst;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "baseline: %s\n", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}
