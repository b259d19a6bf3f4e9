/* lab07 bench (make bench; kit/bench.cuh): NVIDIA's merges as
 * one more implementation of merge.h, run through the lab's own descriptor
 * like the student's code - merge_tiled is cub::DeviceMerge::MergeKeys (the
 * library peer), merge_basic thrust::merge (a row of its own) - and the
 * cases, with the reference's basic merge as one more row. */
#include <cub/device/device_merge.cuh>
#include <stdlib.h>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include "kit/bench.cuh"
#include "merge.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

void merge_tiled(const int *d_a, int m, const int *d_b, int n, int *d_c)
{
    static void *temp; /* CUB's scratch, sized in a case's first call (the untimed checked one), as a caller would */
    static size_t bytes;
    static int for_m = -1, for_n = -1;
    if (m != for_m || n != for_n) {
        cudaFree(temp), temp = NULL, bytes = 0, for_m = for_n = -1;
        cub::DeviceMerge::MergeKeys(NULL, bytes, d_a, m, d_b, n, d_c);
        if (cudaMalloc(&temp, bytes) == cudaSuccess) /* else C keeps its poison: a wrong result */
            for_m = m, for_n = n;
    }
    if (for_m == m && for_n == n)
        cub::DeviceMerge::MergeKeys(temp, bytes, d_a, m, d_b, n, d_c);
}

/* as a caller writes it: whatever scratch thrust needs is its own, in the call */
void merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c)
{
    thrust::merge(thrust::device, d_a, d_a + m, d_b, d_b + n, d_c);
}

/* the cases are int merges: the harness names these, nothing calls them */
int co_rank_host(int, const int *, int, const int *, int) { abort(); }
void merge_basic_rec(const merge_rec *, int, const merge_rec *, int, merge_rec *) { abort(); }
void merge_tiled_rec(const merge_rec *, int, const merge_rec *, int, merge_rec *) { abort(); }

const kit_bench KIT_BENCH = {"merge", "cub::DeviceMerge::MergeKeys", "tiled", "(CUB-style tiles)",
                             "baseline (kit_merge_basic)",
                             {"impl=tiled m=10^6 n=10^6", "impl=tiled m=10^7 n=10^7" /* the rubric's */},
                             {{BENCH_LIBRARY, "thrust::merge", "impl=basic"}, {BENCH_REFERENCE, "basic", "impl=basic"}}};
