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
#include "kit/checker.h"
#include "kit/timed.h"
#include "kit/ref.h"

/* The harness's fill value, bit for bit (a NaN the student's code would not produce). */
static int is_fill(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

/* Says which elements were never written, in the terms of the mistake that
 * usually causes it.  Returns 1 when it reported a failure. */
static int explain_unwritten(kit_check_ctx *ctx, const char *call, int on_device, const float *c, int n)
{
    int unwritten = 0, first = -1, last = -1;
    for (int i = 0; i < n; i++)
        if (is_fill(c[i])) {
            unwritten++;
            last = i;
            if (first < 0)
                first = i;
        }
    if (unwritten == 0)
        return 0;
    if (unwritten == n) {
        if (on_device)
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
    return 1;
}

static void check_sums(kit_check_ctx *ctx, const lab02_data *d, const char *call)
{
    uint64_t count = 0;
    const float *c = kit_expect_array(ctx, "c", KIT_T_F32, 0, &count);
    if (!c)
        return;
    if (count != (uint64_t)d->n) {
        kit_fail(ctx, "output 'c' has %llu elements, expected %d", (unsigned long long)count, d->n);
        return;
    }
    if (d->n == 0)
        return;
    size_t n = (size_t)d->n;
    double *exact = malloc(n * sizeof *exact), *bound = malloc(n * sizeof *bound);
    if (!exact || !bound) {
        kit_fail(ctx, "checker: out of memory for n=%d", d->n);
    } else {
        kit_ref_vadd_f32(d->a, d->b, exact, n);
        for (size_t i = 0; i < n; i++)
            bound[i] = KIT_U_F32 * fabs(exact[i]); /* one rounding of the exact sum */
        kit_cmp r;
        kit_cmp_f32(&r, c, count, exact, bound, n);
        if (!kit_cmp_ok(&r)) {
            explain_unwritten(ctx, call, d->on_device, c, d->n);
            kit_check_cmp(ctx, call, &r);
        }
    }
    free(exact);
    free(bound);
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

/* Exercise 2: each thread adds per_thread elements on average, at least. */
static void check_threads_per_element(kit_check_ctx *ctx, const lab02_data *d, const char *call)
{
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
static void check_timed(kit_check_ctx *ctx, const lab02_data *d)
{
    kit_timed_view v;
    int64_t n = d->n;
    if (kit_timed_load(ctx, LAB02_TIMED_SAMPLE, 0, n, &v) != 1)
        return;
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, n, "vector_add_device"))
            break;
        for (int j = 0; j < LAB02_TIMED_SAMPLE; j++) {
            size_t at = (size_t)k * LAB02_TIMED_SAMPLE + (size_t)j;
            int64_t i = v.index[at], q = (i + v.shift[k]) % n;
            double exact = (double)(float)(v.scale[k] * d->a[q]) + (double)(float)(v.scale[k] * d->b[q]);
            double got = kit_timed_f32(&v, at);
            if (!(fabs(got - exact) <= KIT_U_F32 * fabs(exact))) {
                kit_timed_fail(ctx, &v, k, "vector_add_device", "a and b", "c[%lld] = %.9g, expected %.9g",
                               (long long)i, got, exact);
                break;
            }
        }
    }
}

int lab_check(kit_check_ctx *ctx)
{
    lab02_data d;
    char err[256];
    if (lab02_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
        kit_fail(ctx, "bad test parameters: %s", err);
        return 1;
    }
    /* evidence (manifest): the kernels read a and b; vector_add gets them on the host */
    kit_call_input(ctx, "*", 2.0 * d.n * sizeof(float), d.on_device);
    const char *call = d.on_device ? "vector_add_device" : "vector_add";
    check_sums(ctx, &d, call);
    check_threads_per_element(ctx, &d, call);
    if (!ctx->failed)
        check_timed(ctx, &d);
    lab02_free(&d);
    return ctx->failed;
}
