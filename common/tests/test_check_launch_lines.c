/* test_check_launch_lines.c - kit_check.lines (check_launch_lines.c): the
 * lines a call printed, one per thread of its launch, on a lab of its own
 * whose words are not lab01's ("warp W lane L gid G" from hello(), a launch
 * of w warps x l lanes), so each message is seen to take its nouns from the
 * declaration.  Each test writes a runner's output file (the launch it
 * recorded, the trace) and stdout, runs the check loop and asserts the
 * verdict and its words. */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "kit/check_driver.h"
#include "kit/runner.h" /* KIT_STDOUT_MARK */
#include "lab_check_test.h"

typedef struct {
    int warps, lanes, print;
} hello_case;

static int hello_generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    hello_case *c = data;
    (void)seed, (void)err, (void)errlen;
    c->warps = (int)kit_params_ll(p, "w", 2, NULL);
    c->lanes = (int)kit_params_ll(p, "l", 3, NULL);
    c->print = (int)kit_params_ll(p, "print", 1, NULL);
    return 0;
}

/* judge() fails where asked: the lines are then not judged. */
static void hello_judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    (void)data, (void)outs, (void)ok;
    if (kit_params_has(ctx->params, "judge"))
        kit_fail(ctx, "judge failed");
}

const kit_check KIT_CHECK = {
    sizeof(hello_case), hello_generate, .judge = hello_judge,
    .lines = {"hello", "warp lane gid", "warp W lane L gid G", KIT_AT(hello_case, warps), KIT_AT(hello_case, lanes),
              KIT_WHEN(hello_case, print, 1), "launch"}};

/* The launch record the next run writes: the case's (w, l), none, or another. */
static enum { RECORD_CASE, RECORD_NONE, RECORD_OTHER } record = RECORD_CASE;

static void put_launch(kit_writer *w, const char *params)
{
    kit_params p;
    char err[64];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    int32_t launch[2] = {(int32_t)kit_params_ll(&p, "w", 2, NULL), (int32_t)kit_params_ll(&p, "l", 3, NULL)};
    if (record == RECORD_OTHER)
        launch[1]++;
    if (record != RECORD_NONE)
        kit_writer_put(w, "launch", KIT_T_I32, launch, 2);
}

#define KERNEL_2x3 "0\t2,1,1\t3,1,1\t900\thello_kernel()\n"

/* The check of `before`, the mark, `after` as stdout, with the kernels
 * (NULL: no trace); text gets the summary and the details. */
static int run(const char *params, const char *before, const char *after, const char *kernels, char *text,
               size_t len)
{
    char out[2048];
    snprintf(out, sizeof out, "%s\n%s\n%s", before, KIT_STDOUT_MARK, after);
    kit_writer *w = lct_open();
    put_launch(w, params);
    if (kernels) {
        lct_trace(w, "0\thello\t1\t\n", kernels);
    } else {
        kit_writer_put_text(w, "trace.status", "unavailable: no CUPTI");
        kit_writer_put_text(w, "trace.calls", "0\thello\t1\t\n");
        kit_writer_put_text(w, "trace.kernels", "");
    }
    return lct_run(w, params, 1, out, strlen(out), 1, 1, 1, text, len);
}

static const char *RIGHT = "warp 1 lane 2 gid 5\nwarp 0 lane 0 gid 0\nhi\nwarp 1 lane 0 gid 3\n"
                           "warp 0 lane 2 gid 2\nwarp 1 lane 1 gid 4\nwarp 0 lane 1 gid 1\n";

START_TEST(every_id_once_in_any_order_passes)
{
    char text[2048];
    ck_assert_msg(run("w=2 l=3", RIGHT, "", KERNEL_2x3, text, sizeof text) == 0, "%s", text);
    /* no trace: the lines decide (the policy's to say why) */
    ck_assert_msg(run("w=2 l=3", RIGHT, "", NULL, text, sizeof text) == 0, "%s", text);
    /* not this case's, or something failed before: not judged */
    ck_assert_msg(run("w=2 l=3 print=0", "", "", KERNEL_2x3, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(run("w=2 l=3 judge=fail", "", "", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_str_eq(text, "judge failed\n");
}
END_TEST

START_TEST(no_line_in_time_says_why)
{
    char text[2048];
    ck_assert_int_eq(run("w=2 l=3", "", RIGHT, KERNEL_2x3, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "no line was visible when hello() returned: 6 lines of the form 'warp W lane L gid G' "
                               "appeared only later"), "%s", text);
    ck_assert_int_eq(run("w=2 l=3", "hi\nthere\n", "", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "hello() printed 2 lines but none of the form 'warp W lane L gid G', e.g. 'hi'"), "%s",
                  text);
    ck_assert_int_eq(run("w=2 l=3", "", "", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "hello() printed nothing: expected 6 lines 'warp W lane L gid G', one per thread"), "%s",
                  text);
}
END_TEST

START_TEST(wrong_out_of_range_twice_and_never_named)
{
    char text[2048];
    /* gid = warp * warps + lane: wrong for warp 1 */
    const char *formula = "warp 0 lane 0 gid 0\nwarp 0 lane 1 gid 1\nwarp 0 lane 2 gid 2\n"
                          "warp 1 lane 0 gid 2\nwarp 1 lane 1 gid 3\nwarp 1 lane 2 gid 4\n";
    ck_assert_int_eq(run("w=2 l=3", formula, "warp 9 lane 9 gid 9\n", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "3 of the 6 lines have a gid that does not match their block and thread, e.g. "
                               "'warp 1 lane 0 gid 2': with 3 threads per block, thread 0 of block 1 has global id 3"),
                  "%s", text);
    ck_assert_msg(strstr(text, "1 gid was printed more than once: 2 (every thread must get its own id)"), "%s", text);
    ck_assert_msg(strstr(text, "1 of the 6 gids 0..5 were never printed: 5"), "%s", text);
    ck_assert_msg(strstr(text, "1 more line appeared only after hello() had returned"), "%s", text);
    const char *range = "warp 0 lane 0 gid 0\nwarp 0 lane 3 gid 3\nhi\n";
    ck_assert_int_eq(run("w=1 l=3", range, "", "0\t1,1,1\t3,1,1\t900\tk()\n", text, sizeof text), 1);
    ck_assert_msg(strstr(text, "1 line names a block or thread outside the launch of 1 blocks x 3 threads, e.g. "
                               "'warp 0 lane 3 gid 3' (blocks 0..0, threads 0..2)"), "%s", text);
    ck_assert_msg(strstr(text, "2 lines of the form 'warp W lane L gid G' were printed, 3 expected"), "%s", text);
    ck_assert_msg(strstr(text, "1 other line was ignored, e.g. 'hi'"), "%s", text);
}
END_TEST

START_TEST(lines_need_a_kernel_of_the_launch)
{
    char text[2048];
    ck_assert_int_eq(run("w=2 l=3", RIGHT, "", "0\t1,1,1\t1,1,1\t900\tk()\n0\t3,1,1\t2,1,1\t900\tk()\n", text,
                         sizeof text),
                     0); /* 3 x 2 is 6 threads too */
    ck_assert_int_eq(run("w=2 l=3", RIGHT, "", "0\t1,1,1\t1,1,1\t900\tk()\n", text, sizeof text), 1);
    ck_assert_msg(strstr(text, "hello() launched no kernel of 2 blocks x 3 threads (it launched <<<(1,1,1), "
                               "(1,1,1)>>>): the lines must be printed by the threads of that launch"), "%s", text);
}
END_TEST

/* The runner's record of the launch comes first: missing or another
 * launch than the case's, the lines are not judged. */
START_TEST(the_recorded_launch_is_the_cases)
{
    char text[2048];
    record = RECORD_NONE;
    ck_assert_int_eq(run("w=2 l=3", "", "", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_msg(!strncmp(text, "output 'launch' missing", 23) && !strstr(text, "printed nothing"), "%s", text);
    record = RECORD_OTHER;
    ck_assert_int_eq(run("w=2 l=3", RIGHT, "", KERNEL_2x3, text, sizeof text), 1);
    ck_assert_str_eq(text, "the run used blocks=2 threads=4, the case asks for 2 x 3\n");
    record = RECORD_CASE;
}
END_TEST

static Suite *lines_suite(void)
{
    Suite *s = suite_create("check_launch_lines");
    TCase *t = tcase_create("lines");
    tcase_add_test(t, every_id_once_in_any_order_passes);
    tcase_add_test(t, no_line_in_time_says_why);
    tcase_add_test(t, wrong_out_of_range_twice_and_never_named);
    tcase_add_test(t, lines_need_a_kernel_of_the_launch);
    tcase_add_test(t, the_recorded_launch_is_the_cases);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(lines_suite)
