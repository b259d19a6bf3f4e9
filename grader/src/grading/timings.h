/* timings.h - where one test's seconds went: `make lab03 V=1` (kitgrade check
 * --timings) prints it under each test line, so a slow check can be read:
 * the runner's start (CUDA context and CUPTI), its
 * runs, the lab's checker, waits for the GPU lock, the timing loop with the
 * GPU alone, the builds.  Measured where they happen (serve.c, cases.c,
 * build.c, engine.c); nothing here changes what is run. */
#ifndef GRADER_TIMINGS_H
#define GRADER_TIMINGS_H
#include <stdio.h>

typedef struct {
    double start;          /* runner processes from start to their first case ("ready") */
    double runs, run_max;  /* the runner's work on the cases (serve: request to answer) */
    int n_runs;
    char run_max_what[96]; /* the parameters of the longest run */
    double checks;         /* the lab's checker */
    int n_checks;
    int checks_overlap;    /* ... some of it beside the next runs (engine.c: correctness_runs) */
    double waits;          /* for the GPU lock */
    double alone;          /* timing loops with the GPU alone */
    double nvcc, nvcc_beside; /* the runner's build; the barrier-checked one beside it */
    int reused;            /* the build came from the cache */
    int first;             /* a performance test run before the other tests (engine.c) ... */
    double check_beside;   /* ... its checker's seconds, beside them (until its end was seen) */
    double check_wait;     /* ... and the wait for it at the test's turn */
    int beside_check;      /* a test begun while such a checker ran */
} test_times;

void times_reset(test_times *t);
void times_run(test_times *t, double seconds, const char *what);
/* from's seconds added to t's (runs made ahead for t: kinds.c). */
void times_add(test_times *t, const test_times *from);
/* One line "time: ..." (nothing when nothing was measured). */
void times_print(FILE *f, const test_times *t);
#endif
