/* test_timing_verdict.c - the plausibility check of a timed result
 * (plausible.h) and what the checker says about calls that returned while
 * their work went on (timing_verdict.c), on the CPU.  The numbers are the
 * ones measured on an H100 for calls that left their kernels running on a
 * non-blocking stream (labs/lab02-parallel-add/tests/nonblocking-no-wait). */
#include <string.h>

#include "check_main.h"
#include "kit/plausible.h"
#include "lab_check_test.h"

/* lab_check_test.h's helpers call lab_check; these tests check no lab. */
int lab_check(kit_check_ctx *ctx)
{
    (void)ctx;
    return 0;
}

#define LAB02_BYTES (3.0 * 4 * (1 << 26)) /* c = a + b, n = 2^26 */
#define H100_COPY_GBS 2889.0
#define H100_DRAM_GBS 3352.0
#define H100_FP32_GFLOPS 66900.0
#define LAB10_FLOPS (2.0 * 1999 * 2049 * 2001)

static kit_plausible_in lab02(double ms)
{
    kit_plausible_in in = {ms, LAB02_BYTES, 0, H100_COPY_GBS, H100_DRAM_GBS, H100_FP32_GFLOPS};
    return in;
}

START_TEST(lab02_trick_refused)
{
    /* the kernel left running: 0.016 ms, "50,080 GB/s" under a copy bandwidth of 2,889 */
    kit_plausible_in in = lab02(0.016);
    char why[600];
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timing refused") && strstr(why, "50332 GB/s") && strstr(why, "3352 GB/s") &&
                      strstr(why, "no performance credit"),
                  "%s", why);
}
END_TEST

START_TEST(lab02_real_kernels_pass)
{
    char why[600];
    /* the reference solution (0.99x the copy) and a kernel 20% faster than the copy */
    kit_plausible_in in = lab02(0.28);
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
    ck_assert_str_eq(why, "");
    in = lab02(LAB02_BYTES / (1.2 * H100_DRAM_GBS * 1e9) * 1e3);
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
}
END_TEST

START_TEST(margin_is_the_boundary)
{
    char why[600];
    double at = LAB02_BYTES / (KIT_PLAUSIBLE_MARGIN * H100_DRAM_GBS * 1e9) * 1e3; /* ms at exactly the margin */
    kit_plausible_in in = lab02(at * 1.001);
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
    in = lab02(at * 0.999);
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 1);
}
END_TEST

START_TEST(measured_copy_is_the_roof_when_higher)
{
    /* small data in L2: the copy of as many bytes beats the DRAM peak, and so may the call */
    char why[600];
    kit_plausible_in in = {0.001, 8e6, 0, 9000, H100_DRAM_GBS, 0}; /* 8000 GB/s */
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
    in.ms = 0.0004; /* 20000 GB/s */
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "9000 GB/s") && strstr(why, "measured in this run"), "%s", why);
}
END_TEST

START_TEST(lab10_trick_refused_on_flops)
{
    /* the kernel left running: 0.012 ms, "1.3 PFLOP/s" */
    char why[600];
    kit_plausible_in in = {0.012, 4.0 * (1999.0 * 2001 + 2001.0 * 2049 + 1999.0 * 2049), LAB10_FLOPS, H100_COPY_GBS,
                           H100_DRAM_GBS, H100_FP32_GFLOPS};
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "TFLOP/s") && strstr(why, "FP32 peak (66.9 TFLOP/s)"), "%s", why);
    in.ms = 2.766; /* the naive kernel */
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
    in.ms = 0.3; /* 55 TFLOP/s: near the peak, possible */
    ck_assert_int_eq(kit_timing_implausible(&in, why, sizeof why), 0);
}
END_TEST

START_TEST(nothing_known_nothing_refused)
{
    char why[600];
    kit_plausible_in none = {0.000001, 0, 0, 0, 0, 0};
    ck_assert_int_eq(kit_timing_implausible(&none, why, sizeof why), 0);
    kit_plausible_in no_limits = {0.000001, LAB02_BYTES, LAB10_FLOPS, 0, 0, 0};
    ck_assert_int_eq(kit_timing_implausible(&no_limits, why, sizeof why), 0);
    kit_plausible_in no_time = lab02(0);
    ck_assert_int_eq(kit_timing_implausible(&no_time, why, sizeof why), 0);
}
END_TEST

/* ---- the checker's path (kit_judge) on a timing run's record ---- */

static void put(kit_writer *w, const char *name, double v) { kit_writer_put(w, name, KIT_T_F64, &v, 1); }

static kit_writer *bench_run(double student_ms)
{
    kit_writer *w = lct_open();
    lct_trace(w, "0\tvector_add_device\t1\t\n", "0\t4,1,1\t256,1,1\t1000\tadd(float const*, float const*, float*, int)\n");
    put(w, KIT_KEY_STUDENT_MS, student_ms);
    put(w, KIT_KEY_BASELINE_MS, 0.28);
    put(w, KIT_KEY_TIMED_BYTES, LAB02_BYTES);
    put(w, KIT_KEY_TIMED_FLOPS, 0);
    put(w, KIT_KEY_DEVICE_COPY_GBS, H100_COPY_GBS);
    put(w, KIT_KEY_DEVICE_DRAM_GBS, H100_DRAM_GBS);
    put(w, KIT_KEY_DEVICE_PEAK_GFLOPS, H100_FP32_GFLOPS);
    return w;
}

static int judge(kit_writer *w, char *text, size_t len)
{
    kit_policy p = {0};
    return lct_run_policy(w, "n=1", 1, "", 0, &p, 1, text, len);
}

START_TEST(checker_refuses_an_impossible_time)
{
    char text[4096];
    ck_assert_int_eq(judge(bench_run(0.016), text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "timing refused: reading and writing at least 805.3 MB", 53), "%s", text);
}
END_TEST

START_TEST(checker_passes_a_possible_time)
{
    char text[4096];
    ck_assert_int_eq(judge(bench_run(0.28), text, sizeof text), 0);
    ck_assert_msg(!strstr(text, "refused"), "%s", text);
}
END_TEST

START_TEST(checker_notes_calls_that_returned_early)
{
    char text[4096];
    kit_writer *w = bench_run(0.30);
    kit_writer_put_text(w, KIT_KEY_TRACE_LEFT,
                        "0\tvector_add_device\tkernel add on a non-blocking stream (cudaStreamNonBlocking)\n");
    kit_writer_put_text(w, KIT_KEY_TIMED_LEFT,
                        "kernel add on a non-blocking stream (cudaStreamNonBlocking)\t40\t40\t0.2712\t0");
    ck_assert_int_eq(judge(w, text, sizeof text), 0);
    ck_assert_msg(strstr(text, "note: vector_add_device() returned while kernel add on a non-blocking stream "
                               "(cudaStreamNonBlocking) was still running: the kit waited"),
                  "%s", text);
    ck_assert_msg(strstr(text, "note: 40 of 40 timed calls returned while kernel add on a non-blocking stream "
                               "(cudaStreamNonBlocking) was still running (up to 0.271 ms more): each was timed "
                               "until all its work had finished"),
                  "%s", text);
}
END_TEST

START_TEST(checker_refuses_work_it_could_not_follow)
{
    char text[4096];
    kit_writer *w = bench_run(0.30);
    kit_writer_put_text(w, KIT_KEY_TIMED_LEFT, "work\t0\t40\t0\t3");
    ck_assert_int_eq(judge(w, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timing refused: 3 timed calls left work running on more streams than the kit can "
                               "follow"),
                  "%s", text);
}
END_TEST

START_TEST(correctness_run_note_only)
{
    /* not a timing run: the note, no refusal, whatever else is recorded */
    char text[4096];
    kit_writer *w = lct_open();
    lct_trace(w, "0\tdot_shared\t1\t\n1\tdot_shared\t1\t\n", "0\t4,1,1\t256,1,1\t1000\tk()\n");
    kit_writer_put_text(w, KIT_KEY_TRACE_LEFT, "0\tdot_shared\tkernel reset on a non-blocking stream\n"
                                               "1\tdot_shared\tkernel reset on a non-blocking stream\n");
    ck_assert_int_eq(judge(w, text, sizeof text), 0);
    const char *first = strstr(text, "note: dot_shared() returned while kernel reset");
    ck_assert_msg(first && !strstr(first + 1, "note: dot_shared()"), "one note per function: %s", text);
}
END_TEST

static Suite *timing_verdict_suite(void)
{
    Suite *s = suite_create("timing_verdict");
    TCase *tc = tcase_create("plausible");
    tcase_add_test(tc, lab02_trick_refused);
    tcase_add_test(tc, lab02_real_kernels_pass);
    tcase_add_test(tc, margin_is_the_boundary);
    tcase_add_test(tc, measured_copy_is_the_roof_when_higher);
    tcase_add_test(tc, lab10_trick_refused_on_flops);
    tcase_add_test(tc, nothing_known_nothing_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("checker");
    tcase_add_test(tc, checker_refuses_an_impossible_time);
    tcase_add_test(tc, checker_passes_a_possible_time);
    tcase_add_test(tc, checker_notes_calls_that_returned_early);
    tcase_add_test(tc, checker_refuses_work_it_could_not_follow);
    tcase_add_test(tc, correctness_run_note_only);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(timing_verdict_suite)
