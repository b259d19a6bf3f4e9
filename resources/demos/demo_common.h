/* demo_common.h - what every race demo shares, so that each demo's .cu holds
 * only what a TA reads aloud: the racy kernel, the fixed kernel, a CPU
 * reference and the loop that runs them.
 *
 *   build/demos/NAME racy|fixed [--runs N] [--n SIZE] [--once] [--no-color]
 *   build/demos/NAME --probe
 *
 *   racy|fixed   which kernel to run
 *   --runs N     how many runs on the same input (default: the demo's own)
 *   --n SIZE     problem size (default: the demo's own; see the demo's top comment)
 *   --once       one run at the demo's small size: what compute-sanitizer runs
 *                (the tools slow a kernel down 10-100 times)
 *   --no-color   no colour even on a terminal (so does NO_COLOR in the environment)
 *   --probe      exit 0 if a CUDA device is usable, else say why in one line
 *
 * Each run prints one line ("run  3: 1 017 of 1 024 outputs wrong"), the end
 * one summary line ("racy kernel: 9 of 10 runs wrong").
 * Exit status: 0 every run right, 1 some run wrong, 2 bad usage, 3 no GPU -
 * the kit's one line, "NAME: no GPU (<reason>): not run" with kit/no_gpu.cuh's
 * reason, and status - or a failed CUDA call (kit/cuda_check.cuh) or host
 * allocation, whose own message names it.
 */
#ifndef DEMO_COMMON_H
#define DEMO_COMMON_H

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/cuda_check.cuh"
#include "kit/no_gpu.cuh"

typedef struct {
    const char *prog;
    int racy;       /* 1: the racy kernel, 0: the fixed one */
    int runs;       /* runs to do */
    long n;         /* --n, 0 when not given */
    int once;       /* one small run for compute-sanitizer */
    int color;
    int done, wrong; /* runs reported so far, and how many were wrong */
} demo_args;

static inline void demo_usage(const char *prog)
{
    fprintf(stderr, "usage: %s racy|fixed [--runs N] [--n SIZE] [--once] [--no-color]\n"
                    "       %s --probe\n", prog, prog);
    exit(2);
}

static inline long demo_number_arg(const char *prog, const char *opt, const char *s)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || *end || v < 1) {
        fprintf(stderr, "%s: %s needs a positive number\n", prog, opt);
        exit(2);
    }
    return v;
}

/* Parses the command line and checks for a device; default_runs: this demo's run count. */
static inline demo_args demo_start(int argc, char **argv, int default_runs)
{
    demo_args a;
    memset(&a, 0, sizeof a);
    a.prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    a.racy = -1;
    a.runs = default_runs;
    a.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "racy") || !strcmp(s, "fixed"))
            a.racy = !strcmp(s, "racy");
        else if (!strcmp(s, "--runs"))
            a.runs = (int)demo_number_arg(a.prog, s, ++i < argc ? argv[i] : NULL);
        else if (!strcmp(s, "--n"))
            a.n = demo_number_arg(a.prog, s, ++i < argc ? argv[i] : NULL);
        else if (!strcmp(s, "--once"))
            a.once = 1;
        else if (!strcmp(s, "--no-color"))
            a.color = 0;
        else if (!strcmp(s, "--probe")) {
            kit_need_gpu(a.prog, "not run");
            exit(0);
        } else
            demo_usage(a.prog);
    }
    if (a.racy < 0)
        demo_usage(a.prog);
    if (a.once)
        a.runs = 1;
    kit_need_gpu(a.prog, "not run");
    return a;
}

/* A number with a space every three digits: 1048576 -> "1 048 576" (easier to
 * read on a projector).  Eight calls can share one printf. */
static inline const char *demo_num(long long v)
{
    static char ring[8][32];
    static int next;
    char digits[32], *out = ring[next++ % 8];
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    int len = snprintf(digits, sizeof digits, "%llu", u), o = 0;
    if (v < 0)
        out[o++] = '-';
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[o++] = ' ';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    return out;
}

static inline const char *demo_red(const demo_args *a) { return a->color ? "\033[1;31m" : ""; }
static inline const char *demo_green(const demo_args *a) { return a->color ? "\033[32m" : ""; }
static inline const char *demo_off(const demo_args *a) { return a->color ? "\033[0m" : ""; }

/* A plain indented line (e.g. which input the next runs use). */
static inline void demo_note(const demo_args *a, const char *fmt, ...)
{
    va_list ap;
    (void)a;
    va_start(ap, fmt);
    printf("    ");
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* One run's line: "run  3: <message>", red when wrong, green when right. */
static inline void demo_run(demo_args *a, int wrong, const char *fmt, ...)
{
    va_list ap;
    a->done++;
    a->wrong += wrong != 0;
    printf("    run %*d: %s", a->runs >= 10 ? 2 : 1, a->done, wrong ? demo_red(a) : demo_green(a));
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("%s\n", demo_off(a));
    fflush(stdout); /* one line at a time, as the runs happen */
}

/* The summary line; returns the exit status (0: every run right, 1: not). */
static inline int demo_end(const demo_args *a)
{
    const char *which = a->racy ? "racy" : "fixed";
    if (a->wrong)
        printf("    %s%s kernel: %d of %d runs wrong%s\n", demo_red(a), which, a->wrong, a->done, demo_off(a));
    else
        printf("    %s%s kernel: %d of %d runs right%s\n", demo_green(a), which, a->done, a->done, demo_off(a));
    fflush(stdout);
    return a->wrong ? 1 : 0;
}

/* Small deterministic generator (splitmix64): the same input every run. */
static inline unsigned demo_rand(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (unsigned)((z ^ (z >> 31)) >> 32);
}

/* malloc or exit: the demos have no use for a NULL. */
static inline void *demo_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(3);
    }
    return p;
}

#endif
