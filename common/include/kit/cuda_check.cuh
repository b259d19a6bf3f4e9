/* cuda_check.cuh - check every CUDA call and every launch.
 *
 *   CUDA_CHECK(cudaMalloc(&d, bytes));
 *   kernel<<<grid, block>>>(...);
 *   CUDA_CHECK_LAUNCH();          // launch errors (bad configuration, ...)
 *
 * A failure prints the call, the CUDA error name and string and file:line,
 * then exits with status 3:
 *   dot.cu:57: CUDA error in cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost):
 *     an illegal memory access was encountered (cudaErrorIllegalAddress)
 * Errors inside a kernel surface at the next synchronising call, so a check
 * after cudaMemcpy or cudaDeviceSynchronize reports them.  Define
 * KIT_SYNC_AFTER_LAUNCH to make CUDA_CHECK_LAUNCH also synchronise, which
 * pins an in-kernel error to the launch that caused it (slow; debugging only).
 */
#ifndef KIT_CUDA_CHECK_CUH
#define KIT_CUDA_CHECK_CUH
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/protocol.h"

static inline void kit_cuda_fail(cudaError_t e, const char *what, const char *file, int line)
{
    fflush(stdout);
    fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", file, line, what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    exit(KIT_EXIT_CUDA_CHECK);
}

static inline void kit_cuda_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        kit_cuda_fail(e, what, file, line);
}

static inline void kit_cuda_check_launch(const char *file, int line)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        kit_cuda_fail(e, "kernel launch", file, line);
#ifdef KIT_SYNC_AFTER_LAUNCH
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        kit_cuda_fail(e, "kernel execution", file, line);
#endif
}

#define CUDA_CHECK(call) kit_cuda_check((call), #call, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH() kit_cuda_check_launch(__FILE__, __LINE__)

#endif
