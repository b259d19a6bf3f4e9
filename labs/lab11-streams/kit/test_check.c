/* test_check.c - lab11's checker on the CPU: right round trips and results
 * pass; pageable "pinned" memory, missing copies, unwritten words and a
 * serialised timeline fail with messages that say so; the overlap is
 * measured from the trace's timestamps exactly. */
#include "check_main.h"
#include "dataset.h"
#include "lab_check_test.h"
#include "transfer.h"

static lab11_data gen(const char *params, uint64_t seed)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab11_data d;
    ck_assert_msg(lab11_generate(&p, seed, &d, err, sizeof err) == 0, "%s", err);
    return d;
}

/* The record of a benchmark's timed calls (calls 3 and 12) put into the next
 * verdict's output: NO_RECORD, RIGHT, or STALE (call 12's destination is
 * call 3's: a remembered result).  Right words are the originals rotated by
 * the shift, XORed with the mask (the scale) and, in Part 2, mixed. */
enum { NO_RECORD, RIGHT, STALE };
static int timed_record = NO_RECORD;

static void put_timed(kit_writer *w, const lab11_data *d)
{
    if (timed_record == NO_RECORD)
        return;
    int32_t call[2] = {3, 12};
    int64_t shift[2] = {1, d->n - 2};
    double scale[2] = {0, 0xdeadbeef};
    int64_t *idx = malloc(2 * LAB11_TIMED_SAMPLE * sizeof *idx);
    uint32_t *val = malloc(2 * LAB11_TIMED_SAMPLE * sizeof *val);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < LAB11_TIMED_SAMPLE; j++) {
            size_t at = (size_t)k * LAB11_TIMED_SAMPLE + (size_t)j;
            int64_t i = (7 * j + k) % d->n;
            int use = timed_record == STALE ? 0 : k; /* STALE: call 12 shows call 3's words */
            uint32_t x = d->in[(i + shift[use]) % d->n] ^ (uint32_t)scale[use];
            idx[at] = i, val[at] = d->part == 1 ? x : lab11_mix(x, d->rounds);
        }
    lct_timed(w, call, shift, scale, 2, idx, val, 2 * LAB11_TIMED_SAMPLE);
    free(idx);
    free(val);
}

static const char *P1_CALLS = "0\tpinned_alloc\t0\t\n1\tround_trip_pageable\t0\t\n2\tround_trip_pinned\t0\t\n";

/* A Part 1 output: what came back, the pointer's kind, the copies.  spoil:
 * SPOIL_PINNED leaves the last pinned word poisoned, SPOIL_PAGEABLE gets the
 * first pageable word wrong. */
enum { SPOIL_PINNED = 1, SPOIL_PAGEABLE = 2 };
static int part1_verdict(const char *params, const char *kind, int spoil, const char *copies, char *why, size_t len)
{
    lab11_data d = gen(params, 4);
    uint32_t *back = malloc((size_t)d.n * 4);
    memcpy(back, d.in, (size_t)d.n * 4);
    kit_writer *w = lct_open();
    kit_writer_put_text(w, "pinned_kind", kind);
    back[0] ^= spoil & SPOIL_PAGEABLE ? 1 : 0;
    kit_writer_put(w, "back_pageable", KIT_T_U32, back, (uint64_t)d.n);
    back[0] = d.in[0];
    if (spoil & SPOIL_PINNED)
        back[d.n - 1] = ~d.in[d.n - 1]; /* the harness's poison: never written */
    kit_writer_put(w, "back_pinned", KIT_T_U32, back, (uint64_t)d.n);
    put_timed(w, &d);
    lct_trace(w, P1_CALLS, "");
    kit_writer_put_text(w, "trace.copies", copies);
    free(back);
    lab11_free(&d);
    return lct_run(w, params, 4, "", 0, 1, 1, 1, why, len);
}

START_TEST(part1_verdicts)
{
    char why[1024];
    /* n = 1000 words: 4000 bytes each way, pinned copies twice as fast */
    const char *copies = "1\tH2D\t4000\t100\t1100\t7\n1\tD2H\t4000\t1200\t2200\t7\n"
                         "2\tH2D\t4000\t3000\t3500\t7\n2\tD2H\t4000\t3600\t4100\t7\n";
    ck_assert_msg(part1_verdict("part=1 n=1000", "host", 0, copies, why, sizeof why) == 0, "%s", why);
    ck_assert_ptr_nonnull(strstr(why, "pinned buffers: host-to-device 8.0 GB/s, device-to-host 8.0 GB/s"));
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "pageable", 0, copies, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "ordinary pageable memory"));
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "device", 0, copies, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "device memory"));
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "host", SPOIL_PINNED, copies, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "first at index 999"));
    ck_assert_ptr_nonnull(strstr(why, "never written"));
    /* each round trip judged on its own: both named */
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "host", SPOIL_PINNED | SPOIL_PAGEABLE, copies, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "round_trip with pageable buffers: 1 of 1000 words did not come back; first at index 0") &&
                      strstr(why, "round_trip with pinned buffers: 1 of 1000 words did not come back; first at index 999"),
                  "%s", why);
    /* the other kinds of memory, each in its words; then nothing else is judged */
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "NULL", SPOIL_PINNED, copies, why, sizeof why), 1);
    ck_assert_msg(!strcmp(why, "pinned_alloc(1000) returned NULL\n"), "%s", why);
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "managed", 0, copies, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "returned managed memory (cudaMallocManaged?)"));
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "texture", 0, copies, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "memory of an unknown kind ('texture')"));
    /* right data, but it never went through the device */
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "host", 0, "1\tH2H\t4000\t100\t200\t7\n2\tH2H\t4000\t300\t400\t7\n",
                                   why, sizeof why),
                     1);
    ck_assert_ptr_nonnull(strstr(why, "copied 0 bytes host-to-device and 0 device-to-host"));
}
END_TEST

static const char *P2_CALL = "0\tprocess_streams\t1\t\n";

/* A Part 2 output with the right results (or the last word left poisoned). */
static int part2_verdict(const char *params, int spoil_last, const char *kernels, const char *copies, char *why,
                         size_t len)
{
    lab11_data d = gen(params, 9);
    uint32_t *out = malloc((size_t)(d.n ? d.n : 1) * 4);
    for (long long i = 0; i < d.n; i++)
        out[i] = lab11_mix(d.in[i], d.rounds);
    if (spoil_last)
        out[d.n - 1] = ~d.in[d.n - 1];
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_U32, out, (uint64_t)d.n);
    put_timed(w, &d);
    lct_trace(w, P2_CALL, kernels);
    kit_writer_put_text(w, "trace.copies", copies);
    free(out);
    lab11_free(&d);
    return lct_run(w, params, 9, "", 0, 1, 1, 1, why, len);
}

/* kernels at [10,20] and [30,40] (two streams); copies [0,10] and [15,35]:
 * kernels busy 20, copies 30, both at once [15,20] + [30,35] = 10: 50%. */
static const char *K2 = "0\t4,1,1\t256,1,1\t10\t10\t20\t13\t-\tmix_kernel(const unsigned int *, unsigned int *, int, int)\n"
                        "0\t4,1,1\t256,1,1\t10\t30\t40\t14\t-\tmix_kernel(const unsigned int *, unsigned int *, int, int)\n";
static const char *C2 = "0\tH2D\t400\t0\t10\t13\n0\tD2H\t400\t15\t35\t14\n";

START_TEST(overlap_measured_exactly)
{
    char why[1024];
    ck_assert_msg(part2_verdict("n=1000 chunks=2 streams=2 min_overlap=0.5", 0, K2, C2, why, sizeof why) == 0, "%s",
                  why);
    ck_assert_ptr_nonnull(strstr(why, "copies busy 0.000 ms (1 in, 1 out)"));
    ck_assert_ptr_nonnull(strstr(why, "50% of the shorter"));
    ck_assert_ptr_nonnull(strstr(why, "2 launches on 2 streams"));
    ck_assert_int_eq(part2_verdict("n=1000 chunks=2 streams=2 min_overlap=0.6", 0, K2, C2, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "overlap for only 50%"));
    /* serialised: copy in, kernel, copy out, one after the other */
    const char *k1 = "0\t4,1,1\t256,1,1\t10\t10\t20\t7\t-\tmix_kernel(const unsigned int *, unsigned int *, int, int)\n";
    const char *c1 = "0\tH2D\t4000\t0\t10\t7\n0\tD2H\t4000\t20\t30\t7\n";
    ck_assert_int_eq(part2_verdict("n=1000 min_overlap=0.5", 0, k1, c1, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "overlap for only 0%"));
    /* the kernel reads host memory directly: nothing copied, nothing to overlap */
    ck_assert_int_eq(part2_verdict("n=1000 min_overlap=0.5", 0, k1, "", why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "0 host<->device copies"));
    /* without min_overlap the timeline is not judged */
    ck_assert_msg(part2_verdict("n=1000", 0, k1, c1, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(part2_values)
{
    char why[1024];
    const char *k1 = "0\t4,1,1\t256,1,1\t10\t10\t20\t7\t-\tmix_kernel(const unsigned int *, unsigned int *, int, int)\n";
    ck_assert_int_eq(part2_verdict("n=1003 chunks=8", 1, k1, "", why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "out[1002]"));
    ck_assert_ptr_nonnull(strstr(why, "the last one included?"));
    /* large n: sampled, the last words always among them */
    ck_assert_int_eq(part2_verdict("n=2^22 rounds=64 chunks=16", 1, k1, "", why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "out[4194303]"));
    ck_assert_ptr_nonnull(strstr(why, "sampled"));
    ck_assert_msg(part2_verdict("n=2^22 rounds=64 chunks=16", 0, k1, "", why, sizeof why) == 0, "%s", why);
    /* n = 0: nothing to do, no kernel needed */
    kit_writer *w = lct_open();
    kit_writer_put(w, "out", KIT_T_U32, why, 0);
    lct_trace(w, "0\tprocess_streams\t0\t\n", "");
    ck_assert_msg(lct_check(w, "n=0", 1, why, sizeof why) == 0, "%s", why);
    /* a wrong length, in the lab's words */
    uint32_t one = 0;
    w = lct_open();
    kit_writer_put(w, "out", KIT_T_U32, &one, 1);
    lct_trace(w, P2_CALL, k1);
    ck_assert_int_eq(lct_check(w, "n=2", 1, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "output 'out' has 1 words, expected n = 2"), "%s", why);
}
END_TEST

START_TEST(timed_calls_are_checked)
{
    char why[1024];
    const char *copies = "1\tH2D\t4000\t100\t1100\t7\n1\tD2H\t4000\t1200\t2200\t7\n"
                         "2\tH2D\t4000\t3000\t3500\t7\n2\tD2H\t4000\t3600\t4100\t7\n";
    const char *k1 = "0\t4,1,1\t256,1,1\t10\t10\t20\t7\t-\tmix_kernel(const unsigned int *, unsigned int *, int, int)\n";
    timed_record = RIGHT;
    ck_assert_msg(part1_verdict("part=1 n=1000", "host", 0, copies, why, sizeof why) == 0, "%s", why);
    ck_assert_msg(part2_verdict("n=1003 chunks=8", 0, k1, "", why, sizeof why) == 0, "%s", why);
    timed_record = STALE;
    ck_assert_int_eq(part1_verdict("part=1 n=1000", "host", 0, copies, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timed call 12 of round_trip (fresh input words each call): h_dst["), "%s", why);
    ck_assert_int_eq(part2_verdict("n=1003 chunks=8", 0, k1, "", why, sizeof why), 1);
    ck_assert_msg(strstr(why, "timed call 12 of process_streams (fresh input words each call): h_out[") &&
                      strstr(why, "remembered"),
                  "%s", why);
    timed_record = NO_RECORD;
}
END_TEST

START_TEST(bad_parameters)
{
    char err[256];
    kit_params p;
    lab11_data d;
    const char *bad[][2] = {{"n=10 chunks=0", "1 <= chunks <= 1024 (got '0')"},
                            {"n=10 streams=33", "1 <= streams <= 32 (got '33')"},
                            {"part=1 n=0", "1 <= n <= 2^28 for part 1 (got '0')"},
                            {"part=1 n=10 min_overlap=0.5", "min_overlap must be a fraction in [0, 1], for part 2"},
                            {"n=10 min_overlap=2", "min_overlap must be a fraction in [0, 1]"},
                            {"part=3 n=10", "part must be 1 or 2 (got '3')"},
                            {"chunks=4", "n must be given"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(kit_params_parse(bad[i][0], &p, err, sizeof err), 0);
        ck_assert_int_eq(lab11_generate(&p, 1, &d, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
    }
}
END_TEST

static Suite *lab11_suite(void)
{
    Suite *s = suite_create("lab11-check");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, part1_verdicts);
    tcase_add_test(tc, overlap_measured_exactly);
    tcase_add_test(tc, part2_values);
    tcase_add_test(tc, bad_parameters);
    tcase_add_test(tc, timed_calls_are_checked);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab11_suite)
