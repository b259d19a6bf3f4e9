/* harness.cu - lab10's declaration, as data (kit/lab_decl.cuh): A and B on
 * the GPU, C poisoned with NaN, one call of matmul_tiled, "c" recorded (f32,
 * m*n); bench mode times it on a fresh A (whole rows rotated, scaled) against
 * the kit's naive global-memory kernel.  Show mode (make run-lab10) prints
 * the summary of C, its corners and, always, both times and GFLOP/s.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "matmul.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab10_data d;
    float *da, *db, *dc;
} inputs;

KIT_LAB_DATASET(inputs, lab10) /* generate and release: dataset.c */

KIT_LAB_INVOKE(inputs, matmul, matmul_tiled(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k))
KIT_LAB_BASELINE(inputs, baseline, (kit_matmul_naive(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k), 0))

/* show mode, after the summary of C: its top-left corner and bottom-right
 * element (the handout's "corners of C"). */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const float *c = (const float *)host[0];
    int m = ((const inputs *)s)->d.m, n = ((const inputs *)s)->d.n;
    if (!ctx->show || !m || !n)
        return 0;
    kit_show_corner("C", KIT_T_F32, c, m, n);
    printf("C[%d][%d] (bottom-right) = %.9g\n", m - 1, n - 1, c[(size_t)m * n - 1]);
    return 0;
}

#define F(member) KIT_AT(inputs, member)
static const kit_lab_decl DECL = {
    .bufs = {{F(da), KIT_T_F32, F(d.a_count), F(d.a)},
             {F(db), KIT_T_F32, F(d.b_count), F(d.b)},
             {F(dc), KIT_T_F32, F(d.c_count)}},
    /* an element of C never written reads back as NaN; an empty C, or k = 0
     * (C = 0: a cudaMemset will do), needs no kernel */
    .calls = {{"matmul_tiled", matmul, .optional_if_zero = F(d.nonempty),
               .out = {{LAB10_OUT_C, KIT_T_F32, F(dc), F(d.c_count), KIT_POISON(0xFF)}}}},
    .refuse = {{KIT_LAB_BENCH_BEFORE, F(d.nonempty), 1, 1, "the benchmark needs m, n, k > 0"}},
    /* A fresh each call, its rows rotated (a shift of whole rows of k floats) and
     * scaled; B read by every call too; one multiply and one add per term */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(da)}, .step = F(d.k), .sample = LAB10_TIMED_SAMPLE, .flops_per = 2,
              .flops_of = {F(d.c_count), F(d.k)}},
    .metrics = {{"matmul_tiled GFLOP/s (2mnk flops)", F(d.c_count), 2, 0, F(d.k)},
                {"the naive kernel, GFLOP/s", F(d.c_count), 2, 1, F(d.k)}},
    /* show mode, with or without time=1: the time against the naive kernel, in GFLOP/s too */
    .show_time = {.warmup = 2, .reps = 5},
    .show_line = {{NULL, "the kit's naive kernel", "speedup %.2fx", "GFLOP/s", 0, .some = F(d.nonempty)}},
};

const kit_lab KIT_LAB = {.tag = "lab10", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .after = after, .baseline = baseline, .decl = &DECL};
