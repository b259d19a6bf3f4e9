/* test_sanitizer.c - the compute-sanitizer output parser on recorded output. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "grading/sanitizer.h"

static char *read_fixture(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/grader/tests/fixtures/%s", kit_test_root(), name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s (set KIT_ROOT)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* exactly n bytes, no NUL: the parser must not read past the end */
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    ck_assert(buf != NULL);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void parse_fixture(const char *name, san_report *r)
{
    size_t len;
    char *text = read_fixture(name, &len);
    san_report_init(r);
    ck_assert_int_eq(sanitizer_parse(text, len, r), 0);
    free(text);
}

static void parse_str(const char *text, san_report *r)
{
    san_report_init(r);
    ck_assert_int_eq(sanitizer_parse(text, strlen(text), r), 0);
}

START_TEST(racecheck_analysis)
{
    san_report r;
    parse_fixture("racecheck-analysis.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "RAW/WAR race between a read and a write");
    ck_assert_str_eq(f->file, "bugs.cu");
    ck_assert_int_eq(f->line, 10);
    ck_assert_str_eq(f->other_file, "bugs.cu");
    ck_assert_int_eq(f->other_line, 10);
    ck_assert_str_eq(f->func, "scan_inplace(int *, int)");
    ck_assert_int_eq(f->count, 26624);
    ck_assert_int_eq(f->warning, 0);
    ck_assert_int_eq(r.summary_errors, 1);
    ck_assert_int_eq(r.app_error, 0);
    ck_assert_int_eq(r.tool_failed, 0);
    ck_assert_int_eq(san_error_count(&r), 1);
    san_report_free(&r);
}
END_TEST

START_TEST(racecheck_hazard)
{
    san_report r;
    parse_fixture("racecheck-hazard.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "WAR hazard (warp-level)");
    ck_assert_str_eq(f->file, "bugs.cu");
    ck_assert_int_eq(f->line, 10);
    ck_assert_int_eq(f->other_line, 10);
    ck_assert_str_eq(f->func, "scan_inplace(int *, int)");
    ck_assert_int_eq(f->count, 5);
    ck_assert_int_eq(f->warning, 1);
    ck_assert_int_eq(r.summary_errors, 10244);
    ck_assert_int_eq(r.app_error, 0);
    ck_assert_int_eq(r.tool_failed, 0);
    ck_assert_int_eq(san_error_count(&r), 0);
    san_report_free(&r);
}
END_TEST

START_TEST(synccheck_divergent)
{
    san_report r;
    parse_fixture("synccheck-divergent.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "Barrier error detected. Divergent thread(s) in warp.");
    ck_assert_str_eq(f->file, "bugs.cu");
    ck_assert_int_eq(f->line, 17);
    ck_assert_str_eq(f->func, "divbar(int *)");
    ck_assert_int_eq(f->count, 16);
    ck_assert_int_eq(f->warning, 0);
    ck_assert_int_eq(r.summary_errors, 16);
    ck_assert_int_eq(r.app_error, 1);
    ck_assert_int_eq(r.tool_failed, 0);
    san_report_free(&r);
}
END_TEST

START_TEST(initcheck_uninit)
{
    san_report r;
    parse_fixture("initcheck-uninit.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "Uninitialized __global__ memory read of size 4 bytes");
    ck_assert_str_eq(f->file, "bugs.cu");
    ck_assert_int_eq(f->line, 16);
    ck_assert_str_eq(f->func, "uninit(const int *, int *, int)");
    ck_assert_int_eq(f->count, 3);
    /* "ERROR SUMMARY: 900 errors were not printed" must not replace 1000 */
    ck_assert_int_eq(r.summary_errors, 1000);
    ck_assert_int_eq(r.app_error, 0);
    san_report_free(&r);
}
END_TEST

START_TEST(memcheck_clean)
{
    san_report r;
    parse_fixture("memcheck-clean.txt", &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(r.summary_errors, 0);
    ck_assert_int_eq(r.app_error, 0);
    ck_assert_int_eq(r.tool_failed, 0);
    ck_assert_int_eq(san_error_count(&r), 0);
    san_report_free(&r);
}
END_TEST

START_TEST(memcheck_oob)
{
    san_report r;
    parse_fixture("memcheck-oob-synthetic.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "Invalid __global__ write of size 4 bytes");
    ck_assert_str_eq(f->file, "/tmp/x/vadd.cu");
    ck_assert_str_eq(san_basename(f->file), "vadd.cu");
    ck_assert_int_eq(f->line, 12);
    ck_assert_str_eq(f->func, "kernel(int *)");
    ck_assert_int_eq(f->count, 1);
    ck_assert_int_eq(r.summary_errors, 1);
    ck_assert_int_eq(r.app_error, 1);
    ck_assert_int_eq(san_error_count(&r), 1);
    san_report_free(&r);
}
END_TEST

/* Recorded on an H200: two reports of one out-of-bounds write merge into one finding. */
START_TEST(memcheck_oob_recorded)
{
    san_report r;
    parse_fixture("memcheck-oob.txt", &r);
    ck_assert_int_eq(r.n, 1);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "Invalid __global__ write of size 4 bytes");
    ck_assert_str_eq(f->file, "bugs.cu");
    ck_assert_int_eq(f->line, 15);
    ck_assert_str_eq(f->func, "oob(int *, int)");
    ck_assert_int_eq(f->count, 2);
    ck_assert_int_eq(r.summary_errors, 281);
    ck_assert_int_eq(san_error_count(&r), 1);
    san_report_free(&r);
}
END_TEST

START_TEST(no_lineinfo_and_api_errors)
{
    san_report r;
    parse_str("========= COMPUTE-SANITIZER\n"
              "========= Invalid __shared__ read of size 4 bytes\n"
              "=========     at reduce(float const*, float*, int)+0x2b0\n"
              "=========     by thread (0,0,0) in block (0,0,0)\n"
              "=========     Address 0x1000 is out of bounds\n"
              "========= \n"
              "========= Invalid __shared__ read of size 4 bytes\n"
              "=========     at reduce(float const*, float*, int)+0x2b0\n"
              "=========     by thread (1,0,0) in block (0,0,0)\n"
              "========= \n"
              "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to cudaMemcpy.\n"
              "=========     Saved host backtrace up to driver entry point at error\n"
              "=========         Host Frame: main [0x1234] in prog\n"
              "========= \n"
              "========= Leaked 64 bytes at 0x7f0000000000\n"
              "=========     Saved host backtrace up to driver entry point at cudaMalloc time\n"
              "========= \n"
              "========= Leaked 64 bytes at 0x7f0000000400\n"
              "========= \n"
              "========= LEAK SUMMARY: 128 bytes leaked in 2 allocations\n"
              "========= ERROR SUMMARY: 5 errors\n",
              &r);
    ck_assert_int_eq(r.n, 3);
    ck_assert_str_eq(r.items[0].kind, "Invalid __shared__ read of size 4 bytes");
    ck_assert_str_eq(r.items[0].file, "");
    ck_assert_int_eq(r.items[0].line, 0);
    ck_assert_str_eq(r.items[0].func, "reduce(float const*, float*, int)");
    ck_assert_int_eq(r.items[0].count, 2);
    ck_assert(strncmp(r.items[1].kind, "Program hit cudaErrorInvalidValue", 33) == 0);
    ck_assert_int_eq(r.items[1].line, 0);
    ck_assert_str_eq(r.items[2].kind, "Leaked 64 bytes");
    ck_assert_int_eq(r.items[2].count, 2);
    ck_assert_int_eq(r.summary_errors, 5);
    ck_assert_int_eq(r.tool_failed, 0);
    san_report_free(&r);
}
END_TEST

START_TEST(races_merge_and_kinds)
{
    san_report r;
    parse_str("========= Error: Race reported between Write access at k(int *)+0x10 in a.cu:5\n"
              "=========     and Write access at k(int *)+0x20 in a.cu:6 [100 hazards]\n"
              "========= \n"
              "========= Error: Race reported between Write access at k(int *)+0x10 in a.cu:5\n"
              "=========     and Write access at k(int *)+0x20 in a.cu:6 [23 hazards]\n"
              "========= \n"
              "========= Error: Race reported between Write access at k(int *)+0x10 in a.cu:5\n"
              "=========     and Read access at k(int *)+0x30 in a.cu:9 [7 hazards]\n"
              "========= \n"
              "========= Warning: Race reported between Read access at k(int *)+0x30 in a.cu:9\n"
              "=========     and Write access at k(int *)+0x10 in a.cu:5 [1 hazard]\n"
              "========= \n"
              "========= Error: Potential RAW hazard detected at __shared__ 0x8 in block (0,0,0) :\n"
              "=========     Write Thread (0,0,0) at k(int *)+0x10 in a.cu:5\n"
              "=========     Read Thread (1,0,0) at k(int *)+0x30 in a.cu:9\n"
              "=========     Current Value : 0\n"
              "========= \n"
              "========= RACECHECK SUMMARY: 4 hazards displayed (4 errors, 1 warning)\n",
              &r);
    ck_assert_int_eq(r.n, 4);
    ck_assert_str_eq(r.items[0].kind, "WAW race between two writes");
    ck_assert_int_eq(r.items[0].count, 123);
    ck_assert_int_eq(r.items[0].line, 5);
    ck_assert_int_eq(r.items[0].other_line, 6);
    ck_assert_str_eq(r.items[1].kind, "RAW/WAR race between a read and a write");
    ck_assert_int_eq(r.items[1].count, 7);
    ck_assert_int_eq(r.items[1].other_line, 9);
    ck_assert_int_eq(r.items[2].warning, 1);
    ck_assert_int_eq(r.items[2].count, 1);
    ck_assert_str_eq(r.items[3].kind, "RAW hazard");
    ck_assert_int_eq(r.items[3].warning, 0);
    ck_assert_int_eq(r.items[3].line, 5);
    ck_assert_int_eq(r.items[3].other_line, 9);
    ck_assert_int_eq(san_error_count(&r), 3);
    ck_assert_int_eq(r.summary_errors, 4);
    san_report_free(&r);
}
END_TEST

/* The forms of "at LOCATION", a race on one line, a warning with a location, a crash. */
START_TEST(locations_and_one_line_races)
{
    san_report r;
    parse_str("========= Invalid __global__ read of size 4 bytes::\n"
              "=========     at   k(int *)+0x10 in a.cu:5\n"
              "========= \n"
              "========= Invalid __global__ write of size 4 bytes\n"
              "=========     at 0x70 in C:x/b.cu:12:kern\n" /* older form FILE:LINE:FUNC; a ':' in the file */
              "========= \n"
              "========= Invalid __global__ atomic of size 4 bytes\n"
              "=========     at 0x70 in kern\n" /* older form, no line information */
              "========= \n"
              "========= Uninitialized __global__ memory read of size 4 bytes\n"
              "=========     at g(int) in c.cu:77\n" /* no offset */
              "========= \n"
              "========= Misaligned Shared or Local Address\n"
              "=========     at g(int) in d.cu:7x\n" /* not a line number: part of the file */
              "========= \n"
              "========= Out-of-range Shared or Local Address\n"
              "=========     at    \n" /* nothing: a finding without a place */
              "========= \n"
              "========= Error: Race reported between Write access at k(int *)+0x10 in a.cu:5 and Read access at "
              "k(int *)+0x30 in a.cu:9 [7 hazards]\n"
              "========= Warning: something odd\n"
              "=========     at f(int)+0x1 in e.cu:3\n"
              "========= \n"
              "========= Warning: not followed by a location\n"
              "========= Error: process didn't terminate successfully\n"
              "========= ERROR SUMMARY: 9 errors\n",
              &r);
    ck_assert_int_eq(r.n, 8);
    static const struct {
        const char *kind, *file, *func;
        int line;
    } want[] = {
        {"Invalid __global__ read of size 4 bytes", "a.cu", "k(int *)", 5},
        {"Invalid __global__ write of size 4 bytes", "C:x/b.cu", "kern", 12},
        {"Invalid __global__ atomic of size 4 bytes", "", "kern", 0},
        {"Uninitialized __global__ memory read of size 4 bytes", "c.cu", "g(int)", 77},
        {"Misaligned Shared or Local Address", "d.cu:7x", "g(int)", 0},
        {"Out-of-range Shared or Local Address", "", "", 0},
        {"RAW/WAR race between a read and a write", "a.cu", "k(int *)", 5},
        {"something odd", "e.cu", "f(int)", 3},
    };
    for (int i = 0; i < 8; i++) {
        ck_assert_str_eq(r.items[i].kind, want[i].kind);
        ck_assert_str_eq(r.items[i].file, want[i].file);
        ck_assert_str_eq(r.items[i].func, want[i].func);
        ck_assert_int_eq(r.items[i].line, want[i].line);
        ck_assert_int_eq(r.items[i].warning, i == 7);
    }
    ck_assert_int_eq(r.items[6].other_line, 9);
    ck_assert_int_eq(r.items[6].count, 7);
    ck_assert_int_eq(san_error_count(&r), 7);
    ck_assert_int_eq(r.app_error, 1); /* the program crashed: not the tool's failure */
    ck_assert_int_eq(r.tool_failed, 0);
    ck_assert_int_eq(r.summary_errors, 9);
    san_report_free(&r);

    /* one-line races: an empty first place, spaces before " and " */
    parse_str("========= Error: Race reported between Read access at  and Write access at k(int *)+0x10 in a.cu:5\n"
              "========= Error: Race reported between Read access at k(int *)+0x30 in a.cu:9   and Write access at "
              "k(int *)+0x10 in a.cu:6\n",
              &r);
    ck_assert_int_eq(r.n, 2);
    ck_assert_str_eq(r.items[0].file, "");
    ck_assert_int_eq(r.items[0].line, 0);
    ck_assert_int_eq(r.items[0].other_line, 5);
    ck_assert_str_eq(r.items[1].file, "a.cu");
    ck_assert_int_eq(r.items[1].line, 9);
    ck_assert_str_eq(r.items[1].func, "k(int *)");
    ck_assert_int_eq(r.items[1].other_line, 6);
    san_report_free(&r);
}
END_TEST

START_TEST(tool_failures)
{
    static const char *cases[] = {
        "========= COMPUTE-SANITIZER\n========= Error: Device not supported. Please refer to the documentation.\n",
        "========= Internal Sanitizer Error: The Sanitizer failed to initialize\n",
        "========= COMPUTE-SANITIZER\n========= Error: Target application terminated before first instrumented API "
        "call\n========= ERROR SUMMARY: 0 errors\n",
        "========= Error: No attachable process found. compute-sanitizer failed to attach\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        san_report r;
        parse_str(cases[i], &r);
        ck_assert_msg(r.tool_failed, "case %zu", i);
        ck_assert_msg(strlen(r.tool_message) > 5, "case %zu", i);
        ck_assert_int_eq(r.n, 0);
        san_report_free(&r);
    }
    san_report r;
    parse_str(cases[0], &r);
    ck_assert(strstr(r.tool_message, "Device not supported") != NULL);
    ck_assert_int_eq(r.summary_errors, -1);
    san_report_free(&r);
}
END_TEST

START_TEST(program_output_ignored)
{
    san_report r;
    parse_str("Invalid __global__ write of size 4 bytes\n"
              "    at kernel(int *)+0x70 in x.cu:3\n"
              "ERROR SUMMARY: 7 errors\n"
              "Error: Device not supported\n"
              "Target application returned an error\n"
              "========= ERROR SUMMARY: 0 errors\r\n",
              &r);
    ck_assert_int_eq(r.n, 0);
    ck_assert_int_eq(r.summary_errors, 0);
    ck_assert_int_eq(r.tool_failed, 0);
    ck_assert_int_eq(r.app_error, 0);
    san_report_free(&r);
}
END_TEST

/* The kit's barrier check (kit/barrier_check.cuh) prints its findings on the
 * program's stdout; synccheck itself found nothing. */
START_TEST(kit_barrier_check_lines)
{
    san_report r;
    parse_str("========= COMPUTE-SANITIZER\n"
              "partial sums: kit barrier check: dot.cu:23: barrier reached by 128 of 256 threads of block (0,0,0): "
              "a __syncthreads() inside a condition not every thread of the block takes\n"
              "kit barrier check: /tmp/w/src/dot.cu:23: barrier reached by 128 of 256 threads of block (0,0,0): "
              "a __syncthreads() inside a condition not every thread of the block takes\n"
              "kit barrier check: dot.cu:31: block (2,0,0) passed this barrier and the one of line 35 together: a "
              "__syncthreads() in each branch of a condition; every thread of the block must reach the same "
              "__syncthreads()\r\n"
              "kit barrier check: no location here\n"
              "kit barrier check: dot.cu:x: not a line number: ignored\n"
              "========= ERROR SUMMARY: 0 errors\n",
              &r);
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(san_error_count(&r), 2);
    ck_assert_int_eq(r.summary_errors, 0);
    san_finding *f = &r.items[0];
    ck_assert_str_eq(f->kind, "barrier reached by 128 of 256 threads of block (0,0,0)");
    ck_assert_str_eq(san_basename(f->file), "dot.cu");
    ck_assert_int_eq(f->line, 23);
    ck_assert_int_eq(f->warning, 0);
    ck_assert_ptr_nonnull(strstr(f->note, "a __syncthreads() inside a condition not every thread of the block takes: "
                                          "undefined behaviour"));
    f = &r.items[1];
    ck_assert_str_eq(f->kind, "block (2,0,0) passed this barrier and the one of line 35 together");
    ck_assert_str_eq(f->file, "dot.cu");
    ck_assert_int_eq(f->line, 31);
    ck_assert_ptr_nonnull(strstr(f->note, "every thread of the block must reach the same __syncthreads(): "));
    san_report_free(&r);
}
END_TEST

START_TEST(garbage)
{
    san_report r;
    /* random bytes, sprinkled with prefixes */
    unsigned state = 12345;
    size_t n = 1 << 16;
    char *buf = malloc(n);
    for (size_t i = 0; i < n; i++) {
        state = state * 1103515245u + 12345u;
        buf[i] = (char)(state >> 16);
        if ((state & 0x3ff) == 0 && i + 20 < n) {
            static const char *bits[] = {"\n========= ", "\n=========     at ", "\n=========     and ",
                                         "\n========= Error: Race reported between ",
                                         "\n=========     Read Thread ", "+0x", " in ", ":99999999999999999999"};
            const char *b = bits[(state >> 10) % 8];
            size_t k = strlen(b);
            if (i + k < n) {
                memcpy(buf + i, b, k);
                i += k - 1;
            }
        }
    }
    san_report_init(&r);
    ck_assert_int_eq(sanitizer_parse(buf, n, &r), 0);
    san_report_free(&r);
    free(buf);

    /* hand-made nasties */
    static const char *bad[] = {
        "",
        "=========",
        "=========\n=========",
        "========= Error: Race reported between \n",
        "========= Error: Race reported between Read access at \n=========     and  [",
        "========= Warning: Potential hazard detected\n=========     Read Thread  at \n",
        "========= Invalid\n=========     at +0x\n=========     at f+0x1 in :\n",
        "========= Invalid\n=========     at 0x in a:1:\n",
        "========= RACECHECK SUMMARY: (\n========= ERROR SUMMARY: x errors\n",
        "========= ERROR SUMMARY: 99999999999999999999999999 errors\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        san_report_init(&r);
        ck_assert_int_eq(sanitizer_parse(bad[i], strlen(bad[i]), &r), 0);
        san_report_free(&r);
    }
    /* a very long line, not NUL-terminated */
    size_t big = 100000;
    char *lng = malloc(big);
    memset(lng, 'x', big);
    memcpy(lng, "========= Invalid __global__ write ", 35);
    san_report_init(&r);
    ck_assert_int_eq(sanitizer_parse(lng, big, &r), 0);
    ck_assert_int_le(r.n, 1);
    if (r.n)
        ck_assert_uint_lt(strlen(r.items[0].kind), sizeof r.items[0].kind);
    san_report_free(&r);
    free(lng);
    /* NUL bytes inside */
    static const char nul[] = "========= Invalid __global__ write\0 of size 4\n=========     at k()+0x1 in a\0.cu:3\n";
    san_report_init(&r);
    ck_assert_int_eq(sanitizer_parse(nul, sizeof nul - 1, &r), 0);
    san_report_free(&r);
}
END_TEST

START_TEST(basename_of_paths)
{
    ck_assert_str_eq(san_basename("/a/b/dot.cu"), "dot.cu");
    ck_assert_str_eq(san_basename("dot.cu"), "dot.cu");
    ck_assert_str_eq(san_basename(""), "");
    ck_assert_str_eq(san_basename(NULL), "");
}
END_TEST

static Suite *sanitizer_suite(void)
{
    Suite *s = suite_create("sanitizer");
    TCase *tc = tcase_create("fixtures");
    tcase_add_test(tc, racecheck_analysis);
    tcase_add_test(tc, racecheck_hazard);
    tcase_add_test(tc, synccheck_divergent);
    tcase_add_test(tc, initcheck_uninit);
    tcase_add_test(tc, memcheck_clean);
    tcase_add_test(tc, memcheck_oob);
    tcase_add_test(tc, memcheck_oob_recorded);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_add_test(tc, no_lineinfo_and_api_errors);
    tcase_add_test(tc, races_merge_and_kinds);
    tcase_add_test(tc, locations_and_one_line_races);
    tcase_add_test(tc, tool_failures);
    tcase_add_test(tc, program_output_ignored);
    tcase_add_test(tc, kit_barrier_check_lines);
    tcase_add_test(tc, garbage);
    tcase_add_test(tc, basename_of_paths);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(sanitizer_suite)
