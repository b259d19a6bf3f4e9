/* check.c - lab04 checker: every bin against the exact CPU histogram.
 *
 * Counts are integers: every bin must match exactly (a total that adds up to
 * n proves nothing - a student report's kernel passed that check).  When bins
 * are wrong, the pattern is named: all bins equal (one count added to every
 * bin), counts that add up to less than n (lost updates: a non-atomic
 * increment), counts larger than n (a counter that was never cleared).
 */
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/timed.h"
#include "kit/ref.h"

/* Explains what kind of wrong the histogram is. */
static void diagnose(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const lab04_data *d = data;
    const uint32_t *got = g->got;
    const uint64_t *want = g->ref.u;
    if (g->ok || g->cmp.length_mismatch)
        return;
    unsigned long long total = 0;
    int all_equal = 1, garbage_bin = -1;
    for (int b = 0; b < d->bins; b++) {
        total += got[b];
        if (got[b] != got[0])
            all_equal = 0;
        if (garbage_bin < 0 && got[b] > (uint32_t)d->n)
            garbage_bin = b;
    }
    kit_detail(ctx, "your counts add up to %llu; there are %d values", total, d->n);
    if (garbage_bin >= 0)
        kit_detail(ctx, "bin %d holds %u, more than there are values: a counter that was never set to zero "
                        "(shared memory starts with whatever the last block left there; the global histogram "
                        "starts as garbage)",
                   garbage_bin, got[garbage_bin]);
    else if (all_equal && d->bins > 1)
        kit_detail(ctx, "every bin holds the same count (%u): does each global bin receive the count of its own "
                        "bin?",
                   got[0]);
    else if (total < (unsigned long long)d->n)
        kit_detail(ctx, "%llu increments are missing: two threads that read, add 1 and write the same counter "
                        "at the same time lose one increment - use atomicAdd",
                   (unsigned long long)d->n - total);
    else if (total == (unsigned long long)d->n)
        kit_detail(ctx, "the total is right but counts are in the wrong bins");
    if (d->n > 0 && got[d->hot] != want[d->hot])
        kit_detail(ctx, "bin %d (the most frequent value in skewed/equal data): expected %llu, got %u", d->hot,
                   (unsigned long long)want[d->hot], got[d->hot]);
}

/* A benchmark run recorded the histograms of a few timed calls (chosen at
 * random as they happened, and the last) with the offset their input values
 * were shifted by (timed.h, shift = the offset): each must be the reference
 * rotated by it, so a histogram left from an earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const void *data, const kit_check_got *outs)
{
    const lab04_data *d = data;
    const uint64_t *want = outs[0].ref.u;
    kit_timed_view v;
    if (kit_timed_load(ctx, d->bins, 1, d->bins, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, d->bins, "histogram_shared"))
            break;
        for (int b = 0; b < d->bins; b++) {
            int at = (int)((b + v.shift[k]) % d->bins);
            uint32_t got = v.value[(size_t)k * d->bins + (size_t)at];
            if ((uint64_t)got != want[b]) {
                kit_timed_fail(ctx, &v, k, "histogram_shared", "values", "bin %d holds %u, expected %llu", at, got,
                               (unsigned long long)want[b]);
                break;
            }
        }
    }
}

/* evidence (manifest): the kernels read every value, handed over on the device */
static double input(const void *data) { return (double)((const lab04_data *)data)->n * sizeof(int32_t); }

static void reference(const void *data, const kit_check_ref *r)
{
    const lab04_data *d = data;
    kit_ref_histogram(d->in, (size_t)d->n, d->bins, r->u);
}

/* A wrong number of bins is the comparison's to say. */
static int outputs(const void *data, kit_check_output *out)
{
    out[0] = (kit_check_output){LAB04_OUT_BINS, KIT_T_U32, (uint64_t)((const lab04_data *)data)->bins, 1,
                                .what = "histogram", .reference = reference, .after = diagnose};
    return 1;
}

KIT_CHECK_DATASET(lab04)

const kit_check KIT_CHECK = {sizeof(lab04_data), check_generate, check_release, .input = input, .outputs = outputs,
                             .timed = check_timed};
