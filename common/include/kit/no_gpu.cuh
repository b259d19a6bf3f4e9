/* no_gpu.cuh - why no CUDA device is usable, in the user's terms: the one
 * wording of "no GPU" across the kit.
 *
 * Every tool that needs a GPU and finds none says it in one line,
 *     "<who>: no GPU (<reason>): <what did not happen>"
 * and exits with status KIT_NO_GPU_EXIT (kitgrade's KITGRADE_EXIT_NO_GPU in
 * grader/src/util/exit_codes.h): kitgrade check/run/batch (the reason comes from
 * kit-devices --why), make bench (the bench programs), make bench-grader.
 * On a machine without the NVIDIA driver the runtime says "CUDA driver version
 * is insufficient", which reads as "update your driver" to someone who has no
 * GPU at all: the reason says what is missing instead.
 */
#ifndef KIT_NO_GPU_CUH
#define KIT_NO_GPU_CUH
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define KIT_NO_GPU_EXIT 3

/* The reason (no trailing newline, no parentheses) for cudaGetDeviceCount's
 * answer (e, n) when no device is usable. */
static inline void kit_no_gpu_reason(cudaError_t e, int n, char *buf, size_t len)
{
    struct stat st;
    int driver = stat("/proc/driver/nvidia/version", &st) == 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES") ? "; CUDA_VISIBLE_DEVICES is set" : "";
    if (e == cudaSuccess && n == 0)
        snprintf(buf, len, "the NVIDIA driver lists no device%s", visible);
    else if (!driver && (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaErrorInitializationError))
        snprintf(buf, len, "no NVIDIA driver/GPU found on this machine: /proc/driver/nvidia is missing");
    else if (e == cudaErrorInsufficientDriver)
        snprintf(buf, len, "the NVIDIA driver is older than this CUDA Toolkit needs: %s", cudaGetErrorString(e));
    else if (e == cudaErrorNoDevice)
        snprintf(buf, len, "no NVIDIA GPU found: %s%s", cudaGetErrorString(e), visible);
    else
        snprintf(buf, len, "no usable CUDA device: %s", cudaGetErrorString(e));
}

/* Nothing when a CUDA device is usable; else the kit's one line,
 * "<who>: no GPU (<reason>): <what did not happen>", and exit
 * KIT_NO_GPU_EXIT (the race demos, the bench programs). */
static inline void kit_need_gpu(const char *who, const char *what)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count > 0)
        return;
    char reason[512];
    kit_no_gpu_reason(e, count, reason, sizeof reason);
    printf("%s: no GPU (%s): %s\n", who, reason, what);
    exit(KIT_NO_GPU_EXIT);
}

#endif
