/* bench.cuh - `make bench`: one lab's implementations against NVIDIA's
 * libraries (docs/anatomy.md, "The bench", says what the table shows).
 *
 * The student's code, the reference solution, a stretch exercise's solution
 * and the library peer (labs/<lab>/bench.cu: the library call as one more
 * implementation of the lab's interface, and the cases, KIT_BENCH below)
 * are each a shared object linked with the lab's harness.cu, so each
 * carries its own KIT_LAB; one program (bench.cu), linked with the lab's
 * dataset, baseline and checker and the lab driver, loads them and makes
 * each row the way the grader makes a performance test: the runner's bench
 * mode on that implementation (kit_lab_bench), its record judged by the
 * lab's checker.  Libraries (CUB, cuBLAS, cuSPARSE, cuSOLVER) are linked
 * into the bench only, never into graded code.
 */
#ifndef KIT_BENCH_CUH
#define KIT_BENCH_CUH
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/lab.cuh" /* a lab's call and parameters */

/* BENCH_STRETCH: the solution of a handout's optional stretch exercise
 * (labs/<lab>/solution/stretch/), where the lab has one; BENCH_LIBRARY: the
 * library peer built from the lab's bench.cu (library.so). */
enum { BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH, BENCH_LIBRARY };

/* Symbol `name` of implementation who's shared object (KIT_LAB, KIT_BENCH,
 * lab09's lu_stretch_phases); NULL when that code is not there (a student
 * copy of the kit has no labs/<lab>/solution/) or does not load (its
 * harness calls a function it lacks), said once. */
void *bench_fn(int who, const char *name);

/* A CUDA call of a library peer's (lab11's copies): an error ends the bench, said. */
void bench_cuda(cudaError_t e, const char *what, const char *file, int line);
#define BENCH_CUDA(call) bench_cuda((call), #call, __FILE__, __LINE__)

/* A lab's cases: labs/<lab>/bench.cu defines const kit_bench KIT_BENCH
 * beside its library peer, naming the fields it uses (the others 0: none;
 * designated initializers past `cases`). */
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
    /* NULL, or called before each case with its parameters: the library peer
     * lets go of what it made for the case before (lab08: cuSPARSE's
     * descriptor of its matrix; lab12: its dense A) and returns NULL when it
     * takes this one, else why not (lab12: the dense A of the largest grid
     * would not fit), which the case's title says. */
    const char *(*new_case)(const kit_params *p);
    /* After each case's table, where the stretch exercise's solution is
     * loaded: the lab's own line about the stretch (lab09: where its time
     * goes), given the case's parameters and the seed of its inputs. */
    void (*stretch_note)(const kit_params *p, uint64_t seed);
} kit_bench;
extern "C" const kit_bench KIT_BENCH;
#pragma GCC diagnostic ignored "-Wmissing-field-initializers" /* a KIT_BENCH leaves out the fields it does not use */

#endif
