/* test_profile.c - a profile's lines and figures from written pages
 * (profile_checks.h), and the labs' profile.ini files (profile_ini.h). */
#include <check.h>
#include <glob.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "course/class_report.h"
#include "grading/engine_int.h"
#include "grading/gradekey.h"
#include "kit/util.h"
#include "grading/ncu_csv.h"
#include "grading/profile_checks.h"
#include "grading/profile.h"
#include "grading/profile_ini.h"
#include "output/report.h"
#include "util/fsutil.h"

/* The pages of one profile, parsed. */
typedef struct {
    ncu_raw raw;
    ncu_source src;
    int have_src;
    profile_view v;
    result_figure figs[MAX_FIGURES];
    int n_figs;
} pages;

static void load(pages *p, const char *raw_text, const char *raw_file, const char *src_file)
{
    memset(p, 0, sizeof *p);
    size_t len;
    char path[4096], *text;
    if (raw_file) {
        snprintf(path, sizeof path, "%s/grader/tests/fixtures/%s", kit_test_root(), raw_file);
        text = kit_read_file(path, 1 << 24, &len);
        ck_assert_msg(text != NULL, "cannot read %s (set KIT_ROOT)", path);
        ck_assert_int_eq(ncu_raw_parse(text, len, &p->raw), 0);
        free(text);
    } else {
        ck_assert_int_eq(ncu_raw_parse(raw_text, strlen(raw_text), &p->raw), 0);
    }
    if (src_file) {
        snprintf(path, sizeof path, "%s/grader/tests/fixtures/%s", kit_test_root(), src_file);
        text = kit_read_file(path, 1 << 24, &len);
        ck_assert_msg(text != NULL, "cannot read %s", path);
        ck_assert_int_eq(ncu_source_parse(text, len, &p->src), 0);
        free(text);
        p->have_src = 1;
    }
    static const char *const files[] = {"conv1d.cu", "scan.cu", "histogram.cu"};
    profile_view_init(&p->v, &p->raw, p->have_src ? &p->src : NULL, files, 3);
}

static void unload(pages *p)
{
    ncu_raw_free(&p->raw);
    ncu_source_free(&p->src);
}

/* Check `name`'s line (without its newline) equals want. */
static void line_is(pages *p, const char *name, const char *want)
{
    const profile_check *c = profile_check_find(name);
    ck_assert_msg(c != NULL, "no check %s", name);
    strbuf b;
    sb_init(&b);
    profile_check_run(c, &p->v, &b, p->figs, &p->n_figs);
    ck_assert_int_eq(kit_test_count(sb_str(&b), "\n"), 1);
    ck_assert_int_eq(b.s[b.len - 1], '\n');
    b.s[--b.len] = 0;
    ck_assert_str_eq(sb_str(&b), want);
    sb_free(&b);
}

static double fig(const pages *p, const char *name)
{
    for (int i = 0; i < p->n_figs; i++)
        if (!strcmp(p->figs[i].name, name))
            return p->figs[i].value;
    ck_abort_msg("no figure %s", name);
    return 0;
}

static int has_fig(const pages *p, const char *name)
{
    for (int i = 0; i < p->n_figs; i++)
        if (!strcmp(p->figs[i].name, name))
            return 1;
    return 0;
}

static const char launch_cols[] = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"";

START_TEST(uncoalesced_named_at_its_line)
{
    pages p;
    load(&p, NULL, "ncu-raw-uncoalesced.csv", "ncu-source-uncoalesced.csv");
    line_is(&p, "coalescing", "global loads: 8.0 sectors per request at conv1d.cu:42 (ideal 4): neighbouring threads "
                              "read far-apart addresses (uncoalesced)");
    ck_assert_double_eq(fig(&p, "global_load_sectors_per_request"), 8.0);
    ck_assert_double_eq(fig(&p, "global_store_sectors_per_request"), 4.0);
    line_is(&p, "load-reuse", "global loads: 1.0x the bytes read from DRAM: each input is loaded about once (a tile "
                              "with its halo)");
    line_is(&p, "shared-banks", "shared memory: no bank conflicts (loads 1.0-way, stores 1.0-way)");
    line_is(&p, "dram", "DRAM 326 GB/s = 10% of this GPU's peak 3,352 GB/s");
    ck_assert_double_eq_tol(fig(&p, "dram_gbs"), 326.01, 0.01);
    /* min.h:77 has more stalls, but is not the student's file: named nowhere, counted in the whole */
    line_is(&p, "hotspot", "hot spot: 11% of the sampled warp stalls at conv1d.cu:42");
    strbuf k;
    sb_init(&k);
    profile_kernels_line(&p.v, &k);
    ck_assert_str_eq(sb_str(&k), "conv1d_tiled 0.412 ms");
    sb_free(&k);
    unload(&p);
}
END_TEST

START_TEST(coalesced_reference)
{
    pages p;
    load(&p, NULL, "ncu-raw-coalesced-auto-units.csv", NULL);
    line_is(&p, "coalescing", "global loads: 4.0 sectors per request, stores 4.0 (ideal 4): coalesced");
    line_is(&p, "dram", "DRAM 2,726 GB/s = 81% of this GPU's peak 3,354 GB/s");
    line_is(&p, "occupancy", "occupancy 91% achieved");
    unload(&p);
}
END_TEST

START_TEST(without_source_lines)
{
    /* the uncoalesced page without its source page: the same figure, no line named */
    pages p;
    load(&p, NULL, "ncu-raw-uncoalesced.csv", NULL);
    line_is(&p, "coalescing", "global loads: 8.0 sectors per request (ideal 4): neighbouring threads read far-apart "
                              "addresses (uncoalesced)");
    /* without the source page's ideal, the uncoalesced loads' extra sectors count as loads again */
    line_is(&p, "load-reuse", "global loads: 2.0x the bytes read from DRAM: threads load the same inputs again (the "
                              "caches serve them); a shared-memory tile with its halo loads each once");
    line_is(&p, "hotspot", "hot spot: no warp stalls sampled");
    unload(&p);
}
END_TEST

START_TEST(vector_and_misaligned_loads)
{
    /* 16-byte loads take 16 sectors per request: the source page's ideal says so */
    char raw[1024];
    snprintf(raw, sizeof raw,
             "%s,\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\"\n"
             "\"0\",\"scan_tiles\",\"0.001\",\"8,388,608\",\"524,288\"\n",
             launch_cols);
    const char *src = "\"File Path\",\"scan.cu\"\n"
                      "\"Line No\",\"Source\",\"Address\",\"Source\",\"L2 Theoretical Sectors Global\","
                      "\"L2 Theoretical Sectors Global Ideal\",\"L2 Theoretical Sectors Global Excessive\"\n"
                      "\"66\",\"V x = *(const V *)(p + i);\",\"\",\"\",\"8,388,608\",\"8,388,608\",\"0\"\n"
                      "\"\",\"\",\"0x10\",\"LDG.E.128 R4, desc[UR4][R2.64]\",\"8,388,608\",\"8,388,608\",\"0\"\n";
    pages p;
    load(&p, raw, NULL, NULL);
    ck_assert_int_eq(ncu_source_parse(src, strlen(src), &p.src), 0);
    p.have_src = 1;
    p.v.src = &p.src;
    line_is(&p, "coalescing", "global loads: 16.0 sectors per request (ideal 16): coalesced");
    unload(&p);
    /* a tile read one word off alignment: 5 sectors per request, coalesced (no source page) */
    snprintf(raw, sizeof raw,
             "%s,\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\"\n"
             "\"0\",\"conv1d_tiled\",\"0.001\",\"2,600,000\",\"520,000\"\n",
             launch_cols);
    load(&p, raw, NULL, NULL);
    line_is(&p, "coalescing", "global loads: 5.0 sectors per request (ideal 4): coalesced");
    unload(&p);
}
END_TEST

START_TEST(bank_conflicts_named)
{
    pages p;
    load(&p, NULL, "ncu-raw-bank-conflicts.csv", "ncu-source-bank-conflicts.csv");
    ck_assert_int_eq(p.v.n_rows, 2); /* kit_scan_step is the kit's */
    line_is(&p, "shared-banks", "shared memory: 6.1-way bank conflicts on loads at scan.cu:57 (stores 1.2-way): "
                                "threads of one warp reach different addresses in one bank; pad the array or change "
                                "the stride");
    ck_assert_double_eq_tol(fig(&p, "shared_load_ways"), 6.099, 0.001);
    line_is(&p, "divergence", "branch efficiency 61% at scan.cu:40: threads of one warp take different branches (warp "
                              "divergence)");
    ck_assert_double_eq_tol(fig(&p, "branch_efficiency_pct"), 61.35, 0.01);
    strbuf k;
    sb_init(&k);
    profile_kernels_line(&p.v, &k);
    ck_assert_str_eq(sb_str(&k), "scan_blocks 1.210 ms, scan_sums 0.010 ms");
    sb_free(&k);
    /* no DRAM metrics were asked for: said, not guessed */
    line_is(&p, "dram", "DRAM: not measured");
    ck_assert_int_eq(has_fig(&p, "dram_gbs"), 0);
    unload(&p);
}
END_TEST

START_TEST(no_kernel_of_the_student)
{
    pages p;
    char text[1024];
    snprintf(text, sizeof text, "%s\n\"\",\"\",\"second\"\n\"0\",\"kit_conv1d_global_mask\",\"0.001\"\n", launch_cols);
    load(&p, text, NULL, NULL);
    ck_assert_int_eq(p.v.n_rows, 0);
    line_is(&p, "coalescing", "global loads: none measured");
    line_is(&p, "occupancy", "occupancy: not measured");
    unload(&p);
}
END_TEST

START_TEST(occupancy_limits)
{
    static const struct {
        const char *limits; /* blocks, registers, shared_mem, warps, regs/thread, block, waves, smem static, dynamic */
        const char *want;
    } cases[] = {
        {"32,2,8,2,128,512,3.1,0,0", "occupancy 45% achieved, 50% possible, limited by registers (128 per thread)"},
        {"32,8,1,2,32,256,3.1,49152,0", "occupancy 45% achieved, 50% possible, limited by shared memory (48.0 KB per "
                                        "block)"},
        {"32,40,40,64,32,32,3.1,0,0", "occupancy 45% achieved, 50% possible, limited by blocks per SM (at most 32; "
                                      "blocks of 32 threads are small)"},
        {"32,2,8,2,128,512,0.25,0,0", "occupancy 45% achieved, 50% possible, limited by registers (128 per thread); "
                                      "the grid fills 0.25 of one wave: too few blocks for this GPU"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048], vals[256];
        snprintf(vals, sizeof vals, "%s", cases[i].limits);
        for (char *c = vals; *c; c++)
            if (*c == ',')
                *c = '|'; /* quoted below */
        char quoted[512] = "";
        for (char *save = NULL, *t = strtok_r(vals, "|", &save); t; t = strtok_r(NULL, "|", &save))
            snprintf(quoted + strlen(quoted), sizeof quoted - strlen(quoted), ",\"%s\"", t);
        snprintf(text, sizeof text,
                 "%s,\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"sm__maximum_warps_per_active_cycle_pct\","
                 "\"launch__occupancy_limit_blocks\",\"launch__occupancy_limit_registers\","
                 "\"launch__occupancy_limit_shared_mem\",\"launch__occupancy_limit_warps\","
                 "\"launch__registers_per_thread\",\"launch__block_size\",\"launch__waves_per_multiprocessor\","
                 "\"launch__shared_mem_per_block_static\",\"launch__shared_mem_per_block_dynamic\"\n"
                 "\"0\",\"k\",\"0.001\",\"45.2\",\"50\"%s\n",
                 launch_cols, quoted);
        pages p;
        load(&p, text, NULL, NULL);
        line_is(&p, "occupancy", cases[i].want);
        unload(&p);
    }
    pages p;
    char text[1024];
    snprintf(text, sizeof text,
             "%s,\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"sm__maximum_warps_per_active_cycle_pct\"\n"
             "\"0\",\"k\",\"0.001\",\"92.4\",\"100\"\n",
             launch_cols);
    load(&p, text, NULL, NULL);
    line_is(&p, "occupancy", "occupancy 92% achieved, 100% possible: not a limit");
    unload(&p);
}
END_TEST

START_TEST(atomics_reuse_flops)
{
    pages p;
    char text[2048];
    snprintf(text, sizeof text,
             "%s,\"smsp__sass_inst_executed_op_global_atom.sum\",\"smsp__sass_inst_executed_op_global_red.sum\","
             "\"smsp__sass_inst_executed_op_shared_atom.sum\"\n"
             "\"0\",\"histogram\",\"0.002\",\"0\",\"2,097,152\",\"0\"\n",
             launch_cols);
    load(&p, text, NULL, NULL);
    line_is(&p, "atomics", "atomics: 2.1 M warp instructions to global memory, 0.0 M in shared memory: the updates "
                           "of all blocks contend for the same bins (atomic contention); privatise: one histogram per "
                           "block in shared memory, merged once");
    unload(&p);
    snprintf(text, sizeof text,
             "%s,\"smsp__sass_inst_executed_op_global_atom.sum\",\"smsp__sass_inst_executed_op_global_red.sum\","
             "\"smsp__sass_inst_executed_op_shared_atom.sum\"\n"
             "\"0\",\"histogram\",\"0.002\",\"0\",\"16,384\",\"2,097,152\"\n",
             launch_cols);
    load(&p, text, NULL, NULL);
    line_is(&p, "atomics", "atomics: 99% in shared memory (privatised), 0.02 M warp instructions to global memory");
    unload(&p);
    /* a tiled matmul without register tiling: 16 FMAs per global load, 0.5 per shared load */
    snprintf(text, sizeof text,
             "%s,\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\","
             "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\","
             "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\",\"sm__cycles_elapsed.avg.per_second\","
             "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"smsp__sass_inst_executed_op_shared_ld.sum\"\n"
             "\"0\",\"matmul_tiled\",\"0.004\",\"8,192,000,000\",\"0\",\"0\",\"16,896\",\"1,755,000,000\","
             "\"16,000,000\",\"512,000,000\"\n",
             launch_cols);
    load(&p, text, NULL, NULL);
    line_is(&p, "reuse", "shared-memory reuse: 16.0 FMAs per global load, 0.5 per shared load: each value read from "
                         "shared memory feeds few FMAs; a thread computing several outputs reuses it from registers "
                         "(register tiling)");
    line_is(&p, "flops", "FP32 4,096 GFLOP/s = 6.9% of this GPU's peak 59,305 GFLOP/s");
    ck_assert_double_eq_tol(fig(&p, "gflops"), 4096, 1e-6);
    unload(&p);
}
END_TEST

START_TEST(catalogue)
{
    char names[512];
    profile_check_names(names, sizeof names);
    ck_assert_str_eq(names, "atomics, coalescing, divergence, dram, flops, hotspot, load-reuse, occupancy, reuse, "
                            "shared-banks");
    ck_assert_ptr_null(profile_check_find("bandwidth"));
    char b[48];
    profile_thousands(1304.4, b, sizeof b);
    ck_assert_str_eq(b, "1,304");
    profile_thousands(999, b, sizeof b);
    ck_assert_str_eq(b, "999");
    profile_thousands(1234567, b, sizeof b);
    ck_assert_str_eq(b, "1,234,567");
    profile_thousands(0.4, b, sizeof b);
    ck_assert_str_eq(b, "0");
}
END_TEST

/* profile.ini text into a temporary file, loaded: its error ("" when good). */
static const char *load_ini(const char *text, profile_decl *d)
{
    static char err[1024];
    char path[] = "/tmp/kit-profile-ini-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    int rc = profile_ini_load(path, d, err, sizeof err);
    unlink(path);
    if (rc == 0)
        return "";
    /* the path varies: keep from the line number on */
    const char *p = strstr(err, path);
    return p ? p + strlen(path) : err;
}

START_TEST(ini_good)
{
    profile_decl d;
    ck_assert_str_eq(load_ini("; lab05\n[profile]\nlook = coalescing, dram hotspot\ncase = n=2^20\nlaunches = 2\n"
                              "timeout = 30\n",
                              &d),
                     "");
    ck_assert_int_eq(d.n_look, 3);
    ck_assert_str_eq(d.look[2]->name, "hotspot");
    ck_assert_str_eq(d.test, "performance");
    ck_assert_str_eq(d.params, "n=2^20");
    ck_assert_int_eq(d.launches, 2);
    ck_assert_double_eq(d.timeout_s, 30);
    ck_assert_str_eq(load_ini("[profile]\nlook = dram\ntest = speed\n", &d), "");
    ck_assert_str_eq(d.test, "speed");
    ck_assert_int_eq(d.launches, 4);
    ck_assert_double_eq(d.timeout_s, 120);
}
END_TEST

START_TEST(ini_bad)
{
    profile_decl d;
    static const struct {
        const char *text, *err;
    } cases[] = {
        {"[profile]\nlook = dram bandwidth\n",
         ":2: look 'bandwidth': no such check; the checks are atomics, coalescing, divergence, dram, flops, hotspot, "
         "load-reuse, occupancy, reuse, shared-banks"},
        {"[profile]\nlook = dram dram\n", ":2: look: 'dram' is listed twice"},
        {"[profile]\nlook = dram flops hotspot occupancy reuse atomics coalescing\n",
         ":2: look: at most 6 checks (one line each: a few a student can act on)"},
        {"[profile]\nlook =\n", ":2: look is empty: name 1 to 6 checks"},
        {"[profile]\nlaunches = 4\n", ":1: [profile] has no 'look' (1 to 6 checks)"},
        {"[profile]\nlook = dram\nlaunches = 0\n", ":3: launches '0': a whole number from 1 to 16"},
        {"[profile]\nlook = dram\nlaunches = 4x\n", ":3: launches '4x': a whole number from 1 to 16"},
        {"[profile]\nlook = dram\ntimeout = 5\n", ":3: timeout '5': a whole number from 10 to 1800"},
        {"[profile]\nlook = dram\nmetrics = dram__bytes.sum\n",
         ":3: unknown key 'metrics' in [profile] (the keys: look, test, case, launches, timeout)"},
        {"[profile]\nlook = dram\nlook = flops\n", ":3: 'look' given twice (first at line 2)"},
        {"[rubric]\nlook = dram\n", ":1: unknown section [rubric] (profile.ini has one section, [profile])"},
        {"[profile]\nlook = dram\n[profile]\n", ":3: duplicate section [profile] (first at line 1)"},
        {"look = dram\n", ":1: 'look' outside a section (start with [profile])"},
        {"; nothing\n", ": no [profile] section"},
        {"[profile]\nlook = dram\nthis is not ini\n",
         ":3: syntax error (expected [section], key = value, or a ; comment)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_str_eq(load_ini(cases[i].text, &d), cases[i].err);
    char err[256];
    ck_assert_int_eq(profile_ini_load("/nonexistent/profile.ini", &d, err, sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/profile.ini: cannot open: No such file or directory");
}
END_TEST

START_TEST(labs_declare_few_checks)
{
    /* every lab's profile.ini reads (the rubric and the parameters: kitgrade validate, tests/run-build) */
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/labs/*/kit/profile.ini", kit_test_root());
    glob_t g;
    ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
    ck_assert_uint_ge(g.gl_pathc, 5);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        profile_decl d;
        char err[1024];
        ck_assert_msg(profile_ini_load(g.gl_pathv[i], &d, err, sizeof err) == 0, "%s", err);
        ck_assert_int_ge(d.n_look, 2);
    }
    globfree(&g);
}
END_TEST

/* A graded result with a performance test and, when gbs > 0, its profile's figures. */
static void write_result(const char *path, const char *student, double speedup, double gbs)
{
    grade_result g;
    grade_result_init(&g);
    snprintf(g.student, sizeof g.student, "%s", student);
    snprintf(g.lab, sizeof g.lab, "lab05-convolution");
    g.build_ok = g.gpu_ran = 1;
    test_result *t = grade_result_add(&g);
    snprintf(t->name, sizeof t->name, "performance");
    t->status = ST_PASS, t->score = t->max_score = 20;
    sb_printf(&t->output, "speedup %.2fx: full points from 1.15x, none at or below 0.90x\n", speedup);
    if (gbs > 0) {
        snprintf(t->figures[0].name, sizeof t->figures[0].name, "dram_gbs");
        t->figures[0].value = gbs;
        snprintf(t->figures[1].name, sizeof t->figures[1].name, "global_load_sectors_per_request");
        t->figures[1].value = 8;
        t->n_figures = 2;
    }
    grade_result_total(&g);
    char err[256];
    ck_assert_msg(report_write_json(&g, path, err, sizeof err) == 0, "%s", err);
    grade_result_free(&g);
}

START_TEST(figures_in_results_and_class_report)
{
    char dir[] = "/tmp/kit-profile-report-XXXXXX", paths[3][600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const char *const names[] = {"ann", "bob", "cy"};
    const double gbs[] = {652.0, 2726.4, 0}; /* cy: graded without --profile */
    for (int i = 0; i < 3; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s.json", dir, names[i]);
        write_result(paths[i], names[i], 1.0 + i, gbs[i]);
    }
    /* results.json keeps the figures, and reads them back */
    grade_result r;
    char err[256];
    ck_assert_msg(report_read_json(paths[0], &r, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(r.tests[0].n_figures, 2);
    ck_assert_str_eq(r.tests[0].figures[1].name, "global_load_sectors_per_request");
    ck_assert_double_eq(r.tests[0].figures[0].value, 652.0);
    ck_assert_double_eq(r.tests[0].score, 20); /* a profile is no score */
    grade_result_free(&r);
    size_t len;
    char *json = kit_read_file(paths[0], 1 << 20, &len);
    ck_assert_ptr_nonnull(strstr(json, "\"profile\":"));
    free(json);
    json = kit_read_file(paths[2], 1 << 20, &len);
    ck_assert_ptr_null(strstr(json, "\"profile\""));
    free(json);

    /* the class report: students per band of GB/s, and per student beside the speedup */
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(e.man.name, sizeof e.man.name, "lab05-convolution");
    class_member m[3];
    for (int i = 0; i < 3; i++)
        m[i] = (class_member){names[i], "", paths[i]};
    ck_assert_msg(class_report_write(&e, dir, m, 3, 0, err, sizeof err) == 0, "%s", err);
    char html_path[700];
    snprintf(html_path, sizeof html_path, "%s/report.html", dir);
    char *html = kit_read_file(html_path, 1 << 24, &len);
    ck_assert_ptr_nonnull(html);
    ck_assert_ptr_nonnull(strstr(html, "id=\"dram-histogram\""));
    ck_assert_ptr_nonnull(strstr(html, "students per band of achieved DRAM bandwidth (GB/s), 2 profiled"));
    ck_assert_ptr_null(strstr(html, "id=\"gflops-histogram\""));
    ck_assert_ptr_nonnull(strstr(html, "<td>ann</td><td class=\"num\">1.00x</td><td class=\"num\">652</td><td>-</td>"));
    ck_assert_ptr_nonnull(strstr(html, "<td>bob</td><td class=\"num\">2.00x</td><td class=\"num\">2726</td>"));
    ck_assert_int_eq(kit_test_count(html, "class=\"profiled\""), 2);
    /* bands of 1, 2 or 5 times a power of ten: 2726 over ten bands of 500 */
    ck_assert_ptr_nonnull(strstr(html, "data-label=\"500\" data-value=\"1\""));
    ck_assert_ptr_nonnull(strstr(html, "data-label=\"2500\" data-value=\"1\""));
    free(html);
    /* without any profile: one line saying how to get them */
    m[0].result = paths[2], m[1].result = paths[2];
    ck_assert(class_report_write(&e, dir, m, 3, 0, err, sizeof err) == 0);
    html = kit_read_file(html_path, 1 << 24, &len);
    ck_assert_ptr_nonnull(strstr(html, "id=\"no-profile\""));
    ck_assert_ptr_null(strstr(html, "id=\"dram-histogram\""));
    free(html);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(grading_key_says_profile)
{
    /* a result with a profile is not one without: the key differs; without --profile, as before */
    engine e;
    memset(&e, 0, sizeof e);
    snprintf(e.conf.ncu, sizeof e.conf.ncu, "/usr/local/cuda/bin/ncu");
    engine_grading_key(&e);
    char plain[65];
    snprintf(plain, sizeof plain, "%s", e.grading_key);
    ck_assert_str_eq(e.conditions, "gpu=none;sanitizer=no;tests=all;mode=instructor;no_gpu_allowed=0");
    e.profile = 1;
    engine_grading_key(&e);
    ck_assert_str_eq(e.conditions, "gpu=none;sanitizer=no;tests=all;mode=instructor;no_gpu_allowed=0;profile=yes");
    ck_assert_str_ne(e.grading_key, plain);
    e.profile = 0;
    snprintf(e.conf.ncu, sizeof e.conf.ncu, "/opt/other/ncu"); /* the profiler counts only for profiles */
    engine_grading_key(&e);
    ck_assert_str_eq(e.grading_key, plain);
}
END_TEST

START_TEST(profile_refused_before_grading)
{
    /* --profile with a rubric whose performance test profile.ini does not name: one line, status 2, nothing built */
    char dir[] = "/tmp/kit-profile-cli-XXXXXX", rubric[600], cmd[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(rubric, sizeof rubric, "%s/private.ini", dir);
    FILE *f = fopen(rubric, "w");
    fputs("[rubric]\nlab = lab05-convolution\n[test speed]\nkind = performance\npoints = 10\n"
          "case = variant=tiled type=float n=2^20 mask=5\nthreshold = 1.1\nmin_speedup = 0.9\n", f);
    fclose(f);
    const char *b = getenv("KIT_BUILD");
    snprintf(cmd, sizeof cmd, "KIT_NO_GPU=1 '%s/bin/kitgrade' check lab05 '%s/labs/lab05-convolution/solution' --rubric '%s' "
             "--profile 2>&1; echo \"rc=$?\"", b && *b ? b : "build", kit_test_root(), rubric);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char out[4096] = "";
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    pclose(p);
    char want[2048];
    snprintf(want, sizeof want, "labs/lab05-convolution/kit/profile.ini:1: test 'performance': not a performance test "
             "of %s (its performance tests: speed)\nrc=2\n", rubric);
    ck_assert_msg(strstr(out, want) != NULL, "got: %s", out);
    ck_assert_int_eq(kit_test_count(out, "\n"), 2);
    ck_assert_ptr_nonnull(strstr(out, "kitgrade: /"));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The profile step on the CPU: lab05's engine, no sandbox, and a stand-in
 * for ncu (a shell script) that checks the options the step relies on,
 * writes a report, and prints the written pages on --import.  mode: "ok",
 * "permission" (ERR_NVGPUCTRPERM), "crash" (status 3, no report). */
typedef struct {
    char dir[64];
    engine e;
    grading g;
    test_result tr;
    const rubric_test *t;
} step;

static void step_run(step *st, const char *mode, const char *perf_output)
{
    snprintf(st->dir, sizeof st->dir, "/tmp/kit-profile-step-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(st->dir));
    char path[600], err[1024];
    snprintf(path, sizeof path, "%s/ncu", st->dir);
    FILE *f = fopen(path, "w");
    fprintf(f,
            "#!/bin/sh\n"
            "# a stand-in for ncu (test_profile.c)\n"
            "case \" $* \" in\n"
            "*' --import '*)\n"
            "  case \" $* \" in\n"
            "  *' --page raw --print-units base '*) cat '%s/grader/tests/fixtures/ncu-raw-uncoalesced.csv' ;;\n"
            "  *' --page source --print-source cuda,sass '*) cat '%s/grader/tests/fixtures/ncu-source-uncoalesced.csv' ;;\n"
            "  *) echo \"==ERROR== stand-in: which page? $*\"; exit 9 ;;\n"
            "  esac ;;\n"
            "*)\n"
            "  for want in '--config-file off' --export --force-overwrite '--launch-count 4' '--clock-control none' \\\n"
            "      --metrics '--section SourceCounters' '--import-source yes' 'run --no-trace --params'; do\n"
            "    case \" $* \" in *\" $want \"*) ;; *) echo \"==ERROR== stand-in: no $want in: $*\"; exit 9 ;; esac\n"
            "  done\n"
            "  case \" $* \" in *gpu__time_duration.sum*dram__bytes.sum*) ;; *) echo \"==ERROR== stand-in: metrics $*\"; exit 9 ;; esac\n"
            "  out=; prev=; for a in \"$@\"; do [ \"$prev\" = --export ] && out=$a; prev=$a; done\n"
            "  echo '==PROF== Connected to process 7 (runner)'\n"
            "  case %s in\n"
            "  permission) echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
            "Performance Counters on the target device 0.'; exit 1 ;;\n"
            "  crash) echo '==ERROR== stand-in crash'; exit 3 ;;\n"
            "  esac\n"
            "  echo report > \"$out.ncu-rep\" ;;\n"
            "esac\n",
            kit_test_root(), kit_test_root(), mode);
    fclose(f);
    chmod(path, 0755);
    ck_assert_msg(engine_init(&st->e, "lab05", "test_profile", NULL, err, sizeof err) == 0, "%s", err);
    memset(&st->e.sb, 0, sizeof st->e.sb); /* the stand-in lives in /tmp: no sandbox */
    st->e.sb.uid_fd = -1;
    st->e.gpu = 1, st->e.profile = 1, st->e.keep_work = 1, st->e.seed = 0x5eed;
    snprintf(st->e.gpu_uuid, sizeof st->e.gpu_uuid, "GPU-stand-in-test_profile"); /* one lock file, reused */
    snprintf(st->e.conf.ncu, sizeof st->e.conf.ncu, "%s", path);
    memset(&st->g, 0, sizeof st->g);
    st->g.e = &st->e;
    workdirs *w = &st->g.w;
    snprintf(w->root, sizeof w->root, "%s/work", st->dir);
    snprintf(w->run, sizeof w->run, "%s/run", w->root);
    snprintf(w->bin, sizeof w->bin, "%s/bin", w->root);
    snprintf(w->src, sizeof w->src, "%s/src", w->root);
    snprintf(w->runner, sizeof w->runner, "%s/runner", w->bin);
    ck_assert_int_eq(mkdirs(w->run, 0755), 0);
    memset(&st->tr, 0, sizeof st->tr);
    sb_init(&st->tr.output);
    snprintf(st->tr.name, sizeof st->tr.name, "performance");
    st->tr.status = ST_FAIL;
    sb_add(&st->tr.output, perf_output);
    st->t = rubric_find(&st->e.rub, "performance");
    ck_assert_ptr_nonnull(st->t);
    profile_test(&st->g, st->t, &st->tr);
}

static void step_free(step *st)
{
    sb_free(&st->tr.output);
    engine_free(&st->e);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", st->dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char timed_output[] = "case variant=tiled type=float n=2^24 mask=21: yours 0.474 ms, baseline 0.498 ms: "
                                   "speedup 1.05x\nspeedup 1.05x: full points from 1.15x, none at or below 0.90x\n";

START_TEST(step_lines_and_figures)
{
    step st;
    step_run(&st, "ok", timed_output);
    const char *o = sb_str(&st.tr.output);
    ck_assert_msg(strstr(o, "profile (Nsight Compute; never graded) of case variant=tiled type=float n=2^24 mask=21, "),
                  "%s", o);
    ck_assert_ptr_nonnull(strstr(o, "\n  kernels: conv1d_tiled 0.412 ms\n"));
    ck_assert_ptr_nonnull(strstr(o, "\n  global loads: 8.0 sectors per request at conv1d.cu:42 (ideal 4): neighbouring "
                                    "threads read far-apart addresses (uncoalesced)\n"));
    ck_assert_ptr_nonnull(strstr(o, "\n  DRAM 326 GB/s = 10% of this GPU's peak 3,352 GB/s\n"));
    ck_assert_ptr_nonnull(strstr(o, "/work/profile.ncu-rep; open it with ncu-ui)\n"));
    ck_assert_int_eq(st.tr.status, ST_FAIL); /* never the grade */
    int dram = 0, seconds = 0;
    for (int i = 0; i < st.tr.n_figures; i++)
        dram |= !strcmp(st.tr.figures[i].name, "dram_gbs"), seconds |= !strcmp(st.tr.figures[i].name, "profile_seconds");
    ck_assert(dram && seconds);
    struct stat sst;
    ck_assert_int_eq(stat(st.g.w.run, &sst), 0); /* the run folder emptied, the report kept beside it */
    char rep[2200];
    snprintf(rep, sizeof rep, "%s/profile.ncu-rep", st.g.w.root);
    ck_assert_int_eq(access(rep, R_OK), 0);
    step_free(&st);
}
END_TEST

START_TEST(step_one_line_when_it_cannot_run)
{
    static const struct {
        const char *mode, *perf, *want;
    } cases[] = {
        {"permission", timed_output,
         "profile (Nsight Compute; never graded): not run: this GPU's performance counters are open to administrators "
         "only (ERR_NVGPUCTRPERM); an administrator opens them with the driver option "
         "NVreg_RestrictProfilingToAdminUsers=0 (docs/grading.md, \"Profiles\")\n"},
        {"crash", timed_output,
         "profile (Nsight Compute; never graded): not finished: the profiled run exited with status 3: stand-in crash\n"},
        {"ok", "case variant=tiled: no performance credit (a timing run must compute right results...):\n",
         "profile (Nsight Compute; never graded): not run: the performance test timed no run of your code (above); a "
         "profile explains speed, not a failure\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        step st;
        step_run(&st, cases[i].mode, cases[i].perf);
        const char *o = sb_str(&st.tr.output) + strlen(cases[i].perf);
        ck_assert_str_eq(o, cases[i].want);
        ck_assert_int_eq(st.tr.n_figures, 0);
        step_free(&st);
    }
}
END_TEST

static Suite *profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("checks");
    tcase_add_test(tc, uncoalesced_named_at_its_line);
    tcase_add_test(tc, coalesced_reference);
    tcase_add_test(tc, without_source_lines);
    tcase_add_test(tc, vector_and_misaligned_loads);
    tcase_add_test(tc, bank_conflicts_named);
    tcase_add_test(tc, no_kernel_of_the_student);
    tcase_add_test(tc, occupancy_limits);
    tcase_add_test(tc, atomics_reuse_flops);
    tcase_add_test(tc, catalogue);
    suite_add_tcase(s, tc);
    tc = tcase_create("profile.ini");
    tcase_add_test(tc, ini_good);
    tcase_add_test(tc, ini_bad);
    tcase_add_test(tc, labs_declare_few_checks);
    tcase_add_test(tc, profile_refused_before_grading);
    suite_add_tcase(s, tc);
    tc = tcase_create("step");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, step_lines_and_figures);
    tcase_add_test(tc, step_one_line_when_it_cannot_run);
    suite_add_tcase(s, tc);
    tc = tcase_create("results");
    tcase_add_test(tc, figures_in_results_and_class_report);
    tcase_add_test(tc, grading_key_says_profile);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(profile_suite)
