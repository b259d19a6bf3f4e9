/* harness.cu - lab09's declaration, its buffers, calls, refusals, timed
 * calls, metrics and show-mode time as data (kit/lab_decl.cuh): the matrix
 * on the GPU (float or double), one call of lu_crout / lu_crout_double /
 * lu_crout_blocked, "status" and the factored matrix "a" recorded
 * (dataset.h); bench mode times it, in place, against the kit's per-step
 * version.
 *
 * Hooks beside the table: the show-mode status, corner and backward error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "kit/lu_check.h"
#include "lu.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab09_data d;
    void *d_a;    /* factored in place */
    void *d_orig; /* timing: the pristine A (the timed calls' fresh A is made from it) */
    int status;
} inputs;

KIT_LAB_DATASET(inputs, lab09) /* generate and release: dataset.c */

KIT_LAB_INVOKE(inputs, lu_float, in->status = lu_crout((float *)in->d_a, in->d.n))
KIT_LAB_INVOKE(inputs, lu_double, in->status = lu_crout_double((double *)in->d_a, in->d.n))
KIT_LAB_INVOKE(inputs, lu_blocked, in->status = lu_crout_blocked((float *)in->d_a, in->d.n))
/* Timed with the pristine A put back first (timed.in_place): both sides pay the same copy. */
KIT_LAB_BASELINE(inputs, baseline, (kit_lu_step((float *)in->d_a, in->d.n), 0))

#define F(member) KIT_AT(inputs, member)
#define TYPE(dbl) KIT_WHEN(inputs, d.is_double, dbl)
#define BENCH(field, lo, hi) {KIT_LAB_BENCH_BEFORE, F(field), lo, hi, "the benchmark times float factorizations that " \
    "complete (type=float, n > 0, matrix=dd, poisson or zerodiag)"}
/* the status it returns (poisoned), and A factored in place (A itself: no poison) */
#define OUTS(type) {{LAB09_OUT_STATUS, KIT_T_I32, F(status), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE}, \
                    {LAB09_OUT_A, type, F(d_a), F(d.nn), KIT_POISON_NONE}}
static const kit_lab_decl DECL = {
    /* the matrix in its type (floats: the dataset's doubles, exact in float: it already rounded them);
     * timing: the pristine A, put back in d_a before the baseline (timed.in_place) */
    .bufs = {{F(d_a), KIT_T_F32, F(d.nn), F(d.a), .when = TYPE(0), .from_f64 = 1},
             {F(d_a), KIT_T_F64, F(d.nn), F(d.a), .when = TYPE(1)},
             {F(d_orig), KIT_T_F32, F(d.nn), F(d.a), KIT_LAB_TIMING, TYPE(0), .from_f64 = 1},
             {F(d_orig), KIT_T_F64, F(d.nn), F(d.a), KIT_LAB_TIMING, TYPE(1)}},
    .calls = {{"lu_crout_blocked", lu_blocked, KIT_WHEN(inputs, d.blocked, 1), F(d.n), OUTS(KIT_T_F32)},
              {"lu_crout_double", lu_double, TYPE(1), F(d.n), OUTS(KIT_T_F64)},
              {"lu_crout", lu_float, {}, F(d.n), OUTS(KIT_T_F32)}},
    .refuse = {BENCH(d.is_double, 0, 0), BENCH(d.n, 1, INT32_MAX), BENCH(d.cls, LAB09_DD, LAB09_ZERODIAG)},
    /* Before each timed call a fresh A - scale * (A with rows and columns
     * rotated by shift, the classes a rotation keeps), dataset.h - is made from
     * the pristine one and copied into the matrix the call factors in place,
     * so a factorization remembered from an earlier call is wrong; whole rows
     * and columns of the factored matrix of a few calls recorded for the checker. */
    .timed = {KIT_FRESH_ROTATE_SQUARE, {F(d_orig)}, .poison = KIT_POISON(0xFF), .side = F(d.n),
              .rotate_if = KIT_WHEN(inputs, d.rotates, 1), .lines = LAB09_TIMED_LINES, .in_place = 1,
              .out = 1},
    /* 2n^3/3 flops: (2/3) * n^2 * n */
    .metrics = {{"GFLOP/s (2n^3/3 flops)", F(d.nn), 2.0 / 3, 0, F(d.n)},
                {"the per-step baseline, GFLOP/s", F(d.nn), 2.0 / 3, 1, F(d.n)}},
    /* show mode, float: the time against the per-step baseline */
    .show_time = {.warmup = 1, .reps = 3},
    .show_line = {{NULL, "the kit's per-step version", "speedup %.2fx", .when = TYPE(0), .some = F(d.n)}},
};

/* ||A - L U||_F / ||A||_F of the result as the checker forms it (show mode, n <= 1100). */
static double backward_error(const inputs *in, const void *out)
{
    double *F = kit_lu_in_double(in->d.n, in->d.is_double, out);
    kit_lu f = {in->d.n, in->d.a, F, in->d.u};
    double r = kit_lu_relative_residual(&f);
    free(F);
    return r;
}

static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    int n = in->d.n, status = in->status;
    if (!ctx->show)
        return 0;
    printf("%s(n=%d) returned %d%s\n", kit_decl_the_call(&DECL, in)->name, n, status,
           status == LU_OK ? " (LU_OK)" : status > 0 ? " (a zero pivot)" : "");
    if (status > 0 && status <= n)
        printf("  the pivot of column %d counts as zero\n", status - 1);
    kit_show_corner("the result (L on and below the diagonal, U above)", in->d.is_double ? KIT_T_F64 : KIT_T_F32, host[1],
                    n, n);
    if (status == LU_OK && n <= 1100)
        printf("||A - LU||_F / ||A||_F = %.3g  (unit roundoff of %s: %.3g)\n", backward_error(in, host[1]),
               in->d.is_double ? "double" : "float", in->d.u);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab09", .state_size = sizeof(inputs), .generate = generate, .release = release, .after = after,
    .baseline = baseline, .timing_first = 1, .decl = &DECL,
};
