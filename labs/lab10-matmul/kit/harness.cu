/* harness.cu - lab10's declaration (kit/lab.cuh): A and B on the GPU, C
 * poisoned with NaN, one call of matmul_tiled, "c" recorded (f32, m*n); bench
 * mode (and show mode, for students) times matmul_tiled against the kit's
 * naive global-memory kernel.
 *
 * Over 100 lines: the show-mode corner of C and its timing line.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "matmul.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab10_data d;
    size_t c_count;
    float *da, *db, *dc;
} inputs;

static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)
{
    inputs *in = (inputs *)s;
    int rc = lab10_generate(p, seed, &in->d, err, len);
    in->c_count = (size_t)in->d.m * in->d.n;
    return rc;
}

static void release(kit_run_ctx *, void *s) { lab10_free(&((inputs *)s)->d); }

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    size_t a = (size_t)in->d.m * in->d.k, bb = (size_t)in->d.k * in->d.n;
    if (stage != KIT_LAB_CASE)
        return 0;
    b[0] = kit_lab_buf{(void **)&in->da, (a ? a : 1) * sizeof(float), in->d.a, a * sizeof(float), 0};
    b[1] = kit_lab_buf{(void **)&in->db, (bb ? bb : 1) * sizeof(float), in->d.b, bb * sizeof(float), 0};
    b[2] = kit_lab_buf{(void **)&in->dc, (in->c_count ? in->c_count : 1) * sizeof(float), NULL, 0, 0};
    return 3;
}

static void matmul(void *s)
{
    inputs *in = (inputs *)s;
    matmul_tiled(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k);
}

/* One call; an element of C the student never writes reads back as NaN.  An
 * empty C, or k == 0 (C = 0: a cudaMemset will do), needs no kernel. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    return k > 0 ? 0
                 : kit_lab_one_call(c, "matmul_tiled", in->c_count == 0 || in->d.k == 0, matmul,
                                    kit_lab_out{LAB10_OUT_C, KIT_T_F32, in->dc, 0, in->c_count, 0, 0, KIT_POISON(0xFF)});
}

static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    const float *c = (const float *)host[0];
    int m = in->d.m, n = in->d.n;
    if (!ctx->show)
        return 0;
    printf("matmul_tiled(m=%d, n=%d, k=%d) computed C (%d x %d)\n", m, n, in->d.k, m, n);
    if (!m || !n)
        return 0;
    int rows = m < 4 ? m : 4, cols = n < 4 ? n : 4;
    printf("top-left %d x %d of C:\n", rows, cols);
    for (int i = 0; i < rows; i++) {
        printf("  ");
        for (int j = 0; j < cols; j++)
            printf(" %12.6g", c[(size_t)i * n + j]);
        printf("\n");
    }
    printf("C[%d][%d] (bottom-right) = %.9g\n", m - 1, n - 1, c[in->c_count - 1]);
    size_t nan = 0;
    for (size_t t = 0; t < in->c_count; t++)
        nan += c[t] != c[t];
    if (nan)
        printf("%zu elements of C are NaN: never written (the harness fills C with NaN before the call)\n", nan);
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    return stage == KIT_LAB_BENCH_BEFORE && (in->c_count == 0 || in->d.k == 0) ? "the benchmark needs m, n, k > 0"
                                                                               : NULL;
}

/* The timed calls (fresh.cuh): before each, A is replaced by scale * (A with
 * its rows rotated: the shift is a whole number of rows) and C poisoned
 * (NaN), in buffers of their own; LAB10_TIMED_SAMPLE elements of C of a few
 * calls are recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    sw->invoke = matmul, sw->in[0] = (void **)&in->da, sw->out = (void **)&in->dc;
    tc->name = "matmul_tiled";
    tc->how = KIT_FRESH_ROTATE_SCALE, tc->shift_hi = in->d.m - 1, tc->shift_step = in->d.k;
    tc->in[0].orig = in->da, tc->in[0].count = (int64_t)in->d.m * in->d.k, tc->n_in = 1;
    tc->out_count = (int64_t)in->c_count, tc->poison = 0xFF, tc->sample = LAB10_TIMED_SAMPLE;
    tc->extra_bytes = 4.0 * in->d.k * in->d.n;           /* B, read by every call too */
    tc->flops = 2.0 * in->d.m * (double)in->d.n * in->d.k; /* one multiply and one add per term */
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    kit_matmul_naive(in->da, in->db, in->dc, in->d.m, in->d.n, in->d.k);
    return 0;
}

static double gflops(const void *s, double ms)
{
    const lab10_data *d = &((const inputs *)s)->d;
    return 2.0 * d->m * (double)d->n * d->k / 1e9 / (ms / 1e3);
}

/* show mode: the time against the naive kernel */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    kit_timing ts, tb;
    if (in->c_count && in->d.k && kit_lab_time(ctx, in, 2, 5, &ts, &tb) == 0)
        printf("time: matmul_tiled %.3f ms (%.0f GFLOP/s), the kit's naive kernel %.3f ms (%.0f GFLOP/s), medians of "
               "5: speedup %.2fx\n",
               ts.median_ms, gflops(in, ts.median_ms), tb.median_ms, gflops(in, tb.median_ms),
               tb.median_ms / ts.median_ms);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab10", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"matmul_tiled GFLOP/s (2mnk flops)", gflops}, {"the naive kernel, GFLOP/s", gflops, 1}},
    .show_time = show_time,
};
