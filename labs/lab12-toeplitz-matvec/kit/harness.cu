/* harness.cu - lab12's declaration (kit/lab.cuh): B (padded rows) and p on
 * the GPU, u poisoned with NaN, one call of toeplitz_matvec, "u" recorded
 * (f32, nx*ny); bench mode (and show mode, for students) times it against
 * the kit's global-memory kernel (the thesis's Algorithm 4.2).  The driver
 * (common/src/lab_driver.cu) does the rest: allocation, poison, tracing,
 * read-back, timing, records.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "toeplitz_matvec.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab12_data d;
    float *d_b, *d_p, *d_u;
    float *d_u_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab12) /* generate and release: dataset.c */

/* Allocated in this order, then uploaded; freed by the driver. */
static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    size_t u_bytes = in->d.n * sizeof(float), b_bytes = in->d.b_count * sizeof(float);
    if (stage == KIT_LAB_TIMING) {
        b[0] = kit_lab_buf{(void **)&in->d_u_kit, u_bytes, NULL, 0, 0};
        return 1;
    }
    b[0] = kit_lab_buf{(void **)&in->d_b, b_bytes, in->d.b, b_bytes, 0};
    b[1] = kit_lab_buf{(void **)&in->d_p, u_bytes, in->d.p, u_bytes, 0};
    b[2] = kit_lab_buf{(void **)&in->d_u, u_bytes, NULL, 0, 0};
    return 3;
}

static void student(void *s)
{
    inputs *in = (inputs *)s;
    toeplitz_matvec(in->d_b, in->d_p, in->d_u, in->d.nx, in->d.ny);
}

/* One call; u is NaN (0xFF bytes) where the student writes nothing. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    kit_lab_out out = {LAB12_OUT_U, KIT_T_F32, in->d_u, 0, (uint64_t)in->d.n, 0, 0, KIT_POISON(0xFF)};
    return k > 0 ? 0 : kit_lab_one_call(c, "toeplitz_matvec", 0, student, out);
}

/* show mode (make run-lab12): the first and last points of the first and
 * last grid rows. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    const float *u = (const float *)host[0];
    int nx = in->d.nx, ny = in->d.ny;
    if (!ctx->show)
        return 0;
    printf("toeplitz_matvec(nx=%d, ny=%d) computed u (%zu points)\n", nx, ny, in->d.n);
    for (int iy = 0; iy < ny; iy = iy == 0 && ny > 1 ? ny - 1 : ny) {
        printf("  grid row %d:", iy);
        for (int ix = 0; ix < nx; ix = ix == 2 && nx > 6 ? nx - 3 : ix + 1)
            printf("%s u[%d] = %.7g", ix == nx - 3 && nx > 6 ? " ..." : "", iy * nx + ix, u[(size_t)iy * nx + ix]);
        printf("\n");
    }
    size_t nan = 0;
    for (size_t t = 0; t < in->d.n; t++)
        nan += u[t] != u[t];
    if (nan)
        printf("%zu elements of u are NaN: never written (the harness fills u with NaN before the call)\n", nan);
    return 0;
}

/* The timed calls (fresh.cuh): before each, p is replaced by scale * (p
 * rotated by shift) and u poisoned (NaN), in buffers of their own;
 * LAB12_TIMED_SAMPLE elements of u of a few calls are recorded for the
 * checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    kit_lab_timed_rotate(tc, sw, "toeplitz_matvec", student, (void **)&in->d_p, (int64_t)in->d.n, (void **)&in->d_u,
                         (int64_t)in->d.n, LAB12_TIMED_SAMPLE);
    tc->extra_bytes = 4.0 * in->d.b_count;             /* B, read by every call too */
    tc->flops = 2.0 * (double)in->d.n * (double)in->d.n; /* one multiply and one add per term */
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    kit_toeplitz_matvec_global(in->d_b, in->d_p, in->d_u_kit, in->d.nx, in->d.ny);
    return 0;
}

/* 2 (nx ny)^2 flops: the thesis's measure (a multiply and an add per entry of A) */
static double gflops(const void *s, double ms)
{
    double n = (double)((const inputs *)s)->d.n;
    return 2.0 * n * n / 1e9 / (ms / 1e3);
}

/* show mode (make run-lab12): the time against the global-memory kernel */
static int show_time(kit_run_ctx *ctx, void *s)
{
    return kit_lab_show_speedup(ctx, s, 2, 5, "toeplitz_matvec", "the kit's global-memory kernel");
}

const kit_lab KIT_LAB = {
    .tag = "lab12", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .timed = timed, .baseline = baseline,
    .metrics = {{"toeplitz_matvec GFLOP/s (2 (nx ny)^2 flops)", gflops},
                {"the global-memory kernel, GFLOP/s", gflops, 1}},
    .show_time = show_time,
};
