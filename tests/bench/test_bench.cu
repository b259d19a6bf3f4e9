/* test_bench.cu - make bench's program on the CPU (no GPU, no CUDA call
 * made): common/src/bench_main.cu included, with the runner's case
 * (kit_run_case, bench mode) and the checker's held case (kit_check_held)
 * replaced by fakes that record what each implementation's run would.
 * What it holds: a case's rows in the table's order, each the bench mode
 * of its implementation on the case's parameters (a more row's own after
 * them); the baseline's row the median of its times against the right
 * rows; the rate the lab's first metric of its call in GB/s, else in
 * GFLOP/s, as the runner recorded it (the function's name in its label),
 * else GB/s of the bytes the timed calls must move; "x library" the library
 * peer's ms over the row's, "x copy" a copy of the timed calls' bytes (at
 * the plausibility check's GB/s) over the row's, and no copy roof row where
 * the rate is GFLOP/s and a library peer is the yardstick; a row the
 * checker refuses (its summary) and a run that failed are WRONG, neither
 * timed nor counted in the baseline's median; the rows on the same
 * parameters share one case of the checker, opened once and closed after
 * the table; a library that sits the case out has no row and the title
 * says why; a roof library's output is not checked, its timed calls may
 * launch no kernel (no other row's may), and its table has no rate and no
 * copy roof row; what a run prints on stdout (the runner's
 * end-of-call marks) stays out of the table.
 *
 * Not a Check program (nvcc builds it, for bench.cu is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#define BENCH_LAB "labT"
#define main bench_main /* bench.cu's own; the test drives run_case */
#include "../../common/src/bench_main.cu"
#undef main
#include "plain_catch.h"
#include "plain_check.h"

/* ---- the fakes: each implementation's run, by its lab's tag ---- */
typedef struct {
    const char *tag;
    double ms, baseline_ms;
    int wrong, fails; /* the checker refuses its outputs; its run fails */
} fake_run;
static fake_run fakes[4];
static double units, timed_bytes, copy_gbs; /* units: a call's work, in its rate's unit times ms */
static int opened, closed, checked, runs;
static char seen[512]; /* "tag:params;" per run */
static char no_kernel[64]; /* "tag;" per run timed though it launches no kernel */
static int no_kernel_now;
void kit_time_allow_no_kernel(int allow) { no_kernel_now = allow; }

/* The runner's bench mode on one case: its record, each metric of the lab
 * under the runner's own key at the run's time (the baseline's at the
 * baseline's); a run that fails leaves none. */
int kit_run_case(const kit_lab *lab, kit_run_mode mode, const char *words, uint64_t seed, uint64_t nonce,
                 const char *out_path, int, int, const kit_decided *)
{
    const fake_run *f = fakes;
    while (strcmp(f->tag, lab->tag))
        f++;
    char text[128], key[128], err[128];
    kit_params p;
    CHECK(mode == KIT_MODE_BENCH && seed == BENCH_SEED && kit_params_parse(words, &p, err, sizeof err) == 0,
          "a row's run: mode %d, seed %llx, words '%s'", (int)mode, (unsigned long long)seed, words);
    kit_params_format(&p, text, sizeof text);
    snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s:%s;", f->tag, text);
    if (no_kernel_now)
        snprintf(no_kernel + strlen(no_kernel), sizeof no_kernel - strlen(no_kernel), "%s;", f->tag);
    runs++;
    printf("\n%s\n", KIT_STDOUT_MARK);
    if (f->fails)
        return KIT_EXIT_HARNESS;
    double wrong = f->wrong;
    kit_writer *w = kit_writer_open(out_path, nonce);
    kit_writer_put(w, KIT_KEY_STUDENT_MS, KIT_T_F64, &f->ms, 1);
    kit_writer_put(w, KIT_KEY_BASELINE_MS, KIT_T_F64, &f->baseline_ms, 1);
    kit_writer_put(w, KIT_KEY_TIMED_BYTES, KIT_T_F64, &timed_bytes, 1);
    kit_writer_put(w, KIT_KEY_DEVICE_COPY_GBS, KIT_T_F64, &copy_gbs, 1);
    kit_writer_put(w, "fake.wrong", KIT_T_F64, &wrong, 1);
    for (int i = 0; i < KIT_LAB_MAX_METRICS && lab->metrics[i].label; i++) {
        double v = units / (lab->metrics[i].baseline ? f->baseline_ms : f->ms);
        kit_lab_metric_key(lab->metrics[i].label, "fake_call", key, sizeof key);
        kit_writer_put(w, key, KIT_T_F64, &v, 1);
    }
    return kit_writer_close(w) == 0 ? KIT_EXIT_OK : KIT_EXIT_HARNESS;
}

extern "C" const kit_check KIT_CHECK = {};
int lab_params_validate(const kit_params *, char *, size_t) { return 0; }

/* The checker on the case held open: opened at the first run of its parameters. */
int kit_check_held(kit_check_ctx *ctx, const kit_check *, kit_check_case **held)
{
    if (!*held)
        opened++, *held = (kit_check_case *)malloc(1);
    checked++;
    if (!kit_blob_f64(ctx->out, "fake.wrong"))
        return 0;
    snprintf(ctx->summary, sizeof ctx->summary, "out[3] = 2, expected 1");
    return ctx->failed = 1;
}

void kit_check_case_close(kit_check_case *c)
{
    closed += c != NULL;
    free(c);
}

/* ---- the cases ---- */
static kit_lab fake_labs[3] = {{"lib"}, {"student"}, {"ref"}}; /* one harness: the same metrics in each */

static void set(int i, const char *tag, double ms, double baseline_ms, int wrong, int fails)
{
    fakes[i] = fake_run{tag, ms, baseline_ms, wrong, fails};
}

/* The lab's metrics: labels, each with its baseline flag (NULL: none after). */
static void metrics(const char *l0, int b0, const char *l1, int b1, const char *l2 = NULL, int b2 = 0)
{
    for (kit_lab &lab : fake_labs) {
        memset(lab.metrics, 0, sizeof lab.metrics);
        lab.metrics[0].label = l0, lab.metrics[0].baseline = b0;
        lab.metrics[1].label = l1, lab.metrics[1].baseline = b1;
        lab.metrics[2].label = l2, lab.metrics[2].baseline = b2;
    }
}

/* The table of case 0 of b on the library's, the student's and the
 * reference's rows (a more row of the reference's when b has one), in text. */
static void table(const kit_bench *b, char *text, size_t len)
{
    row rows[BENCH_ROWS] = {};
    int n = 0;
    const int order[] = {BENCH_LIBRARY, BENCH_STUDENT, BENCH_REFERENCE};
    for (int i = 0; i < 3; i++) { /* as main makes them (the cases' labs are fakes, not loaded) */
        rows[n++] = row{order[i], i ? b->calls : b->library, "", &fake_labs[i]};
        for (int j = 0; j < KIT_BENCH_MAX_MORE; j++)
            if (b->more[j].params && b->more[j].who == order[i])
                rows[n++] = row{order[i], b->more[j].name, b->more[j].params, &fake_labs[i]};
    }
    opened = closed = checked = runs = g_wrong = 0;
    seen[0] = no_kernel[0] = 0;
    int saved;
    FILE *f = plain_catch(1, &saved);
    run_case(b, 0, rows, n);
    plain_caught(f, 1, saved, text, len);
}

/* A line of the table as print_row writes it. */
static const char *line(const char *name, double ms, const char *rate, const char *lib, const char *cp)
{
    static char l[200];
    snprintf(l, sizeof l, "  %-44s %10.4f %10s %9s %7s\n", name, ms, rate, lib, cp);
    return l;
}

static const char *sits_out(const kit_params *) { return "no lib row: its A would not fit"; }

int main(void)
{
    char t[4096];
    /* GB/s: 2 GB a call (2000 GB/s at 1 ms), the timed calls' bytes too; the copy at 2000 GB/s takes 1 ms */
    units = 2000, timed_bytes = 2e9, copy_gbs = 2000;
    metrics("the call (GB/s)", 0, "the baseline (GB/s)", 1);
    set(0, "lib", 1, 4, 0, 0), set(1, "student", 2, 4.2, 0, 0), set(2, "ref", 0.5, 3.9, 0, 0);
    const kit_bench gbs = {"thing", "libcall", "", NULL, "baseline (kit_x)", {"n=4"}};
    table(&gbs, t, sizeof t);
    CHECK(!strcmp(t, "\nlabT: thing, n=4\n"
                     "                                                       ms       GB/s x library  x copy\n"
                     "  libcall                                          1.0000       2000      1.00    1.00\n"
                     "  student                                          2.0000       1000      0.50    0.50\n"
                     "  reference                                        0.5000       4000      2.00    2.00\n"
                     "  baseline (kit_x)                                 4.0000        500      0.25    0.25\n"
                     "  copy roof (cudaMemcpy D2D, same bytes)           1.0000       2000      1.00       -\n"),
          "the table:\n%s", t);
    CHECK(runs == 3 && opened == 1 && checked == 3 && closed == 1 && !g_wrong,
          "runs %d, checker cases opened %d, checks %d, closed %d, wrong %d", runs, opened, checked, closed, g_wrong);
    CHECK(!strcmp(seen, "lib:n=4;student:n=4;ref:n=4;"), "the runs: %s", seen);

    /* a wrong row and a failed run: WRONG, and out of the baseline's median */
    set(1, "student", 2, 100, 1, 0), set(2, "ref", 0.5, 3.9, 0, 1);
    table(&gbs, t, sizeof t);
    CHECK(strstr(t, "  student                                      WRONG: out[3] = 2, expected 1 (not timed)\n") &&
              strstr(t, "  reference                                    WRONG: its run failed (the error above) (not timed)\n"),
          "wrong rows:\n%s", t);
    CHECK(strstr(t, line("baseline (kit_x)", 4, "500", "0.25", "0.25")) && g_wrong, "the baseline of the right rows:\n%s", t);

    /* GFLOP/s (the function's name in the label, recorded after a
     * baseline's of the same ending: lab05) with a library peer, the
     * baseline's GB/s not the call's: no copy roof row; a more row on its
     * own parameters, its own checker case */
    units = 4000, timed_bytes = 4e9;
    metrics("the baseline (GB/s)", 1, "global baseline (GFLOP/s)", 1, "%s (GFLOP/s)", 0);
    set(1, "student", 2, 4.2, 0, 0), set(2, "ref", 0.5, 3.9, 0, 0);
    const kit_bench flops = {"thing", "libcall", "tiled", NULL, "baseline (kit_x)", {"n=4"},
                             {{BENCH_REFERENCE, "halo", "variant=h"}}};
    table(&flops, t, sizeof t);
    CHECK(strstr(t, "ms    GFLOP/s x library  x copy\n") && strstr(t, line("student tiled", 2, "2000", "0.50", "-")) &&
              strstr(t, line("reference halo", 0.5, "8000", "2.00", "-")) && !strstr(t, "copy roof"),
          "GFLOP/s:\n%s", t);
    CHECK(!strcmp(seen, "lib:n=4;student:n=4;ref:n=4;ref:n=4 variant=h;") && opened == 2 && closed == 2 && checked == 4,
          "the more row: %s, checker cases opened %d, closed %d, checks %d", seen, opened, closed, checked);

    /* two more rows on the same parameters (lab07's basic merges): one case of the checker for both */
    const kit_bench same = {"thing", "libcall", "tiled", NULL, "baseline (kit_x)", {"n=4"},
                            {{BENCH_LIBRARY, "libbasic", "impl=b"}, {BENCH_REFERENCE, "basic", "impl=b"}}};
    table(&same, t, sizeof t);
    CHECK(!strcmp(seen, "lib:n=4;lib:n=4 impl=b;student:n=4;ref:n=4;ref:n=4 impl=b;") && opened == 2 && closed == 2 &&
              checked == 5 && strstr(t, "  libbasic ") && strstr(t, "  reference basic "),
          "the same more parameters: %s, checker cases opened %d, closed %d, checks %d\n%s", seen, opened, closed,
          checked, t);

    /* a call rated in GFLOP/s and GB/s (lab08): GB/s first, with the copy roof */
    metrics("%s (GFLOP/s)", 0, "bandwidth (GB/s)", 0);
    table(&flops, t, sizeof t);
    CHECK(strstr(t, "ms       GB/s x library  x copy\n") && strstr(t, line("student tiled", 2, "2000", "0.50", "1.00")) &&
              strstr(t, line("copy roof (cudaMemcpy D2D, same bytes)", 2, "2000", "0.50", "-")),
          "GB/s before GFLOP/s:\n%s", t);

    /* GFLOP/s, no library peer: the copy of the timed calls' bytes (1 GB) is the yardstick, without a rate */
    timed_bytes = 1e9;
    metrics("%s (GFLOP/s)", 0, NULL, 0);
    const kit_bench none = {"thing", NULL, "", NULL, "baseline (kit_x)", {"n=4"}};
    table(&none, t, sizeof t);
    CHECK(strstr(t, "labT: thing, n=4; no library peer: x copy is the yardstick\n") && !strstr(t, "  lib") &&
              strstr(t, line("student", 2, "2000", "-", "0.25")) &&
              strstr(t, line("copy roof (cudaMemcpy D2D, same bytes)", 0.5, "-", "-", "-")) && runs == 2,
          "no library peer (%d runs):\n%s", runs, t);

    /* no rate in GB/s or GFLOP/s (lab04's elements/s): GB/s of the timed calls' bytes; a library that sits out */
    metrics("elements (10^9/s)", 0, NULL, 0);
    kit_bench out = gbs;
    out.new_case = sits_out;
    table(&out, t, sizeof t);
    CHECK(strstr(t, "labT: thing, n=4; no lib row: its A would not fit\n") && !strstr(t, "libcall") && runs == 2 &&
              strstr(t, line("student", 2, "500", "-", "0.25")),
          "sitting out, GB/s of the timed bytes (%d runs):\n%s", runs, t);

    /* a roof: its output not checked, no rate, no copy roof row */
    kit_bench roof = gbs;
    roof.roof = 1;
    set(0, "lib", 1, 4, 1, 0);
    table(&roof, t, sizeof t);
    CHECK(strstr(t, line("libcall", 1, "-", "1.00", "-")) && strstr(t, line("student", 2, "-", "0.50", "-")) &&
              !strstr(t, "copy roof") && checked == 2 && !g_wrong,
          "a roof (%d checks):\n%s", checked, t);
    CHECK(!strcmp(no_kernel, "lib;"), "timed though no kernel: '%s', expected the roof's alone ('lib;')", no_kernel);
    CHECK(!strstr(t, KIT_STDOUT_MARK), "a run's stdout in the table:\n%s", t);
    table(&gbs, t, sizeof t);
    CHECK(!no_kernel[0], "timed though no kernel without a roof: '%s', expected none", no_kernel);
    return plain_check_summary();
}
