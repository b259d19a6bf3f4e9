/* memory_kind.cu - what kind of memory a pointer is (kit/runner.h). */
#include <cuda_runtime.h>

#include "kit/runner.h"

const char *kit_memory_kind(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return "pageable";
    }
    switch (a.type) {
    case cudaMemoryTypeHost:
        return "host";
    case cudaMemoryTypeDevice:
        return "device";
    case cudaMemoryTypeManaged:
        return "managed";
    default:
        return "pageable";
    }
}
