/* bench.cuh - `make bench`: one lab's implementations against NVIDIA's libraries.
 *
 * Each implementation - the student's code, the reference solution, a
 * stretch exercise's solution, the library peer (labs/<lab>/bench.cu: the
 * library call as one more implementation of the lab's interface, and the
 * cases, KIT_BENCH below) - is a shared object linked with the lab's
 * harness.cu, so it carries its own KIT_LAB; all are loaded with dlopen into
 * one program (descriptor.cu), in one process, on one GPU, in one run.  It
 * links the lab's dataset, baseline and checker and the lab driver, and
 * exports them to the shared objects.  Libraries (CUB, cuBLAS, cuSPARSE,
 * cuSOLVER) are linked into the bench only, never into graded code.
 *
 * For each case (parameters, as the rubric writes them) every row is the
 * lab descriptor's own: inputs from (parameters, seed), the call prepared
 * before each call (outputs poisoned, what it changes in place restored:
 * kit_lab_case_prepare), the baseline.  bench_case_run then
 *   1. calls every row once and checks its outputs with the lab's checker
 *      (KIT_CHECK; its inputs and CPU references made once per case for
 *      the rows on the same parameters: kit_check_case_open); a wrong
 *      result is printed as WRONG with the checker's summary, not timed;
 *   2. adds a "copy roof" row when the case moves a known number of bytes:
 *      cudaMemcpy device-to-device of the same bytes, the bandwidth yardstick;
 *   3. warms up (an idle GPU's clocks take a while to boost), then times the
 *      rows interleaved (one call of each per round, the order rotated every
 *      round) with CUDA events on the default stream: each row's median.
 *      Each call is timed, the warm-up ended and the order rotated by the
 *      grader's own code (kit_time_once, kit_warm_done, kit_rotated);
 *   4. prints one table: ms, GB/s or GFLOP/s, the row's speed as a fraction
 *      of the library peer's and of the copy roof's.
 * The rate is the first of the descriptor's metrics (this case's, not the
 * baseline's) in GB/s, else in GFLOP/s, by their labels; the copy roof
 * moves the metric's bytes, or where no metric counts them (lab04's G
 * elements/s; lab05's GFLOP/s, which has no library peer: the copy is its
 * yardstick) the least bytes the lab's timed call moves
 * (kit_timed_calls_bytes).  What only some labs need is a field of KIT_BENCH.
 */
#ifndef KIT_BENCH_CUH
#define KIT_BENCH_CUH
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/lab.cuh" /* a lab's call and parameters */

typedef struct {
    const char *name;                 /* "reference", "cub::DeviceScan::InclusiveSum", ... */
    void (*call)(void *arg);          /* the timed call */
    void *arg;
    void (*prepare)(void *arg);       /* untimed, before every call (in-place inputs); NULL: none */
    const char *(*check)(void *arg);  /* after the first call: NULL when right, else why */
    int peer;                         /* the library peer: "x library" divides by its time */
    int who;                          /* BENCH_STUDENT, BENCH_REFERENCE, or -1: the kit's or a library's */
    /* set by bench_case_run */
    const char *wrong;
    double ms;
} bench_row;

typedef struct {
    char title[160];
    double bytes;  /* the least the operation must move (in + out); 0: no GB/s, no copy roof */
    double flops;  /* > 0: report GFLOP/s instead of GB/s (a copy roof still where bytes > 0) */
} bench_case;

/* BENCH_STRETCH: the solution of a handout's optional stretch exercise
 * (labs/<lab>/solution/stretch/), where the lab has one; BENCH_LIBRARY: the
 * library peer built from the lab's descriptor (library.so). */
enum { BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH, BENCH_LIBRARY };

/* A row of the kit's or a library's own (peer = 1: the library peer). */
static inline bench_row bench_make(const char *name, void (*call)(void *), void *arg, const char *(*check)(void *),
                                   int peer, void (*prepare)(void *) = NULL)
{
    bench_row r = {name, call, arg, prepare, check, peer, -1, NULL, 0.0};
    return r;
}

/* Parses `--student SO [--reference SO] [--stretch SO] [--library SO] [--symbols]`.  The student's code
 * may end the process (CUDA_CHECK exits, a kernel fault makes every later
 * CUDA call fail): then the program runs itself again without it, and the
 * table says so. */
void bench_start(int argc, char **argv, const char *lab);
/* Symbol `name` of implementation who's shared object (KIT_LAB, KIT_BENCH,
 * lab09's lu_stretch_phases); NULL when that code is not there (a student
 * copy of the kit has no labs/<lab>/solution/) or does not load (its
 * harness calls a function it lacks), said once. */
void *bench_fn(int who, const char *name);
/* After the bench_fn calls: with --symbols, exit 0 when every function was
 * found (1 otherwise); with no GPU, one line and exit 3 (kitgrade's "no GPU");
 * else print the header line naming the lab and the GPU. */
void bench_gpu(void);
/* A row for the student's / reference's function when it exists (returns the
 * number of rows added, 0 or 1); `what` follows the name: "tiled", "" ... */
int bench_add(bench_row *rows, int who, const char *what, void *fn, void (*call)(void *), void *arg,
              const char *(*check)(void *), void (*prepare)(void *));
/* Runs one case (see above); prints its table. */
void bench_case_run(const bench_case *c, bench_row *rows, int nrows);
/* 0 when every row was right, 1 otherwise. */
int bench_finish(void);

/* A CUDA call of a library peer's (lab11's copies): an error ends the bench, said. */
void bench_cuda(cudaError_t e, const char *what, const char *file, int line);
#define BENCH_CUDA(call) bench_cuda((call), #call, __FILE__, __LINE__)

/* A lab's cases from its descriptor: labs/<lab>/bench.cu defines
 * const kit_bench KIT_BENCH beside its library peer, naming the fields it
 * uses (the others 0: none; designated initializers past `cases`). */
#define KIT_BENCH_MAX_CASES 6
#define KIT_BENCH_MAX_MORE 2
typedef struct {
    const char *what;     /* the cases' title, before their parameters: "dot product" */
    /* the library peer's row: "cublasSdot"; NULL: the lab has none (lab05: its
     * bench.cu's functions only abort(), for the harness to link), and the
     * copy roof is the yardstick */
    const char *library;
    const char *calls;    /* after "student" and "reference" in their rows: "tiled", or "" */
    const char *stretch;  /* after "stretch reference" (where the lab has a stretch exercise) */
    const char *baseline; /* the baseline's row: "baseline (kit_dot_global)" */
    const char *cases[KIT_BENCH_MAX_CASES]; /* parameters (the rubric's words), in order */
    /* More rows, each after its implementation's own: implementation `who`
     * (BENCH_LIBRARY, BENCH_REFERENCE ...) on each case's parameters with
     * `params` after them (a later key wins), its row named `name` (the
     * library's) or "<who> <name>".  lab05: the reference's
     * conv1d_halo_global (variant=halo); lab07: the reference's merge_basic,
     * and the library's (thrust::merge, where its merge_tiled is CUB's). */
    struct {
        int who;
        const char *name, *params;
    } more[KIT_BENCH_MAX_MORE];
    /* The library row is a roof, not the job (lab11: the pinned copies
     * alone, no kernel): its output is not checked, and the table has no
     * rate column and no copy roof row of its own. */
    int roof;
    /* The baseline's row in the first so many cases only (0: in all): a
     * slow one (lab09's per-step LU, about 1 s a call at n = 4096). */
    int baseline_cases;
    /* NULL, or called before each case with its parameters: the library peer
     * lets go of what it made for the case before (lab08: cuSPARSE's
     * descriptor of its matrix; lab12: its dense A) and returns NULL when it
     * takes this one, else why not (lab12: the dense A of the largest grid
     * would not fit), which the case's title says. */
    const char *(*new_case)(const kit_params *p);
    /* After each case's table, the stretch's case prepared again (outputs
     * poisoned, inputs restored): the lab's own line about the stretch
     * (lab09: where its time goes), given the case's parameters and the
     * stretch's call as its descriptor made it. */
    void (*stretch_note)(const kit_params *p, const kit_lab_call *c);
} kit_bench;
extern "C" const kit_bench KIT_BENCH;
#pragma GCC diagnostic ignored "-Wmissing-field-initializers" /* a KIT_BENCH leaves out the fields it does not use */

#endif
