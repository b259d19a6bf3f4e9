/* test_blob.c - the runner's output file: round trip and a hostile reader. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "kit/blob.h"
#include "kit/rng.h"

#define NONCE 0x1122334455667788ULL

static char path[64];

static void make_path(void)
{
    strcpy(path, "/tmp/kit-blob-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
}

static void write_bytes(const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* Reads the file at `path` into buf; returns its length. */
static size_t read_bytes(unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* A file with one array of each type, text and an empty array. */
static void write_sample(void)
{
    kit_writer *w = kit_writer_open(path, NONCE);
    ck_assert_ptr_nonnull(w);
    int32_t i32[3] = {1, -2, 3};
    int64_t i64[2] = {INT64_MIN, INT64_MAX};
    float f32[2] = {0.5f, -1e30f};
    double f64[1] = {3.25};
    uint32_t u32[2] = {0, UINT32_MAX};
    ck_assert_int_eq(kit_writer_put(w, "i32", KIT_T_I32, i32, 3), 0);
    ck_assert_int_eq(kit_writer_put(w, "i64", KIT_T_I64, i64, 2), 0);
    ck_assert_int_eq(kit_writer_put(w, "f32", KIT_T_F32, f32, 2), 0);
    ck_assert_int_eq(kit_writer_put(w, "f64", KIT_T_F64, f64, 1), 0);
    ck_assert_int_eq(kit_writer_put(w, "u32", KIT_T_U32, u32, 2), 0);
    ck_assert_int_eq(kit_writer_put_text(w, "log", "hello\nworld"), 0);
    ck_assert_int_eq(kit_writer_put(w, "empty", KIT_T_F32, NULL, 0), 0);
    ck_assert_int_eq(kit_writer_close(w), 0);
}

START_TEST(round_trip)
{
    make_path();
    write_sample();
    char err[256] = "";
    kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_int_eq(kit_blob_count(b), 7);
    ck_assert_str_eq(kit_blob_name(b, 0), "i32");
    ck_assert_str_eq(kit_blob_name(b, 6), "empty");
    ck_assert_ptr_null(kit_blob_name(b, 7));
    ck_assert_ptr_null(kit_blob_name(b, -1));
    uint64_t n = 0;
    const int32_t *i32 = kit_blob_get(b, "i32", KIT_T_I32, &n);
    ck_assert_ptr_nonnull(i32);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(i32[1], -2);
    const int64_t *i64 = kit_blob_get(b, "i64", KIT_T_I64, &n);
    ck_assert(i64[0] == INT64_MIN && i64[1] == INT64_MAX);
    const float *f32 = kit_blob_get(b, "f32", KIT_T_F32, &n);
    ck_assert(f32[0] == 0.5f && f32[1] == -1e30f);
    const double *f64 = kit_blob_get(b, "f64", KIT_T_F64, NULL);
    ck_assert_double_eq(f64[0], 3.25);
    const uint32_t *u32 = kit_blob_get(b, "u32", KIT_T_U32, &n);
    ck_assert_uint_eq(u32[1], UINT32_MAX);
    char *text = kit_blob_text(b, "log");
    ck_assert_str_eq(text, "hello\nworld");
    free(text);
    /* an empty array is present (non-NULL) with count 0 */
    ck_assert_ptr_nonnull(kit_blob_get(b, "empty", KIT_T_F32, &n));
    ck_assert_uint_eq(n, 0);
    kit_blob_free(b);
    unlink(path);
}
END_TEST

START_TEST(missing_and_mistyped)
{
    make_path();
    write_sample();
    char err[256];
    kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_null(kit_blob_get(b, "result", KIT_T_I32, NULL));
    ck_assert_str_eq(kit_blob_why(b), "no array 'result' in the output");
    ck_assert_ptr_null(kit_blob_get(b, "f32", KIT_T_I32, NULL));
    ck_assert_str_eq(kit_blob_why(b), "'f32' is f32, expected i32");
    ck_assert_ptr_null(kit_blob_text(b, "i32")); /* not text */
    ck_assert_ptr_null(kit_blob_text(b, "nothing"));
    /* kit_blob_f64: one f64 value, else 0 */
    ck_assert_double_eq(kit_blob_f64(b, "f64"), 3.25);
    ck_assert_double_eq(kit_blob_f64(b, "nothing"), 0);
    ck_assert_double_eq(kit_blob_f64(b, "f32"), 0);   /* not f64 */
    kit_blob_free(b);
    unlink(path);
}
END_TEST

START_TEST(writer_rejects)
{
    make_path();
    kit_writer *w = kit_writer_open(path, NONCE);
    char name65[66];
    memset(name65, 'x', 65);
    name65[65] = '\0';
    int x = 1;
    ck_assert_int_eq(kit_writer_put(w, name65, KIT_T_I32, &x, 1), -1);
    ck_assert_int_eq(kit_writer_put(w, "", KIT_T_I32, &x, 1), -1);
    ck_assert_int_eq(kit_writer_put(w, "bad", (kit_type)99, &x, 1), -1);
    ck_assert_int_eq(kit_writer_close(w), -1); /* any failed put makes close fail */
    ck_assert_ptr_null(kit_writer_open("/nonexistent-dir/x.bin", 1));
    /* 64 bytes is the limit, inclusive */
    w = kit_writer_open(path, NONCE);
    name65[64] = '\0';
    ck_assert_int_eq(kit_writer_put(w, name65, KIT_T_I32, &x, 1), 0);
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_ptr_nonnull(kit_blob_get(b, name65, KIT_T_I32, NULL));
    kit_blob_free(b);
    unlink(path);
}
END_TEST

static void expect_load_error(uint64_t nonce, uint64_t cap, const char *needle)
{
    char err[256] = "";
    kit_blobfile *b = kit_blob_load(path, nonce, cap, err, sizeof err);
    ck_assert_msg(b == NULL, "loaded, expected error '%s'", needle);
    ck_assert_msg(strstr(err, needle) != NULL, "error '%s' lacks '%s'", err, needle);
}

START_TEST(header_errors)
{
    make_path();
    write_sample();
    expect_load_error(NONCE + 1, 0, "another run");
    expect_load_error(NONCE, 20, "more than the limit of 20 bytes");
    write_bytes("", 0);
    expect_load_error(NONCE, 0, "empty");
    write_bytes("NOTABLOBxxxxxxxxxxxx", 20);
    expect_load_error(NONCE, 0, "bad magic");
    write_bytes("KITBLOB1\x88\x77", 10);
    expect_load_error(NONCE, 0, "truncated in its header");
    unlink(path);
    expect_load_error(NONCE, 0, "cannot open");
}
END_TEST

/* Header + one record whose fields the test chooses. */
static size_t craft(unsigned char *buf, uint32_t name_len, const char *name, uint32_t type, uint64_t count,
                    size_t payload)
{
    size_t p = 0;
    memcpy(buf, "KITBLOB1", 8);
    p = 8;
    for (int i = 0; i < 8; i++)
        buf[p++] = (unsigned char)(NONCE >> (8 * i));
    for (int i = 0; i < 4; i++)
        buf[p++] = (unsigned char)(name_len >> (8 * i));
    memcpy(buf + p, name, strlen(name));
    p += strlen(name);
    for (int i = 0; i < 4; i++)
        buf[p++] = (unsigned char)(type >> (8 * i));
    for (int i = 0; i < 8; i++)
        buf[p++] = (unsigned char)(count >> (8 * i));
    memset(buf + p, 0xab, payload);
    return p + payload;
}

START_TEST(record_errors)
{
    unsigned char buf[512];
    make_path();
    /* a count of 2^62 elements, only 8 bytes present */
    write_bytes(buf, craft(buf, 1, "x", KIT_T_F64, 1ULL << 62, 8));
    expect_load_error(NONCE, 0, "declares 4611686018427387904 elements");
    /* the largest count: count * size would overflow 64 bits */
    write_bytes(buf, craft(buf, 1, "x", KIT_T_F64, UINT64_MAX, 8));
    expect_load_error(NONCE, 0, "declares");
    write_bytes(buf, craft(buf, 1, "x", 77, 1, 4));
    expect_load_error(NONCE, 0, "unknown type 77");
    write_bytes(buf, craft(buf, 0, "", KIT_T_I32, 0, 0));
    expect_load_error(NONCE, 0, "name of 0 bytes");
    write_bytes(buf, craft(buf, 0xffffffffu, "abc", KIT_T_I32, 0, 0));
    expect_load_error(NONCE, 0, "name of 4294967295 bytes");
    write_bytes(buf, craft(buf, 3, "a\nb", KIT_T_I32, 0, 0));
    expect_load_error(NONCE, 0, "unprintable name");
    /* name length larger than the rest of the file */
    write_bytes(buf, craft(buf, 40, "abc", KIT_T_I32, 0, 0) - 16);
    expect_load_error(NONCE, 0, "truncated");
    /* two arrays with one name */
    size_t n = craft(buf, 1, "x", KIT_T_I32, 1, 4);
    memcpy(buf + n, buf + 16, n - 16);
    write_bytes(buf, 2 * n - 16);
    expect_load_error(NONCE, 0, "appears twice");
    unlink(path);
}
END_TEST

/* Arrays of many MiB (read straight into their own blocks) after a text of
 * odd length and between smaller ones: every element back, in order. */
START_TEST(large_arrays)
{
    size_t n = (size_t)3 << 20; /* 12 MiB of floats, 24 MiB of doubles */
    float *f = malloc(n * sizeof *f);
    double *d = malloc(n * sizeof *d);
    ck_assert(f && d);
    for (size_t i = 0; i < n; i++)
        f[i] = (float)i * 0.5f, d[i] = -(double)i;
    make_path();
    kit_writer *w = kit_writer_open(path, NONCE);
    int32_t one = 7;
    ck_assert_int_eq(kit_writer_put_text(w, "status", "ok!"), 0);
    ck_assert_int_eq(kit_writer_put(w, "big", KIT_T_F32, f, n), 0);
    ck_assert_int_eq(kit_writer_put(w, "one", KIT_T_I32, &one, 1), 0);
    ck_assert_int_eq(kit_writer_put(w, "bigger", KIT_T_F64, d, n), 0);
    ck_assert_int_eq(kit_writer_close(w), 0);
    char err[256];
    kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    uint64_t cf = 0, cd = 0, c1 = 0;
    const float *gf = kit_blob_get(b, "big", KIT_T_F32, &cf);
    const double *gd = kit_blob_get(b, "bigger", KIT_T_F64, &cd);
    const int32_t *g1 = kit_blob_get(b, "one", KIT_T_I32, &c1);
    ck_assert(gf && gd && g1 && cf == n && cd == n && c1 == 1 && *g1 == 7);
    ck_assert(!memcmp(gf, f, n * sizeof *f) && !memcmp(gd, d, n * sizeof *d));
    kit_blob_free(b);
    /* cut inside the largest array: truncated, not loaded */
    ck_assert_int_eq(truncate(path, 8 * (long)n), 0);
    b = kit_blob_load(path, NONCE, 0, err, sizeof err);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err, "'bigger' declares") != NULL, "%s", err);
    unlink(path);
    free(f), free(d);
}
END_TEST

/* Every prefix of a valid file: an error or (at a record boundary) fewer
 * records, never a crash. */
START_TEST(every_truncation)
{
    unsigned char full[1024];
    make_path();
    write_sample();
    size_t len = read_bytes(full, sizeof full);
    ck_assert_uint_lt(len, sizeof full);
    int loaded = 0;
    for (size_t k = 0; k < len; k++) {
        write_bytes(full, k);
        char err[256] = "";
        kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
        if (b) {
            loaded++;
            ck_assert_int_lt(kit_blob_count(b), 7);
            kit_blob_free(b);
        } else {
            ck_assert_msg(err[0] != '\0', "no message at length %zu", k);
        }
    }
    ck_assert_int_eq(loaded, 7); /* header only, then after each of the first 6 records */
    unlink(path);
}
END_TEST

/* Random corruption of a valid file: no crash, and either an error or a load. */
START_TEST(random_garbage)
{
    unsigned char full[1024], bad[1024];
    make_path();
    write_sample();
    size_t len = read_bytes(full, sizeof full);
    kit_rng r;
    kit_rng_seed(&r, 2024, 0);
    for (int iter = 0; iter < 2000; iter++) {
        memcpy(bad, full, len);
        int flips = (int)kit_rng_range(&r, 1, 4);
        for (int f = 0; f < flips; f++)
            bad[kit_rng_range(&r, 16, (int64_t)len - 1)] = (unsigned char)kit_rng_u64(&r);
        write_bytes(bad, (size_t)kit_rng_range(&r, 16, (int64_t)len));
        char err[256] = "";
        kit_blobfile *b = kit_blob_load(path, NONCE, 0, err, sizeof err);
        if (b) {
            for (int i = 0; i < kit_blob_count(b); i++)
                ck_assert_ptr_nonnull(kit_blob_name(b, i));
            kit_blob_free(b);
        } else {
            ck_assert(err[0] != '\0');
        }
    }
    unlink(path);
}
END_TEST

START_TEST(type_helpers)
{
    ck_assert_uint_eq(kit_type_size(KIT_T_I32), 4);
    ck_assert_uint_eq(kit_type_size(KIT_T_I64), 8);
    ck_assert_uint_eq(kit_type_size(KIT_T_F32), 4);
    ck_assert_uint_eq(kit_type_size(KIT_T_F64), 8);
    ck_assert_uint_eq(kit_type_size(KIT_T_TEXT), 1);
    ck_assert_uint_eq(kit_type_size(KIT_T_U32), 4);
    ck_assert_uint_eq(kit_type_size((kit_type)0), 0);
    ck_assert_str_eq(kit_type_name(KIT_T_F64), "f64");
    ck_assert_str_eq(kit_type_name((kit_type)42), "unknown type");
}
END_TEST

static Suite *blob_suite(void)
{
    Suite *s = suite_create("blob");
    TCase *tc = tcase_create("core");
    /* 2000 files written and read back: half a second alone, past Check's
     * default 4 s on a 2-core machine with other builds running */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, missing_and_mistyped);
    tcase_add_test(tc, writer_rejects);
    tcase_add_test(tc, header_errors);
    tcase_add_test(tc, large_arrays);
    tcase_add_test(tc, record_errors);
    tcase_add_test(tc, every_truncation);
    tcase_add_test(tc, random_garbage);
    tcase_add_test(tc, type_helpers);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(blob_suite)
