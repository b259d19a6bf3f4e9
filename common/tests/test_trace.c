/* test_trace.c - reading a runner's trace in the checker: kernels with their
 * timestamps, streams and origin, memory copies and memsets, per call. */
#include <string.h>

#include "check_main.h"
#include "lab_check_test.h"

/* lab_check_test.h's helpers call lab_check; these tests check no lab. */
int lab_check(kit_check_ctx *ctx)
{
    (void)ctx;
    return 0;
}

static const char *CALLS = "0\tupload\t1\t\n1\tdot_shared\t1\t\n";
static const char *KERNELS =
    "1\t4,1,1\t256,1,1\t1500\t1000\t2500\t7\t-\tvoid dot_partial<float>(const float *, const float *, float *, int)\n"
    "1\t1,1,1\t32,1,1\t500\t2600\t3100\t13\tlibcublas.so.13\tsm90_xmma_gemm\n"
    "0\t2,1,1\t64,1,1\t800\tshort_format_kernel()\n";
static const char *COPIES = "1\tH2D\t4096\t900\t950\t7\n"
                            "1\tD2H\t1028\t3200\t3300\t13\n"
                            "0\tD2D\t64\t10\t20\t0\n"
                            "1\tmemset\t16\t800\t810\t7\n"
                            "1\tweird\t1\t1\t2\t0\n";

static kit_blobfile *load_trace(const char *kernels, const char *copies)
{
    kit_writer *w = lct_open();
    lct_trace(w, CALLS, kernels);
    if (copies)
        kit_writer_put_text(w, "trace.copies", copies);
    kit_writer_put_text(w, "runner.status", "ok");
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    unlink(lct_path);
    return b;
}

START_TEST(launches_carry_times_streams_origin)
{
    kit_blobfile *b = load_trace(KERNELS, COPIES);
    kit_launch ks[4];
    ck_assert_int_eq(kit_call_launches(b, "dot_shared", ks, 4), 2);
    ck_assert_int_eq(ks[0].grid[0], 4);
    ck_assert_int_eq(ks[0].block[0], 256);
    ck_assert(ks[0].start == 1000 && ks[0].end == 2500);
    ck_assert_uint_eq(ks[0].stream, 7);
    ck_assert_str_eq(ks[0].origin, "-");
    ck_assert_str_eq(ks[0].name, "void dot_partial<float>(const float *, const float *, float *, int)");
    ck_assert_str_eq(ks[1].origin, "libcublas.so.13");
    ck_assert_str_eq(ks[1].name, "sm90_xmma_gemm");
    /* the short format of hand-written traces still reads, without times */
    ck_assert_int_eq(kit_call_launches(b, "upload", ks, 4), 1);
    ck_assert_str_eq(ks[0].name, "short_format_kernel()");
    ck_assert(ks[0].start == 0 && ks[0].end == 0);
    ck_assert_str_eq(ks[0].origin, "-");
    kit_blob_free(b);
}
END_TEST

START_TEST(copies_per_call_with_kinds)
{
    kit_blobfile *b = load_trace(KERNELS, COPIES);
    kit_copy cs[8];
    ck_assert_int_eq(kit_call_copies(b, "dot_shared", NULL, 0), 4); /* count only */
    ck_assert_int_eq(kit_call_copies(b, "dot_shared", cs, 8), 4);
    ck_assert_int_eq(cs[0].kind, KIT_COPY_H2D);
    ck_assert(cs[0].bytes == 4096 && cs[0].start == 900 && cs[0].end == 950);
    ck_assert_int_eq(cs[1].kind, KIT_COPY_D2H);
    ck_assert_uint_eq(cs[1].stream, 13);
    ck_assert_int_eq(cs[2].kind, KIT_COPY_MEMSET);
    ck_assert_int_eq(cs[3].kind, KIT_COPY_OTHER);
    ck_assert_str_eq(kit_copy_kind_name(cs[1].kind), "D2H");
    ck_assert_str_eq(kit_copy_kind_name(cs[3].kind), "?");
    ck_assert_int_eq(kit_call_copies(b, "upload", cs, 8), 1);
    ck_assert_int_eq(cs[0].kind, KIT_COPY_D2D);
    ck_assert_int_eq(kit_call_copies(b, "no_such_call", cs, 8), 0);
    kit_blob_free(b);
}
END_TEST

START_TEST(no_copies_recorded_reads_as_none)
{
    kit_blobfile *b = load_trace(KERNELS, NULL); /* a runner from before copies were traced */
    ck_assert_int_eq(kit_call_copies(b, "dot_shared", NULL, 0), 0);
    kit_blob_free(b);
}
END_TEST

START_TEST(unavailable_trace_reads_as_minus_one)
{
    kit_writer *w = lct_open();
    kit_writer_put_text(w, "trace.status", "unavailable: CUPTI: busy");
    kit_writer_put_text(w, "trace.calls", CALLS);
    kit_writer_put_text(w, "trace.copies", COPIES);
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    unlink(lct_path);
    ck_assert_int_eq(kit_call_copies(b, "dot_shared", NULL, 0), -1);
    ck_assert_int_eq(kit_call_launches(b, "dot_shared", NULL, 0), -1);
    kit_blob_free(b);
}
END_TEST

static const char *lib_of(const char *origin, const char *name)
{
    kit_launch l;
    memset(&l, 0, sizeof l);
    snprintf(l.origin, sizeof l.origin, "%s", origin);
    snprintf(l.name, sizeof l.name, "%s", name);
    return kit_kernel_library(&l);
}

/* A library is told by where its kernel comes from, not by a substring of the name (a student's
 * spmv_cusparse_like is the student's own). */
START_TEST(library_by_origin_and_namespace)
{
    /* the student's own kernels, whatever their names or template arguments */
    ck_assert_ptr_null(lib_of("-", "spmv_cusparse_like(int, const int *, const int *, const float *, float *)"));
    ck_assert_ptr_null(lib_of("-", "void spmv_cusparse_like<float>(const float *)"));
    ck_assert_ptr_null(lib_of("-", "void reduce_with<thrust::plus<float>>(const float *, float *)"));
    ck_assert_ptr_null(lib_of("-", "cublas_style_gemm()"));
    ck_assert_ptr_null(lib_of("-", "void (anonymous namespace)::my_kernel<int>(int *)"));
    ck_assert_ptr_null(lib_of("-", "void mylab::cub_like_scan<float>(float *)"));
    /* header-only libraries compiled into the student's file: their namespace */
    ck_assert_str_eq(lib_of("-", "void thrust::THRUST_300000_SM_900_NS::cuda_cub::core::_kernel_agent<int>()"), "Thrust");
    ck_assert_str_eq(lib_of("-", "void cub::CUB_300000_SM_900::DeviceReduceSingleTileKernel<float>()"), "CUB");
    ck_assert_str_eq(lib_of("-", "void cutlass::Kernel<float>(float)"), "CUTLASS");
    /* shared libraries: the object that launched the kernel, whatever its name */
    ck_assert_str_eq(lib_of("libcublas.so.13", "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"), "cuBLAS");
    ck_assert_str_eq(lib_of("libcublasLt.so.13", "nvjet_hsh_64x32_64x16_2x1_v_bz_splitK_TNT"), "cuBLAS");
    ck_assert_str_eq(lib_of("libcusparse.so.12", "void csrmv_v3_kernel<float>()"), "cuSPARSE");
    ck_assert_str_eq(lib_of("libsomething.so.2", "plain_kernel()"), "libsomething.so.2");
}
END_TEST

/* Dropped records would hide copies or kernels: the check fails instead of noting. */
START_TEST(overflowing_trace_fails_the_policy)
{
    kit_writer *w = lct_open();
    kit_writer_put_text(w, "trace.status", "ok (20000 copy records dropped)");
    kit_writer_put_text(w, "trace.calls", CALLS);
    kit_writer_put_text(w, "trace.kernels", KERNELS);
    char why[512];
    ck_assert_int_eq(lct_check_policy(w, "", 1, 1, 1, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "more kernel launches or copies than the trace keeps (20000 copy records dropped): the device-execution check cannot vouch"),
                  "%s", why);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, launches_carry_times_streams_origin);
    tcase_add_test(tc, copies_per_call_with_kinds);
    tcase_add_test(tc, no_copies_recorded_reads_as_none);
    tcase_add_test(tc, unavailable_trace_reads_as_minus_one);
    tcase_add_test(tc, library_by_origin_and_namespace);
    tcase_add_test(tc, overflowing_trace_fails_the_policy);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(trace_suite)
