/* timing.cu - CUDA-event timing, warm-up, interleaving, medians (see timing.cuh). */
#include <stdio.h>
#include <stdlib.h>

#include "kit/timing.cuh"
#include "kit/util.h"

#define TCHECK(call)                                                                                  \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "%s:%d: CUDA error while timing (%s): %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(e_));                                                          \
            return -1.0;                                                                              \
        }                                                                                             \
    } while (0)

double kit_time_once(kit_timed_fn fn, void *arg)
{
    cudaEvent_t start, stop;
    TCHECK(cudaEventCreate(&start));
    TCHECK(cudaEventCreate(&stop));
    TCHECK(cudaDeviceSynchronize());
    TCHECK(cudaEventRecord(start, 0));
    fn(arg);
    TCHECK(cudaEventRecord(stop, 0));
    TCHECK(cudaEventSynchronize(stop));
    TCHECK(cudaGetLastError());
    float ms = 0;
    TCHECK(cudaEventElapsedTime(&ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

static void summarise(double *v, int n, kit_timing *t)
{
    t->reps = n;
    t->min_ms = t->max_ms = n ? v[0] : 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < t->min_ms)
            t->min_ms = v[i];
        if (v[i] > t->max_ms)
            t->max_ms = v[i];
    }
    t->median_ms = kit_median(v, (size_t)n);
}

int kit_time_interleaved(kit_timed_fn a, void *arg_a, kit_timed_fn b, void *arg_b, int warmup, int reps,
                         kit_timing *ta, kit_timing *tb)
{
    double *va = (double *)calloc((size_t)reps, sizeof *va), *vb = (double *)calloc((size_t)reps, sizeof *vb);
    int rc = -1;
    if (!va || !vb)
        goto out;
    for (int i = 0; i < warmup; i++) {
        if (kit_time_once(a, arg_a) < 0 || kit_time_once(b, arg_b) < 0)
            goto out;
    }
    for (int i = 0; i < reps; i++) {
        /* Alternate which goes first, so neither always follows the other. */
        int a_first = (i % 2) == 0;
        double x = kit_time_once(a_first ? a : b, a_first ? arg_a : arg_b);
        double y = kit_time_once(a_first ? b : a, a_first ? arg_b : arg_a);
        if (x < 0 || y < 0)
            goto out;
        va[i] = a_first ? x : y;
        vb[i] = a_first ? y : x;
    }
    summarise(va, reps, ta);
    summarise(vb, reps, tb);
    rc = 0;
out:
    free(va);
    free(vb);
    return rc;
}

int kit_time_median(kit_timed_fn fn, void *arg, int warmup, int reps, kit_timing *t)
{
    double *v = (double *)calloc((size_t)reps, sizeof *v);
    if (!v)
        return -1;
    for (int i = 0; i < warmup; i++)
        if (kit_time_once(fn, arg) < 0) {
            free(v);
            return -1;
        }
    for (int i = 0; i < reps; i++)
        if ((v[i] = kit_time_once(fn, arg)) < 0) {
            free(v);
            return -1;
        }
    summarise(v, reps, t);
    free(v);
    return 0;
}
