/* check.c - lab05 checker: every output element against the CPU reference.
 *
 * Floats: out[i] is a sum of at most mask_size rounded products, so
 *   |got - exact| <= kit_sum_bound(mask_size + 1, sum_j |mask_j in_k|, u_float)
 * element by element (kit_ref_conv1d_f32 returns the sums of magnitudes).
 * Ints: exact.  A failure says where the wrong elements are: near the ends
 * of the array (the halo outside [0, n)), everywhere, or nowhere written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/checker.h"
#include "kit/timed.h"
#include "kit/ref.h"

typedef struct {
    size_t bad, bad_near_ends, unwritten; /* unwritten: still the harness's poison */
} where_bad;

/* Output i's mask covers the first or the last element of the array. */
static int near_end(size_t i, size_t n, int radius)
{
    return i <= (size_t)radius || i + (size_t)radius + 1 >= n;
}

static const char *function_name(const lab05_data *d)
{
    return d->halo ? "conv1d_halo_global" : d->is_int ? "conv1d_tiled_int" : "conv1d_tiled";
}

static void explain(kit_check_ctx *ctx, const lab05_data *d, const where_bad *w)
{
    int radius = d->mask_size / 2;
    if (d->n > 0 && w->unwritten == (size_t)d->n)
        kit_detail(ctx, "no output element was written: they all still hold the value the harness filled d_out "
                        "with (%s)",
                   d->is_int ? "-1" : "NaN");
    else if (w->bad == w->bad_near_ends && d->n > 2 * radius + 2)
        kit_detail(ctx, "only outputs near the ends of the array are wrong (those whose mask covers the first or "
                        "the last element, mask_size/2 = %d): terms outside [0, n) are left out (count them as "
                        "0), and elements 0 and n-1 are inside",
                   radius);
    if (d->example)
        kit_detail(ctx, "the worked example of the handout: out = {11, 11, 15, 22, 32, 32, 26, 14}");
}

static void check_int(kit_check_ctx *ctx, const lab05_data *d)
{
    uint64_t count = 0;
    const int32_t *got = kit_expect_array(ctx, "out", KIT_T_I32, 0, &count);
    if (!got)
        return;
    size_t n = (size_t)d->n;
    int64_t *want = malloc((n ? n : 1) * sizeof *want);
    if (!want) {
        kit_fail(ctx, "checker: out of memory");
        return;
    }
    kit_ref_conv1d_i32(d->iin, n, d->imask, d->mask_size, want);
    kit_cmp r;
    kit_cmp_i32(&r, got, (size_t)count, want, n);
    if (!kit_check_cmp(ctx, function_name(d), &r) && !r.length_mismatch) {
        where_bad w = {0, 0, 0};
        for (size_t i = 0; i < n; i++) {
            w.unwritten += got[i] == -1;
            if (got[i] != want[i]) {
                w.bad++;
                w.bad_near_ends += near_end(i, n, d->mask_size / 2);
            }
        }
        explain(ctx, d, &w);
    }
    free(want);
}

static void check_float(kit_check_ctx *ctx, const lab05_data *d)
{
    uint64_t count = 0;
    const float *got = kit_expect_array(ctx, "out", KIT_T_F32, 0, &count);
    if (!got)
        return;
    size_t n = (size_t)d->n, cnt = n ? n : 1;
    double *want = malloc(cnt * sizeof *want), *mag = malloc(cnt * sizeof *mag), *bound = malloc(cnt * sizeof *bound);
    if (!want || !mag || !bound) {
        kit_fail(ctx, "checker: out of memory");
    } else {
        kit_ref_conv1d_f32(d->fin, n, d->fmask, d->mask_size, want, mag);
        for (size_t i = 0; i < n; i++)
            bound[i] = kit_sum_bound((double)d->mask_size + 1, mag[i], KIT_U_F32);
        kit_cmp r;
        kit_cmp_f32(&r, got, (size_t)count, want, bound, n);
        if (!kit_check_cmp(ctx, function_name(d), &r) && !r.length_mismatch) {
            where_bad w = {0, 0, 0};
            for (size_t i = 0; i < n; i++) {
                w.unwritten += isnan(got[i]);
                if (!(fabs((double)got[i] - want[i]) <= bound[i])) {
                    w.bad++;
                    w.bad_near_ends += near_end(i, n, d->mask_size / 2);
                }
            }
            explain(ctx, d, &w);
        }
    }
    free(want);
    free(mag);
    free(bound);
}

/* A benchmark run sampled the output of a few timed calls (chosen at random
 * as they happened, and the last) with the (shift, scale) of their fresh
 * input (timed.h): every sampled element is recomputed, so an output left
 * from an earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const lab05_data *d)
{
    kit_timed_view v;
    int64_t n = d->n, r = d->mask_size / 2;
    if (kit_timed_load(ctx, LAB05_TIMED_SAMPLE, 0, n, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, n, function_name(d)))
            break;
        for (int j = 0; j < LAB05_TIMED_SAMPLE; j++) {
            size_t at = (size_t)k * LAB05_TIMED_SAMPLE + (size_t)j;
            int64_t i = v.index[at];
            /* out[i] = sum_m mask[m] * x'[i + m - r], x'[q] = scale * in[(q + shift) % n] */
            double want = 0, mag = 0;
            for (int m = 0; m < d->mask_size; m++) {
                int64_t q = i + m - r;
                if (q < 0 || q >= n)
                    continue;
                double term = (double)d->fmask[m] * (double)(float)(v.scale[k] * d->fin[(q + v.shift[k]) % n]);
                want += term;
                mag += fabs(term);
            }
            double got = kit_timed_f32(&v, at);
            if (!(fabs(got - want) <= kit_sum_bound((double)d->mask_size + 1, mag, KIT_U_F32))) {
                kit_timed_fail(ctx, &v, k, function_name(d), "input", "out[%lld] = %.9g, expected %.9g", (long long)i,
                               got, want);
                break;
            }
        }
    }
}

int lab_check(kit_check_ctx *ctx)
{
    lab05_data d;
    char err[256];
    if (lab05_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    /* evidence (manifest): the kernels read the whole array, handed over on the device */
    kit_call_input(ctx, "*", (double)d.n * 4, 1);
    if (d.is_int)
        check_int(ctx, &d);
    else
        check_float(ctx, &d);
    if (!d.is_int && !ctx->failed)
        check_timed(ctx, &d);
    lab05_free(&d);
    return ctx->failed;
}
