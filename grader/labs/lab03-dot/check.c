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
#include "kit/timed.h"
#include "kit/util.h"

/* A benchmark run recorded the result of a few timed calls (chosen at
 * random as they happened, and the last) with the (shift, scale) of their
 * fresh b (timed.h): each is recomputed, so a result remembered from an
 * earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const lab03_data *d)
{
    kit_timed_view v;
    if (d->n < 1 || kit_timed_load(ctx, 1, 1, 1, &v) != 1)
        return;
    float *rb = kit_xmalloc((size_t)d->n * sizeof *rb, "rotated b");
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, d->n, "dot_shared"))
            break;
        kit_fresh_apply_host(d->fb, rb, d->n, v.shift[k], v.scale[k]);
        double sum_abs = 0;
        double exact = kit_ref_dot_f32(d->fa, rb, (size_t)d->n, &sum_abs);
        double bound = kit_sum_bound((double)d->n + 1, sum_abs, KIT_U_F32);
        float got = kit_timed_f32(&v, (size_t)k);
        if (!(fabs((double)got - exact) <= bound))
            kit_timed_fail(ctx, &v, k, "dot_shared", "b", "returned %.9g, expected %.9g", got, exact);
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
