/* test_check_lines.c - what a checker reads in a student's stdout
 * (check_lines.c) and how it quotes it (check_util.c): the part before the
 * kit's mark, even past a NUL byte; lines of a given form with their
 * numbers, every other non-empty line counted and the first kept; an
 * untrusted line made printable; a list of the first few examples. */
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "kit/checker.h"
#include "kit/runner.h" /* KIT_STDOUT_MARK */

START_TEST(lines_of_a_form)
{
    const char text[] = "block 1 thread 2 tid 5\n"
                        "  block0thread1tid-1 \r\n" /* blanks optional, a sign allowed */
                        "\n \t\r\n"                 /* empty: skipped */
                        "hello\n"
                        "block 1 thread 2 tid 5 x\n"         /* something after it */
                        "block 1 thread 2 tid 1234567890\n"  /* 10 digits */
                        "block 1 thread 2 tid 7\n"
                        "block 1 thread 2"; /* the last line, no '\n', a number short */
    kit_lines l;
    kit_lines_parse(text, sizeof text - 1, "block thread tid", &l);
    ck_assert_int_eq(l.n, 3);
    ck_assert(l.lines[0].v[0] == 1 && l.lines[0].v[1] == 2 && l.lines[0].v[2] == 5);
    ck_assert(l.lines[1].v[0] == 0 && l.lines[1].v[1] == 1 && l.lines[1].v[2] == -1);
    ck_assert_str_eq(l.lines[1].text, "  block0thread1tid-1");
    ck_assert_int_eq(l.lines[2].v[2], 7);
    ck_assert_int_eq(l.other, 4);
    ck_assert_str_eq(l.other_example, "hello");
    kit_lines_free(&l);
    /* a NUL byte, a line too long: other lines, quoted printable */
    char odd[300];
    memcpy(odd, "block 1 thread\0 2 tid 3\n", 24);
    memset(odd + 24, 'x', 250);
    kit_lines_parse(odd, 274, "block thread tid", &l);
    ck_assert_int_eq(l.n, 0);
    ck_assert_int_eq(l.other, 2);
    ck_assert_str_eq(l.other_example, "block 1 thread? 2 tid 3");
    kit_lines_free(&l);
}
END_TEST

START_TEST(before_the_mark)
{
    char text[128];
    int k = snprintf(text, sizeof text, "ab\n%cc\n%s\nlater\n", 0, KIT_STDOUT_MARK);
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.stdout_text = text, ctx.stdout_len = (size_t)k;
    ck_assert_uint_eq(kit_stdout_before_mark(&ctx), 6); /* past the NUL byte */
    ctx.stdout_len = 5;
    ck_assert_uint_eq(kit_stdout_before_mark(&ctx), 5); /* no mark: all of it */
    ctx.stdout_text = NULL;
    ck_assert_uint_eq(kit_stdout_before_mark(&ctx), 0);
}
END_TEST

START_TEST(quotes_and_examples)
{
    char q[8];
    kit_quote(q, sizeof q, "a\tb", 3);
    ck_assert_str_eq(q, "a?b");
    kit_quote(q, sizeof q, "abcdefghij", 10);
    ck_assert_str_eq(q, "abcd..."); /* what fits, and that there was more */
    kit_examples e = {0, ""};
    for (int v = 1; v <= 6; v++)
        kit_example_add(&e, 4, 10 * v);
    ck_assert_int_eq(e.count, 6);
    ck_assert_str_eq(e.list, "10, 20, 30, 40");
}
END_TEST

static Suite *lines_suite(void)
{
    Suite *s = suite_create("check_lines");
    TCase *t = tcase_create("stdout");
    tcase_add_test(t, lines_of_a_form);
    tcase_add_test(t, before_the_mark);
    tcase_add_test(t, quotes_and_examples);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(lines_suite)
