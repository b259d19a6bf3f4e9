/* kit-devices - which CUDA devices this machine has (used by make and the grader).
 *
 *   kit-devices            one line per device: "index<TAB>uuid<TAB>name<TAB>cc"; exit 0 if any
 *   kit-devices --quiet    nothing printed; exit 0 if a device is usable, 1 if not
 *   kit-devices --why      one line saying why no device is usable (exit 1; the reason in
 *                          kit/no_gpu.cuh's words, which kitgrade quotes), or the count (exit 0)
 *
 * On a machine without a driver cudaGetDeviceCount fails at once
 * (cudaErrorInsufficientDriver / NoDevice); it never hangs.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/no_gpu.cuh"

int main(int argc, char **argv)
{
    int quiet = argc > 1 && !strcmp(argv[1], "--quiet");
    int why = argc > 1 && !strcmp(argv[1], "--why");
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        if (why || !quiet) {
            char reason[512];
            kit_no_gpu_reason(e, n, reason, sizeof reason);
            printf("%s\n", reason);
        }
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
