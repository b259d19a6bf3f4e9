/* check.c - lab03 checker: the dot product against the exact CPU value.
 *
 * Floats: |got - exact| <= kit_sum_bound(n + 1, sum |a_i b_i|, u_float):
 * n rounded products summed in any order, plus the final rounding to float.
 * Ints: exact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/checker.h"
#include "kit/ref.h"
#include "kit/rng.h"
#include "kit/util.h"

#define TIMED_SAMPLE 4 /* timed calls recomputed per benchmark run */

/* A benchmark run recorded every timed call's result with the (shift,
 * scale) its b was rotated and scaled by.  Recomputes an unpredictable
 * sample of them (always including the last): a submission returning a
 * result remembered from an earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const lab03_data *d)
{
    uint64_t n_calls = 0, c2 = 0, c3 = 0;
    if (!kit_blob_get(ctx->out, LAB03_TIMED_RESULT, KIT_T_F32, &n_calls))
        return; /* not a benchmark run */
    const float *got = kit_expect_array(ctx, LAB03_TIMED_RESULT, KIT_T_F32, 0, &n_calls);
    const int64_t *shift = kit_expect_array(ctx, LAB03_TIMED_SHIFT, KIT_T_I64, n_calls, &c2);
    const double *scale = kit_expect_array(ctx, LAB03_TIMED_SCALE, KIT_T_F64, n_calls, &c3);
    if (!got || !shift || !scale)
        return;
    if (n_calls == 0 || d->n < 1) {
        kit_fail(ctx, "the benchmark recorded no timed call of dot_shared");
        return;
    }
    uint64_t pick = kit_random_u64();
    float *rb = kit_xmalloc((size_t)d->n * sizeof *rb, "rotated b");
    for (int s = 0; s < TIMED_SAMPLE && !ctx->failed; s++) {
        uint64_t k = s == 0 ? n_calls - 1 : kit_mix64(pick + (uint64_t)s) % n_calls;
        if (shift[k] < 0 || shift[k] >= d->n || !(fabs(scale[k]) > 0)) {
            kit_fail(ctx, "timed call %llu of dot_shared: its inputs were not recorded", (unsigned long long)k + 1);
            break;
        }
        kit_fresh_apply_host(d->fb, rb, d->n, shift[k], scale[k]);
        double sum_abs = 0;
        double exact = kit_ref_dot_f32(d->fa, rb, (size_t)d->n, &sum_abs);
        double bound = kit_sum_bound((double)d->n + 1, sum_abs, KIT_U_F32);
        kit_cmp r;
        kit_cmp_scalar(&r, got[k], exact, bound);
        if (!kit_cmp_ok(&r)) {
            kit_fail(ctx, "timed call %llu of dot_shared (fresh inputs each call) returned %.9g, expected %.9g: "
                     "every timed call must compute its result (a remembered one is not timed)",
                     (unsigned long long)k + 1, got[k], exact);
        }
    }
    free(rb);
}

int lab_check(kit_check_ctx *ctx)
{
    lab03_data d;
    char err[256];
    if (lab03_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    /* evidence (manifest): the kernels read both vectors, handed over on the device */
    kit_call_input(ctx, "*", 2.0 * d.n * 4, 1);
    kit_cmp r;
    if (d.is_int) {
        const int32_t *got = kit_expect_array(ctx, "result_int", KIT_T_I32, 1, NULL);
        if (got) {
            int64_t exact = kit_ref_dot_i32(d.ia, d.ib, (size_t)d.n);
            kit_cmp_i32(&r, got, 1, &exact, 1);
            kit_check_cmp(ctx, "dot_shared_int", &r);
        }
    } else {
        const float *got = kit_expect_array(ctx, "result", KIT_T_F32, 1, NULL);
        if (got) {
            double sum_abs = 0;
            double exact = kit_ref_dot_f32(d.fa, d.fb, (size_t)d.n, &sum_abs);
            double bound = kit_sum_bound((double)d.n + 1, sum_abs, KIT_U_F32);
            kit_cmp_scalar(&r, *got, exact, bound);
            if (kit_check_cmp(ctx, "dot_shared", &r))
                kit_detail(ctx, "dot_shared: %.9g (exact %.9g, allowed error %.2g)", *got, exact, bound);
        }
        check_timed(ctx, &d);
    }
    lab03_free(&d);
    return ctx->failed;
}
