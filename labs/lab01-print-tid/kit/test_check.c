/* test_check.c - lab01's checker on the CPU: the right lines pass, whatever
 * their order; the mistakes the lab is about (no synchronisation, a wrong
 * global-id formula, lines printed by the host, an unfinished device query)
 * fail with a message that names them. */
#include <cuda_runtime_api.h>
#include <stdint.h>

#include "check_hooks.h"
#include "check_main.h"
#include "kit/runner.h" /* KIT_STDOUT_MARK */
#include "lab_check_test.h"

#define OUT_CAP (1 << 17) /* 3000 lines of ~30 characters */

static const char *CALL_TIDS = "0\tprint_tids\t1\t\n";
static const char *CALL_QUERY = "0\tquery_device\t0\t\n";

/* lct_check with the runner's stdout as well (lct_run, summary only). */
static int check_with_stdout_len(kit_writer *w, const char *params, const char *out_text, size_t out_len, char *why,
                                 size_t len)
{
    return lct_run(w, params, 1, out_text, out_len, 1, 1, 0, why, len);
}

static int check_with_stdout(kit_writer *w, const char *params, const char *out_text, char *why, size_t len)
{
    return check_with_stdout_len(w, params, out_text, strlen(out_text), why, len);
}

/* The lines of a blocks x threads launch in a scrambled order; tid_of gives
 * each thread's printed id (the right formula or a student's mistake). */
typedef int (*tid_formula)(int block, int thread, int blocks, int threads);
static int right_tid(int b, int t, int blocks, int threads) { (void)blocks; return b * threads + t; }
static int griddim_tid(int b, int t, int blocks, int threads) { (void)threads; return b * blocks + t; }

static void tid_lines(char *buf, size_t cap, int blocks, int threads, tid_formula tid_of)
{
    int total = blocks * threads;
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < total; i++) {
        int j = (int)(((long long)i * 7919) % total); /* 7919 is prime: a permutation unless it divides total */
        int b = j / threads, t = j % threads;
        k += snprintf(buf + k, cap - k, "block %d thread %d tid %d\n", b, t, tid_of(b, t, blocks, threads));
        ck_assert_uint_lt(k, cap);
    }
}

static char *mark_line(void)
{
    static char m[64];
    snprintf(m, sizeof m, "\n%s\n", KIT_STDOUT_MARK);
    return m;
}

/* A run of print_tids(blocks, threads) whose kernel was <<<blocks, threads>>>. */
static kit_writer *tids_run(int blocks, int threads, const char *kernels)
{
    char k[256];
    if (!kernels) {
        snprintf(k, sizeof k, "0\t%d,1,1\t%d,1,1\t4000\tprint_tid_kernel()\n", blocks, threads);
        kernels = k;
    }
    kit_writer *w = lct_open();
    int32_t launch[2] = {blocks, threads};
    kit_writer_put(w, "launch", KIT_T_I32, launch, 2);
    lct_trace(w, CALL_TIDS, kernels);
    return w;
}

START_TEST(right_lines_pass_in_any_order)
{
    char why[1024];
    static char out[OUT_CAP];
    /* host output around the lines does not matter */
    snprintf(out, sizeof out, "starting\n");
    tid_lines(out + strlen(out), sizeof out - strlen(out), 2, 3, right_tid);
    strcat(out, "  \r\n");
    strcat(out, mark_line());
    ck_assert_msg(check_with_stdout(tids_run(2, 3, NULL), "part=tids blocks=2 threads=3", out, why, sizeof why) == 0,
                  "%s", why);
    tid_lines(out, sizeof out, 3, 1000, right_tid);
    strcat(out, mark_line());
    ck_assert_msg(check_with_stdout(tids_run(3, 1000, NULL), "part=tids blocks=3 threads=1000", out, why,
                                    sizeof why) == 0,
                  "%s", why);
}
END_TEST

START_TEST(unsynchronised_lines_fail)
{
    char why[1024];
    static char out[OUT_CAP];
    /* the starter: the lines come only after the mark */
    snprintf(out, sizeof out, "%s", mark_line());
    tid_lines(out + strlen(out), sizeof out - strlen(out), 4, 3, right_tid);
    ck_assert_int_eq(check_with_stdout(tids_run(4, 3, NULL), "part=tids blocks=4 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no line was visible when print_tids() returned"));
    ck_assert_ptr_nonnull(strstr(why, "12 lines"));
    ck_assert_ptr_nonnull(strstr(why, "synchronisation"));
}
END_TEST

START_TEST(a_nul_byte_does_not_hide_the_mark)
{
    char why[1024], out[512];
    /* a NUL printed before the mark must not make the late lines count */
    size_t k = 0;
    out[k++] = '\0';
    k += (size_t)snprintf(out + k, sizeof out - k, "%sblock 0 thread 0 tid 0\n", mark_line());
    ck_assert_int_eq(check_with_stdout_len(tids_run(1, 1, NULL), "part=tids blocks=1 threads=1", out, k, why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "no line was visible"));
}
END_TEST

START_TEST(nothing_or_wrong_format_fails)
{
    char why[1024];
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, NULL), "part=tids", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "printed nothing"));
    /* the classic textbook's format is not the lab's */
    const char *doc = "block index=0, thread index=0, tid=0\nblock index=0, thread index=1, tid=1\n";
    char out[512];
    snprintf(out, sizeof out, "%s%s", doc, mark_line());
    ck_assert_int_eq(check_with_stdout(tids_run(1, 2, NULL), "part=tids blocks=1 threads=2", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "none of the form 'block B thread T tid N'"));
    ck_assert_ptr_nonnull(strstr(why, "block index=0"));
}
END_TEST

START_TEST(griddim_formula_fails)
{
    char why[1024];
    static char out[OUT_CAP];
    /* tid = blockIdx.x * gridDim.x + threadIdx.x: 0 1 2 2 3 4 for 2 x 3 */
    tid_lines(out, sizeof out, 2, 3, griddim_tid);
    strcat(out, mark_line());
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, NULL), "part=tids blocks=2 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "3 of the 6 lines have a tid that does not match"));
    ck_assert_ptr_nonnull(strstr(why, "has global id"));
    /* with as many blocks as threads the mistake is invisible: that is why the shapes differ */
    tid_lines(out, sizeof out, 3, 3, griddim_tid);
    strcat(out, mark_line());
    ck_assert_msg(check_with_stdout(tids_run(3, 3, NULL), "part=tids blocks=3 threads=3", out, why, sizeof why) == 0,
                  "%s", why);
}
END_TEST

START_TEST(duplicate_missing_and_out_of_range_fail)
{
    char why[1024];
    const char *dup = "block 0 thread 0 tid 0\nblock 0 thread 1 tid 1\nblock 0 thread 1 tid 1\n";
    char out[512];
    snprintf(out, sizeof out, "%s%s", dup, mark_line());
    ck_assert_int_eq(check_with_stdout(tids_run(1, 3, NULL), "part=tids blocks=1 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "1 tid was printed more than once: 1"));
    const char *missing = "block 0 thread 0 tid 0\nblock 0 thread 1 tid 1\n";
    snprintf(out, sizeof out, "%s%s", missing, mark_line());
    ck_assert_int_eq(check_with_stdout(tids_run(1, 3, NULL), "part=tids blocks=1 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "1 of the 3 tids 0..2 were never printed: 2"));
    const char *range = "block 0 thread 0 tid 0\nblock 0 thread 1 tid 1\nblock 0 thread 3 tid 3\n";
    snprintf(out, sizeof out, "%s%s", range, mark_line());
    ck_assert_int_eq(check_with_stdout(tids_run(1, 3, NULL), "part=tids blocks=1 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "outside the launch"));
    ck_assert_ptr_nonnull(strstr(why, "block 0 thread 3 tid 3"));
}
END_TEST

START_TEST(lines_need_the_launch)
{
    char why[1024];
    static char out[OUT_CAP];
    tid_lines(out, sizeof out, 2, 3, right_tid);
    strcat(out, mark_line());
    /* printed by the host, no kernel */
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, ""), "part=tids blocks=2 threads=3", out, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    /* printed by the host next to a one-thread kernel */
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, "0\t1,1,1\t1,1,1\t900\tdummy()\n"), "part=tids blocks=2 threads=3",
                                       out, why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "launched no kernel of 2 blocks x 3 threads"));
    ck_assert_ptr_nonnull(strstr(why, "<<<(1,1,1), (1,1,1)>>>"));
    /* a library kernel */
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, "0\t2,1,1\t3,1,1\t900\tvoid thrust::for_each_kernel()\n"),
                                       "part=tids blocks=2 threads=3", out, why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "Thrust"));
    /* without a trace (e.g. no CUPTI) the launch cannot be checked: the lines decide */
    kit_writer *w = lct_open();
    int32_t launch[2] = {2, 3};
    kit_writer_put(w, "launch", KIT_T_I32, launch, 2);
    kit_writer_put_text(w, "trace.status", "unavailable: runner built without CUPTI");
    kit_writer_put_text(w, "trace.calls", CALL_TIDS);
    kit_writer_put_text(w, "trace.kernels", "");
    ck_assert_msg(check_with_stdout(w, "part=tids blocks=2 threads=3", out, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(missing_output_and_bad_params)
{
    char why[1024];
    kit_writer *w = lct_open(); /* no "launch" array */
    lct_trace(w, CALL_TIDS, "0\t2,1,1\t3,1,1\t900\tk()\n");
    ck_assert_int_eq(check_with_stdout(w, "part=tids", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "launch"));
    ck_assert_int_eq(check_with_stdout(tids_run(2, 3, NULL), "part=tids threads=2000", mark_line(), why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "at most 1024"));
}
END_TEST

/* ---- device query ---- */

static const device_info FAKE = {"NVIDIA H100 80GB HBM3", 9, 0, 132, 1024, 49152};

/* FAKE as the CUDA runtime would give it (struct cudaDeviceProp). */
static int fake_truth(void *prop, char *err, size_t errlen)
{
    struct cudaDeviceProp *p = prop;
    (void)err, (void)errlen;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", FAKE.name);
    p->major = FAKE.major, p->minor = FAKE.minor, p->multiProcessorCount = FAKE.multiprocessors;
    p->maxThreadsPerBlock = FAKE.max_threads_per_block, p->sharedMemPerBlock = FAKE.shared_mem_per_block;
    return 0;
}

static int no_runtime(void *prop, char *err, size_t errlen)
{
    (void)prop;
    snprintf(err, errlen, "no CUDA-capable device is detected (cudaErrorNoDevice)");
    return -1;
}

/* What the harness records for *d (as its after() does for query_device). */
static kit_writer *query_run(const device_info *d)
{
    kit_writer *w = lct_open();
    char name[256];
    memcpy(name, d->name, sizeof name);
    name[255] = 0;
    int64_t shared = (int64_t)d->shared_mem_per_block;
    kit_writer_put_text(w, "device.name", name);
    kit_writer_put(w, "device.major", KIT_T_I32, &d->major, 1);
    kit_writer_put(w, "device.minor", KIT_T_I32, &d->minor, 1);
    kit_writer_put(w, "device.multiprocessors", KIT_T_I32, &d->multiprocessors, 1);
    kit_writer_put(w, "device.max_threads_per_block", KIT_T_I32, &d->max_threads_per_block, 1);
    kit_writer_put(w, "device.shared_mem_per_block", KIT_T_I64, &shared, 1);
    lct_trace(w, CALL_QUERY, "");
    return w;
}

START_TEST(right_query_passes)
{
    char why[1024];
    lab01_device_truth = fake_truth;
    ck_assert_msg(check_with_stdout(query_run(&FAKE), "part=query", mark_line(), why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(unfinished_query_fails)
{
    char why[1024];
    lab01_device_truth = fake_truth;
    /* the starter: the last three fields keep the harness's 0xFF fill */
    device_info d;
    memset(&d, 0xFF, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", FAKE.name);
    d.major = FAKE.major, d.minor = FAKE.minor;
    ck_assert_int_eq(check_with_stdout(query_run(&d), "part=query", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "multiprocessors is -1, the CUDA runtime says 132"));
    ck_assert_ptr_nonnull(strstr(why, "never set"));
    /* nothing set at all */
    memset(&d, 0xFF, sizeof d);
    ck_assert_int_eq(check_with_stdout(query_run(&d), "part=query", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "name was never set"));
    /* a wrong value (the opt-in shared memory instead of the default) */
    d = FAKE;
    d.shared_mem_per_block = 232448;
    ck_assert_int_eq(check_with_stdout(query_run(&d), "part=query", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "shared_mem_per_block is 232448, the CUDA runtime says 49152"));
    /* major and minor swapped */
    d = FAKE;
    d.major = 0, d.minor = 9;
    ck_assert_int_eq(check_with_stdout(query_run(&d), "part=query", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "major"));
}
END_TEST

START_TEST(query_without_runtime_is_the_kits_problem)
{
    char why[1024];
    lab01_device_truth = no_runtime;
    ck_assert_int_eq(check_with_stdout(query_run(&FAKE), "part=query", mark_line(), why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "not of your code"));
}
END_TEST

static Suite *lab01_suite(void)
{
    Suite *s = suite_create("lab01-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_lines_pass_in_any_order);
    tcase_add_test(tc, unsynchronised_lines_fail);
    tcase_add_test(tc, a_nul_byte_does_not_hide_the_mark);
    tcase_add_test(tc, nothing_or_wrong_format_fails);
    tcase_add_test(tc, griddim_formula_fails);
    tcase_add_test(tc, duplicate_missing_and_out_of_range_fail);
    tcase_add_test(tc, lines_need_the_launch);
    tcase_add_test(tc, missing_output_and_bad_params);
    tcase_add_test(tc, right_query_passes);
    tcase_add_test(tc, unfinished_query_fails);
    tcase_add_test(tc, query_without_runtime_is_the_kits_problem);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab01_suite)
