/* check.c - lab06 checker: every prefix against the CPU reference.
 *
 * Floats: out[i] is a sum of i+1 inputs, added in whatever order the scan
 * uses, so |got - exact| <= kit_sum_bound(i + 1, |in_0| + ... + |in_i|, u_float)
 * element by element.  Ints: exact.  A failure also says whether the output
 * is a scan of each block on its own (the block totals never added), whether
 * nothing was written, and, for Part 1, that results changing from run to
 * run point to a race.
 */
#include <math.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

/* Does got[0..lim) look like an inclusive scan restarted every `block`
 * elements?  (What Part 2's first step alone produces.) */
static int is_blockwise_scan(const lab06_data *d, const void *got, size_t lim, size_t block)
{
    double s = 0, s_abs = 0;
    for (size_t i = 0; i < lim; i++) {
        if (i % block == 0)
            s = 0, s_abs = 0;
        double x = d->is_int ? (double)d->iin[i] : (double)d->fin[i];
        s += x;
        s_abs += fabs(x);
        if (d->is_int) {
            if ((double)((const int32_t *)got)[i] != s)
                return 0;
        } else {
            double g = (double)((const float *)got)[i];
            /* double sums of up to 2048 floats: far inside the float bound */
            if (!(fabs(g - s) <= kit_sum_bound((double)(i % block) + 1, s_abs, KIT_U_F32)))
                return 0;
        }
    }
    return 1;
}

/* After a wrong output: nothing written, blocks never joined, or a race. */
static void explain(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const lab06_data *d = data;
    const void *got = g->got;
    size_t n = (size_t)d->n, poisoned = 0;
    if (g->ok || g->cmp.length_mismatch)
        return;
    for (size_t i = 0; i < n; i++)
        poisoned += d->is_int ? ((const int32_t *)got)[i] == -1 : isnan(((const float *)got)[i]);
    if (n > 0 && poisoned == n) {
        kit_detail(ctx, "no output element was written: they all still hold the value the harness filled d_out "
                        "with (%s)",
                   d->is_int ? "-1" : "NaN");
        return;
    }
    for (size_t block = 32; block <= 2048; block *= 2) {
        if (n <= block)
            break;
        size_t lim = n < 8 * block ? n : 8 * block;
        if (is_blockwise_scan(d, got, lim, block)) {
            kit_detail(ctx, "out[i] is the scan of i's own block of %zu elements: the totals of the earlier blocks "
                            "were never added (Part 2, steps 2 and 3)",
                       block);
            return;
        }
    }
    if (d->part == 1)
        kit_detail(ctx, "if the wrong elements change from run to run, threads race on shared memory: run "
                        "compute-sanitizer --tool racecheck (make lab06 TEST=racecheck)");
}

/* Ints exactly; floats within kit_sum_bound of the sums of magnitudes
 * (element i sums i + 1 inputs). */
static void reference(const void *data, const kit_check_ref *r)
{
    const lab06_data *d = data;
    size_t n = (size_t)d->n;
    if (d->is_int) {
        kit_ref_scan_i32(d->iin, n, r->i);
        return;
    }
    kit_ref_scan_f32(d->fin, n, r->f, r->bound); /* bound: the magnitudes first */
    for (size_t i = 0; i < n; i++)
        r->bound[i] = kit_sum_bound((double)i + 1, r->bound[i], KIT_U_F32);
}

KIT_CHECK_DATASET(lab06)

/* evidence (manifest): the kernels read the whole array, handed over on the
 * device.  A benchmark run sampled the output of a few timed calls of scan
 * (chosen at random as they happened, and the last) with the (shift, scale)
 * of their fresh input: the sampled prefixes are the reference's on that
 * input, so an output left from an earlier call fails. */
#define OUT(type, function, p_, i_) {LAB06_OUT, type, 0, 1, .what = function, .reference = reference, \
    .after = explain, .len_of = KIT_AT(lab06_data, n), .when = KIT_WHEN2(lab06_data, part, p_, is_int, i_)}
const kit_check KIT_CHECK = {
    sizeof(lab06_data), check_generate, check_release, .input_of = KIT_AT(lab06_data, n), .input_per = 4,
    /* the case's function (lab06_function), ints exactly; a wrong length is the comparison's to say */
    .out = {OUT(KIT_T_F32, "scan_block", 1, 0), OUT(KIT_T_I32, "scan_block_int", 1, 1),
            OUT(KIT_T_F32, "scan", 2, 0), OUT(KIT_T_I32, "scan_int", 2, 1)},
    .timed_fresh = {"scan", "input", {KIT_AT(lab06_data, fin)}, KIT_AT(lab06_data, n), KIT_WHEN(lab06_data, is_int, 0),
                    LAB06_TIMED_SAMPLE}};
