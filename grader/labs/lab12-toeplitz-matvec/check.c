/* check.c - lab12 checker: out[i] against in[i]^2 + 1 computed in double.
 *
 * Error bound: a float kernel rounds in[i] * in[i] and then the sum (or once,
 * with a fused multiply-add): |got - exact| <= 2 u (in[i]^2 + 1), u = 2^-24.
 */
#include <math.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/checker.h"
#include "kit/compare.h"
#include "kit/timed.h"
#include "kit/util.h"

static double exact(float x) { return (double)x * x + 1.0; }
static double bound(float x) { return 2 * KIT_U_F32 * ((double)x * x + 1.0); }

/* A benchmark run sampled the output of a few timed calls with the (shift,
 * scale) of their fresh input (timed.h): every sampled element is recomputed,
 * so an output left from an earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const lab12_data *d)
{
    kit_timed_view v;
    if (d->n < 1 || kit_timed_load(ctx, LAB12_TIMED_SAMPLE, 0, d->n, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, d->n, "toeplitz_matvec"))
            break;
        for (int j = 0; j < LAB12_TIMED_SAMPLE; j++) {
            size_t at = (size_t)k * LAB12_TIMED_SAMPLE + (size_t)j;
            int64_t i = v.index[at];
            float x = (float)(v.scale[k] * d->in[(i + v.shift[k]) % d->n]); /* the timed call's in[i] */
            double got = kit_timed_f32(&v, at);
            if (!(fabs(got - exact(x)) <= bound(x))) {
                kit_timed_fail(ctx, &v, k, "toeplitz_matvec", "in", "out[%lld] = %.9g, expected %.9g", (long long)i, got,
                               exact(x));
                break;
            }
        }
    }
}

int lab_check(kit_check_ctx *ctx)
{
    lab12_data d;
    char err[256];
    if (lab12_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    /* evidence (manifest): the kernels read the whole input, handed over on the device */
    kit_call_input(ctx, "*", (double)d.n * 4, 1);
    const float *got = kit_expect_array(ctx, "out", KIT_T_F32, (uint64_t)d.n, NULL);
    if (got) {
        size_t n = d.n ? (size_t)d.n : 1;
        double *want = kit_xmalloc(n * sizeof *want, "expected"), *tol = kit_xmalloc(n * sizeof *tol, "bounds");
        for (int i = 0; i < d.n; i++)
            want[i] = exact(d.in[i]), tol[i] = bound(d.in[i]);
        kit_cmp r;
        kit_cmp_f32(&r, got, (size_t)d.n, want, tol, (size_t)d.n);
        kit_check_cmp(ctx, "toeplitz_matvec", &r);
        free(want);
        free(tol);
    }
    if (!ctx->failed)
        check_timed(ctx, &d);
    lab12_free(&d);
    return ctx->failed;
}
