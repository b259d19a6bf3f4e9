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
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/checker.h"
#include "kit/timed.h"
#include "kit/ref.h"
#include "kit/util.h"

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

static void explain(kit_check_ctx *ctx, const lab06_data *d, const void *got)
{
    size_t n = (size_t)d->n, poisoned = 0;
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

static void check_int(kit_check_ctx *ctx, const lab06_data *d)
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
    kit_ref_scan_i32(d->iin, n, want);
    kit_cmp r;
    kit_cmp_i32(&r, got, (size_t)count, want, n);
    if (!kit_check_cmp(ctx, lab06_function(d), &r) && !r.length_mismatch)
        explain(ctx, d, got);
    free(want);
}

static void check_float(kit_check_ctx *ctx, const lab06_data *d)
{
    uint64_t count = 0;
    const float *got = kit_expect_array(ctx, "out", KIT_T_F32, 0, &count);
    if (!got)
        return;
    size_t n = (size_t)d->n, cnt = n ? n : 1;
    double *want = malloc(cnt * sizeof *want), *mag = malloc(cnt * sizeof *mag);
    if (!want || !mag) {
        kit_fail(ctx, "checker: out of memory");
    } else {
        kit_ref_scan_f32(d->fin, n, want, mag);
        /* mag becomes the bound in place: element i sums i + 1 inputs */
        for (size_t i = 0; i < n; i++)
            mag[i] = kit_sum_bound((double)i + 1, mag[i], KIT_U_F32);
        kit_cmp r;
        kit_cmp_f32(&r, got, (size_t)count, want, mag, n);
        if (!kit_check_cmp(ctx, lab06_function(d), &r) && !r.length_mismatch)
            explain(ctx, d, got);
    }
    free(want);
    free(mag);
}

typedef struct {
    int64_t index;
    int pos; /* in the record */
} sampled;

static int by_index(const void *a, const void *b)
{
    int64_t x = ((const sampled *)a)->index, y = ((const sampled *)b)->index;
    return (x > y) - (x < y);
}

/* A benchmark run sampled the output of a few timed calls (chosen at random
 * as they happened, and the last) with the (shift, scale) of their fresh
 * input (timed.h): every sampled prefix is recomputed, so an output left from
 * an earlier call fails. */
static void check_timed(kit_check_ctx *ctx, const lab06_data *d)
{
    kit_timed_view v;
    int64_t n = d->n;
    if (kit_timed_load(ctx, LAB06_TIMED_SAMPLE, 0, n, &v) != 1)
        return;
    float *x = kit_xmalloc((size_t)n * sizeof *x, "a timed call's input");
    sampled *order = kit_xmalloc(LAB06_TIMED_SAMPLE * sizeof *order, "the samples");
    for (int k = 0; k < v.n && !ctx->failed; k++) {
        if (!kit_timed_inputs_ok(ctx, &v, k, n, "scan"))
            break;
        size_t at = (size_t)k * LAB06_TIMED_SAMPLE;
        for (int j = 0; j < LAB06_TIMED_SAMPLE; j++)
            order[j].index = v.index[at + j], order[j].pos = j;
        qsort(order, LAB06_TIMED_SAMPLE, sizeof *order, by_index);
        kit_fresh_apply_host(d->fin, x, n, v.shift[k], v.scale[k]);
        double sum = 0, mag = 0;
        int64_t i = 0;
        for (int j = 0; j < LAB06_TIMED_SAMPLE; j++) {
            for (; i <= order[j].index; i++)
                sum += x[i], mag += fabs((double)x[i]);
            double got = kit_timed_f32(&v, at + (size_t)order[j].pos);
            if (!(fabs(got - sum) <= kit_sum_bound((double)order[j].index + 1, mag, KIT_U_F32))) {
                kit_timed_fail(ctx, &v, k, "scan", "input", "out[%lld] = %.9g, expected %.9g",
                               (long long)order[j].index, got, sum);
                break;
            }
        }
    }
    free(x);
    free(order);
}

int lab_check(kit_check_ctx *ctx)
{
    lab06_data d;
    char err[256];
    if (lab06_generate(ctx->params, ctx->seed, &d, err, sizeof err) != 0) {
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
    lab06_free(&d);
    return ctx->failed;
}
