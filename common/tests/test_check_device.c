/* test_check_device.c - kit_device_truth (check_device.c): device 0's
 * properties as the CUDA runtime gives them, or its error.  Without a GPU
 * (CI, the kit's build machines) the error must be said, never a blank
 * answer taken for the truth; with one, its name and compute capability. */
#include <cuda_runtime_api.h>
#include <string.h>

#include "check_main.h"
#include "kit/check_driver.h"


START_TEST(the_runtimes_answer_or_its_error)
{
    struct cudaDeviceProp p;
    char err[256] = "";
    int count = 0;
    int has_gpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    memset(&p, 0, sizeof p);
    int rc = kit_device_truth(&p, err, sizeof err);
    if (has_gpu) {
        ck_assert_msg(rc == 0, "a GPU, but: %s", err);
        ck_assert(p.name[0] != '\0' && p.major >= 1 && p.multiProcessorCount >= 1);
    } else {
        ck_assert_int_eq(rc, -1);
        ck_assert_msg(strstr(err, "(cuda") != NULL, "the runtime's error by name: '%s'", err); /* "... (cudaErrorNoDevice)" */
    }
}
END_TEST

static Suite *device_suite(void)
{
    Suite *s = suite_create("check_device");
    TCase *t = tcase_create("truth");
    tcase_add_test(t, the_runtimes_answer_or_its_error);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(device_suite)
