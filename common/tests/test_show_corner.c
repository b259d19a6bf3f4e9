/* test_show_corner.c - show mode's matrix corner (common/src/show_corner.c):
 * the first four rows and columns of a larger matrix read with its own row
 * length, in floats and doubles, and a smaller or empty matrix whole. */
#include <stdio.h>
#include <stdlib.h>

#include "check_main.h"
#include "kit/show_corner.h"

/* What kit_show_corner printed, into text. */
static void shown(char *text, size_t len, const char *what, kit_type type, const void *m, int rows, int cols)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    kit_show_corner(f, what, type, m, rows, cols);
    rewind(f);
    size_t got = fread(text, 1, len - 1, f);
    text[got] = 0;
    fclose(f);
}

START_TEST(corner_of_a_larger_matrix)
{
    float m[5 * 6];
    double d[5 * 6];
    for (int t = 0; t < 30; t++)
        m[t] = (float)t, d[t] = t + 0.5;
    char text[512];
    shown(text, sizeof text, "C", KIT_T_F32, m, 5, 6);
    ck_assert_str_eq(text, "top-left 4 x 4 of C:\n"
                           "              0            1            2            3\n"
                           "              6            7            8            9\n"
                           "             12           13           14           15\n"
                           "             18           19           20           21\n");
    shown(text, sizeof text, "the result", KIT_T_F64, d, 5, 6);
    ck_assert_msg(strstr(text, "top-left 4 x 4 of the result:\n            0.5          1.5") &&
                      strstr(text, "\n           18.5         19.5         20.5         21.5\n"),
                  "%s", text);
}
END_TEST

START_TEST(small_and_empty)
{
    const float m[4] = {1, 2, 3, 4};
    char text[256];
    shown(text, sizeof text, "C", KIT_T_F32, m, 1, 3);
    ck_assert_str_eq(text, "top-left 1 x 3 of C:\n              1            2            3\n");
    shown(text, sizeof text, "C", KIT_T_F32, m, 0, 0);
    ck_assert_str_eq(text, "top-left 0 x 0 of C:\n");
}
END_TEST

static Suite *corner_suite(void)
{
    Suite *s = suite_create("show_corner");
    TCase *t = tcase_create("corner");
    tcase_add_test(t, corner_of_a_larger_matrix);
    tcase_add_test(t, small_and_empty);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(corner_suite)
