/* check.c - lab05 checker: every output element against the CPU reference.
 *
 * Floats: out[i] is a sum of at most mask_size rounded products, so
 *   |got - exact| <= kit_sum_bound(mask_size + 1, sum_j |mask_j in_k|, u_float)
 * element by element (kit_ref_conv1d_f32 returns the sums of magnitudes).
 * Ints: exact.  A failure says where the wrong elements are: near the ends
 * of the array (the halo outside [0, n)), everywhere, or nowhere written.
 */
#include <math.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

typedef struct {
    size_t bad, bad_near_ends, unwritten; /* unwritten: still the harness's poison */
} where_bad;

/* Output i's mask covers the first or the last element of the array. */
static int near_end(size_t i, size_t n, int radius)
{
    return i <= (size_t)radius || i + (size_t)radius + 1 >= n;
}

/* After a wrong output: where the wrong elements are. */
static void explain(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const lab05_data *d = data;
    int radius = d->mask_size / 2;
    size_t n = (size_t)d->n;
    if (g->ok || g->cmp.length_mismatch)
        return;
    where_bad w = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        int wrong;
        if (d->is_int) {
            int32_t got = ((const int32_t *)g->got)[i];
            w.unwritten += got == -1;
            wrong = got != g->ref.i[i];
        } else {
            float got = ((const float *)g->got)[i];
            w.unwritten += isnan(got);
            wrong = !(fabs((double)got - g->ref.f[i]) <= g->ref.bound[i]);
        }
        w.bad += wrong;
        w.bad_near_ends += wrong && near_end(i, n, radius);
    }
    if (d->n > 0 && w.unwritten == n)
        kit_detail(ctx, "no output element was written: they all still hold the value the harness filled d_out "
                        "with (%s)",
                   d->is_int ? "-1" : "NaN");
    else if (w.bad == w.bad_near_ends && d->n > 2 * radius + 2)
        kit_detail(ctx, "only outputs near the ends of the array are wrong (those whose mask covers the first or "
                        "the last element, mask_size/2 = %d): terms outside [0, n) are left out (count them as "
                        "0), and elements 0 and n-1 are inside",
                   radius);
    if (d->example)
        kit_detail(ctx, "the worked example of the handout: out = {11, 11, 15, 22, 32, 32, 26, 14}");
}

/* Ints exactly; floats within kit_sum_bound of the sums of magnitudes. */
static void reference(const void *data, const kit_check_ref *r)
{
    const lab05_data *d = data;
    size_t n = (size_t)d->n;
    if (d->is_int) {
        kit_ref_conv1d_i32(d->iin, n, d->imask, d->mask_size, r->i);
        return;
    }
    kit_ref_conv1d_f32(d->fin, n, d->fmask, d->mask_size, r->f, r->bound); /* bound: the magnitudes first */
    for (size_t i = 0; i < n; i++)
        r->bound[i] = kit_sum_bound((double)d->mask_size + 1, r->bound[i], KIT_U_F32);
}

/* A benchmark run sampled the output of a few timed calls (chosen at random
 * as they happened, and the last) with the (shift, scale) of their fresh
 * input (timed.h): every sampled element is recomputed, so an output left
 * from an earlier call fails: out[i] = sum_m mask[m] * x'[i + m - r],
 * x'[q] = scale * in[(q + shift) % n]. */
static double timed_element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
{
    const lab05_data *d = data;
    int64_t n = d->n, r = d->mask_size / 2;
    double want = 0, mag = 0;
    for (int m = 0; m < d->mask_size; m++) {
        int64_t q = i + m - r;
        if (q < 0 || q >= n)
            continue;
        double term = (double)d->fmask[m] * (double)(float)(scale * d->fin[(q + shift) % n]);
        want += term;
        mag += fabs(term);
    }
    *bound = kit_sum_bound((double)d->mask_size + 1, mag, KIT_U_F32);
    return want;
}

KIT_CHECK_DATASET(lab05)

/* The case's function, ints exactly; a wrong length is the comparison's to
 * say.  evidence (manifest): the kernels read the whole array, handed over on
 * the device.  The float versions' timed calls are sampled. */
#define OUT(type, function, when_) {LAB05_OUT, type, 0, 1, .what = function, .reference = reference, \
    .after = explain, .len_of = KIT_AT(lab05_data, n), .when = when_}
const kit_check KIT_CHECK = {
    sizeof(lab05_data), check_generate, check_release, .input_of = KIT_AT(lab05_data, n), .input_per = 4,
    .out = {OUT(KIT_T_F32, "conv1d_halo_global", KIT_WHEN(lab05_data, halo, 1)),
            OUT(KIT_T_I32, "conv1d_tiled_int", KIT_WHEN(lab05_data, is_int, 1)),
            OUT(KIT_T_F32, "conv1d_tiled", KIT_WHEN2(lab05_data, halo, 0, is_int, 0))},
    .timed_sampled = {"input", LAB05_TIMED_SAMPLE, timed_element, KIT_WHEN(lab05_data, is_int, 0)}};
