/* harness.cu - lab06's declaration (kit/lab.cuh): the input on the GPU, one
 * call of scan_block / scan_block_int (part=1) or scan / scan_int (part=2)
 * on a poisoned output, "out" recorded; bench mode times scan against the
 * kit's one-launch-per-stride global-memory scan.
 *
 * Over 100 lines: four functions, the show-mode check of out[i] = out[i-1] +
 * in[i] and time=1 timing.
 */
#include <math.h>
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "scan.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab06_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab06)

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    size_t bytes = (size_t)(in->d.n ? in->d.n : 1) * 4;
    if (stage == KIT_LAB_TIMING) {
        b[0] = kit_lab_buf{(void **)&in->d_out_kit, bytes, NULL, 0, 0};
        return 1;
    }
    const void *host_in = in->d.is_int ? (const void *)in->d.iin : (const void *)in->d.fin;
    b[0] = kit_lab_buf{&in->d_in, bytes, host_in, (size_t)in->d.n * 4, 0};
    b[1] = kit_lab_buf{&in->d_out, bytes, NULL, 0, 0};
    return 2;
}

/* The function the case names. */
static void scan_case(void *s)
{
    inputs *in = (inputs *)s;
    int n = in->d.n;
    if (in->d.part == 1 && in->d.is_int)
        scan_block_int((const int *)in->d_in, (int *)in->d_out, n);
    else if (in->d.part == 1)
        scan_block((const float *)in->d_in, (float *)in->d_out, n);
    else if (in->d.is_int)
        scan_int((const int *)in->d_in, (int *)in->d_out, n);
    else
        scan((const float *)in->d_in, (float *)in->d_out, n);
}

/* One call on a poisoned output: NaN (float) / -1 (int). */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    kit_type t = in->d.is_int ? KIT_T_I32 : KIT_T_F32;
    return k > 0 ? 0
                 : kit_lab_one_call(c, lab06_function(&in->d), in->d.n == 0, scan_case,
                                    kit_lab_out{LAB06_OUT, t, in->d_out, 0, (uint64_t)in->d.n, 0, 0, KIT_POISON(0xFF)});
}

/* The first i where out[i] != out[i-1] + in[i] (floats: beyond a loose
 * tolerance), or -1: lets a student see a wrong scan without the checker. */
static long first_break(const lab06_data *d, const void *out)
{
    for (long i = 0; i < d->n; i++) {
        if (d->is_int) {
            const int *o = (const int *)out;
            if (o[i] != (i ? o[i - 1] : 0) + d->iin[i])
                return i;
        } else {
            const float *o = (const float *)out;
            double step = (double)o[i] - (i ? (double)o[i - 1] : 0.0);
            if (!(fabs(step - (double)d->fin[i]) <= 1e-3 * (1.0 + fabs((double)o[i]))))
                return i;
        }
    }
    return -1;
}

static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const lab06_data *d = &((const inputs *)s)->d;
    const void *out = host[0];
    if (!ctx->show)
        return 0;
    long broken = first_break(d, out);
    printf("%s(n=%d):\n", lab06_function(d), d->n);
    if (broken < 0)
        printf("  out[i] = out[i-1] + in[i] holds for every i%s\n", d->is_int ? "" : " (to within 1e-3)");
    else
        printf("  out[i] = out[i-1] + in[i] first fails at i = %ld\n", broken);
    for (int i = 0; i < d->n; i++) {
        if (d->n > 12 && i == 6) {
            printf("  ...\n");
            i = d->n - 6;
        }
        if (d->is_int)
            printf("  in[%d] = %d   out[%d] = %d\n", i, d->iin[i], i, ((const int *)out)[i]);
        else
            printf("  in[%d] = %.9g   out[%d] = %.9g\n", i, (double)d->fin[i], i, (double)((const float *)out)[i]);
    }
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    if (stage == KIT_LAB_BENCH_BEFORE && (in->d.is_int || in->d.part != 2))
        return "the benchmark times scan (part=2 type=float)";
    return stage == KIT_LAB_BENCH_AFTER && in->d.n < 1 ? "the benchmark needs n >= 1" : NULL;
}

/* The timed calls of scan (fresh.cuh): before each, the input is replaced by
 * scale * (input rotated by shift) and the output poisoned (NaN), in buffers
 * of their own; LAB06_TIMED_SAMPLE output elements of a few calls are
 * recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    kit_lab_timed_rotate(tc, sw, lab06_function(&in->d), scan_case, &in->d_in, in->d.n, &in->d_out, in->d.n,
                         LAB06_TIMED_SAMPLE);
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    return kit_scan_global((const float *)in->d_in, in->d_out_kit, in->d.n);
}

/* the least traffic any scan needs: read the input once, write the output once */
static double gbs(const void *s, double ms)
{
    return 2.0 * ((const inputs *)s)->d.n * sizeof(float) / 1e9 / (ms / 1e3);
}

/* `make run-lab06 P="... time=1"`: the student's function timed, and for
 * float data the global-memory baseline too. */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (!kit_params_ll(ctx->params, "time", 0, NULL))
        return 0;
    if (in->d.is_int)
        return kit_lab_show_alone(scan_case, in, 3, 10, lab06_function(&in->d), "the baseline is float only");
    return in->d.n < 1 ? 0
                       : kit_lab_show_speedup(ctx, in, 3, 10, lab06_function(&in->d),
                                              "global-memory scan (one launch per stride)");
}

const kit_lab KIT_LAB = {
    .tag = "lab06", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"scan effective bandwidth (GB/s, 8 bytes per element)", gbs},
                {"baseline effective bandwidth (GB/s)", gbs, 1}},
    .show_time = show_time,
};
