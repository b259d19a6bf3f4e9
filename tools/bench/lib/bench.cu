/* bench.cu - the driver every lab's bench program shares (see bench.cuh). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vector>

#include "bench.cuh"
#include "kit/no_gpu.cuh"
#include "kit/timing.cuh"
#include "kit/timing_rule.h"
#include "kit/util.h"

#define WARMUP_MS 300.0      /* an H200 idles at 840 MHz and needs ~0.1 s of work to boost */
#define WARMUP_SWEEPS 3
#define MIN_ROUNDS 15
#define MIN_TIMED_MS 400.0   /* per case, all rows together */
#define MAX_TIMED_MS 8000.0  /* a slow baseline (lab09's per-step LU) stops the rounds early... */
#define MAX_ROUNDS 400
#define FEW_ROUNDS 5         /* ...but never before this many */

static const char *g_lab;
static const char *g_so[4];        /* student, reference, reference stretch, library peer */
static void *g_handle[4];
static int g_said[4];
static int g_wrong;
static int g_symbols_only; /* --symbols: resolve the functions, then exit (CI, no GPU) */
static int g_missing;
static char **g_argv;
static int g_student_failed;       /* --student-failed: a first run ended inside the student's code */
static const bench_row *g_current; /* the row whose call (and its synchronisation) is under way */

/* The process is ending while a row's call is under way: its code (or a CUDA
 * error it caused) ended it.  The student's: run again without it; anyone
 * else's: say whose, status 1. */
static void ended_in_call(void)
{
    const bench_row *r = g_current;
    if (!r)
        return;
    g_current = NULL;
    fflush(stdout);
    if (r->who == BENCH_STUDENT && !g_student_failed) {
        fprintf(stderr, "bench %s: the student's code ended the program (the error above); running again without it\n",
                g_lab);
        int argc = 0;
        while (g_argv[argc])
            argc++;
        char **args = (char **)calloc(argc + 2, sizeof *args);
        for (int i = 0; i < argc; i++)
            args[i] = g_argv[i];
        args[argc] = (char *)"--student-failed";
        execv("/proc/self/exe", args);
    }
    fprintf(stderr, "bench %s: the program ended during a call of '%s' (the error above)\n", g_lab, r->name);
    _exit(1);
}

static const char *who_name(int who)
{
    static const char *names[] = {"student", "reference", "stretch reference", "library peer"};
    return names[who];
}

void bench_cuda(cudaError_t e, const char *what, const char *file, int line)
{
    if (e == cudaSuccess)
        return;
    fflush(stdout);
    fprintf(stderr, "bench %s: %s:%d: %s: %s (%s)\n", g_lab ? g_lab : "", file, line, what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    exit(1);
}

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s --student SO [--reference SO] [--stretch SO] [--library SO] [--symbols]\n"
                    "(make bench LAB=labNN builds the shared objects and runs this)\n", argv0);
    exit(2);
}

void bench_start(int argc, char **argv, const char *lab)
{
    g_lab = lab;
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_argv = argv;
    atexit(ended_in_call);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--symbols"))
            g_symbols_only = 1;
        else if (!strcmp(argv[i], "--student-failed"))
            g_student_failed = 1;
        else if (i + 1 >= argc)
            usage(argv[0]);
        else if (!strcmp(argv[i], "--student"))
            g_so[BENCH_STUDENT] = argv[++i];
        else if (!strcmp(argv[i], "--reference"))
            g_so[BENCH_REFERENCE] = argv[++i];
        else if (!strcmp(argv[i], "--stretch"))
            g_so[BENCH_STRETCH] = argv[++i];
        else if (!strcmp(argv[i], "--library"))
            g_so[BENCH_LIBRARY] = argv[++i];
        else
            usage(argv[0]);
    }
}

void bench_gpu(void)
{
    const char *lab = g_lab;
    if (g_symbols_only) {
        printf("bench %s: %s\n", lab, g_missing ? "a function was not found" : "every function found");
        exit(g_missing ? 1 : 0);
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        char reason[512];
        kit_no_gpu_reason(e, count, reason, sizeof reason);
        printf("bench %s: no GPU (%s): nothing measured\n", lab, reason);
        exit(KIT_NO_GPU_EXIT);
    }
    cudaDeviceProp p;
    BENCH_CUDA(cudaGetDeviceProperties(&p, 0));
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    printf("== bench %s on %s (sm_%d%d, CUDA runtime %d.%d, driver %d.%d): median of >= %d interleaved calls "
           "after %.0f ms warm-up, CUDA events\n",
           lab, p.name, p.major, p.minor, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10, MIN_ROUNDS,
           WARMUP_MS);
}

static void *bench_so(int who)
{
    if (who == BENCH_STUDENT && g_student_failed) {
        if (!g_said[who]++) {
            printf("   student: left out - its code ended the first run with the CUDA error shown above (make %.5s says more)\n",
                   g_lab);
            g_wrong = 1;
        }
        return NULL;
    }
    if (!g_so[who] || access(g_so[who], R_OK) != 0) {
        if (who != BENCH_STRETCH && !g_said[who]++) /* a lab without a stretch exercise: nothing to say */
            printf("   %s: not in this copy of the kit (%s): skipped\n", who_name(who),
                   who == BENCH_REFERENCE ? "a student copy has no labs/<lab>/solution/"
                   : who == BENCH_STUDENT   ? "no --student"
                                            : "no --library");
        return NULL;
    }
    if (!g_handle[who] && !g_said[who]) {
        g_handle[who] = dlopen(g_so[who], RTLD_NOW | RTLD_LOCAL);
        if (!g_handle[who]) { /* a function its code calls is missing (the student's file defines no dot_shared) */
            g_said[who] = g_missing = 1;
            printf("   %s: cannot be loaded: %s: skipped\n", who_name(who), dlerror());
        }
    }
    return g_handle[who];
}

void *bench_fn(int who, const char *name)
{
    void *h = bench_so(who);
    if (!h)
        return NULL;
    void *f = dlsym(h, name);
    if (!f) {
        g_missing = 1;
        printf("   %s: %s defines no %s: skipped\n", who_name(who), g_so[who], name);
    }
    return f;
}

int bench_add(bench_row *rows, int who, const char *what, void *fn, void (*call)(void *), void *arg,
              const char *(*check)(void *), void (*prepare)(void *))
{
    if (!fn)
        return 0;
    memset(rows, 0, sizeof *rows);
    char name[160];
    snprintf(name, sizeof name, "%s%s%s", who_name(who), what && *what ? " " : "", what ? what : "");
    rows->name = strdup(name);
    rows->call = call;
    rows->arg = arg;
    rows->check = check;
    rows->prepare = prepare;
    rows->who = who;
    return 1;
}

static void *bench_malloc(size_t bytes)
{
    void *d = NULL;
    BENCH_CUDA(cudaMalloc(&d, bytes ? bytes : 1));
    return d;
}

/* One call of row r, its prepare hook first (untimed), timed the grader's
 * way (kit_time_once: CUDA events, until all its work has ended); a CUDA
 * error ends the program inside the row, so ended_in_call says whose. */
static double timed(bench_row *r)
{
    if (r->prepare)
        r->prepare(r->arg);
    g_current = r;
    double ms = kit_time_once(r->call, r->arg);
    if (ms < 0)
        exit(1);
    g_current = NULL;
    return ms;
}

static void print_row(const bench_case *c, const bench_row *r, double peer_ms, double copy_ms, int is_copy)
{
    char rate[32] = "-", lib[16] = "-", cp[16] = "-";
    if (r->wrong) {
        printf("  %-44s WRONG: %s (not timed)\n", r->name, r->wrong);
        return;
    }
    if (c->flops > 0) {
        if (!is_copy) /* a copy does no flops */
            snprintf(rate, sizeof rate, "%.0f", c->flops / (r->ms * 1e6));
    } else if (c->bytes > 0)
        snprintf(rate, sizeof rate, "%.0f", c->bytes / (r->ms * 1e6));
    if (peer_ms > 0)
        snprintf(lib, sizeof lib, "%.2f", peer_ms / r->ms);
    if (copy_ms > 0 && !is_copy)
        snprintf(cp, sizeof cp, "%.2f", copy_ms / r->ms);
    printf("  %-44s %10.4f %10s %9s %7s\n", r->name, r->ms, rate, lib, cp);
}

/* 2. warm-up: every live row, at least WARMUP_SWEEPS times and WARMUP_MS,
 * at most MAX_TIMED_MS (kit_warm_done: the grader's rule without its probe). */
static void warm_up(const std::vector<bench_row *> &live)
{
    const kit_warm_rule rule = {WARMUP_SWEEPS, WARMUP_MS, MAX_TIMED_MS / 1e3, 0, 0, 0};
    double t0 = kit_now();
    for (int k = 0; !live.empty(); k++) {
        for (bench_row *r : live)
            timed(r);
        if (kit_warm_done(&rule, k + 1, kit_now() - t0, NULL, 0))
            break;
    }
}

/* 3. interleaved rounds, each starting with the next row (kit_rotated):
 * each live row's median into its ms; the rounds run. */
static size_t time_rounds(const std::vector<bench_row *> &live)
{
    std::vector<std::vector<double>> ms(live.size());
    double t0 = kit_now();
    for (int round = 0; round < MAX_ROUNDS && !live.empty(); round++) {
        double spent = (kit_now() - t0) * 1e3;
        if (round >= MIN_ROUNDS && spent >= MIN_TIMED_MS)
            break;
        if (round >= FEW_ROUNDS && spent >= MAX_TIMED_MS)
            break;
        for (size_t j = 0; j < live.size(); j++) {
            size_t i = kit_rotated(round, (int)j, (int)live.size());
            ms[i].push_back(timed(live[i]));
        }
    }
    for (size_t i = 0; i < live.size(); i++)
        live[i]->ms = kit_median(ms[i].data(), ms[i].size());
    return live.empty() ? 0 : ms[0].size();
}

void bench_case_run(const bench_case *c, bench_row *in_rows, int nrows)
{
    std::vector<bench_row *> rows;
    for (int i = 0; i < nrows; i++)
        rows.push_back(&in_rows[i]);
    bench_row copy_row;
    kit_copy_arg ca = {NULL, NULL, 0}; /* the copy roof: the case's bytes, half read, half written */
    memset(&copy_row, 0, sizeof copy_row);
    if (c->bytes > 0) {
        ca.half = (size_t)(c->bytes / 2);
        ca.src = bench_malloc(ca.half);
        ca.dst = bench_malloc(ca.half);
        BENCH_CUDA(cudaMemset(ca.src, 0x3c, ca.half));
        copy_row.name = "copy roof (cudaMemcpy D2D, same bytes)";
        copy_row.call = kit_copy_call;
        copy_row.arg = &ca;
        rows.push_back(&copy_row);
    }
    /* 1. one call each, checked */
    std::vector<bench_row *> live;
    for (bench_row *r : rows) {
        r->wrong = NULL;
        r->ms = 0;
        timed(r);
        if (r->check && (r->wrong = r->check(r->arg)) != NULL)
            g_wrong = 1;
        else
            live.push_back(r);
    }
    warm_up(live);
    size_t rounds = time_rounds(live);
    /* 4. the table */
    double peer_ms = 0, copy_ms = copy_row.ms;
    for (bench_row *r : rows)
        if (r->peer && !r->wrong)
            peer_ms = r->ms;
    printf("\n%s: %s (%zu rounds)\n", g_lab, c->title, rounds);
    printf("  %-44s %10s %10s %9s %7s\n", "", "ms", c->flops > 0 ? "GFLOP/s" : "GB/s", "x library", "x copy");
    for (bench_row *r : rows)
        print_row(c, r, peer_ms, copy_ms, r == &copy_row);
    if (ca.src) {
        BENCH_CUDA(cudaFree(ca.src));
        BENCH_CUDA(cudaFree(ca.dst));
    }
}

int bench_finish(void)
{
    if (g_wrong)
        printf("bench %s: a result above was WRONG (not timed)\n", g_lab);
    for (int i = 0; i < 4; i++)
        if (g_handle[i])
            dlclose(g_handle[i]);
    return g_wrong ? 1 : 0;
}
