/* harness.cu - lab05's declaration (kit/lab.cuh): the input on the GPU, the
 * mask on the host, one call of conv1d_tiled / conv1d_tiled_int /
 * conv1d_halo_global on a poisoned output, "out" recorded; bench mode times
 * the float versions against the kit's global-memory baseline.
 *
 * Over 100 lines: three functions, the show-mode printout and time=1 timing
 * (the int version timed alone: the baseline is float only).
 */
#include <stdio.h>

#include "baseline.h"
#include "conv1d.h"
#include "dataset.h"
#include "kit/lab.cuh"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab05_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab05)

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

static const char *function_name(const lab05_data *d)
{
    return d->halo ? "conv1d_halo_global" : d->is_int ? "conv1d_tiled_int" : "conv1d_tiled";
}

/* The function the case names. */
static void conv(void *s)
{
    inputs *in = (inputs *)s;
    lab05_data *d = &in->d;
    if (d->halo)
        conv1d_halo_global((const float *)in->d_in, (float *)in->d_out, d->n, d->fmask, d->mask_size);
    else if (d->is_int)
        conv1d_tiled_int((const int *)in->d_in, (int *)in->d_out, d->n, d->imask, d->mask_size);
    else
        conv1d_tiled((const float *)in->d_in, (float *)in->d_out, d->n, d->fmask, d->mask_size);
}

/* One call on a poisoned output: NaN (float) / -1 (int). */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    kit_type t = in->d.is_int ? KIT_T_I32 : KIT_T_F32;
    return k > 0 ? 0
                 : kit_lab_one_call(c, function_name(&in->d), in->d.n == 0, conv,
                                    kit_lab_out{LAB05_OUT, t, in->d_out, 0, (uint64_t)in->d.n, 0, 0, KIT_POISON(0xFF)});
}

/* show mode: element i for a human, the whole array when it is short, else the ends. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const lab05_data *d = &((const inputs *)s)->d;
    if (!ctx->show)
        return 0;
    printf("%s(n=%d, mask_size=%d)%s:\n", function_name(d), d->n, d->mask_size,
           d->example ? " on the worked example" : "");
    for (int i = 0; i < d->n; i++) {
        if (d->n > 12 && i == 6) {
            printf("  ...\n");
            i = d->n - 6;
        }
        if (d->is_int)
            printf("  out[%d] = %d\n", i, ((const int *)host[0])[i]);
        else
            printf("  out[%d] = %.9g\n", i, (double)((const float *)host[0])[i]);
    }
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    if (stage == KIT_LAB_BENCH_BEFORE && in->d.is_int)
        return "the benchmark times the float versions (type=float)";
    return stage == KIT_LAB_BENCH_AFTER && in->d.n < 1 ? "the benchmark needs n >= 1" : NULL;
}

/* The timed calls of the float versions (fresh.cuh): before each, the input
 * is replaced by scale * (input rotated by shift) and the output poisoned
 * (NaN), in buffers of their own; LAB05_TIMED_SAMPLE output elements of a
 * few calls are recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    kit_lab_timed_rotate(tc, sw, function_name(&in->d), conv, &in->d_in, in->d.n, &in->d_out, in->d.n,
                         LAB05_TIMED_SAMPLE);
    tc->flops = 2.0 * in->d.n * in->d.mask_size; /* one multiply and one add per term */
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    return kit_conv1d_global((const float *)in->d_in, in->d_out_kit, in->d.n, in->d.fmask, in->d.mask_size);
}

static double gflops(const void *s, double ms)
{
    const lab05_data *d = &((const inputs *)s)->d;
    return 2.0 * d->n * d->mask_size / (ms / 1e3) / 1e9; /* one multiply and one add per term */
}

/* `make run-lab05 P="... time=1"`: the student's function and the baseline
 * timed, for exercises 13, 14 and 16 (the baseline is float only). */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (!kit_params_ll(ctx->params, "time", 0, NULL))
        return 0;
    if (in->d.is_int)
        return kit_lab_show_alone(conv, in, 3, 10, function_name(&in->d),
                                  "the baseline is float only: use type=float to compare");
    return in->d.n < 1 ? 0 : kit_lab_show_speedup(ctx, in, 3, 10, function_name(&in->d), "global-memory baseline");
}

const kit_lab KIT_LAB = {
    .tag = "lab05", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"%s (GFLOP/s)", gflops}, {"global-memory baseline (GFLOP/s)", gflops, 1}},
    .show_time = show_time,
};
