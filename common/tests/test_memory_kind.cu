/* test_memory_kind.cu - kit_memory_kind (common/src/memory_kind.cu) on
 * memory the CUDA runtime does not know, with or without a GPU: ordinary
 * malloc'd or stack memory is "pageable"; with a GPU, the runtime's error
 * for it is cleared (a harness that asked must not find the student's call
 * failed; without one, every call of the runtime keeps failing).
 * Page-locked, device and managed memory need a GPU: lab11's known-bad
 * submissions (labs/lab11-streams/tests) hold those.
 *
 * Not a Check program (nvcc builds it): plain_check.h.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "kit/runner.h"
#include "plain_check.h"

int main(void)
{
    void *heap = calloc(1, 64);
    int stack = 0, gpus = 0;
    CHECK(!strcmp(kit_memory_kind(heap), "pageable"), "malloc: %s", kit_memory_kind(heap));
    CHECK(!strcmp(kit_memory_kind(&stack), "pageable"), "the stack: %s", kit_memory_kind(&stack));
    if (cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0)
        CHECK(cudaGetLastError() == cudaSuccess, "an error left behind");
    free(heap);
    return plain_check_summary();
}
