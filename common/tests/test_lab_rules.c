/* test_lab_rules.c - the rules of a student call (kit/lab_rules.h): what the
 * lab driver refuses before it makes a call, what it poisons and reads back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "kit/lab_rules.h"
#include "kit/protocol.h"

static void nothing(void *s) { (void)s; }

static kit_lab_call one_output(int poison)
{
    static float buf[8];
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    c.name = "scan", c.invoke = nothing, c.n_out = 1;
    c.out[0] = (kit_lab_out){"out", KIT_T_F32, buf, 0, 8, 0, 0, poison, NULL};
    return c;
}

START_TEST(poison_must_be_declared)
{
    char err[200] = "";
    kit_lab_call c = one_output(0);
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "'out' declares no poison") && strstr(err, "scan"), "%s", err);
    c = one_output(0xFF); /* a bare byte is not a declaration: KIT_POISON(0xFF) is */
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    c = one_output(KIT_POISON(0xFF));
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), 0);
    c = one_output(KIT_POISON(0));
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), 0);
    c = one_output(KIT_POISON_NONE);
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), 0);
}
END_TEST

/* The complement of the data: declared with its source and on 4-byte
 * packed elements, each the complement of the source's. */
START_TEST(complement_poison)
{
    char err[200] = "";
    kit_lab_call c = one_output(KIT_POISON_COMPLEMENT);
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "'out': a complement poison needs packed 4-byte elements and their source"), "%s", err);
    const uint32_t src[8] = {0, 1, 0xFFFFFFFFu, 0x12345678u, 5, 6, 7, 8};
    c.out[0].complement_of = src;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), 0);
    c.out[0].type = KIT_T_F64;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    c.out[0].type = KIT_T_U32, c.out[0].count = 4;
    uint32_t dst[8] = {0};
    kit_lab_complement(&c.out[0], dst);
    ck_assert(dst[0] == 0xFFFFFFFFu && dst[1] == 0xFFFFFFFEu && dst[2] == 0 && dst[3] == 0xEDCBA987u);
    ck_assert_msg(dst[4] == 0, "only count words written");
}
END_TEST

START_TEST(calls_need_a_name_a_function_and_buffers)
{
    char err[200];
    kit_lab_call c = one_output(KIT_POISON(0xFF));
    c.name = NULL;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "name"));
    c = one_output(KIT_POISON(0xFF));
    c.invoke = NULL;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    c = one_output(KIT_POISON(0xFF));
    c.out[0].at = NULL;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "no buffer"));
    c = one_output(KIT_POISON(0xFF));
    c.n_out = KIT_LAB_MAX_OUTS + 1;
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
}
END_TEST

/* lab07's records: keys at 0, tags at 4, one buffer poisoned and read back once. */
START_TEST(records_share_one_buffer)
{
    int32_t rec[6] = {10, 100, 20, 200, 30, 300};
    kit_lab_call c;
    memset(&c, 0, sizeof c);
    c.name = "merge", c.invoke = nothing, c.n_out = 2;
    c.out[0] = (kit_lab_out){"c", KIT_T_I32, rec, 0, 3, 8, 0, KIT_POISON(0xFF), NULL};
    c.out[1] = (kit_lab_out){"tag", KIT_T_I32, rec, 0, 3, 8, 4, KIT_POISON(0xFF), NULL};
    char err[200];
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), 0);
    ck_assert_int_eq(kit_lab_out_first(&c, 0), 0);
    ck_assert_int_eq(kit_lab_out_first(&c, 1), 0);
    ck_assert_uint_eq(kit_lab_out_span(&c.out[0]), 24);
    int32_t keys[3], tags[3];
    kit_lab_out_unpack(&c.out[0], rec, keys);
    kit_lab_out_unpack(&c.out[1], rec, tags);
    ck_assert(keys[0] == 10 && keys[1] == 20 && keys[2] == 30);
    ck_assert(tags[0] == 100 && tags[1] == 200 && tags[2] == 300);
    c.out[1].offset = 6; /* past the stride */
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    c.out[1].offset = 4, c.out[1].poison = KIT_POISON_NONE; /* one buffer, two poisons */
    ck_assert_int_eq(kit_lab_check_call(&c, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "share a buffer"));
}
END_TEST

/* The labs allocate and poison at least one element of an empty output. */
START_TEST(empty_outputs_span_one_element)
{
    kit_lab_call c = one_output(KIT_POISON(0xFF));
    c.out[0].count = 0;
    ck_assert_uint_eq(kit_lab_out_span(&c.out[0]), 4);
    ck_assert_uint_eq(kit_lab_out_bytes(&c.out[0]), 0);
    c.out[0].count = 5;
    ck_assert_uint_eq(kit_lab_out_span(&c.out[0]), 20);
}
END_TEST

START_TEST(kernel_optional_when_declared_or_nothing_to_compute)
{
    kit_lab_call c = one_output(KIT_POISON(0xFF));
    ck_assert_int_eq(kit_lab_kernel_optional(&c), 0);
    c.kernel_optional = 1;
    ck_assert_int_eq(kit_lab_kernel_optional(&c), 1);
    c.kernel_optional = 0, c.out[0].count = 0;
    ck_assert_int_eq(kit_lab_kernel_optional(&c), 1);
    c.n_out = 0; /* print_tids: no output, a kernel all the same */
    ck_assert_int_eq(kit_lab_kernel_optional(&c), 0);
}
END_TEST

START_TEST(metric_keys_from_the_protocol)
{
    char key[128];
    kit_lab_metric_key("dot_shared reads (GB/s)", "dot_shared", key, sizeof key);
    ck_assert_str_eq(key, KIT_KEY_METRIC_PREFIX "dot_shared reads (GB/s)");
    kit_lab_metric_key("%s (GFLOP/s)", "conv1d_tiled", key, sizeof key);
    ck_assert_str_eq(key, "metric.conv1d_tiled (GFLOP/s)");
    kit_lab_metric_key("%s (GFLOP/s)", NULL, key, sizeof key);
    ck_assert_str_eq(key, "metric. (GFLOP/s)");
}
END_TEST

/* A record with metrics under the driver's keys, loaded. */
static kit_blobfile *record_of(const char *const *keys, const double *v, int n)
{
    char path[] = "/tmp/test-lab-rules-XXXXXX", err[200];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    kit_writer *w = kit_writer_open(path, 1);
    for (int i = 0; i < n; i++)
        kit_writer_put(w, keys[i], KIT_T_F64, &v[i], 1);
    ck_assert_int_eq(kit_writer_close(w), 0);
    kit_blobfile *b = kit_blob_load(path, 1, 0, err, sizeof err);
    unlink(path);
    ck_assert_msg(b != NULL, "%s", err);
    return b;
}

/* The inverse of the key: a label's value whatever function filled its
 * "%s" (not a key that only shares its ends with a label's around other
 * words: the baseline's "metric.global baseline (GFLOP/s)"). */
START_TEST(metric_found_in_a_record)
{
    const char *keys[] = {"metric.global baseline (GFLOP/s)", "metric.conv1d_tiled (GFLOP/s)", "metric.reads (GB/s)"};
    const double v[] = {1, 2, 3};
    kit_blobfile *b = record_of(keys, v, 3);
    ck_assert(kit_lab_metric_find(b, "%s (GFLOP/s)") == 2);
    ck_assert(kit_lab_metric_find(b, "reads (GB/s)") == 3);
    ck_assert(kit_lab_metric_find(b, "writes (GB/s)") == 0);
    ck_assert(kit_lab_metric_find(b, "%s writes (GB/s)") == 0);
    kit_blob_free(b);
}
END_TEST

static Suite *lab_rules_suite(void)
{
    Suite *s = suite_create("lab_rules");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, poison_must_be_declared);
    tcase_add_test(tc, complement_poison);
    tcase_add_test(tc, calls_need_a_name_a_function_and_buffers);
    tcase_add_test(tc, records_share_one_buffer);
    tcase_add_test(tc, empty_outputs_span_one_element);
    tcase_add_test(tc, kernel_optional_when_declared_or_nothing_to_compute);
    tcase_add_test(tc, metric_keys_from_the_protocol);
    tcase_add_test(tc, metric_found_in_a_record);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab_rules_suite)
