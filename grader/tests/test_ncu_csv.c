/* test_ncu_csv.c - Nsight Compute's CSV pages and messages (ncu_csv.h) on
 * written pages (grader/tests/fixtures/README.md says which are recorded). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "kit/util.h"
#include "grading/ncu_csv.h"

static char *fixture(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/grader/tests/fixtures/%s", kit_test_root(), name);
    char *text = kit_read_file(path, 1 << 24, len);
    ck_assert_msg(text != NULL, "cannot read %s (set KIT_ROOT)", path);
    return text;
}

static void raw_fixture(const char *name, ncu_raw *r)
{
    size_t len;
    char *text = fixture(name, &len);
    ck_assert_int_eq(ncu_raw_parse(text, len, r), 0);
    free(text);
}

static void source_fixture(const char *name, ncu_source *s)
{
    size_t len;
    char *text = fixture(name, &len);
    ck_assert_int_eq(ncu_source_parse(text, len, s), 0);
    free(text);
}

static double get(const ncu_raw *r, int row, const char *metric)
{
    double v = -1;
    ck_assert_msg(ncu_raw_get(r, row, metric, &v), "row %d has no %s", row, metric);
    return v;
}

static const ncu_line *line_of(const ncu_source *s, const char *file_end, int line)
{
    for (int i = 0; i < s->n; i++) {
        size_t n = strlen(s->lines[i].file), k = strlen(file_end);
        if (s->lines[i].line == line && n >= k && !strcmp(s->lines[i].file + n - k, file_end))
            return &s->lines[i];
    }
    ck_abort_msg("no line %s:%d", file_end, line);
    return NULL;
}

START_TEST(raw_page_base_units)
{
    ncu_raw r;
    raw_fixture("ncu-raw-uncoalesced.csv", &r);
    ck_assert_int_eq(r.n_rows, 1);
    ck_assert_str_eq(r.rows[0].name, "conv1d_tiled");
    ck_assert_int_eq(r.rows[0].id, 0);
    ck_assert_double_eq(get(&r, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4198400);
    ck_assert_double_eq(get(&r, 0, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 524800);
    ck_assert_double_eq(get(&r, 0, "dram__bytes.sum"), 134316032);
    ck_assert_double_eq_tol(get(&r, 0, "gpu__time_duration.sum"), 412e-6, 1e-12);
    /* the launch columns are text, not metrics */
    double v;
    ck_assert_int_eq(ncu_raw_get(&r, 0, "Block Size", &v), 0);
    ck_assert_int_eq(ncu_raw_get(&r, 0, "no_such.metric", &v), 0);
    ck_assert_int_eq(ncu_raw_get(&r, 1, "dram__bytes.sum", &v), 0);
    ncu_raw_free(&r);
}
END_TEST

START_TEST(raw_page_scaled_units)
{
    /* ncu's default units (Mbyte, usecond, cycle/nsecond), after ==PROF== lines */
    ncu_raw r;
    raw_fixture("ncu-raw-coalesced-auto-units.csv", &r);
    ck_assert_int_eq(r.n_rows, 1);
    ck_assert_double_eq_tol(get(&r, 0, "dram__bytes.sum"), 268.63e6, 1);
    ck_assert_double_eq_tol(get(&r, 0, "dram__bytes.sum.peak_sustained"), 1280, 1e-9);
    ck_assert_double_eq_tol(get(&r, 0, "dram__cycles_elapsed.avg.per_second"), 2.62e9, 1);
    ck_assert_double_eq_tol(get(&r, 0, "gpu__time_duration.sum"), 98.56e-6, 1e-12);
    ck_assert_double_eq(get(&r, 0, "sm__warps_active.avg.pct_of_peak_sustained_active"), 91.37);
    ncu_raw_free(&r);
}
END_TEST

/* A page ncu 2025.3 wrote on an H100 (the lab06 reference's profile,
 * --print-units base): time in "ns", bytes in "byte", clocks in "hz".  Its
 * first launch (scan_tiles on 2^26 floats) took 181440 ns and moved
 * 518114816 bytes: 2.86 TB/s, below the H100's 3.35 TB/s (read as seconds,
 * the time made every DRAM line 0 GB/s). */
START_TEST(raw_page_recorded_base_units)
{
    ncu_raw r;
    raw_fixture("ncu-raw-recorded-h100-scan.csv", &r);
    ck_assert_int_eq(r.n_rows, 4); /* scan_tiles three times (the totals' levels), add_tile_offsets */
    double t = get(&r, 0, "gpu__time_duration.sum"), bytes = get(&r, 0, "dram__bytes.sum");
    ck_assert_double_eq_tol(t, 181440e-9, 1e-12);
    ck_assert_double_eq_tol(bytes, 518114816, 0.5);
    ck_assert_double_eq_tol(get(&r, 0, "dram__cycles_elapsed.avg.per_second"), 2618483245.15, 1);
    ck_assert(bytes / t / 1e9 > 2500 && bytes / t / 1e9 < 3350);
    ck_assert_double_eq_tol(get(&r, 3, "gpu__time_duration.sum"), 2912e-9, 1e-13);
    ncu_raw_free(&r);
}
END_TEST

START_TEST(raw_page_launches)
{
    ncu_raw r;
    raw_fixture("ncu-raw-bank-conflicts.csv", &r);
    ck_assert_int_eq(r.n_rows, 3);
    ck_assert_str_eq(r.rows[1].name, "kit_scan_step");
    ck_assert_int_eq(r.rows[2].id, 2);
    ck_assert_double_eq(get(&r, 2, "smsp__sass_inst_executed_op_shared_ld.sum"), 1024);
    ncu_raw_free(&r);
}
END_TEST

START_TEST(raw_page_none)
{
    /* an error instead of a page, a kernel that was never found, nothing at all */
    static const char *const texts[] = {
        "==ERROR== Failed to import report x.ncu-rep: the file is not a valid report.\n",
        "==PROF== Disconnected from process 5121\n==WARNING== No kernels were profiled.\n",
        "",
        "\"ID\",\"Process ID\"\n\"0\",\"1\"\n", /* no Kernel Name: not a raw page */
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        ncu_raw r;
        ck_assert_int_eq(ncu_raw_parse(texts[i], strlen(texts[i]), &r), -1);
        ck_assert_int_eq(r.n_rows, 0);
        ncu_raw_free(&r);
    }
    /* a header and units, no launch: a page of no kernel */
    const char *empty = "\"ID\",\"Kernel Name\",\"dram__bytes.sum\"\n\"\",\"\",\"byte\"\n";
    ncu_raw r;
    ck_assert_int_eq(ncu_raw_parse(empty, strlen(empty), &r), 0);
    ck_assert_int_eq(r.n_rows, 0);
    ck_assert_int_eq(ncu_raw_col(&r, "dram__bytes.sum"), 2);
    ncu_raw_free(&r);
}
END_TEST

START_TEST(raw_page_values)
{
    /* n/a, empty, text, quotes in a kernel name, CRLF, a row cut short, no NUL at the end */
    const char text[] = "\"ID\",\"Kernel Name\",\"a.sum\",\"b.sum\",\"c.pct\"\r\n"
                        "\"\",\"\",\"Gbyte\",\"\",\"%\"\r\n"
                        "\"0\",\"k<\"\"x\"\">\",\"n/a\",\"\",\"12.5\"\r\n"
                        "\"1\",\"short\",\"1,000.5\"\r\n"
                        "\"2\",\"k\",\"1e-3\",\"abc\",\" 7 \"";
    char *copy = malloc(sizeof text - 1);
    memcpy(copy, text, sizeof text - 1);
    ncu_raw r;
    ck_assert_int_eq(ncu_raw_parse(copy, sizeof text - 1, &r), 0);
    free(copy);
    ck_assert_int_eq(r.n_rows, 3);
    ck_assert_str_eq(r.rows[0].name, "k<\"x\">");
    double v;
    ck_assert_int_eq(ncu_raw_get(&r, 0, "a.sum", &v), 0);
    ck_assert_int_eq(ncu_raw_get(&r, 0, "b.sum", &v), 0);
    ck_assert_double_eq(get(&r, 0, "c.pct"), 12.5);
    ck_assert_double_eq(get(&r, 1, "a.sum"), 1000.5e9);
    ck_assert_int_eq(ncu_raw_get(&r, 1, "c.pct", &v), 0);
    ck_assert_double_eq_tol(get(&r, 2, "a.sum"), 1e6, 1e-6);
    ck_assert_int_eq(ncu_raw_get(&r, 2, "b.sum", &v), 0);
    ck_assert_double_eq(get(&r, 2, "c.pct"), 7);
    ncu_raw_free(&r);
}
END_TEST

START_TEST(source_page_lines)
{
    ncu_source s;
    source_fixture("ncu-source-uncoalesced.csv", &s);
    ck_assert_int_eq(s.has_col[NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 1);
    ck_assert_int_eq(s.has_col[NCU_SRC_STALL_SAMPLES], 1);
    const ncu_line *l = line_of(&s, "/conv1d.cu", 42);
    ck_assert_double_eq(l->v[NCU_OP_LINE][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 2099200);
    ck_assert_double_eq(l->v[NCU_OP_GLOBAL_LOAD][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 2099200);
    ck_assert_double_eq(l->v[NCU_OP_SHARED_STORE][NCU_SRC_WAVEFRONTS_SHARED], 524800);
    ck_assert_double_eq(l->v[NCU_OP_LINE][NCU_SRC_STALL_SAMPLES], 1204);
    l = line_of(&s, "/conv1d.cu", 51);
    ck_assert_double_eq(l->v[NCU_OP_GLOBAL_STORE][NCU_SRC_SECTORS_GLOBAL], 2099200);
    ck_assert_double_eq(l->v[NCU_OP_GLOBAL_STORE][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 0);
    /* the header's file is a file of its own */
    l = line_of(&s, "/min.h", 77);
    ck_assert_double_eq(l->v[NCU_OP_GLOBAL_LOAD][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 3000000);
    ck_assert_int_eq(s.n, 5);
    ncu_source_free(&s);
}
END_TEST

START_TEST(source_page_launches_merge)
{
    /* two kernels' blocks of one file: line 57 once, summed */
    ncu_source s;
    source_fixture("ncu-source-bank-conflicts.csv", &s);
    const ncu_line *l = line_of(&s, "/scan.cu", 57);
    ck_assert_double_eq(l->v[NCU_OP_LINE][NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE], 10957619 + 2488);
    ck_assert_double_eq(l->v[NCU_OP_SHARED_LOAD][NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE], 10695475);
    ck_assert_double_eq(l->v[NCU_OP_SHARED_STORE][NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE], 262144);
    ck_assert_int_eq(s.has_col[NCU_SRC_SECTORS_GLOBAL], 0);
    ck_assert_int_eq(s.n, 3);
    ncu_source_free(&s);
}
END_TEST

START_TEST(source_page_none)
{
    ncu_source s;
    size_t len;
    char *text = fixture("ncu-import-error.txt", &len);
    ck_assert_int_eq(ncu_source_parse(text, len, &s), -1);
    ck_assert_int_eq(s.n, 0);
    free(text);
    ncu_source_free(&s);
    /* SASS rows before any CUDA line, a line number that is not one */
    const char *odd = "\"Line No\",\"Source\",\"Address\",\"Source\",\"Divergent Branches\"\n"
                      "\"\",\"\",\"0x10\",\"BRA 0x20\",\"5\"\n"
                      "\"x\",\"junk\",\"\",\"\",\"7\"\n"
                      "\"-3\",\"junk\",\"\",\"\",\"7\"\n";
    ck_assert_int_eq(ncu_source_parse(odd, strlen(odd), &s), 0);
    ck_assert_int_eq(s.n, 0);
    ncu_source_free(&s);
}
END_TEST

START_TEST(source_page_other_spellings)
{
    /* "# Line" for "Line No"; a line's row that is its first instruction too */
    const char *page = "\"File Path\",\"/w/src/conv1d.cu\"\n"
                       "\"# Line\",\"Source\",\"Address\",\"Source\",\"L2 Theoretical Sectors Global Excessive\"\n"
                       "\"39\",\"tile[t] = in[g];\",\"0x10\",\"LDG.E R5, desc[UR4][R2.64]\",\"3,000\"\n"
                       "\"\",\"\",\"0x20\",\"LDG.E R6, desc[UR4][R2.64+0x4]\",\"1,000\"\n";
    ncu_source s;
    ck_assert_int_eq(ncu_source_parse(page, strlen(page), &s), 0);
    const ncu_line *l = line_of(&s, "/conv1d.cu", 39);
    ck_assert_double_eq(l->v[NCU_OP_LINE][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 3000);
    ck_assert_double_eq(l->v[NCU_OP_GLOBAL_LOAD][NCU_SRC_SECTORS_GLOBAL_EXCESSIVE], 4000);
    ncu_source_free(&s);
}
END_TEST

START_TEST(sass_kinds)
{
    ck_assert_int_eq(ncu_sass_op("LDG.E.128.CONSTANT R4, desc[UR4][R2.64]"), NCU_OP_GLOBAL_LOAD);
    ck_assert_int_eq(ncu_sass_op("  @!P0 STG.E [R2.64], R5"), NCU_OP_GLOBAL_STORE);
    ck_assert_int_eq(ncu_sass_op("LDS.U.128 R8, [R3]"), NCU_OP_SHARED_LOAD);
    ck_assert_int_eq(ncu_sass_op("LDSM.16.M88.4 R4, [R2]"), NCU_OP_SHARED_LOAD);
    ck_assert_int_eq(ncu_sass_op("STS [R3], R6"), NCU_OP_SHARED_STORE);
    ck_assert_int_eq(ncu_sass_op("ATOMS.POPC.INC.32 RZ, [R2+UR4]"), NCU_OP_SHARED_ATOMIC);
    ck_assert_int_eq(ncu_sass_op("@P1 RED.E.ADD.STRONG.GPU [R2.64], R5"), NCU_OP_GLOBAL_ATOMIC);
    ck_assert_int_eq(ncu_sass_op("ATOMG.E.ADD.STRONG.GPU PT, R4, [R2.64], R5"), NCU_OP_GLOBAL_ATOMIC);
    ck_assert_int_eq(ncu_sass_op("REDUX.SUM UR4, R2"), NCU_OP_OTHER); /* a warp reduction, no memory */
    ck_assert_int_eq(ncu_sass_op("LD.E R2, [R4.64]"), NCU_OP_OTHER);  /* generic: global or shared */
    ck_assert_int_eq(ncu_sass_op(""), NCU_OP_OTHER);
}
END_TEST

START_TEST(messages)
{
    ncu_messages m;
    size_t len;
    char *text = fixture("ncu-run-permission.txt", &len);
    ncu_messages_scan(text, len, &m);
    ck_assert_int_eq(m.permission, 1);
    ck_assert(!strncmp(m.error, "ERR_NVGPUCTRPERM - The user does not have permission", 52));
    free(text);
    text = fixture("ncu-run-no-kernels.txt", &len);
    ncu_messages_scan(text, len, &m);
    ck_assert_int_eq(m.permission, 0);
    ck_assert_int_eq(m.no_kernels, 1);
    ck_assert_str_eq(m.error, "");
    free(text);
    text = fixture("ncu-import-error.txt", &len);
    ncu_messages_scan(text, len, &m);
    ck_assert(!strncmp(m.error, "Failed to import report", 23));
    free(text);
    /* the program's own lines are not ncu's; a long error is cut, not overrun */
    char big[2000];
    memset(big, 'x', sizeof big);
    memcpy(big, "==ERROR== ", 10);
    ncu_messages_scan(big, sizeof big, &m);
    ck_assert_uint_eq(strlen(m.error), sizeof m.error - 1);
    const char *prog = "No kernels were profiled\nERR_NVGPUCTRPERM\n";
    ncu_messages_scan(prog, strlen(prog), &m);
    ck_assert_int_eq(m.no_kernels + m.permission, 0);
}
END_TEST

START_TEST(csv_fields)
{
    char *f[8];
    const char *line = "\"a\",\"b,c\",\"d\"\"e\",plain,,\"\"";
    int n = ncu_csv_fields(line, strlen(line), f, 8);
    ck_assert_int_eq(n, 6);
    ck_assert_str_eq(f[0], "a");
    ck_assert_str_eq(f[1], "b,c");
    ck_assert_str_eq(f[2], "d\"e");
    ck_assert_str_eq(f[3], "plain");
    ck_assert_str_eq(f[4], "");
    ck_assert_str_eq(f[5], "");
    ncu_fields_free(f, n);
    n = ncu_csv_fields(line, strlen(line), f, 2); /* at most max */
    ck_assert_int_eq(n, 2);
    ncu_fields_free(f, n);
    n = ncu_csv_fields("\"open", 5, f, 8); /* an unclosed quote: the rest of the line */
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(f[0], "open");
    ncu_fields_free(f, n);
}
END_TEST

START_TEST(garbage)
{
    /* random bytes and quotes: no crash, nothing found */
    char buf[4096];
    unsigned x = 12345;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 1103515245u + 12345u;
            const char pick[] = "\",\n\r x0123456789.-eLineNoSourceID";
            buf[i] = (x >> 16) % 4 ? pick[(x >> 8) % (sizeof pick - 1)] : (char)(x >> 16);
        }
        ncu_raw r;
        ncu_source s;
        ncu_messages m;
        ncu_raw_parse(buf, sizeof buf, &r);
        ncu_raw_free(&r);
        ncu_source_parse(buf, sizeof buf, &s);
        ncu_source_free(&s);
        ncu_messages_scan(buf, sizeof buf, &m);
    }
}
END_TEST

static Suite *ncu_suite(void)
{
    Suite *s = suite_create("ncu_csv");
    TCase *tc = tcase_create("pages");
    tcase_add_test(tc, raw_page_base_units);
    tcase_add_test(tc, raw_page_scaled_units);
    tcase_add_test(tc, raw_page_recorded_base_units);
    tcase_add_test(tc, raw_page_launches);
    tcase_add_test(tc, raw_page_none);
    tcase_add_test(tc, raw_page_values);
    tcase_add_test(tc, source_page_lines);
    tcase_add_test(tc, source_page_launches_merge);
    tcase_add_test(tc, source_page_none);
    tcase_add_test(tc, source_page_other_spellings);
    tcase_add_test(tc, sass_kinds);
    tcase_add_test(tc, messages);
    tcase_add_test(tc, csv_fields);
    tcase_add_test(tc, garbage);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(ncu_suite)
