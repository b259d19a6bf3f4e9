/* test_check.c - lab08's checker on the CPU: right products pass; truncated
 * rows, an incomplete warp reduction and unwritten empty rows fail with a
 * message that names them; the Matrix Market files of resources/matrices/
 * equal the matrices the tests regenerate; the limits on nonzeros. */
#include <math.h>
#include <stdlib.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/mtx.h"
#include "kit/ref.h"
#include "kit/util.h"
#include "lab_check_test.h"

static const char *CALL = "0\tspmv_vector\t1\t\n";
static const char *KERNEL = "0\t250,1,1\t256,1,1\t20000\tspmv_vector_kernel(int, const int *, const int *, const "
                            "float *, const float *, float *)\n";

typedef enum { RIGHT, TRUNCATE_AT_32, ONE_SHUFFLE, SKIP_EMPTY } variant;

/* y as a kernel would compute it, in float: right, or with one of the bugs. */
static float *compute_y(const char *params, uint64_t seed, variant v, size_t *rows)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab08_data d;
    ck_assert_msg(lab08_generate(&p, seed, &d, err, sizeof err) == 0, "%s", err);
    const kit_csr *A = &d.A;
    float *y = malloc((size_t)(A->rows ? A->rows : 1) * sizeof *y);
    for (int i = 0; i < A->rows; i++) {
        int start = A->row_ptr[i], end = A->row_ptr[i + 1];
        float lane[32] = {0};
        for (int k = start; k < end; k++) {
            if (v == TRUNCATE_AT_32 && k - start >= 32)
                break;
            if (v == ONE_SHUFFLE && k - start >= 32)
                break; /* the starter: one nonzero per lane */
            lane[(k - start) % 32] += A->val[k] * d.x[A->col[k]];
        }
        float sum = 0;
        if (v == ONE_SHUFFLE)
            sum = lane[0] + lane[16];
        else
            for (int l = 0; l < 32; l++)
                sum += lane[l];
        y[i] = v == SKIP_EMPTY && start == end ? NAN : sum;
    }
    *rows = (size_t)A->rows;
    lab08_free(&d);
    return y;
}

/* Like lct_check, but returns the summary and the detail lines. */
static int check_text(const float *y, size_t rows, const char *params, uint64_t seed, char *text, size_t len)
{
    kit_writer *w = lct_open();
    kit_writer_put(w, "y", KIT_T_F32, y, rows);
    lct_trace(w, CALL, KERNEL);
    return lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
}

START_TEST(right_products_pass)
{
    char text[2048];
    const char *cases[] = {"matrix=example", "matrix=fixed rows=300 cols=1000 per_row=500",
                           "matrix=powerlaw rows=2000 cols=2000 max_per_row=300 alpha=3 empty=0.1",
                           "matrix=mtx:poisson2d-32", "matrix=fixed rows=100 cols=100 per_row=0"};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        size_t rows;
        float *y = compute_y(cases[t], 17, RIGHT, &rows);
        ck_assert_msg(check_text(y, rows, cases[t], 17, text, sizeof text) == 0, "%s: %s", cases[t], text);
        free(y);
    }
}
END_TEST

/* y = A (scale * x rotated by shift), in double and rounded: a timed call's right answer. */
static float *timed_y(const char *params, uint64_t seed, int64_t shift, double scale, size_t *rows)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    lab08_data d;
    ck_assert_msg(lab08_generate(&p, seed, &d, err, sizeof err) == 0, "%s", err);
    const kit_csr *A = &d.A;
    float *x = malloc((size_t)A->cols * sizeof *x), *y = malloc((size_t)A->rows * sizeof *y);
    double *e = malloc((size_t)A->rows * sizeof *e), *b = malloc((size_t)A->rows * sizeof *b);
    kit_fresh_apply_host(d.x, x, A->cols, shift, scale);
    kit_ref_spmv_csr(A, x, e, b);
    for (int i = 0; i < A->rows; i++)
        y[i] = (float)e[i];
    *rows = (size_t)A->rows;
    free(x), free(e), free(b);
    lab08_free(&d);
    return y;
}

START_TEST(timed_calls_are_checked)
{
    const char *params = "matrix=fixed rows=300 cols=200 per_row=40";
    char text[2048];
    size_t rows;
    float *y = compute_y(params, 5, RIGHT, &rows);
    int32_t call[2] = {7, 90};
    int64_t shift[2] = {3, 150};
    double scale[2] = {0.25, -8};
    float *ys = malloc(2 * rows * sizeof *ys);
    for (int stale = 0; stale < 2; stale++) {
        for (int k = 0; k < 2; k++) {
            size_t r;
            float *t = timed_y(params, 5, shift[k], scale[k], &r);
            /* stale: the second recorded call returned the first one's y */
            memcpy(ys + (size_t)k * rows, stale && k == 1 ? ys : t, rows * sizeof *ys);
            free(t);
        }
        kit_writer *w = lct_open();
        kit_writer_put(w, "y", KIT_T_F32, y, rows);
        lct_timed(w, call, shift, scale, 2, NULL, ys, 2 * rows);
        lct_trace(w, CALL, KERNEL);
        int rc = lct_run(w, params, 5, "", 0, 1, 1, 1, text, sizeof text);
        if (!stale)
            ck_assert_msg(rc == 0, "%s", text);
        else {
            ck_assert_int_eq(rc, 1);
            ck_assert_msg(strstr(text, "timed call 90 of spmv_vector"), "%s", text);
        }
    }
    free(ys);
    free(y);
}
END_TEST

START_TEST(example_is_document_003s)
{
    kit_params p;
    char err[128];
    kit_params_parse("matrix=example", &p, err, sizeof err);
    lab08_data d;
    ck_assert_int_eq(lab08_generate(&p, 1, &d, err, sizeof err), 0);
    const int row_ptr[] = {0, 2, 5, 5, 7}, col[] = {0, 3, 1, 2, 3, 0, 2};
    const float val[] = {2, 1, 4, 7, 5, 3, 2};
    ck_assert_int_eq(d.A.rows, 4);
    ck_assert_int_eq(d.A.cols, 4);
    ck_assert_int_eq(memcmp(d.A.row_ptr, row_ptr, sizeof row_ptr), 0);
    ck_assert_int_eq(memcmp(d.A.col, col, sizeof col), 0);
    ck_assert_int_eq(memcmp(d.A.val, val, sizeof val), 0);
    /* y[2] of the empty row is exactly 0; anything else fails */
    double y[4];
    kit_ref_spmv_csr(&d.A, d.x, y, NULL);
    ck_assert(y[2] == 0.0);
    ck_assert(fabs(y[0] - (2.0 * d.x[0] + 1.0 * d.x[3])) < 1e-12);
    lab08_free(&d);
    float got[4] = {(float)y[0], (float)y[1], 1e-30f, (float)y[3]};
    char text[2048];
    ck_assert_int_eq(check_text(got, 4, "matrix=example", 1, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "index 2"));
    ck_assert_ptr_nonnull(strstr(text, "empty row"));
}
END_TEST

START_TEST(truncated_long_rows_fail)
{
    char text[2048];
    const char *params = "matrix=powerlaw rows=2000 cols=2000 max_per_row=300 alpha=3 empty=0.1";
    size_t rows;
    float *y = compute_y(params, 23, TRUNCATE_AT_32, &rows);
    ck_assert_int_eq(check_text(y, rows, params, 23, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "spmv_vector y"));
    ck_assert_ptr_nonnull(strstr(text, "only rows longer than 32 are wrong"));
    free(y);
    /* rows of exactly 32 are not truncated */
    params = "matrix=fixed rows=31 cols=40 per_row=32";
    y = compute_y(params, 23, TRUNCATE_AT_32, &rows);
    ck_assert_msg(check_text(y, rows, params, 23, text, sizeof text) == 0, "%s", text);
    free(y);
}
END_TEST

START_TEST(incomplete_reduction_fails)
{
    char text[2048];
    const char *params = "matrix=fixed rows=1000 cols=1000 per_row=2";
    size_t rows;
    float *y = compute_y(params, 29, ONE_SHUFFLE, &rows);
    ck_assert_int_eq(check_text(y, rows, params, 29, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "warp reduction"));
    free(y);
    /* one nonzero per row needs no reduction: the starter gets those right */
    params = "matrix=fixed rows=100 cols=100 per_row=1";
    y = compute_y(params, 29, ONE_SHUFFLE, &rows);
    ck_assert_msg(check_text(y, rows, params, 29, text, sizeof text) == 0, "%s", text);
    free(y);
}
END_TEST

START_TEST(unwritten_empty_rows_fail)
{
    char text[2048];
    const char *params = "matrix=powerlaw rows=1000 cols=1000 max_per_row=60 alpha=1 empty=0.9";
    size_t rows;
    float *y = compute_y(params, 31, SKIP_EMPTY, &rows);
    ck_assert_int_eq(check_text(y, rows, params, 31, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "empty row"));
    free(y);
}
END_TEST

START_TEST(length_nan_and_policy)
{
    char text[2048], why[512];
    const char *params = "matrix=fixed rows=257 cols=300 per_row=17";
    size_t rows;
    float *y = compute_y(params, 37, RIGHT, &rows);
    ck_assert_int_eq(check_text(y, rows - 1, params, 37, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "one per row"));
    float keep = y[100];
    y[100] = NAN;
    ck_assert_int_eq(check_text(y, rows, params, 37, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "index 100"));
    y[100] = keep;
    kit_writer *w = lct_open(); /* right answer computed on the host */
    kit_writer_put(w, "y", KIT_T_F32, y, rows);
    lct_trace(w, CALL, "");
    ck_assert_int_eq(lct_check(w, params, 37, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* right answer from cuSPARSE */
    kit_writer_put(w, "y", KIT_T_F32, y, rows);
    lct_trace(w, CALL, "0\t8,1,1\t128,1,1\t9000\tvoid cusparse::csrmv_v3_kernel<float>()\n");
    ck_assert_int_eq(lct_check(w, params, 37, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "cuSPARSE"));
    free(y);
    /* an empty matrix needs no kernel */
    float none = 0;
    w = lct_open();
    kit_writer_put(w, "y", KIT_T_F32, &none, 0);
    lct_trace(w, "0\tspmv_vector\t0\t\n", "");
    ck_assert_msg(lct_check(w, "matrix=fixed rows=0 cols=10 per_row=0", 1, why, sizeof why) == 0, "%s", why);
}
END_TEST

/* resources/matrices/NAME.mtx == lab08_named_matrix(NAME), bit for bit. */
START_TEST(resource_files_match_the_generator)
{
    for (const char *const *name = lab08_named_list; *name; name++) {
        char path[4096], err[256];
        snprintf(path, sizeof path, "%s/resources/matrices/%s.mtx", kit_test_root(), *name);
        kit_csr file, gen;
        ck_assert_msg(kit_mtx_load(path, &file, err, sizeof err) == 0, "%s: %s", path, err);
        ck_assert_msg(lab08_named_matrix(*name, &gen, NULL, err, sizeof err) == 0, "%s: %s", *name, err);
        ck_assert_msg(file.rows == gen.rows && file.cols == gen.cols && file.nnz == gen.nnz,
                      "%s: %d x %d, %lld nonzeros in the file; dataset.c makes %d x %d, %lld", *name, file.rows,
                      file.cols, (long long)file.nnz, gen.rows, gen.cols, (long long)gen.nnz);
        ck_assert_msg(!memcmp(file.row_ptr, gen.row_ptr, ((size_t)gen.rows + 1) * sizeof *gen.row_ptr),
                      "%s: row pointers differ", *name);
        ck_assert_msg(!memcmp(file.col, gen.col, (size_t)gen.nnz * sizeof *gen.col), "%s: columns differ", *name);
        ck_assert_msg(!memcmp(file.val, gen.val, (size_t)gen.nnz * sizeof *gen.val), "%s: values differ", *name);
        kit_csr_free(&file);
        kit_csr_free(&gen);
    }
}
END_TEST

/* A power law is bounded by its expected nonzeros, rows * max_per_row /
 * (alpha + 1) <= 2^27, not by rows * max_per_row (make bench's heavy tail
 * has 10^11 possible, about 5 * 10^7 expected); a fixed matrix by rows *
 * per_row.  Refusals name the value. */
START_TEST(nonzero_limits)
{
    static const char *good[] = {"matrix=powerlaw rows=10^6 max_per_row=10^5 alpha=2000 empty=0.05",
                                 "matrix=powerlaw rows=10^6 max_per_row=1200 alpha=9 empty=0.05",
                                 "matrix=fixed rows=2^20 per_row=128"};
    static const char *bad[] = {"matrix=powerlaw rows=10^6 max_per_row=10^5 alpha=700",
                                "matrix=fixed rows=2^20 per_row=129"};
    kit_params p;
    char err[256];
    for (size_t c = 0; c < sizeof good / sizeof *good; c++) {
        ck_assert_int_eq(kit_params_parse(good[c], &p, err, sizeof err), 0);
        ck_assert_msg(lab_params_validate(&p, err, sizeof err) == 0, "%s refused: %s", good[c], err);
    }
    for (size_t c = 0; c < sizeof bad / sizeof *bad; c++) {
        ck_assert_int_eq(kit_params_parse(bad[c], &p, err, sizeof err), 0);
        ck_assert_msg(lab_params_validate(&p, err, sizeof err) != 0, "%s accepted", bad[c]);
    }
    ck_assert_str_eq(err, "too many nonzeros (rows * per_row > 2^27)");
    ck_assert_int_eq(kit_params_parse(bad[0], &p, err, sizeof err), 0);
    lab_params_validate(&p, err, sizeof err);
    ck_assert_str_eq(err, "too many nonzeros expected: rows * max_per_row / (alpha + 1) = 1.427e+08, at most 2^27");
}
END_TEST

static Suite *lab08_suite(void)
{
    Suite *s = suite_create("lab08-check");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, right_products_pass);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, example_is_document_003s);
    tcase_add_test(tc, truncated_long_rows_fail);
    tcase_add_test(tc, incomplete_reduction_fails);
    tcase_add_test(tc, unwritten_empty_rows_fail);
    tcase_add_test(tc, length_nan_and_policy);
    tcase_add_test(tc, resource_files_match_the_generator);
    tcase_add_test(tc, nonzero_limits);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab08_suite)
