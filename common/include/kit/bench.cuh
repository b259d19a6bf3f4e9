/* bench.cuh - the library peer's side of `make bench` (docs/anatomy.md,
 * "The bench"): labs/<lab>/bench.cu implements the lab's interface with the
 * library (linked into the bench only, never into graded code) and lists
 * the cases in KIT_BENCH; bench.cu makes each row the runner's bench mode on
 * one implementation, judged by the lab's checker. */
#ifndef KIT_BENCH_CUH
#define KIT_BENCH_CUH
#include "kit/lab.cuh" /* a lab's call and parameters */

/* The implementations, each a shared object with the lab's harness: the
 * student's, the reference solution, a handout's stretch exercise's solution
 * (labs/<lab>/solution/stretch/), the library peer (library.so). */
enum { BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH, BENCH_LIBRARY };

/* Symbol `name` of implementation who's shared object (lab09's
 * lu_stretch_phases); NULL, said once, when it is not there (a student copy
 * has no solution) or does not load (its harness calls a function it lacks). */
void *bench_fn(int who, const char *name);

#define KIT_BENCH_MAX_CASES 6
#define KIT_BENCH_MAX_MORE 2
/* A lab's cases (the fields it does not use 0: designated initializers
 * past `cases`, the file saying KIT_LAB_DESCRIPTORS_OMIT_FIELDS). */
typedef struct {
    const char *what;     /* the cases' title, before their parameters: "dot product" */
    /* the library's row: "cublasSdot"; NULL: none (lab05: its functions only
     * abort(), for the harness to link), and the copy roof is the yardstick */
    const char *library;
    const char *calls;    /* after "student" and "reference" in their rows: "tiled", or "" */
    const char *stretch;  /* after "stretch reference" */
    const char *baseline; /* the baseline's row: "baseline (kit_dot_global)" */
    const char *cases[KIT_BENCH_MAX_CASES]; /* parameters (the rubric's words), in order */
    /* More rows, each after its implementation's own: implementation `who`
     * on each case with `params` after its own (a later key wins), named
     * `name` (the library's) or "<who> <name>": lab05's halo variant,
     * lab07's basic merges. */
    struct {
        int who;
        const char *name, *params;
    } more[KIT_BENCH_MAX_MORE];
    /* The library's row is a roof, not the job (lab11's copies alone): not
     * checked, and the table has no rate and no copy roof row. */
    int roof;
    /* Before each case: the library lets go of the last case's setup (lab08's
     * cuSPARSE descriptor); NULL when it takes this case, else why not
     * (lab12: the dense A would not fit), said in the title. */
    const char *(*new_case)(const kit_params *p);
    /* After each case's table, where the stretch is loaded: the lab's own
     * line about it (lab09: where its time goes), on the case's inputs. */
    void (*stretch_note)(const kit_params *p, uint64_t seed);
} kit_bench;
extern "C" const kit_bench KIT_BENCH;

#endif
