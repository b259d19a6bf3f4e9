/* check.c - lab02 checker: c = a + b against the exact sums.
 *
 * Each element is one rounded float addition, so |c_i - (a_i + b_i)| <=
 * u |a_i + b_i| with u = 2^-24 (the exact sum, in double, is the reference).
 * The harness filled c with NaN (all bits set) before the call, so elements
 * the student never wrote - a result never copied back, a grid too small -
 * are recognised and explained as such.  With per_thread=k the kernel trace
 * must show at most n/k threads launched (exercise 2).
 */
#include <math.h>

#include "dataset.h"
#include "kit/check_driver.h"

/* c_i on a and b as a timed call of vector_add_device had them, a'[q] =
 * scale * a[(q + shift) % n] (b' alike); the checked call's are shift 0,
 * scale 1.  A benchmark run sampled c of a few timed calls (chosen at random
 * as they happened, and the last) with the (shift, scale) of their fresh a
 * and b (timed.h): every sampled element is recomputed, so a c left from an
 * earlier call (or the baseline's copy) fails. */
static double element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
{
    const lab02_data *d = data;
    int64_t q = (i + shift) % d->n;
    double exact = (double)(float)(scale * d->a[q]) + (double)(float)(scale * d->b[q]);
    *bound = KIT_U_F32 * fabs(exact);
    return exact;
}

/* evidence (manifest): the kernels read a and b; vector_add gets them on the host */
static int input_on_host(const void *data) { return !((const lab02_data *)data)->on_device; }

KIT_CHECK_DATASET(lab02)

/* c poisoned with NaN by the harness: the elements never written are named first */
#define C(entry, dev, ...) {LAB02_OUT_C, KIT_T_F32, .what = entry, .explain_first = 1,                           \
    .len_of = KIT_AT(lab02_data, n), .when = KIT_WHEN(lab02_data, on_device, dev), .element = element,           \
    .poison = KIT_POISON(0xFF), .unwritten_where = 1, __VA_ARGS__}
const kit_check KIT_CHECK = {
    sizeof(lab02_data), check_generate, check_release, .input_on_host = input_on_host,
    .input_of = KIT_AT(lab02_data, n), .input_per = 2 * sizeof(float),
    .out = {C("vector_add_device", 1),
            C("vector_add", 0, .unwritten_all = "%s: h_c was never written (all %llu elements still hold the NaN the "
                                                "kit filled it with): the sum must be copied back from the device "
                                                "into h_c")},
    /* exercise 2, judged whether the sums were right or not */
    .threads = {KIT_AT(lab02_data, n), KIT_AT(lab02_data, per_thread),
                "%s launched %lld threads for n = %d elements: exercise 2 asks each thread to add several "
                "elements (here at least %d on average, so at most %lld threads), with a grid that does not "
                "have to grow with n"},
    .timed_sampled = {"a and b", LAB02_TIMED_SAMPLE, element}};
