/* test_buildlog.c - compiler messages as the student reads them: each once
 * (nvcc repeats front-end warnings per architecture: recorded fixtures),
 * naming labs/lab03-dot/student/dot.cu, not the sandbox's copy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/buildlog.h"
#include "check_main.h"
#include "kit/util.h"

static const char *const files[] = {"dot.cu"};
#define SANDBOX "/tmp/kit-scratch/lab03-dot-42/src"

static char *tidy_fixture(const char *name)
{
    char path[4096];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/grader/tests/fixtures/%s", kit_test_root(), name);
    char *raw = kit_read_file(path, 1 << 20, &len);
    ck_assert_msg(raw != NULL, "cannot read %s", path);
    strbuf out;
    sb_init(&out);
    buildlog_tidy(raw, files, 1, "labs/lab03-dot/student", SANDBOX, &out);
    free(raw);
    return out.s ? out.s : strdup("");
}

START_TEST(warnings_once_with_the_students_path)
{
    char *out = tidy_fixture("nvcc-warnings-two-archs.txt");
    ck_assert_msg(kit_test_count(out, "warning #177-D: variable \"unused\"") == 1, "%s", out);
    ck_assert_msg(kit_test_count(out, "warning #177-D: variable \"x\"") == 1, "%s", out);
    ck_assert_msg(kit_test_count(out, "Remark: The warnings can be suppressed") == 1, "%s", out);
    ck_assert_msg(strstr(out, "labs/lab03-dot/student/dot.cu(3): warning #177-D") == out, "%s", out);
    ck_assert_msg(strstr(out, "\nlabs/lab03-dot/student/dot.cu(6): warning"), "%s", out);
    ck_assert_msg(!strstr(out, "\ndot.cu("), "%s", out);
    ck_assert_msg(strstr(out, "      int unused;\n          ^\n"), "the source excerpt stays: %s", out);
    ck_assert(buildlog_has_warning(out));
    free(out);
}
END_TEST

START_TEST(errors_with_the_students_path)
{
    char *out = tidy_fixture("nvcc-error-two-archs.txt");
    ck_assert_msg(strstr(out, "labs/lab03-dot/student/dot.cu(4): error: identifier \"y\" is undefined\n") == out, "%s", out);
    ck_assert_msg(strstr(out, "1 error detected in the compilation of \"dot.cu\"."), "%s", out);
    ck_assert(!buildlog_has_warning(out));
    free(out);
    /* the sandbox's folder anywhere in a line; other files left alone */
    strbuf b;
    sb_init(&b);
    buildlog_tidy("In file included from " SANDBOX "/dot.cu:3:\n" SANDBOX "/dot.cu:7:5: error: boom\n"
                  "kit/cuda_check.cuh(4): warning: x\n",
                  files, 1, "/subs/alice", SANDBOX, &b);
    ck_assert_str_eq(sb_str(&b), "In file included from /subs/alice/dot.cu:3:\n/subs/alice/dot.cu:7:5: error: boom\n"
                                 "kit/cuda_check.cuh(4): warning: x\n");
    /* a grading's feedback: the bare names, not the instructor's folders */
    sb_clear(&b);
    buildlog_tidy("In file included from " SANDBOX "/dot.cu:3:\n" SANDBOX "/dot.cu:7:5: error: boom\ndot.cu(66): error: x\n",
                  files, 1, "", SANDBOX, &b);
    ck_assert_str_eq(sb_str(&b), "In file included from dot.cu:3:\ndot.cu:7:5: error: boom\ndot.cu(66): error: x\n");
    sb_free(&b);
}
END_TEST

static Suite *buildlog_suite(void)
{
    Suite *s = suite_create("buildlog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, warnings_once_with_the_students_path);
    tcase_add_test(tc, errors_with_the_students_path);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(buildlog_suite)
