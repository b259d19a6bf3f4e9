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
#include "kit/check_driver.h"
#include "kit/ref.h"
#include "kit/timed.h"
#include "kit/util.h"

/* A benchmark run recorded the result of a few timed calls (chosen at
 * random as they happened, and the last) with the (shift, scale) of their
 * fresh b (timed.h): each is recomputed, so a result remembered from an
 * earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    const lab03_data *d = data;
    kit_timed_view v;
    (void)outs;
    if (d->is_int || d->n < 1 || kit_timed_load(ctx, 1, 1, 1, &v) != 1)
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

static void reference(const void *data, const kit_check_ref *r)
{
    const lab03_data *d = data;
    double sum_abs = 0;
    if (d->is_int)
        r->i[0] = kit_ref_dot_i32(d->ia, d->ib, (size_t)d->n);
    else
        r->f[0] = kit_ref_dot_f32(d->fa, d->fb, (size_t)d->n, &sum_abs);
    if (!d->is_int)
        r->bound[0] = kit_sum_bound((double)d->n + 1, sum_abs, KIT_U_F32);
}

static void note(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    (void)data;
    if (g->ok)
        kit_detail(ctx, "dot_shared: %.9g (exact %.9g, allowed error %.2g)", *(const float *)g->got, g->ref.f[0],
                   g->ref.bound[0]);
}

KIT_CHECK_DATASET(lab03)

/* evidence (manifest): the kernels read both vectors, handed over on the
 * device.  The timed calls are checked after a wrong result too. */
const kit_check KIT_CHECK = {
    sizeof(lab03_data), check_generate, check_release, .input_of = KIT_AT(lab03_data, n), .input_per = 8,
    .out = {{LAB03_OUT_RESULT, KIT_T_F32, 1, .what = "dot_shared", .reference = reference, .after = note,
             .when = KIT_WHEN(lab03_data, is_int, 0)},
            {LAB03_OUT_RESULT_INT, KIT_T_I32, 1, .what = "dot_shared_int", .reference = reference,
             .when = KIT_WHEN(lab03_data, is_int, 1)}},
    .timed = check_timed, .timed_always = 1};
