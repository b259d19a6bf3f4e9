/* test_timeline.c - a call's timeline from its trace (common/src/
 * timeline.c): busy times as unions of intervals, counted exactly from the
 * records' timestamps, kernels without an end left out of the intervals,
 * copies other than host<->device left out; the overlap judgement passes,
 * fails with too little overlap, with nothing to overlap and without a
 * trace; the copies' bytes each way held to what a call must copy. */
#include <string.h>

#include "check_main.h"
#include "kit/timeline.h"
#include "lab_check_test.h"

/* kernels at [10,20] (stream 13), [30,40] (14), [15,18] (13) and one without
 * timestamps; copies H2D [0,10], D2H [15,35], a D2D [0,100] (not counted):
 * kernels busy 20 ns, copies 30, both at once [15,20] + [30,35] = 10: 50%. */
static const char *KERNELS = "0\t4,1,1\t256,1,1\t10\t10\t20\t13\t-\tk()\n"
                             "0\t4,1,1\t256,1,1\t10\t30\t40\t14\t-\tk()\n"
                             "0\t4,1,1\t256,1,1\t3\t15\t18\t13\t-\tk()\n"
                             "0\t4,1,1\t256,1,1\t10\tk()\n";
static const char *COPIES = "0\tH2D\t400\t0\t10\t13\n0\tD2H\t300\t15\t35\t14\n0\tD2D\t900\t0\t100\t13\n";

/* The output file of one traced call "f" (no trace at all: kernels NULL). */
static kit_blobfile *traced(const char *kernels, const char *copies)
{
    kit_writer *w = lct_open();
    if (kernels) {
        lct_trace(w, "0\tf\t1\t\n", kernels);
        kit_writer_put_text(w, "trace.copies", copies);
    }
    kit_blobfile *b = lct_load(w);
    ck_assert_ptr_nonnull(b);
    return b;
}

START_TEST(timeline_counted_exactly)
{
    kit_blobfile *b = traced(KERNELS, COPIES);
    kit_timeline t;
    ck_assert_int_eq(kit_call_timeline(b, "f", &t), 0);
    ck_assert(t.launches == 4 && t.timed_launches == 3 && t.streams == 2);
    ck_assert(t.h2d == 1 && t.d2h == 1 && t.bytes[0] == 400 && t.bytes[1] == 300 && t.ns[0] == 10 && t.ns[1] == 20);
    ck_assert(t.kernel_ms == 20e-6 && t.copy_ms == 30e-6 && t.both_ms == 10e-6);
    ck_assert_int_eq(kit_call_timeline(b, "g", &t), 0); /* a call that did not run: nothing */
    ck_assert(t.launches == 0 && t.h2d == 0 && t.kernel_ms == 0);
    kit_blob_free(b);
    b = traced(NULL, NULL);
    ck_assert_int_eq(kit_call_timeline(b, "f", &t), -1);
    kit_blob_free(b);
}
END_TEST

/* kit_check_overlap on the file; text gets the summary and the details. */
static int overlap(const char *kernels, const char *copies, double min, char *text, size_t len)
{
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.out = traced(kernels, copies);
    kit_check_overlap(&ctx, "f", min);
    kit_blob_free((kit_blobfile *)ctx.out);
    return lct_said(&ctx, text, len);
}

START_TEST(overlap_judged)
{
    char text[1024];
    ck_assert_int_eq(overlap(KERNELS, COPIES, 0.5, text, sizeof text), 0);
    ck_assert_msg(strstr(text, "note: timeline: copies busy 0.000 ms (1 in, 1 out), kernels busy 0.000 ms (4 launches "
                               "on 2 streams), both at once 0.000 ms: 50% of the shorter (needed 50%)"),
                  "%s", text);
    ck_assert_int_eq(overlap(KERNELS, COPIES, 0.6, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "copies and kernels overlap for only 50% of the shorter of the two, 60% needed"), "%s",
                  text);
    ck_assert_int_eq(overlap(KERNELS, "", 0.5, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no overlap to measure: the call ran 3 kernel(s) and 0 host<->device copies"), "%s",
                  text);
    ck_assert_int_eq(overlap(NULL, NULL, 0.5, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "the CUPTI trace of this run is not available"), "%s", text);
}
END_TEST

/* kit_check_copies on "f" (400 bytes in over 10 ns, 300 out over 20 ns; the
 * D2D copy not counted): wanted bytes each way, or the bandwidths; nothing
 * without a trace. */
static int copies(const char *kernels, unsigned long long in, unsigned long long out, char *text, size_t len)
{
    kit_check_ctx ctx;
    unsigned long long want[2] = {in, out};
    memset(&ctx, 0, sizeof ctx);
    ctx.out = traced(kernels, COPIES);
    kit_check_copies(&ctx, "f", want, "A", "%s: %llu, %llu of %llu, %llu", "%s: %.0f, %.0f GB/s");
    kit_blob_free((kit_blobfile *)ctx.out);
    return lct_said(&ctx, text, len);
}

START_TEST(copies_judged)
{
    char text[1024];
    ck_assert_int_eq(copies(KERNELS, 400, 300, text, sizeof text), 0);
    ck_assert_msg(!strcmp(text, "\nA: 40, 15 GB/s\n"), "%s", text);
    ck_assert_int_eq(copies(KERNELS, 400, 301, text, sizeof text), 1);
    ck_assert_msg(!strcmp(text, "A: 400, 300 of 400, 301\n"), "%s", text);
    ck_assert_int_eq(copies(NULL, 400, 301, text, sizeof text), 0);
    ck_assert_msg(!strcmp(text, "\n"), "no trace: %s", text);
}
END_TEST

static Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *t = tcase_create("trace");
    tcase_add_test(t, timeline_counted_exactly);
    tcase_add_test(t, overlap_judged);
    tcase_add_test(t, copies_judged);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(timeline_suite)
