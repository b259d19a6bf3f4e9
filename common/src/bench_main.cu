/* bench_main.cu - main() of `make bench` for every lab (docs/anatomy.md, "The bench"):
 * each row is the runner's bench mode on one implementation (kit_run_case) judged by
 * the lab's checker (kit_check_held).  BENCH_LAB: the lab's name (mk/bench.mk). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/bench.cuh"
#include "kit/check_driver.h"
#include "kit/no_gpu.cuh"
#include "kit/util.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS /* the rows, as KIT_BENCH, leave out what they do not set */

#define BENCH_SEED 0xbe9c4ULL /* the same inputs every run */
#define BENCH_NONCE 1 /* a record of this run (kit_blob_load checks it) */
#define BENCH_ROWS (4 * (1 + KIT_BENCH_MAX_MORE))
#define LEFT_OUT "KIT_BENCH_STUDENT_LEFT_OUT" /* set when the program runs again without the student */

static const char *g_so[4], *g_names[] = {"student", "reference", "stretch reference", "library peer"};
static void *g_handle[4];
static int g_said[4], g_missing, g_wrong, g_in_student, g_out = -1; /* g_out: the table's stdout during a run */
static char **g_argv;

typedef struct { /* one implementation on a case, and what its run recorded */
    int who;
    const char *name, *more;  /* more: the row's own parameters, after the case's ("": none) */
    const kit_lab *lab;
    kit_plausible_in t;       /* its time, the timed calls' bytes, the GB/s of their copy */
    double baseline_ms, rate; /* rate: the lab's rate of its call (kit_lab_rate_label), else GB/s */
    const char *wrong;        /* the checker's summary, or why it did not run; NULL: right */
} row;

/* The student's run ended the program (its CUDA_CHECK exits) or left an
 * error the context keeps (a kernel fault): the program runs again without it. */
static void again_without_student(void)
{
    fflush(stdout);
    if (g_out >= 0)
        dup2(g_out, 1);
    if (!g_in_student || getenv(LEFT_OUT))
        return;
    fprintf(stderr, "bench %s: the student's code ended the program (the error above); running again without it\n",
            BENCH_LAB);
    setenv(LEFT_OUT, "1", 1);
    execv("/proc/self/exe", g_argv);
    _exit(1);
}

void *bench_fn(int who, const char *name)
{
    const char *absent[] = {"no --student", "a student copy has no labs/<lab>/solution/", "", "no --library"};
    int first = !g_said[who]++;
    void *f = NULL;
    if (first && who == BENCH_STUDENT && getenv(LEFT_OUT)) {
        printf("   student: left out - its code ended the first run with the CUDA error shown above (make %.5s says more)\n",
               BENCH_LAB);
        g_wrong = 1;
    } else if (first && (!g_so[who] || access(g_so[who], R_OK) != 0)) {
        if (who != BENCH_STRETCH) /* a lab without a stretch exercise: nothing to say */
            printf("   %s: not in this copy of the kit (%s): skipped\n", g_names[who], absent[who]);
    } else if (first && !(g_handle[who] = dlopen(g_so[who], RTLD_NOW | RTLD_LOCAL))) {
        printf("   %s: cannot be loaded: %s: skipped\n", g_names[who], dlerror());
        g_missing = 1; /* its code calls a function it lacks: a student's file without dot_shared */
    } else if (g_handle[who] && !(f = dlsym(g_handle[who], name))) {
        printf("   %s: %s defines no %s: skipped\n", g_names[who], g_so[who], name);
        g_missing = 1;
    }
    return f;
}

/* words: a case's parameters, then a row's own (a later key wins); 0 when the lab takes them. */
static int params_of(const char *params, const char *more, char *words, kit_params *p, char *err)
{
    snprintf(words, 512, "%s%s%s", params, *more ? " " : "", more);
    return kit_params_parse(words, p, err, 256) != 0 || lab_params_validate(p, err, 256) != 0 ? -1 : 0;
}

/* Row r on the case: the runner's bench mode into a record, its stdout kept out
 * of the table, judged by the checker on *held (the checker's case its
 * parameters' first row opened) unless held is NULL. */
static void run_row(const char *params, row *r, kit_check_case **held)
{
    char path[] = "/tmp/kit-bench-XXXXXX", words[512], err[256] = "";
    kit_params p;
    int fd = mkstemp(path), quiet = open("/dev/null", O_WRONLY);
    if (fd < 0 || close(fd) != 0 || quiet < 0 || params_of(params, r->more, words, &p, err) != 0) {
        fprintf(stderr, "bench %s: cannot run \"%s\" into %s %s\n", BENCH_LAB, words, path, err);
        exit(1);
    }
    fflush(stdout), g_out = dup(1), dup2(quiet, 1), close(quiet);
    g_in_student = r->who == BENCH_STUDENT;
    kit_time_allow_no_kernel(!held); /* not checked: a roof, copies alone */
    int rc =
        kit_run_case(r->lab, KIT_MODE_BENCH, words, BENCH_SEED, BENCH_NONCE, path, KIT_RUN_WARMUP, KIT_RUN_REPS, NULL);
    if (rc == KIT_EXIT_STUDENT_CUDA && cudaDeviceSynchronize() != cudaSuccess)
        exit(1); /* the context keeps the error: again_without_student */
    g_in_student = 0;
    fflush(stdout), dup2(g_out, 1), close(g_out), g_out = -1;
    kit_blobfile *b = rc == KIT_EXIT_OK ? kit_blob_load(path, BENCH_NONCE, 0, err, sizeof err) : NULL;
    unlink(path);
    kit_check_ctx cc = {.params = &p, .seed = BENCH_SEED, .out = b, .stdout_text = ""};
    kit_plausible_read(b, &r->t); /* all 0 without a record */
    if (!b)
        r->wrong = "its run failed (the error above)";
    else if (held && kit_check_held(&cc, &KIT_CHECK, held))
        r->wrong = strdup(cc.summary);
    else if (r->t.ms <= 0)
        r->wrong = "not timed (the error above)";
    const char *label = kit_lab_rate_label(r->lab);
    r->baseline_ms = r->wrong ? 0 : kit_blob_f64(b, KIT_KEY_BASELINE_MS);
    r->rate = r->wrong ? 0 : label ? kit_lab_metric_find(b, label) : r->t.bytes / (r->t.ms * 1e6);
    g_wrong |= r->wrong != NULL;
    free(cc.details);
    kit_blob_free(b);
}

/* A timed line of the table: ms, the rate (units: the case's work in the rate's
 * unit times ms), the library's and the copy roof's times as fractions of ms. */
static void print_row(const char *name, double ms, double units, double lib_ms, double copy_ms)
{
    const double cells[3] = {units, lib_ms, copy_ms};
    char cell[3][32] = {"-", "-", "-"};
    for (int k = 0; k < 3; k++) /* each "-" where it has no yardstick */
        if (cells[k] > 0)
            snprintf(cell[k], sizeof cell[k], k ? "%.2f" : "%.0f", cells[k] / ms);
    printf("  %-44s %10.4f %10s %9s %7s\n", name, ms, cell[0], cell[1], cell[2]);
}

/* Case `index` of b: each row run (the library's where it takes the case),
 * then the table: the rows, the baseline's median time against the right ones,
 * and the copy roof (the plausibility check's copy of the timed calls' bytes)
 * where the rate is GB/s or no library peer is the yardstick (lab05); then the
 * stretch's note. */
static void run_case(const kit_bench *b, int index, row *rows, int n)
{
    const char *params = b->cases[index], *skip = NULL;
    kit_check_case *held[BENCH_ROWS] = {}; /* the checker's case of each row's parameters, in their first row's place */
    double base[BENCH_ROWS], lib_ms = 0;
    const row *first = NULL; /* the first right row: the case's work and bytes */
    int timed = 0;
    kit_params p;
    char err[256];
    if (kit_params_parse(params, &p, err, sizeof err) == 0 && b->new_case)
        skip = b->new_case(&p);
    for (row *r = rows; r < rows + n; r++) {
        int k = 0; /* the first row on r's parameters: rows on the same ones share a case (lab07's basic merges) */
        while (strcmp(rows[k].more, r->more))
            k++;
        r->wrong = NULL, r->t.ms = -1;
        if (r->lab && !(r->who == BENCH_LIBRARY && (!r->name || skip)))
            run_row(params, r, b->roof && r->who == BENCH_LIBRARY ? NULL : &held[k]);
        if (r->t.ms > 0 && !r->wrong) {
            base[timed++] = r->baseline_ms, first = first ? first : r;
            lib_ms = r->who == BENCH_LIBRARY && !*r->more ? r->t.ms : lib_ms;
        }
    }
    const char *label = first && !b->roof ? kit_lab_rate_label(first->lab) : NULL;
    int gflops = label && !strstr(label, "GB/s");
    double units = first && !b->roof ? first->rate * first->t.ms : 0, copy_ms = 0;
    if (units > 0 && first->t.copy_gbs > 0 && (!gflops || !b->library))
        copy_ms = first->t.bytes / 1e6 / first->t.copy_gbs;
    printf("\n%s: %s, %s%s%s\n", BENCH_LAB, b->what, params, skip || !b->library ? "; " : "",
           skip ? skip : b->library ? "" : "no library peer: x copy is the yardstick");
    printf("  %-44s %10s %10s %9s %7s\n", "", "ms", gflops ? "GFLOP/s" : "GB/s", "x library", "x copy");
    for (const row *r = rows; r < rows + n; r++) {
        char name[160]; /* "<who> <its name>", the library's its name alone */
        const char *own = r->name ? r->name : "", *who = r->who == BENCH_LIBRARY ? "" : g_names[r->who];
        snprintf(name, sizeof name, "%s%s%s", who, *who && *own ? " " : "", own);
        if (r->wrong)
            printf("  %-44s WRONG: %s (not timed)\n", name, r->wrong);
        else if (r->t.ms != -1)
            print_row(name, r->t.ms, units, lib_ms, copy_ms);
    }
    if (timed)
        print_row(b->baseline, kit_median(base, timed), units, lib_ms, copy_ms);
    if (copy_ms > 0) /* a copy does no flops */
        print_row("copy roof (cudaMemcpy D2D, same bytes)", copy_ms, gflops ? 0 : units, lib_ms, 0);
    if (b->stretch_note && g_handle[BENCH_STRETCH])
        b->stretch_note(&p, BENCH_SEED);
    for (kit_check_case *c : held)
        kit_check_case_close(c);
}

int main(int argc, char **argv)
{
    const char *opt[] = {"--student", "--reference", "--stretch", "--library"};
    const int order[] = {BENCH_LIBRARY, BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH}; /* the table's */
    int symbols = 0, n = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_argv = argv;
    atexit(again_without_student);
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (k < 4 && strcmp(argv[i], opt[k]))
            k++;
        if (k < 4 && i + 1 < argc)
            g_so[k] = argv[++i];
        else if (!strcmp(argv[i], "--symbols"))
            symbols = 1; /* load them, say whether every function was found, measure nothing */
        else {
            fprintf(stderr, "usage: %s --student SO [--reference SO] [--stretch SO] [--library SO] [--symbols]\n"
                            "(make bench LAB=labNN builds the shared objects and runs this)\n", argv[0]);
            return 2;
        }
    }
    const kit_bench *b = (const kit_bench *)bench_fn(BENCH_LIBRARY, "KIT_BENCH");
    row rows[BENCH_ROWS] = {};
    for (int who : order) { /* each implementation followed by its more rows */
        const kit_lab *lab = (const kit_lab *)bench_fn(who, "KIT_LAB");
        const char *name = !b ? NULL : who == BENCH_LIBRARY ? b->library : who == BENCH_STRETCH ? b->stretch : b->calls;
        rows[n++] = row{who, name, "", lab};
        for (int j = 0; b && j < KIT_BENCH_MAX_MORE; j++)
            if (b->more[j].params && b->more[j].who == who)
                rows[n++] = row{who, b->more[j].name, b->more[j].params, lab};
    }
    char words[512], err[256];
    kit_params p;
    for (int i = 0; b && i < KIT_BENCH_MAX_CASES && b->cases[i]; i++) /* GPU or not: CI's --symbols sees it */
        for (int k = 0; k < n; k++)
            if (params_of(b->cases[i], rows[k].more, words, &p, err) != 0) {
                printf("bench %s: its case \"%s\" is not one the lab takes: %s\n", BENCH_LAB, words, err);
                exit(1);
            }
    if (symbols) {
        printf("bench %s: %s\n", BENCH_LAB, g_missing ? "a function was not found" : "every function found");
        return g_missing ? 1 : 0;
    }
    kit_need_gpu("bench " BENCH_LAB, "nothing measured");
    cudaDeviceProp d;
    int rt = 0, drv = 0;
    cudaGetDeviceProperties(&d, 0), cudaRuntimeGetVersion(&rt), cudaDriverGetVersion(&drv);
    printf("== bench %s on %s (sm_%d%d, CUDA runtime %d.%d, driver %d.%d): each row timed as the grader times a "
           "student's code (against the baseline, min of round medians)\n",
           BENCH_LAB, d.name, d.major, d.minor, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
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
