/* check.c - lab06 checker: every prefix against the CPU reference.
 *
 * Floats: out[i] is a sum of i+1 inputs, added in whatever order the scan
 * uses, so |got - exact| <= kit_sum_bound(i + 1, |in_0| + ... + |in_i|, u_float)
 * element by element.  Ints: exact.  A failure also says whether the output
 * is a scan of each block on its own (the block totals never added), whether
 * nothing was written, and, for Part 1, that results changing from run to
 * run point to a race.
 */
#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

/* Part 2's first step alone: got[0..lim) a scan of each block on its own. */
static int blockwise(const void *data, const void *got, size_t lim, size_t block)
{
    const lab06_data *d = data;
    return (d->is_int ? kit_scan_first_wrong_i32(d->iin, got, lim, block)
                      : kit_scan_first_wrong_f32(d->fin, got, lim, block)) == lim;
}

/* Ints exactly; floats: sums of magnitudes, made bounds by the rows' terms. */
static void reference(const void *data, const kit_check_ref *r)
{
    const lab06_data *d = data;
    if (d->is_int)
        kit_ref_scan_i32(d->iin, (size_t)d->n, r->i);
    else
        kit_ref_scan_f32(d->fin, (size_t)d->n, r->f, r->bound);
}

KIT_CHECK_DATASET(lab06)

/* evidence (manifest): the kernels read the whole array, handed over on the
 * device.  A benchmark run sampled the output of a few timed calls of scan
 * (chosen at random as they happened, and the last) with the (shift, scale)
 * of their fresh input: the sampled prefixes are the reference's on that
 * input, so an output left from an earlier call fails. */
#define OUT(type, function, p_, i_, fill) {LAB06_OUT, type, 0, 1, .what = function, .reference = reference,         \
    .len_of = KIT_AT(lab06_data, n), .when = KIT_WHEN2(lab06_data, part, p_, is_int, i_),                              \
    .terms_add = 1, .terms_index = 1, .poison = KIT_POISON(0xFF),                                                      \
    .unwritten_all = KIT_UNWRITTEN_D_OUT(fill),                                                                      \
    .mistake = {blockwise, 32, 2048, 8, "out[i] is the scan of i's own block of %zu elements: the totals of the "     \
                                        "earlier blocks were never added (Part 2, steps 2 and 3)"},                  \
    .note = "if the wrong elements change from run to run, threads race on shared memory: run compute-sanitizer "     \
            "--tool racecheck (make lab06 TEST=racecheck)",                                                           \
    .note_when = KIT_WHEN(lab06_data, part, 1), .note_unexplained = 1}
const kit_check KIT_CHECK = {
    sizeof(lab06_data), check_generate, check_release, .input_of = KIT_AT(lab06_data, n), .input_per = 4,
    /* the case's function (lab06_function), ints exactly; a wrong length is the comparison's to say */
    .out = {OUT(KIT_T_F32, "scan_block", 1, 0, "NaN"), OUT(KIT_T_I32, "scan_block_int", 1, 1, "-1"),
            OUT(KIT_T_F32, "scan", 2, 0, "NaN"), OUT(KIT_T_I32, "scan_int", 2, 1, "-1")},
    .timed_fresh = {"scan", "input", {KIT_AT(lab06_data, fin)}, KIT_AT(lab06_data, n), KIT_WHEN(lab06_data, is_int, 0),
                    LAB06_TIMED_SAMPLE}};
