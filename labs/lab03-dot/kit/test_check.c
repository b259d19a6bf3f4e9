/* test_check.c - lab03's checker on the CPU: right answers pass, the
 * mistakes the lab is about fail with a message that names them. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "lab_check_test.h"

static const char *CALL_F = "0\tdot_shared\t1\t\n";
static const char *CALL_I = "0\tdot_shared_int\t1\t\n";
static const char *KERNEL = "0\t1024,1,1\t256,1,1\t150000\tdot_partial<float>(const float *, const float *, float *, int)\n";

/* The float dot product of the case's inputs, summed in double and rounded
 * (what a correct kernel gets, to within the bound); `drop` leaves out the
 * last `drop` elements, like a kernel that loses the final partial block. */
static float float_result(const char *params, uint64_t seed, int drop)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab03_data d;
    ck_assert_int_eq(lab03_generate(&p, seed, &d, err, sizeof err), 0);
    double s = 0, abs_sum;
    s = kit_ref_dot_f32(d.fa, d.fb, (size_t)(d.n - drop), &abs_sum);
    lab03_free(&d);
    return (float)s;
}

/* dot(a, scale * (b rotated by shift)) in double, rounded: what a timed call computes. */
static float timed_result(const char *params, uint64_t seed, int64_t shift, double scale)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab03_data d;
    ck_assert_int_eq(lab03_generate(&p, seed, &d, err, sizeof err), 0);
    double s = 0;
    for (int64_t i = 0; i < d.n; i++)
        s += (double)d.fa[i] * (double)(float)(scale * d.fb[(i + shift) % d.n]);
    lab03_free(&d);
    return (float)s;
}

/* A benchmark's outputs: the checked call, then the record of 3 timed calls
 * on fresh contents (calls 5, 40 and 90); `stale` >= 0 makes that recorded
 * call return the one before's result (a remembered result). */
static kit_writer *bench_output(const char *params, uint64_t seed, int stale)
{
    int32_t call[3] = {5, 40, 90};
    int64_t shift[3] = {5, 100, 256};
    double scale[3] = {0.5, -4, 2};
    float got[3];
    for (int k = 0; k < 3; k++)
        got[k] = k == stale ? got[k - 1] : timed_result(params, seed, shift[k], scale[k]);
    float r = float_result(params, seed, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_timed(w, call, shift, scale, 3, NULL, got, 3);
    lct_trace(w, CALL_F, KERNEL);
    return w;
}

START_TEST(timed_calls_are_checked)
{
    char why[512];
    const char *params = "type=float n=1000 dist=positive";
    kit_writer *w = bench_output(params, 11, -1);
    ck_assert_msg(lct_check(w, params, 11, why, sizeof why) == 0, "%s", why);
    /* Every recorded call is recomputed. */
    w = bench_output(params, 11, 2);
    ck_assert_int_eq(lct_check(w, params, 11, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "timed call 90 of dot_shared"));
    w = bench_output(params, 11, 1);
    ck_assert_int_eq(lct_check(w, params, 11, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "timed call 40 of dot_shared"));
    ck_assert_ptr_nonnull(strstr(why, "remembered"));
}
END_TEST

START_TEST(right_float_passes)
{
    char why[512];
    const char *params = "type=float n=257";
    float r = float_result(params, 42, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_msg(lct_check(w, params, 42, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(lost_element_fails)
{
    char why[512];
    const char *params = "type=float n=257 dist=positive";
    float r = float_result(params, 7, 1);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 7, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "dot_shared"));
    ck_assert_ptr_nonnull(strstr(why, "expected"));
}
END_TEST

START_TEST(nan_and_empty_input)
{
    char why[512];
    float nan = NAN, zero = 0;
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &nan, 1);
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, "type=float n=31", 3, why, sizeof why), 1);
    /* n = 0: the answer is exactly 0, and no kernel is required. */
    w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &zero, 1);
    lct_trace(w, "0\tdot_shared\t0\t\n", "");
    ck_assert_msg(lct_check(w, "type=float n=0", 3, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(int_must_be_exact)
{
    char why[512], err[128];
    kit_params p;
    kit_params_parse("type=int n=1000", &p, err, sizeof err);
    lab03_data d;
    lab03_generate(&p, 9, &d, err, sizeof err);
    int exact = (int)kit_ref_dot_i32(d.ia, d.ib, (size_t)d.n);
    lab03_free(&d);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &exact, 1);
    lct_trace(w, CALL_I, KERNEL);
    ck_assert_msg(lct_check(w, "type=int n=1000", 9, why, sizeof why) == 0, "%s", why);
    int off = exact + 1;
    w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &off, 1);
    lct_trace(w, CALL_I, KERNEL);
    ck_assert_int_eq(lct_check(w, "type=int n=1000", 9, why, sizeof why), 1);
    /* The starter's stub: returns 0 and launches nothing. */
    int zero = 0;
    w = lct_open();
    kit_writer_put(w, "result_int", KIT_T_I32, &zero, 1);
    lct_trace(w, CALL_I, "");
    ck_assert_int_eq(lct_check(w, "type=int n=1000", 9, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
}
END_TEST

START_TEST(cpu_or_library_results_fail)
{
    char why[512];
    const char *params = "type=float n=1000";
    float r = float_result(params, 5, 0);
    kit_writer *w = lct_open(); /* right value, computed on the host */
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, "");
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* right value, from CUB */
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, "0\t1,1,1\t256,1,1\t9000\tvoid cub::CUB_300000_SM_900::DeviceReduceSingleTileKernel<float>()\n");
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "CUB"));
    w = lct_open(); /* a missing output */
    lct_trace(w, CALL_F, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 5, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "result"));
}
END_TEST

/* ---- evidence that the kernels did the work: synthetic traces of
 * what the cheats and the valid designs leave behind.  The device info says
 * 4000 GB/s and a 1 MB L2 cache, so that inputs of a few MB already count as
 * "larger than twice the L2". */
static const char *DEVICE = "peak_gbs=4000 l2_bytes=1000000";

/* A right float result with the given kernels and copies; the verdict. */
static int evidence_case(const char *params, uint64_t seed, const char *kernels, const char *copies, char *why,
                         size_t len)
{
    float r = float_result(params, seed, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, kernels);
    kit_writer_put_text(w, "trace.copies", copies);
    kit_writer_put_text(w, "trace.device", DEVICE);
    return lct_check(w, params, seed, why, len);
}

static const char *TOKEN = "0\t1,1,1\t32,1,1\t2000\t1000\t3000\t7\t-\tvoid touch<float>(const float *, float *)\n";

START_TEST(token_kernel_over_host_sum_fails)
{
    char why[512];
    /* the token-kernel cheat: both inputs copied to the host, a 1-thread kernel beside */
    ck_assert_int_eq(evidence_case("type=float n=1000", 3, TOKEN,
                                   "0\tD2H\t4000\t100\t200\t7\tpageable\n0\tD2H\t4000\t300\t400\t7\tpageable\n", why,
                                   sizeof why),
                     1);
    ck_assert_msg(strstr(why, "dot_shared() copied 8.0 kB of device data to host memory (2 copies)") &&
                      strstr(why, "inputs on the GPU are 8.0 kB; at most 1.0 kB may go to the host (12% of") &&
                      strstr(why, "not on the host"),
                  "%s", why);
    /* the host path only for small n: n = 31 (248 bytes; 31 + 8 + 16 allowed) */
    ck_assert_int_eq(evidence_case("type=float n=31", 3, TOKEN, "0\tD2H\t124\t1\t2\t7\tpinned\n0\tD2H\t124\t3\t4\t7\tpinned\n",
                                   why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "copied 248 bytes"));
    /* a token grid of many blocks buys an allowance of 8 bytes per block, not more */
    ck_assert_int_eq(evidence_case("type=float n=10^4", 3,
                                   "0\t1024,1,1\t32,1,1\t2000\t1000\t3000\t7\t-\tvoid touch<float>()\n",
                                   "0\tD2H\t40000\t1\t2\t7\tpageable\n0\tD2H\t40000\t3\t4\t7\tpageable\n", why,
                                   sizeof why),
                     1);
    /* through managed memory: a device-to-device copy into it reaches the host too */
    ck_assert_int_eq(evidence_case("type=float n=1000", 3, TOKEN, "0\tD2D\t8000\t1\t2\t7\tmanaged\n", why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "to host memory"));
}
END_TEST

/* No copy at all: a kernel reading the whole input writes it into memory the
 * host can read - pinned mapped memory (zero-copy) or managed memory. */
START_TEST(copy_kernel_into_host_visible_memory_fails)
{
    char why[512];
    const char *copier = "0\t40,1,1\t256,1,1\t9000\t1000\t10000\t7\t-\tvoid copy_out<float>()\n";
    float r = float_result("type=float n=10^4", 3, 0);
    kit_writer *w = lct_open(); /* 80 kB of pinned host memory allocated in the call */
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, copier);
    kit_writer_put_text(w, "trace.copies", "");
    kit_writer_put_text(w, "trace.pinned", "0\t80000\n");
    ck_assert_int_eq(lct_check(w, "type=float n=10^4", 3, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "copied 80.0 kB of device data to host memory (0 copies, 80.0 kB of it pinned or managed "
                              "memory the kernels can write and the host can read)"),
                  "%s", why);
    /* managed pages migrated to the host as it reads them (unified-memory counters) */
    ck_assert_int_eq(evidence_case("type=float n=10^4", 3, copier, "0\tD2H\t81920\t11000\t12000\t0\tmanaged\n", why,
                                   sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "copied 81.9 kB"));
    /* a pinned scalar for the result is fine */
    w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, KERNEL);
    kit_writer_put_text(w, "trace.pinned", "0\t4\n");
    ck_assert_msg(lct_check(w, "type=float n=10^4", 3, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(kernel_with_a_fraction_of_the_work_fails)
{
    char why[512];
    /* the kernel sums the first quarter, the host the rest (3/4 of both inputs copied back) */
    ck_assert_int_eq(evidence_case("type=float n=10^5", 4,
                                   "0\t98,1,1\t256,1,1\t9000\t1000\t10000\t7\t-\tvoid dot_part<float>()\n",
                                   "0\tD2H\t300000\t20000\t30000\t7\tpageable\n0\tD2H\t300000\t30000\t40000\t7\tpageable\n",
                                   why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "copied 600.0 kB"));
    ck_assert_ptr_nonnull(strstr(why, "at most 100.8 kB may go to the host (12% of the inputs"));
}
END_TEST

START_TEST(token_kernel_on_a_large_input_fails_on_time)
{
    char why[512];
    /* n = 2^22: 32 MB of input, no copy at all (the data reached the host some
     * other way): reading 32 MB takes 4 us even at twice 4000 GB/s */
    ck_assert_int_eq(evidence_case("type=float n=2^22", 5, TOKEN, "", why, sizeof why), 1);
    ck_assert_msg(strstr(why, "dot_shared(): your kernels ran 0.0020 ms in all") && strstr(why, "33.6 MB") &&
                      strstr(why, "0.0042 ms") && strstr(why, "computed elsewhere"),
                  "%s", why);
    /* two overlapping kernels on two streams count once: 1..4 us and 2..5 us = 4 us busy */
    ck_assert_int_eq(evidence_case("type=float n=2^22", 5,
                                   "0\t1,1,1\t32,1,1\t3000\t1000\t4000\t7\t-\tvoid a()\n"
                                   "0\t1,1,1\t32,1,1\t3000\t2000\t5000\t13\t-\tvoid b()\n",
                                   "", why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "ran 0.0040 ms"));
}
END_TEST

START_TEST(valid_designs_pass_the_evidence)
{
    char why[512];
    /* grid-stride: 132 blocks of 256 threads for 2^22 elements, 30 us, a
     * second launch for the partial sums, and the 132 partials copied back */
    ck_assert_msg(evidence_case("type=float n=2^22", 5,
                                "0\t132,1,1\t256,1,1\t30000\t1000\t31000\t7\t-\tvoid dot_stride<float>()\n"
                                "0\t1,1,1\t256,1,1\t2000\t32000\t34000\t7\t-\tvoid dot_final<float>()\n",
                                "0\tmemset\t4\t500\t600\t7\tdevice\n0\tD2H\t528\t35000\t36000\t7\tpageable\n", why,
                                sizeof why) == 0,
                  "%s", why);
    /* a fixed grid of 1024 blocks whose 1024 partial sums (in double) are
     * finished on the host, even for n = 1 */
    ck_assert_msg(evidence_case("type=float n=1", 3,
                                "0\t1024,1,1\t256,1,1\t3000\t1000\t4000\t7\t-\tvoid dot_partials<float>()\n",
                                "0\tD2H\t8192\t5000\t6000\t7\tpageable\n", why, sizeof why) == 0,
                  "%s", why);
    /* the scalar result copied back after one block's work, n = 1 */
    ck_assert_msg(evidence_case("type=float n=1", 3, TOKEN, "0\tD2H\t4\t5000\t6000\t7\tpageable\n", why, sizeof why) == 0,
                  "%s", why);
    /* scratch copies on the device are not the host's */
    ck_assert_msg(evidence_case("type=float n=1000", 3, KERNEL, "0\tD2D\t8000\t1\t2\t7\tdevice\n", why, sizeof why) == 0,
                  "%s", why);
    /* a small input on a token-fast kernel: no time floor (it may sit in the L2 cache) */
    ck_assert_msg(evidence_case("type=float n=10^5", 3, TOKEN, "", why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(evidence_off_in_the_manifest)
{
    char why[512];
    float r = float_result("type=float n=1000", 3, 0);
    kit_writer *w = lct_open();
    kit_writer_put(w, "result", KIT_T_F32, &r, 1);
    lct_trace(w, CALL_F, TOKEN);
    kit_writer_put_text(w, "trace.copies", "0\tD2H\t8000\t1\t2\t7\tpageable\n");
    kit_policy p = lct_policy(1, 1);
    char err[128];
    ck_assert_int_eq(kit_evidence_parse("none", &p, err, sizeof err), 0);
    ck_assert_int_eq(lct_run_policy(w, "type=float n=1000", 3, "", 0, &p, 0, why, sizeof why), 0);
    ck_assert_int_eq(kit_evidence_parse("kernel-time, host-copy", &p, err, sizeof err), 0);
    ck_assert(p.host_copy && p.kernel_time);
    ck_assert_int_eq(kit_evidence_parse("host-copy speed", &p, err, sizeof err), -1);
    ck_assert_str_eq(err, "evidence 'speed' unknown (allowed: host-copy, kernel-time, none)");
}
END_TEST

/* variant=ladder (make run-lab03 only): its parameters are checked, with
 * one line naming the value and what is allowed. */
START_TEST(ladder_parameters)
{
    char err[256];
    kit_params p;
    lab03_data d;
    ck_assert_int_eq(kit_params_parse("variant=ladder", &p, err, sizeof err), 0);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), 0);
    ck_assert_int_eq(d.ladder, 1);
    ck_assert_int_eq(d.n, 1 << 24); /* the default size */
    lab03_free(&d);
    kit_params_parse("variant=ladder n=1000", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "multiple of 512 (got n=1000)"));
    kit_params_parse("variant=ladder n=1024 type=int", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    kit_params_parse("variant=tree n=1024", &p, err, sizeof err);
    ck_assert_int_eq(lab03_generate(&p, 1, &d, err, sizeof err), -1);
    ck_assert_str_eq(err, "variant must be one of: dot ladder (got 'tree')");
}
END_TEST

static Suite *lab03_suite(void)
{
    Suite *s = suite_create("lab03-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_float_passes);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, lost_element_fails);
    tcase_add_test(tc, nan_and_empty_input);
    tcase_add_test(tc, int_must_be_exact);
    tcase_add_test(tc, cpu_or_library_results_fail);
    tcase_add_test(tc, token_kernel_over_host_sum_fails);
    tcase_add_test(tc, copy_kernel_into_host_visible_memory_fails);
    tcase_add_test(tc, kernel_with_a_fraction_of_the_work_fails);
    tcase_add_test(tc, token_kernel_on_a_large_input_fails_on_time);
    tcase_add_test(tc, valid_designs_pass_the_evidence);
    tcase_add_test(tc, evidence_off_in_the_manifest);
    tcase_add_test(tc, ladder_parameters);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab03_suite)
