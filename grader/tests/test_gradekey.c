/* test_gradekey.c - when an earlier result may be kept (resume): the same
 * files, rubric, kit code and conditions, and never a build-only result made
 * without a GPU once a GPU is here.  Synthetic results: what only a GPU
 * machine produces (a key naming an H200) is written here by hand. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "grading/gradekey.h"

#define SRC "1111111111111111111111111111111111111111111111111111111111111111"

static void result(grade_result *g, const char *key, int gpu_ran)
{
    grade_result_init(g);
    snprintf(g->source_hash, sizeof g->source_hash, "%s", SRC);
    snprintf(g->grading_key, sizeof g->grading_key, "%s", key);
    g->build_ok = 1;
    g->gpu_ran = gpu_ran;
}

START_TEST(reuse_rules)
{
    char gpu_key[65], nogpu_key[65], other_rubric[65];
    kit_digest d;
    digest_init(&d);
    digest_str(&d, "rubric v1");
    digest_str(&d, "gpu=NVIDIA H200;sanitizer=yes;tests=all;mode=instructor;no_gpu_allowed=0");
    digest_hex(&d, gpu_key);
    digest_init(&d);
    digest_str(&d, "rubric v1");
    digest_str(&d, "gpu=none;sanitizer=yes;tests=all;mode=instructor;no_gpu_allowed=1");
    digest_hex(&d, nogpu_key);
    digest_init(&d);
    digest_str(&d, "rubric v2");
    digest_str(&d, "gpu=NVIDIA H200;sanitizer=yes;tests=all;mode=instructor;no_gpu_allowed=0");
    digest_hex(&d, other_rubric);
    ck_assert_str_ne(gpu_key, nogpu_key);
    ck_assert_str_ne(gpu_key, other_rubric);

    grade_result g;
    result(&g, gpu_key, 1);
    ck_assert_int_eq(result_reusable(&g, SRC, gpu_key, 1), 1);
    ck_assert_int_eq(result_reusable(&g, "2222", gpu_key, 1), 0);      /* the submission changed */
    ck_assert_int_eq(result_reusable(&g, SRC, other_rubric, 1), 0);    /* the rubric changed */
    grade_result_free(&g);
    /* a build-only result from a machine without a GPU, on the GPU node */
    result(&g, nogpu_key, 0);
    ck_assert_int_eq(result_reusable(&g, SRC, gpu_key, 1), 0);
    ck_assert_int_eq(result_reusable(&g, SRC, nogpu_key, 0), 1);       /* rerun without a GPU: kept */
    ck_assert_int_eq(result_reusable(&g, SRC, nogpu_key, 1), 0);       /* even under the same key */
    grade_result_free(&g);
    /* results from before grading keys, and internal errors: regraded */
    result(&g, "", 1);
    ck_assert_int_eq(result_reusable(&g, SRC, gpu_key, 1), 0);
    grade_result_free(&g);
    result(&g, gpu_key, 1);
    sb_add(&g.notes, "internal grader error: the worker was killed\n");
    ck_assert_int_eq(result_reusable(&g, SRC, gpu_key, 1), 0);
    grade_result_free(&g);
}
END_TEST

START_TEST(digest_file_follows_content)
{
    char path[] = "/tmp/kit-test-gradekey-XXXXXX", a[65], b[65], c[65];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "points = 10\n", 12), 12);
    close(fd);
    kit_digest d;
    digest_init(&d);
    ck_assert_int_eq(digest_file(&d, path), 0);
    digest_hex(&d, a);
    FILE *f = fopen(path, "w");
    fputs("points = 12\n", f);
    fclose(f);
    digest_init(&d);
    digest_file(&d, path);
    digest_hex(&d, b);
    unlink(path);
    digest_init(&d);
    ck_assert_int_eq(digest_file(&d, path), -1);
    digest_hex(&d, c);
    ck_assert_str_ne(a, b);
    ck_assert_str_ne(b, c);
    ck_assert_int_eq(strlen(a), 64);
}
END_TEST

static Suite *gradekey_suite(void)
{
    Suite *s = suite_create("gradekey");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, reuse_rules);
    tcase_add_test(tc, digest_file_follows_content);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(gradekey_suite)
