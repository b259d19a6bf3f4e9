/* bench.cu - main() of a lab's bench (bench.cuh says what it prints): each
 * row is the runner's bench mode on one implementation, judged by the lab's
 * checker.  BENCH_LAB: the lab's name (mk/bench.mk compiles this file once
 * per lab). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.cuh"
#include "kit/check_driver.h"
#include "kit/lab_decl.cuh"
#include "kit/no_gpu.cuh"
#include "kit/util.h"

#define BENCH_SEED 0xbe9c4ULL /* the same inputs every run */
#define BENCH_NONCE 1
#define BENCH_ROWS (4 * (1 + KIT_BENCH_MAX_MORE))
#define C_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

static const char *g_so[4], *g_names[] = {"student", "reference", "stretch reference", "library peer"};
static void *g_handle[4];
static int g_said[4], g_missing, g_wrong, g_symbols_only, g_student_failed;
static char **g_argv;

/* One implementation on a case (a KIT_BENCH.more row: one more, on its
 * own parameters after the case's) and what its run recorded. */
typedef struct {
    int who;
    const char *name, *more;
    const kit_lab *lab;
    double ms, baseline_ms, rate, bytes, copy_gbs; /* rate: in the case's unit (rate_label) */
    const char *wrong; /* the checker's summary, or why it did not run; NULL: right */
} row;

/* The student's run ended the program, or left a CUDA error that every later
 * call would meet (a kernel fault): the program runs again without it. */
static int g_in_student, g_out = -1; /* g_out: the table's stdout while a row's run writes to /dev/null */
static void again_without_student(void)
{
    fflush(stdout);
    if (g_out >= 0)
        dup2(g_out, 1);
    if (!g_in_student || g_student_failed)
        return;
    fprintf(stderr, "bench %s: the student's code ended the program (the error above); running again without it\n",
            BENCH_LAB);
    int argc = 0;
    while (g_argv[argc])
        argc++;
    char **args = (char **)calloc(argc + 2, sizeof *args);
    memcpy(args, g_argv, argc * sizeof *args);
    args[argc] = (char *)"--student-failed";
    execv("/proc/self/exe", args);
    _exit(1);
}

void bench_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fflush(stdout);
    fprintf(stderr, "bench %s: %s:%d: %s: %s (%s)\n", BENCH_LAB, file, line, what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    exit(1);
}

static void start(int argc, char **argv)
{
    const char *opt[] = {"--student", "--reference", "--stretch", "--library"};
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_argv = argv;
    atexit(again_without_student);
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (k < 4 && strcmp(argv[i], opt[k]))
            k++;
        if (!strcmp(argv[i], "--symbols"))
            g_symbols_only = 1;
        else if (!strcmp(argv[i], "--student-failed"))
            g_student_failed = 1;
        else if (k < 4 && i + 1 < argc)
            g_so[k] = argv[++i];
        else {
            fprintf(stderr, "usage: %s --student SO [--reference SO] [--stretch SO] [--library SO] [--symbols]\n"
                            "(make bench LAB=labNN builds the shared objects and runs this)\n", argv[0]);
            exit(2);
        }
    }
}

/* Implementation who's shared object, loaded at the first ask; NULL when
 * it is not there or does not load, said once. */
static void *loaded(int who)
{
    if (g_said[who]++)
        return g_handle[who];
    if (who == BENCH_STUDENT && g_student_failed) {
        printf("   student: left out - its code ended the first run with the CUDA error shown above (make %.5s says more)\n",
               BENCH_LAB);
        g_wrong = 1;
    } else if (!g_so[who] || access(g_so[who], R_OK) != 0) {
        if (who != BENCH_STRETCH) /* a lab without a stretch exercise: nothing to say */
            printf("   %s: not in this copy of the kit (%s): skipped\n", g_names[who],
                   who == BENCH_REFERENCE ? "a student copy has no labs/<lab>/solution/"
                   : who == BENCH_STUDENT   ? "no --student" : "no --library");
    } else if (!(g_handle[who] = dlopen(g_so[who], RTLD_NOW | RTLD_LOCAL))) {
        /* a function its code calls is missing: the student's file defines no dot_shared */
        printf("   %s: cannot be loaded: %s: skipped\n", g_names[who], dlerror());
        g_missing = 1;
    }
    return g_handle[who];
}

void *bench_fn(int who, const char *name)
{
    void *h = loaded(who), *f = h ? dlsym(h, name) : NULL;
    if (h && !f) {
        printf("   %s: %s defines no %s: skipped\n", g_names[who], g_so[who], name);
        g_missing = 1;
    }
    return f;
}

/* With --symbols: exit 0 when every function was found, else 1; with no
 * GPU: the kit's one line and its status; else a line naming the GPU. */
static void need_gpu(void)
{
    if (g_symbols_only) {
        printf("bench %s: %s\n", BENCH_LAB, g_missing ? "a function was not found" : "every function found");
        exit(g_missing ? 1 : 0);
    }
    kit_need_gpu("bench " BENCH_LAB, "nothing measured");
    cudaDeviceProp p;
    int rt = 0, drv = 0;
    BENCH_CUDA(cudaGetDeviceProperties(&p, 0));
    cudaRuntimeGetVersion(&rt), cudaDriverGetVersion(&drv);
    printf("== bench %s on %s (sm_%d%d, CUDA runtime %d.%d, driver %d.%d): each row timed as the grader times a "
           "student's code (against the baseline, min of round medians)\n",
           BENCH_LAB, p.name, p.major, p.minor, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
}

/* The case's parameters, and a row's own after them. */
static int params_of(const char *params, const char *more, kit_params *p, char *err, size_t len)
{
    char text[512];
    snprintf(text, sizeof text, "%s %s", params, more ? more : "");
    return kit_params_parse(text, p, err, len);
}

/* The rate the lab reports for its call (not the baseline's): the label of
 * the first of its metrics in GB/s, else in GFLOP/s; NULL when it has none
 * (lab04's elements/s), and the rate is GB/s of the bytes the timed calls
 * must move. */
static const char *rate_label(const kit_lab *lab)
{
    for (int gflops = 0; gflops < 2; gflops++)
        for (int i = 0; i < 2 * KIT_LAB_MAX_METRICS; i++) {
            const kit_decl_metric *m =
                i < KIT_LAB_MAX_METRICS || !lab->decl ? NULL : &lab->decl->metrics[i % KIT_LAB_MAX_METRICS];
            const char *label = m ? m->label : i < KIT_LAB_MAX_METRICS ? lab->metrics[i].label : NULL;
            int baseline = m ? m->baseline : i < KIT_LAB_MAX_METRICS && lab->metrics[i].baseline;
            if (label && !baseline && strstr(label, gflops ? "GFLOP/s" : "GB/s"))
                return label;
        }
    return NULL;
}

/* The metric `label` in record b, as the runner recorded it ("metric." and
 * the label, its "%s" the timed function's name: a C identifier), or 0. */
static double metric_in(const kit_blobfile *b, const char *label)
{
    const char *fn = strstr(label, "%s");
    char key[256];
    kit_lab_metric_key(label, "", key, sizeof key); /* "%s" left empty */
    if (!fn)
        return kit_blob_f64(b, key);
    size_t before = strlen(KIT_KEY_METRIC_PREFIX) + (size_t)(fn - label), name;
    for (int i = 0; i < kit_blob_count(b); i++) {
        const char *n = kit_blob_name(b, i);
        if (!strncmp(n, key, before) && (name = strspn(n + before, C_NAME_CHARS)) > 0 &&
            !strcmp(n + before + name, key + before))
            return kit_blob_f64(b, n);
    }
    return 0;
}

/* Row r on the case: the runner's bench mode into a record (its stdout, the
 * student call's end marks, kept out of the table), then the checker on it
 * (*check: the checker's case of these parameters, opened by the first row). */
static void run_row(const char *params, row *r, kit_check_case **check, int checked)
{
    char path[] = "/tmp/kit-bench-XXXXXX", err[256] = "";
    kit_params p;
    kit_run_ctx ctx = {};
    ctx.params = &p, ctx.seed = BENCH_SEED, ctx.warmup = 3, ctx.reps = 15; /* the runner's defaults */
    int fd = mkstemp(path), quiet = open("/dev/null", O_WRONLY);
    if (fd < 0 || close(fd) != 0 || quiet < 0 || params_of(params, r->more, &p, err, sizeof err) != 0 ||
        !(ctx.out = kit_writer_open(path, BENCH_NONCE))) {
        fprintf(stderr, "bench %s: cannot record a run in %s %s\n", BENCH_LAB, path, err);
        exit(1);
    }
    fflush(stdout), g_out = dup(1), dup2(quiet, 1), close(quiet);
    g_in_student = r->who == BENCH_STUDENT;
    int rc = kit_lab_bench(&ctx, r->lab);
    if (rc == KIT_RC_STUDENT_CUDA && cudaDeviceSynchronize() != cudaSuccess)
        exit(1); /* the context keeps the error (a kernel fault): again_without_student */
    g_in_student = 0;
    fflush(stdout), dup2(g_out, 1), close(g_out), g_out = -1;
    rc |= kit_writer_close(ctx.out);
    kit_blobfile *b = rc == 0 ? kit_blob_load(path, BENCH_NONCE, 0, err, sizeof err) : NULL;
    unlink(path);
    kit_check_ctx cc = {};
    cc.params = &p, cc.seed = BENCH_SEED, cc.out = b, cc.stdout_text = "";
    if (!b)
        r->wrong = "its run failed (the error above)";
    else if (checked && !*check && !(*check = kit_check_case_open(&KIT_CHECK, &p, BENCH_SEED, err, sizeof err)))
        r->wrong = strdup(err);
    else if (checked && kit_check_case_run(&cc, *check))
        r->wrong = strdup(cc.summary);
    if (b && !r->wrong && (r->ms = kit_blob_f64(b, KIT_KEY_STUDENT_MS)) <= 0)
        r->wrong = "not timed (the error above)";
    g_wrong |= r->wrong != NULL;
    if (b) {
        const char *label = rate_label(r->lab);
        r->baseline_ms = kit_blob_f64(b, KIT_KEY_BASELINE_MS), r->copy_gbs = kit_blob_f64(b, KIT_KEY_DEVICE_COPY_GBS);
        r->bytes = kit_blob_f64(b, KIT_KEY_TIMED_BYTES);
        r->rate = label ? metric_in(b, label) : r->ms > 0 ? r->bytes / (r->ms * 1e6) : 0;
    }
    free(cc.details);
    kit_blob_free(b);
}

/* One line of the table: ms, the rate (units: the case's work, in the
 * rate's unit times ms), the library's time and the copy roof's as
 * fractions of this one. */
static void print_row(const char *name, double ms, const char *wrong, double units, double lib_ms, double copy_ms)
{
    char rate[32] = "-", lib[16] = "-", cp[16] = "-";
    if (wrong) {
        printf("  %-44s WRONG: %s (not timed)\n", name, wrong);
        return;
    }
    if (units > 0)
        snprintf(rate, sizeof rate, "%.0f", units / ms);
    if (lib_ms > 0)
        snprintf(lib, sizeof lib, "%.2f", lib_ms / ms);
    if (copy_ms > 0)
        snprintf(cp, sizeof cp, "%.2f", copy_ms / ms);
    printf("  %-44s %10.4f %10s %9s %7s\n", name, ms, rate, lib, cp);
}

/* Case `index` of b: the rows (the library peer's where it takes the case),
 * the baseline's, the copy roof's; the table; the stretch's note. */
static void run_case(const kit_bench *b, int index, row *rows, int n)
{
    const char *params = b->cases[index], *skip = NULL;
    kit_check_case *checks[BENCH_ROWS] = {}; /* [i]: row i's parameters, shared by the rows after it with them */
    kit_params p;
    char err[256];
    if (kit_params_parse(params, &p, err, sizeof err) == 0 && b->new_case)
        skip = b->new_case(&p);
    double base[BENCH_ROWS], lib_ms = 0;
    const row *first = NULL;
    int timed = 0;
    for (int i = 0; i < n; i++) {
        row *r = &rows[i];
        int j = 0;
        while (j < i && (r->more ? !rows[j].more || strcmp(rows[j].more, r->more) : rows[j].more != NULL))
            j++;
        r->wrong = NULL, r->ms = -1;
        if (r->lab && !(r->who == BENCH_LIBRARY && (!r->name || skip)))
            run_row(params, r, &checks[j], !(b->roof && r->who == BENCH_LIBRARY));
        if (r->ms > 0 && !r->wrong)
            base[timed++] = r->baseline_ms, first = first ? first : r;
        if (r->who == BENCH_LIBRARY && !r->more && r->ms > 0 && !r->wrong)
            lib_ms = r->ms;
    }
    /* the copy roof: a copy of the bytes the rate counts (GB/s), else (GFLOP/s
     * and no library peer: lab05) of those the timed calls must move */
    const char *label = first && !b->roof ? rate_label(first->lab) : NULL;
    int gflops = label && strstr(label, "GB/s") == NULL;
    double units = first && !b->roof ? first->rate * first->ms : 0, copy_ms = 0;
    if (units > 0 && first->copy_gbs > 0 && (!gflops || !b->library))
        copy_ms = (gflops ? first->bytes / 1e6 : units) / first->copy_gbs;
    printf("\n%s: %s, %s%s%s\n", BENCH_LAB, b->what, params, skip || !b->library ? "; " : "",
           skip ? skip : b->library ? "" : "no library peer: x copy is the yardstick");
    printf("  %-44s %10s %10s %9s %7s\n", "", "ms", gflops ? "GFLOP/s" : "GB/s", "x library", "x copy");
    for (int i = 0; i < n; i++) {
        char name[160];
        const char *own = rows[i].name ? rows[i].name : "";
        snprintf(name, sizeof name, "%s%s%s", rows[i].who == BENCH_LIBRARY ? "" : g_names[rows[i].who],
                 rows[i].who == BENCH_LIBRARY || !*own ? "" : " ", own);
        if (rows[i].ms != -1 || rows[i].wrong)
            print_row(name, rows[i].ms, rows[i].wrong, units, lib_ms, copy_ms);
    }
    if (timed)
        print_row(b->baseline, kit_median(base, timed), NULL, units, lib_ms, copy_ms);
    if (copy_ms > 0) /* a copy does no flops */
        print_row("copy roof (cudaMemcpy D2D, same bytes)", copy_ms, NULL, gflops ? 0 : units, lib_ms, 0);
    if (b->stretch_note && g_handle[BENCH_STRETCH])
        b->stretch_note(&p, BENCH_SEED);
    for (int i = 0; i < n; i++)
        kit_check_case_close(checks[i]);
}

/* Every case, with each more row's parameters, is one the lab takes (its
 * own rules, no data made): else one line and status 1, GPU or not (the
 * --symbols check in CI sees it). */
static void cases_valid(const kit_bench *b)
{
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++)
        for (int j = -1; j < KIT_BENCH_MAX_MORE; j++) {
            const char *more = j < 0 ? NULL : b->more[j].params;
            kit_params p;
            char err[256];
            if (j >= 0 && !more)
                continue;
            if (params_of(b->cases[i], more, &p, err, sizeof err) != 0 || lab_params_validate(&p, err, sizeof err) != 0) {
                printf("bench %s: its case \"%s%s%s\" is not one the lab takes: %s\n", BENCH_LAB, b->cases[i],
                       more ? " " : "", more ? more : "", err);
                exit(1);
            }
        }
}

int main(int argc, char **argv)
{
    start(argc, argv);
    const kit_bench *b = (const kit_bench *)bench_fn(BENCH_LIBRARY, "KIT_BENCH");
    const int order[] = {BENCH_LIBRARY, BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH};
    row rows[BENCH_ROWS] = {};
    int n = 0;
    for (int who : order) { /* the table's order, each implementation followed by its more rows */
        const kit_lab *lab = (const kit_lab *)bench_fn(who, "KIT_LAB");
        rows[n].who = who, rows[n].lab = lab;
        rows[n++].name = !b ? NULL : who == BENCH_LIBRARY ? b->library : who == BENCH_STRETCH ? b->stretch : b->calls;
        for (int j = 0; b && j < KIT_BENCH_MAX_MORE; j++)
            if (b->more[j].params && b->more[j].who == who)
                rows[n].who = who, rows[n].lab = lab, rows[n].name = b->more[j].name, rows[n++].more = b->more[j].params;
    }
    if (b)
        cases_valid(b);
    need_gpu(); /* --symbols ends here */
    if (!b || !rows[0].lab) {
        fprintf(stderr, "bench %s: the library peer did not load (above): nothing measured\n", BENCH_LAB);
        return 1;
    }
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++)
        run_case(b, i, rows, n);
    if (g_wrong)
        printf("bench %s: a result above was WRONG (not timed)\n", BENCH_LAB);
    return g_wrong ? 1 : 0;
}
