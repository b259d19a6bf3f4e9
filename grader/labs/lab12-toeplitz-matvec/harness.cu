/* harness.cu - lab12's declaration (kit/lab.cuh): the input on the GPU, one
 * call of toeplitz_matvec on a poisoned output, "out" recorded; bench mode times toeplitz_matvec
 * against the kit's baseline.  The driver (common/src/lab_driver.cu) does
 * the rest: allocation, poison, tracing, read-back, timing, records.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "toeplitz_matvec.h"
#include "kit/lab.cuh"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab12_data d;
    float *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab12) /* generate and release: dataset.c */

/* Allocated in this order, then uploaded; freed by the driver. */
static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    size_t bytes = (in->d.n ? (size_t)in->d.n : 1) * sizeof(float);
    if (stage == KIT_LAB_TIMING) {
        b[0] = kit_lab_buf{(void **)&in->d_out_kit, bytes, NULL, 0, 0};
        return 1;
    }
    b[0] = kit_lab_buf{(void **)&in->d_in, bytes, in->d.in, (size_t)in->d.n * sizeof(float), 0};
    b[1] = kit_lab_buf{(void **)&in->d_out, bytes, NULL, 0, 0};
    return 2;
}

static void student(void *s)
{
    inputs *in = (inputs *)s;
    toeplitz_matvec(in->d_in, in->d_out, in->d.n);
}

/* One call; out is NaN (0xFF bytes) where the student writes nothing. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    kit_lab_out out = {"out", KIT_T_F32, in->d_out, 0, (uint64_t)in->d.n, 0, 0, KIT_POISON(0xFF)};
    return k > 0 ? 0 : kit_lab_one_call(c, "toeplitz_matvec", in->d.n == 0, student, out);
}

/* show mode (make run-lab12): the first and last elements. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    for (int i = 0; ctx->show && i < in->d.n; i = i == 2 && in->d.n > 6 ? in->d.n - 3 : i + 1)
        printf("  in[%d] = %.9g   out[%d] = %.9g\n", i, in->d.in[i], i, ((const float *)host[0])[i]);
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    return stage == KIT_LAB_BENCH_BEFORE && ((const inputs *)s)->d.n < 1 ? "the benchmark needs n >= 1" : NULL;
}

/* The timed calls (fresh.cuh): the same call, on an input replaced by
 * scale * (input rotated by shift) and a poisoned output, in buffers of their
 * own; LAB12_TIMED_SAMPLE output elements of a few calls are recorded. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    kit_lab_timed_rotate(tc, sw, "toeplitz_matvec", student, (void **)&in->d_in, in->d.n, (void **)&in->d_out, in->d.n,
                         LAB12_TIMED_SAMPLE);
    tc->flops = 2.0 * in->d.n; /* a multiply and an add per element */
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    kit_toeplitz_matvec_global(in->d_in, in->d_out_kit, in->d.n);
    return 0;
}

/* in read, out written: 8 bytes per element */
static double gbs(const void *s, double ms) { return 8.0 * ((const inputs *)s)->d.n / 1e9 / (ms / 1e3); }

const kit_lab KIT_LAB = {
    .tag = "lab12", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"%s effective bandwidth (GB/s)", gbs}},
};
