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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"

/* The harness's fill value, bit for bit (a NaN the student's code would not produce). */
static int is_fill(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

static const char *call_name(const lab02_data *d) { return d->on_device ? "vector_add_device" : "vector_add"; }

/* After a wrong c: which elements were never written, in the terms of the
 * mistake that usually causes it (the summary, before the comparison's). */
static void explain_unwritten(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const lab02_data *d = data;
    const float *c = g->got;
    int n = d->n, unwritten = 0, first = -1, last = -1;
    const char *call = call_name(d);
    for (int i = 0; i < n; i++)
        if (is_fill(c[i])) {
            unwritten++;
            last = i;
            if (first < 0)
                first = i;
        }
    if (unwritten == 0)
        return;
    if (unwritten == n) {
        if (d->on_device)
            kit_fail(ctx, "%s: no element of c was written (all %d still hold the NaN the kit filled c with)", call, n);
        else
            kit_fail(ctx,
                     "%s: h_c was never written (all %d elements still hold the NaN the kit filled it with): the "
                     "sum must be copied back from the device into h_c",
                     call, n);
    } else if (last == n - 1 && unwritten == n - first) {
        char which[64];
        if (first == n - 1)
            snprintf(which, sizeof which, "element %d of c was", first);
        else
            snprintf(which, sizeof which, "elements %d..%d of c were", first, n - 1);
        kit_fail(ctx,
                 "%s: %s never written (still the kit's NaN fill), the first %d were: do your blocks cover all %d "
                 "elements?",
                 call, which, first, n);
    } else {
        kit_fail(ctx, "%s: %d of %d elements of c were never written (still the kit's NaN fill), the first at index %d",
                 call, unwritten, n, first);
    }
}

/* c_i = a_i + b_i, one rounding of the exact sum */
static void reference(const void *data, const kit_check_ref *r)
{
    const lab02_data *d = data;
    kit_ref_vadd_f32(d->a, d->b, r->f, (size_t)d->n);
    for (int i = 0; i < d->n; i++)
        r->bound[i] = KIT_U_F32 * fabs(r->f[i]);
}

/* Threads launched in all by the kernels of the call named `call`.  Returns
 * the number of its kernels, or -1 when the trace is not available (the
 * device-execution policy has already noted why). */
static int call_threads(const kit_blobfile *out, const char *call, long long *threads)
{
    *threads = 0;
    int n = kit_call_launches(out, call, NULL, 0); /* how many, then all of them */
    if (n <= 0)
        return n;
    kit_launch *ks = calloc((size_t)n, sizeof *ks);
    if (!ks)
        return -1;
    kit_call_launches(out, call, ks, n);
    for (int i = 0; i < n; i++)
        *threads += (long long)ks[i].grid[0] * ks[i].grid[1] * ks[i].grid[2] * ks[i].block[0] * ks[i].block[1] *
                    ks[i].block[2];
    free(ks);
    return n;
}

/* Exercise 2: each thread adds per_thread elements on average, at least
 * (judged whether the sums were right or not). */
static void check_threads_per_element(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab02_data *d = data;
    const char *call = call_name(d);
    (void)outs, (void)ok;
    if (d->per_thread <= 1 || d->n == 0)
        return;
    long long threads, allowed = d->n / d->per_thread;
    int n_kernels = call_threads(ctx->out, call, &threads);
    if (n_kernels <= 0) /* no trace, or no kernel (the policy has said so) */
        return;
    if (threads > allowed)
        kit_fail(ctx,
                 "%s launched %lld threads for n = %d elements: exercise 2 asks each thread to add several "
                 "elements (here at least %d on average, so at most %lld threads), with a grid that does not "
                 "have to grow with n",
                 call, threads, d->n, d->per_thread, allowed);
}

/* A benchmark run sampled c of a few timed calls of vector_add_device (chosen
 * at random as they happened, and the last) with the (shift, scale) of their
 * fresh a and b (timed.h): every sampled element is recomputed, so a c left
 * from an earlier call (or the baseline's copy) fails. */
static double timed_element(const void *data, int64_t i, int64_t shift, double scale, double *bound)
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

/* c poisoned with NaN by the harness: explain_unwritten names the elements never written */
#define C(entry, dev) {LAB02_OUT_C, KIT_T_F32, .what = entry, .reference = reference, \
    .after = explain_unwritten, .explain_first = 1, .len_of = KIT_AT(lab02_data, n),      \
    .when = KIT_WHEN(lab02_data, on_device, dev)}
const kit_check KIT_CHECK = {
    sizeof(lab02_data), check_generate, check_release, .input_on_host = input_on_host,
    .input_of = KIT_AT(lab02_data, n), .input_per = 2 * sizeof(float),
    .out = {C("vector_add_device", 1), C("vector_add", 0)}, .judge = check_threads_per_element,
    .timed_sampled = {"a and b", LAB02_TIMED_SAMPLE, timed_element}};
