/* check.c - lab05 checker: every output element against the CPU reference.
 *
 * Floats: out[i] is a sum of at most mask_size rounded products, so
 *   |got - exact| <= kit_sum_bound(mask_size + 1, sum_j |mask_j in_k|, u_float)
 * element by element (`element` below, for the checked call and the timed
 * ones).  Ints: exact.  A failure says where the wrong elements are: near
 * the ends of the array (the halo outside [0, n)), or nowhere written.
 */
#include <math.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

static void reference_int(const void *data, const kit_check_ref *r)
{
    const lab05_data *d = data;
    kit_ref_conv1d_i32(d->iin, (size_t)d->n, d->imask, d->mask_size, r->i);
}

/* out[i] = sum_m mask[m] * x'[i + m - r], x'[q] = scale * in[(q + shift) % n]
 * (the input of a timed call: a benchmark run sampled the output of a few,
 * chosen at random as they happened, and the last, with the (shift, scale)
 * of their fresh input - timed.h - so an output left from an earlier call
 * fails); the checked call's is shift 0, scale 1. */
static double element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
{
    const lab05_data *d = data;
    int64_t n = d->n, r = d->radius;
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
 * say; d_out was poisoned (NaN, -1) by the harness.  evidence (manifest): the
 * kernels read the whole array, handed over on the device.  The float
 * versions' timed calls are sampled. */
#define OUT(type, function, when_, fill) LAB05_OUT, type, 0, 1, .what = function, .len_of = KIT_AT(lab05_data, n), \
    .when = when_, .poison = KIT_POISON(0xFF), .edge_of = KIT_AT(lab05_data, radius),                           \
    .unwritten_all = KIT_UNWRITTEN_D_OUT(fill),                                                                 \
    .edge_note = "only outputs near the ends of the array are wrong (those whose mask covers the first or the "  \
                 "last element, mask_size/2 = %d): terms outside [0, n) are left out (count them as 0), and "    \
                 "elements 0 and n-1 are inside",                                                               \
    .note = "the worked example of the handout: out = {11, 11, 15, 22, 32, 32, 26, 14}",                       \
    .note_when = KIT_WHEN(lab05_data, example, 1)
const kit_check KIT_CHECK = {
    sizeof(lab05_data), check_generate, check_release, .input_of = KIT_AT(lab05_data, n), .input_per = 4,
    .out = {{OUT(KIT_T_F32, "conv1d_halo_global", KIT_WHEN(lab05_data, halo, 1), "NaN"), .element = element},
            {OUT(KIT_T_I32, "conv1d_tiled_int", KIT_WHEN(lab05_data, is_int, 1), "-1"), .reference = reference_int},
            {OUT(KIT_T_F32, "conv1d_tiled", KIT_WHEN2(lab05_data, halo, 0, is_int, 0), "NaN"), .element = element}},
    .timed_sampled = {"input", LAB05_TIMED_SAMPLE, element, KIT_WHEN(lab05_data, is_int, 0)}};
