/* lab09 bench (make bench; kit/bench.cuh): the library peer,
 * cusolverDnSgetrf without pivoting, as one more implementation of lu.h,
 * run through the lab's own descriptor like the student's code; and the
 * cases, with where the stretch's time goes under each.
 *
 * getrf works on column-major storage: given our row-major A it factors
 * A^T = L' U' (L' unit lower), i.e. A = U'^T L'^T, which is Crout's A = L U
 * (U unit upper) stored exactly where lu.h stores it. */
#include <cusolverDn.h>
#include <stdlib.h>
#include <string.h>

#include "kit/bench.cuh"
#include "dataset.h"
#include "lu.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

/* The status is getrf's own: its info (on the device, exact zero pivots
 * only, not lu.h's tolerance) is not read, as the matrices are diagonally
 * dominant; a failed call is -1, a wrong result. */
int lu_crout_blocked(float *d_a, int n)
{
    static cusolverDnHandle_t h; /* made in the first call, the untimed checked one */
    static float *work;          /* getrf's workspace, sized in a case's first call */
    static int *info, for_n = -1;
    if (!h && cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
        return h = NULL, -1;
    if (n != for_n) {
        int lwork = 0;
        cudaFree(work), work = NULL, for_n = -1;
        if (!info && cudaMalloc(&info, sizeof *info) != cudaSuccess)
            return info = NULL, -1;
        if (cusolverDnSgetrf_bufferSize(h, n, n, d_a, n, &lwork) != CUSOLVER_STATUS_SUCCESS ||
            cudaMalloc(&work, (size_t)(lwork ? lwork : 1) * sizeof *work) != cudaSuccess)
            return -1;
        for_n = n;
    }
    return cusolverDnSgetrf(h, n, n, d_a, n, work, NULL, info) == CUSOLVER_STATUS_SUCCESS ? LU_OK : -1;
}

/* the cases are blocked float factorizations: the harness names these, nothing calls them */
int lu_crout(float *, int) { abort(); }
int lu_crout_double(double *, int) { abort(); }

/* Under each case, where the stretch's time goes (its timed row overlaps the
 * diagonal blocks and solves with the updates): its lu_stretch_phases, the
 * same factorization on one stream, milliseconds per phase summed over the
 * panels, on the case's A (the dataset's, from the bench's seed). */
static void stretch_phases(const kit_params *p, uint64_t seed)
{
    typedef int (*phases_fn)(float *, int, float *);
    phases_fn phases = (phases_fn)bench_fn(BENCH_STRETCH, "lu_stretch_phases");
    lab09_data d = {};
    char err[256];
    float *a = NULL, *d_a = NULL, ms[4];
    if (!phases || lab09_generate(p, seed, &d, err, sizeof err) != 0 || !(a = (float *)malloc(d.nn * sizeof *a))) {
        lab09_free(&d);
        return;
    }
    for (int i = 0; i < d.nn; i++)
        a[i] = (float)d.a[i]; /* generated in double, rounded to float once (as the harness uploads it) */
    cudaError_t e = cudaMalloc(&d_a, d.nn * sizeof *d_a);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_a, a, d.nn * sizeof *a, cudaMemcpyHostToDevice);
    int status = e == cudaSuccess ? phases(d_a, d.n, ms) : -1;
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (status == LU_OK && e == cudaSuccess)
        printf("   stretch phases, one stream, no overlap: tolerances %.3f ms, diagonal blocks %.3f, "
               "triangular solves %.3f, updates %.3f (sum %.3f ms)\n",
               ms[0], ms[1], ms[2], ms[3], ms[0] + ms[1] + ms[2] + ms[3]);
    else
        printf("   stretch phases: not timed (status %d, %s)\n", status, cudaGetErrorString(e));
    cudaFree(d_a);
    free(a);
    lab09_free(&d);
}

/* The per-step baseline takes about 1 s a call at n = 4096, and every row is
 * timed against it (as the grader times a student's call): the longest case. */
const kit_bench KIT_BENCH = {"LU without pivoting", "cusolverDnSgetrf (no pivoting)", "blocked",
                             "(NB = 128, look-ahead)", "baseline (kit_lu_step)",
                             {"impl=blocked matrix=dd n=1024", "impl=blocked matrix=dd n=2048" /* the rubric's */,
                              "impl=blocked matrix=dd n=4096"},
                             .stretch_note = stretch_phases};
