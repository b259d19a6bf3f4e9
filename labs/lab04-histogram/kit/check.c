/* check.c - lab04 checker: every bin against the exact CPU histogram.
 *
 * Counts are integers: every bin must match exactly (a total that adds up to
 * n proves nothing - a student report's kernel passed that check).  When bins
 * are wrong, the pattern is named: all bins equal (one count added to every
 * bin), counts that add up to less than n (lost updates: a non-atomic
 * increment), counts larger than n (a counter that was never cleared).
 * The histograms of a benchmark's timed calls must be the reference rotated
 * by their values' offset (the driver's timed_rotated).
 */

#include "dataset.h"
#include "kit/check_driver.h"
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

static void reference(const void *data, const kit_check_ref *r)
{
    const lab04_data *d = data;
    kit_ref_histogram(d->in, (size_t)d->n, d->bins, r->u);
}

KIT_CHECK_DATASET(lab04)

/* evidence (manifest): the kernels read every value, handed over on the
 * device.  A wrong number of bins is the comparison's to say (len_any). */
const kit_check KIT_CHECK = {
    sizeof(lab04_data), check_generate, check_release, .input_of = KIT_AT(lab04_data, n), .input_per = 4,
    .out = {{LAB04_OUT_BINS, KIT_T_U32, 0, 1, .what = "histogram", .reference = reference, .after = diagnose,
             .len_of = KIT_AT(lab04_data, bins)}},
    .timed_rotated = {"histogram_shared", "values", "bin"}};
