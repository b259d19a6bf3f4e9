/* test_product.c - a matrix product's judgement (common/src/product.c) on
 * small integer matrices (every product and sum exact): a right C passes on
 * both paths, a wrong element is named where the elements are compared one
 * by one and found by the probes outside the sample, a NaN is named, the
 * tally says which partial tiles hold every wrong element, and a timed
 * call's element follows A's rows rotated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "kit/product.h"

#define M 40
#define N 40
#define K 40

static float A[M * K], B[K * N], C[M * N];
static kit_product_tally seen; /* what explain was given */
static int explained;

static void make(int m, int n, int k)
{
    for (int i = 0; i < m * k; i++)
        A[i] = (float)((i * 3 + 1) % 7 - 3);
    for (int i = 0; i < k * n; i++)
        B[i] = (float)((i * 5 + 2) % 9 - 4);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int q = 0; q < k; q++)
                s += (double)A[i * k + q] * B[q * n + j];
            C[i * n + j] = (float)s;
        }
}

static void explain(kit_check_ctx *ctx, const void *data, const kit_product *p, const kit_product_tally *t)
{
    (void)ctx, (void)p;
    ck_assert_ptr_eq(data, A);
    seen = *t, explained++;
}

/* C judged as the m x n product (full_max: products compared one by one;
 * the sample: the first two and last 3 rows and columns, no random ones).
 * Returns whether it failed; text gets the summary and the details. */
static int judge(int m, int n, int k, long long full_max, char *text, size_t len)
{
    kit_product p = {"C", m, n, k, A, B, C, full_max, 3, 0, 2, 7, 1, {4, 8}};
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    explained = 0;
    kit_product_check(&ctx, &p, explain, A);
    snprintf(text, len, "%s\n%s", ctx.summary, ctx.details ? ctx.details : "");
    free(ctx.details);
    return ctx.failed;
}

START_TEST(right_product_passes_both_ways)
{
    char text[2048];
    make(5, 6, 3);
    ck_assert_msg(!judge(5, 6, 3, 1000, text, sizeof text), "%s", text);
    ck_assert_msg(strstr(text, "note: 30 elements of C compared; largest error 0x its bound"), "%s", text);
    make(M, N, K);
    ck_assert_msg(!judge(M, N, K, 1000, text, sizeof text), "%s", text);
    ck_assert_msg(strstr(text, "elements of C compared one by one, all of C probed with random vectors"), "%s", text);
    ck_assert_int_eq(explained, 0);
}
END_TEST

START_TEST(wrong_element_named_and_its_tiles)
{
    char text[2048];
    make(6, 6, 3);
    C[4 * 6 + 1] += 1; /* row 4: the last, partial tile row for 4 x 4 tiles; inside an 8 x 8 tile */
    ck_assert_int_eq(judge(6, 6, 3, 1000, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "C: 1 of 36 elements differ; first wrong C[4][1]: expected "), "%s", text);
    ck_assert_int_eq(explained, 1);
    ck_assert(seen.fi == 4 && seen.fj == 1 && seen.bad == 1 && !seen.sampled);
    ck_assert(seen.edge_only[0] && seen.edge_only[1]); /* 6 x 6 with 8 x 8 tiles: all of it is a partial tile */
    C[1 * 6 + 1] += 1; /* inside the first 4 x 4 tile */
    judge(6, 6, 3, 1000, text, sizeof text);
    ck_assert(seen.fi == 1 && seen.bad == 2 && !seen.edge_only[0] && seen.edge_only[1]);
}
END_TEST

START_TEST(sampled_path_probes_the_rest)
{
    char text[2048];
    make(M, N, K);
    C[20 * N + 20] += 1; /* outside rows and columns 0, 1, 37, 38, 39 */
    ck_assert_int_eq(judge(M, N, K, 1000, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "row 20 of C is wrong somewhere outside the rows and columns compared one by one: for a "
                               "random x, (C x)[20] - (A (B x))[20] = "),
                  "%s", text);
    ck_assert_int_eq(explained, 0);
    C[20 * N + 20] = NAN;
    ck_assert_int_eq(judge(M, N, K, 1000, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "C[20][20] is NaN: no thread wrote it (the harness fills C with NaN before your call)"),
                  "%s", text);
    make(M, N, K);
    C[38 * N + 20] += 1; /* a sampled row */
    ck_assert_int_eq(judge(M, N, K, 1000, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "C: 1 of "), "%s", text);
    ck_assert_msg(strstr(text, "compared elements differ; first wrong C[38][20]"), "%s", text);
    ck_assert(explained == 1 && seen.sampled);
}
END_TEST

START_TEST(timed_element_rotates_whole_rows)
{
    make(5, 6, 3);
    kit_product p = {"C", 5, 6, 3, A, B, C, 0, 0, 0, 0, 0, 0, {0}};
    double bound;
    /* element (1, 2) of C for A's rows rotated by 2 and doubled: 2 C[3][2] */
    ck_assert(kit_product_element(&p, 1 * 6 + 2, 2 * 3, 2.0, &bound) == 2.0 * C[3 * 6 + 2]);
    ck_assert(bound > 0);
    ck_assert(kit_product_element(&p, 4 * 6, 2 * 3, 1.0, &bound) == C[1 * 6]); /* row 4 wraps to row 1 */
    ck_assert(isnan(kit_product_element(&p, 0, 4, 1.0, &bound)));           /* no whole row: never made */
}
END_TEST

static Suite *product_suite(void)
{
    Suite *s = suite_create("product");
    TCase *t = tcase_create("judge");
    tcase_add_test(t, right_product_passes_both_ways);
    tcase_add_test(t, wrong_element_named_and_its_tiles);
    tcase_add_test(t, sampled_path_probes_the_rest);
    tcase_add_test(t, timed_element_rotates_whole_rows);
    suite_add_tcase(s, t);
    return s;
}

KIT_CHECK_MAIN(product_suite)
