/* check.c - lab01 checker, as data (kit/check_driver.h): the lines
 * print_tids() printed (kit_check.lines: one "block B thread T tid N" per
 * thread of its launch, each tid 0 ... B*T-1 once, N = B_idx * T + T_idx,
 * visible before it returned - a kernel nobody waited for prints after the
 * kit's mark - and printed by a kernel of that launch, not by the host),
 * then query_device's fields against what cudaGetDeviceProperties says for
 * device 0 in the checker's own process (kit_check.fields, kit_device_truth).
 */
#include <cuda_runtime_api.h>

#include "check_hooks.h"
#include "dataset.h"
#include "kit/check_driver.h"

/* The device's truth: the CUDA runtime's (test_check.c, without a GPU, puts a fake in its place). */
lab01_truth_fn lab01_device_truth = kit_device_truth;
static int truth(void *ref, char *err, size_t errlen) { return lab01_device_truth(ref, err, errlen); }

KIT_CHECK_DATASET(lab01)

/* print_tids' launch and its lines, when the case calls it; then, whatever the lines
 * were, query_device's fields against the CUDA runtime's answer for device
 * 0 in the checker's own process (shared memory: a size_t, recorded as i64),
 * each at its member of struct cudaDeviceProp. */
#define FIELD(name, type, what, member) {name, type, what, offsetof(struct cudaDeviceProp, member)}
const kit_check KIT_CHECK = {
    sizeof(lab01_data), check_generate, check_release,
    .lines = {"print_tids", "block thread tid", LAB01_LINE_FORMAT, KIT_AT(lab01_data, blocks),
              KIT_AT(lab01_data, threads), KIT_WHEN(lab01_data, do_tids, 1), LAB01_OUT_LAUNCH},
    .fields = {"query_device", "the CUDA runtime", truth, sizeof(struct cudaDeviceProp),
               "the checker could not ask the CUDA runtime about device 0 (%s): a problem of the machine that "
               "grades, not of your code",
               {FIELD(LAB01_OUT_NAME, KIT_T_TEXT, "name", name),
                FIELD(LAB01_OUT_MAJOR, KIT_T_I32, "major (compute capability)", major),
                FIELD(LAB01_OUT_MINOR, KIT_T_I32, "minor (compute capability)", minor),
                FIELD(LAB01_OUT_MULTIPROCESSORS, KIT_T_I32, "multiprocessors", multiProcessorCount),
                FIELD(LAB01_OUT_MAX_THREADS_PER_BLOCK, KIT_T_I32, "max_threads_per_block", maxThreadsPerBlock),
                FIELD(LAB01_OUT_SHARED_MEM_PER_BLOCK, KIT_T_I64, "shared_mem_per_block", sharedMemPerBlock)},
               KIT_WHEN(lab01_data, do_query, 1)}};
