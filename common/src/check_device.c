/* check_device.c - the CUDA runtime's own answer about device 0, as the
 * reference of a call's answer field by field (kit_device_truth,
 * kit/check_driver.h: kit_check.fields' truth - lab01's query_device).  A
 * file of its own: only a checker that names it links the CUDA runtime for
 * it (the labs' checkers do, CUDART_STATIC). */
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "kit/check_driver.h"

int kit_device_truth(void *prop, char *err, size_t len)
{
    cudaError_t e = cudaGetDeviceProperties((struct cudaDeviceProp *)prop, 0);
    if (e == cudaSuccess)
        return 0;
    snprintf(err, len, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    return -1;
}
