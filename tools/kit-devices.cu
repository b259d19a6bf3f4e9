/* kit-devices - which CUDA devices this machine has (used by make and the grader).
 *
 *   kit-devices            one line per device: "index<TAB>uuid<TAB>name<TAB>cc"; exit 0 if any
 *   kit-devices --quiet    nothing printed; exit 0 if a device is usable, 1 if not
 *   kit-devices --why      one line saying why no device is usable (exit 1), or the count (exit 0)
 *
 * On a machine without a driver cudaGetDeviceCount fails at once
 * (cudaErrorInsufficientDriver / NoDevice); it never hangs.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Why no device is usable, in the user's terms: on a machine without the
 * NVIDIA driver the runtime says "CUDA driver version is insufficient",
 * which reads as "update your driver" to someone who has no GPU at all. */
static void print_why(cudaError_t e, int n)
{
    struct stat st;
    int driver = stat("/proc/driver/nvidia/version", &st) == 0;
    if (e == cudaSuccess && n == 0)
        printf("no NVIDIA GPU found (the driver is loaded but lists no device%s)\n",
               getenv("CUDA_VISIBLE_DEVICES") ? "; CUDA_VISIBLE_DEVICES is set" : "");
    else if (!driver && (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaErrorInitializationError))
        printf("no NVIDIA driver/GPU found on this machine (no /proc/driver/nvidia); run on a machine with an NVIDIA "
               "GPU\n");
    else if (e == cudaErrorInsufficientDriver)
        printf("the NVIDIA driver is older than this CUDA Toolkit needs (%s)\n", cudaGetErrorString(e));
    else if (e == cudaErrorNoDevice)
        printf("no NVIDIA GPU found (%s%s)\n", cudaGetErrorString(e),
               getenv("CUDA_VISIBLE_DEVICES") ? "; CUDA_VISIBLE_DEVICES is set" : "");
    else
        printf("no usable CUDA device: %s\n", cudaGetErrorString(e));
}

int main(int argc, char **argv)
{
    int quiet = argc > 1 && !strcmp(argv[1], "--quiet");
    int why = argc > 1 && !strcmp(argv[1], "--why");
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        if (why || !quiet)
            print_why(e, n);
        return 1;
    }
    if (why) {
        printf("%d CUDA device%s\n", n, n == 1 ? "" : "s");
        return 0;
    }
    for (int i = 0; i < n && !quiet; i++) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        printf("%d\tGPU-", i);
        for (int b = 0; b < 16; b++)
            printf("%02x%s", (unsigned char)p.uuid.bytes[b], (b == 3 || b == 5 || b == 7 || b == 9) ? "-" : "");
        printf("\t%s\t%d.%d\n", p.name, p.major, p.minor);
    }
    return 0;
}
