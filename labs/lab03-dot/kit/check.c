/* check.c - lab03 checker: the dot product against the exact CPU value.
 *
 * Floats: |got - exact| <= kit_sum_bound(n + 1, sum |a_i b_i|, u_float):
 * n rounded products summed in any order, plus the final rounding to float.
 * Ints: exact.  The result of a benchmark's timed calls is recomputed from
 * their fresh b (the driver's timed_fresh).
 */
#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

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
    .timed_always = 1,
    .timed_fresh = {"dot_shared", "b", {KIT_AT(lab03_data, fb)}, KIT_AT(lab03_data, n), KIT_WHEN(lab03_data, is_int, 0)}};
