/* test_mtx.c - Matrix Market reader/writer: good files and malformed ones.
 * The files are inline strings, read through a temporary FILE. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "kit/mtx.h"

static char err[256];

static int read_text(const char *text, kit_csr *m)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    rewind(f);
    err[0] = '\0';
    int rc = kit_mtx_read(f, m, err, sizeof err);
    fclose(f);
    return rc;
}

static void read_ok(const char *text, kit_csr *m)
{
    ck_assert_msg(read_text(text, m) == 0, "rejected: %s", err);
    char verr[128];
    ck_assert_msg(kit_csr_validate(m, verr, sizeof verr) == 0, "invalid CSR: %s", verr);
}

/* Row i as "col:val col:val" for compact assertions. */
static const char *row_str(const kit_csr *m, int i)
{
    static char buf[256];
    size_t n = 0;
    buf[0] = '\0';
    for (int k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d:%g", k > m->row_ptr[i] ? " " : "", m->col[k],
                              (double)m->val[k]);
    return buf;
}

START_TEST(general_real_with_comments)
{
    kit_csr m;
    read_ok("%%MatrixMarket matrix coordinate real general\n"
            "% a comment\n"
            "%another\n"
            "\n"
            "4 5 6\n"
            "1 1 2.5\n"
            "4 5 -1e-3\n"
            "2 3 7\n"
            "% comment between entries\n"
            "2 1   4\n"
            "1 4 0.25\n"
            "  4 1 3  \n",
            &m);
    ck_assert_int_eq(m.rows, 4);
    ck_assert_int_eq(m.cols, 5);
    ck_assert_int_eq(m.nnz, 6);
    ck_assert_str_eq(row_str(&m, 0), "0:2.5 3:0.25");
    ck_assert_str_eq(row_str(&m, 1), "0:4 2:7"); /* sorted by column */
    ck_assert_str_eq(row_str(&m, 2), "");
    ck_assert_str_eq(row_str(&m, 3), "0:3 4:-0.001");
    kit_csr_free(&m);
}
END_TEST

START_TEST(symmetric_mirrors_and_diagonal_once)
{
    kit_csr m;
    read_ok("%%MatrixMarket matrix coordinate real symmetric\n"
            "3 3 4\n"
            "1 1 1\n"
            "2 1 2\n"
            "3 2 3\n"
            "3 3 4\n",
            &m);
    ck_assert_int_eq(m.nnz, 6);
    ck_assert_str_eq(row_str(&m, 0), "0:1 1:2");
    ck_assert_str_eq(row_str(&m, 1), "0:2 2:3");
    ck_assert_str_eq(row_str(&m, 2), "1:3 2:4");
    kit_csr_free(&m);
}
END_TEST

START_TEST(pattern_integer_case_insensitive)
{
    kit_csr m;
    read_ok("%%MatrixMarket MATRIX Coordinate Pattern General\n"
            "2 2 2\n"
            "1 2\n"
            "2 1\n",
            &m);
    ck_assert_str_eq(row_str(&m, 0), "1:1");
    ck_assert_str_eq(row_str(&m, 1), "0:1");
    kit_csr_free(&m);
    read_ok("%%MatrixMarket matrix coordinate integer general\n"
            "1 3 2\n"
            "1 3 -42\n"
            "1 1 7\n",
            &m);
    ck_assert_str_eq(row_str(&m, 0), "0:7 2:-42");
    kit_csr_free(&m);
    read_ok("%%MatrixMarket matrix coordinate pattern symmetric\n"
            "2 2 1\n"
            "2 1\n",
            &m);
    ck_assert_int_eq(m.nnz, 2);
    kit_csr_free(&m);
}
END_TEST

START_TEST(duplicates_summed_and_empty)
{
    kit_csr m;
    read_ok("%%MatrixMarket matrix coordinate real general\n"
            "2 2 4\n"
            "1 2 1.5\n"
            "1 2 2\n"
            "2 2 1\n"
            "1 2 -0.5\n",
            &m);
    ck_assert_int_eq(m.nnz, 2);
    ck_assert_str_eq(row_str(&m, 0), "1:3");
    ck_assert_str_eq(row_str(&m, 1), "1:1");
    kit_csr_free(&m);
    read_ok("%%MatrixMarket matrix coordinate real general\n3 3 0\n", &m);
    ck_assert_int_eq(m.nnz, 0);
    ck_assert_int_eq(m.row_ptr[3], 0);
    kit_csr_free(&m);
}
END_TEST

static void expect_error(const char *text, const char *needle)
{
    kit_csr m;
    ck_assert_msg(read_text(text, &m) == -1, "accepted, expected '%s'", needle);
    ck_assert_msg(strstr(err, needle) != NULL, "error '%s' lacks '%s'", err, needle);
    ck_assert_ptr_null(m.row_ptr); /* nothing left allocated */
}

#define BANNER "%%MatrixMarket matrix coordinate real general\n"

START_TEST(malformed_banner_and_format)
{
    expect_error("", "line 1: empty file");
    expect_error("3 3 1\n1 1 1\n", "line 1: not a Matrix Market file");
    expect_error("%%MatrixMarket matrix coordinate real\n", "line 1: bad banner");
    expect_error("%%MatrixMarket matrix coordinate real general extra\n", "line 1: bad banner");
    expect_error("%%MatrixMarket vector coordinate real general\n", "line 1: unsupported object 'vector'");
    expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "line 1: unsupported format 'array'");
    expect_error("%%MatrixMarket matrix coordinate complex general\n", "line 1: unsupported field 'complex'");
    expect_error("%%MatrixMarket matrix coordinate real hermitian\n", "line 1: unsupported symmetry 'hermitian'");
    expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n",
                 "line 1: unsupported symmetry 'skew-symmetric'");
    expect_error("%%MatrixMarket matrix coordinate quaternion general\n", "line 1: bad banner: unknown field");
    expect_error("%%MatrixMarket matrix sparse real general\n", "line 1: bad banner: unknown format");
}
END_TEST

START_TEST(malformed_size_line)
{
    expect_error(BANNER, "line 2: missing size line");
    expect_error(BANNER "% only comments\n%\n", "line 4: missing size line");
    expect_error(BANNER "3 3\n", "line 2: bad size line");
    expect_error(BANNER "3 3 1 1\n", "line 2: bad size line");
    expect_error(BANNER "3 x 1\n", "line 2: bad size line");
    expect_error(BANNER "-3 3 1\n", "line 2: bad size line");
    expect_error(BANNER "2 2 5\n", "line 2: bad size line: 5 entries do not fit");
    expect_error(BANNER "99999999999 3 1\n", "line 2: bad size line");
    expect_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", "line 2: a symmetric matrix must be square");
}
END_TEST

START_TEST(malformed_entries)
{
    expect_error(BANNER "3 3 2\n1 1 1\n4 1 1\n", "line 4: row index 4 out of range 1..3");
    expect_error(BANNER "3 3 2\n1 1 1\n1 0 1\n", "line 4: column index 0 out of range 1..3");
    expect_error(BANNER "3 3 3\n1 1 1\n2 2 2\n", "line 5: file ends after 2 of 3 entries");
    expect_error(BANNER "3 3 1\n1 1 abc\n", "line 3: bad value 'abc'");
    expect_error(BANNER "3 3 1\n1 1 1.5x\n", "line 3: bad value '1.5x'");
    expect_error(BANNER "3 3 1\n1 1 nan\n", "line 3: value 'nan' is not finite");
    expect_error(BANNER "3 3 1\na 1 1\n", "line 3: bad index");
    expect_error(BANNER "3 3 1\n1.5 1 1\n", "line 3: bad index");
    expect_error(BANNER "3 3 1\n1 1\n", "line 3: expected 'row column value', found 2 values");
    expect_error(BANNER "3 3 1\n1 1 1 9\n", "line 3: unexpected trailing data");
    expect_error(BANNER "3 3 1\n1 1 1\n2 2 2\n", "line 4: more entries than the 1 declared");
    expect_error(BANNER "3 3 1\n1 1 1\ngarbage\n", "line 4: more entries");
    expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n",
                 "line 3: bad integer value '2.5'");
    expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n",
                 "line 3: unexpected trailing data");
}
END_TEST

START_TEST(write_read_round_trip)
{
    static const int rp[5] = {0, 2, 5, 5, 7}, col[7] = {0, 3, 1, 2, 3, 0, 2};
    static const float val[7] = {2, 1, 4, 7.125f, 5, 0.1f, -3.0e-7f};
    kit_csr a, b;
    ck_assert_int_eq(kit_csr_from_arrays(&a, 4, 4, rp, col, val, err, sizeof err), 0);
    char path[] = "/tmp/kit-mtx-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_int_eq(kit_mtx_write(f, &a, "generated by test_mtx\nsecond line"), 0);
    fclose(f);
    ck_assert_msg(kit_mtx_load(path, &b, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(b.nnz, 7);
    ck_assert_int_eq(memcmp(a.row_ptr, b.row_ptr, sizeof rp), 0);
    ck_assert_int_eq(memcmp(a.col, b.col, sizeof col), 0);
    for (int k = 0; k < 7; k++) /* %.9g round-trips every float exactly */
        ck_assert_float_eq(a.val[k], b.val[k]);
    kit_csr_free(&a);
    kit_csr_free(&b);
    /* the comment lines are comments */
    char *text = NULL;
    size_t cap = 0;
    f = fopen(path, "r");
    ck_assert_int_gt(getline(&text, &cap, f), 0);
    ck_assert_str_eq(text, "%%MatrixMarket matrix coordinate real general\n");
    ck_assert_int_gt(getline(&text, &cap, f), 0);
    ck_assert_str_eq(text, "% generated by test_mtx\n");
    ck_assert_int_gt(getline(&text, &cap, f), 0);
    ck_assert_str_eq(text, "% second line\n");
    ck_assert_int_gt(getline(&text, &cap, f), 0);
    ck_assert_str_eq(text, "4 4 7\n");
    free(text);
    fclose(f);
    unlink(path);
    ck_assert_int_eq(kit_mtx_load(path, &b, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot open"), "%s", err);
}
END_TEST

static Suite *mtx_suite(void)
{
    Suite *s = suite_create("mtx");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, general_real_with_comments);
    tcase_add_test(tc, symmetric_mirrors_and_diagonal_once);
    tcase_add_test(tc, pattern_integer_case_insensitive);
    tcase_add_test(tc, duplicates_summed_and_empty);
    tcase_add_test(tc, malformed_banner_and_format);
    tcase_add_test(tc, malformed_size_line);
    tcase_add_test(tc, malformed_entries);
    tcase_add_test(tc, write_read_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(mtx_suite)
