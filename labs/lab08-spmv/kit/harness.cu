/* harness.cu - lab08's declaration (kit/lab.cuh): the CSR matrix and x on the
 * GPU, one call of spmv_vector on a poisoned y, "y" recorded (f32, one per
 * row); bench mode times spmv_vector against the kit's scalar kernel; show
 * mode prints a few rows and both times (exercises 24 and 25).
 *
 * Over 100 lines: five CSR buffers, the show-mode rows and timing.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "spmv.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab08_data d;
    int *d_row_ptr, *d_col;
    float *d_val, *d_x, *d_y;
} inputs;

KIT_LAB_DATASET(inputs, lab08)

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    const kit_csr *A = &in->d.A;
    size_t rows = (size_t)A->rows, cols = (size_t)A->cols, nnz = (size_t)A->nnz;
    if (stage != KIT_LAB_CASE)
        return 0;
    b[0] = kit_lab_buf{(void **)&in->d_row_ptr, (rows + 1) * sizeof(int), A->row_ptr, (rows + 1) * sizeof(int), 0};
    b[1] = kit_lab_buf{(void **)&in->d_col, (nnz ? nnz : 1) * sizeof(int), A->col, nnz * sizeof(int), 0};
    b[2] = kit_lab_buf{(void **)&in->d_val, (nnz ? nnz : 1) * sizeof(float), A->val, nnz * sizeof(float), 0};
    b[3] = kit_lab_buf{(void **)&in->d_x, (cols ? cols : 1) * sizeof(float), in->d.x, cols * sizeof(float), 0};
    b[4] = kit_lab_buf{(void **)&in->d_y, (rows ? rows : 1) * sizeof(float), NULL, 0, 0};
    return 5;
}

static void spmv(void *s)
{
    inputs *in = (inputs *)s;
    spmv_vector(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y);
}

/* One call; y is NaN where nothing is written. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    uint64_t rows = (uint64_t)in->d.A.rows;
    return k > 0 ? 0
                 : kit_lab_one_call(c, "spmv_vector", rows == 0, spmv,
                                    kit_lab_out{LAB08_OUT_Y, KIT_T_F32, in->d_y, 0, rows, 0, 0, KIT_POISON(0xFF)});
}

static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const kit_csr *A = &((const inputs *)s)->d.A;
    const float *y = (const float *)host[0];
    if (!ctx->show)
        return 0;
    printf("spmv_vector: %d x %d matrix, %lld nonzeros\n", A->rows, A->cols, (long long)A->nnz);
    for (int i = 0; i < A->rows && i < 6; i++)
        printf("  y[%d] = %.7g   (row %d: %d nonzeros)\n", i, y[i], i, A->row_ptr[i + 1] - A->row_ptr[i]);
    if (A->rows > 6)
        printf("  ...\n");
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const kit_csr *A = &((const inputs *)s)->d.A;
    if (stage == KIT_LAB_BENCH_BEFORE && (A->rows == 0 || A->cols == 0))
        return "the benchmark needs a matrix with rows and columns";
    return NULL;
}

/* The timed calls (fresh.cuh): before each, x is replaced by scale * (x
 * rotated by shift) and y is poisoned (NaN), in buffers of their own (the
 * baseline's y would otherwise hold the right answer); the whole y of a few
 * calls is recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    const kit_csr *A = &in->d.A;
    kit_lab_timed_rotate(tc, sw, "spmv_vector", spmv, (void **)&in->d_x, A->cols, (void **)&in->d_y, A->rows, 0);
    tc->extra_bytes = (double)A->nnz * 8 + (A->rows + 1.0) * 4; /* values, column indices, row pointers */
    tc->flops = 2.0 * A->nnz;
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    kit_spmv_scalar(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y);
    return 0;
}

static double gflops(const void *s, double ms) { return 2.0 * ((const inputs *)s)->d.A.nnz / 1e9 / (ms / 1e3); }

/* what must be read at least once: val, col, row_ptr, x; y is written */
static double gbs(const void *s, double ms)
{
    const kit_csr *A = &((const inputs *)s)->d.A;
    double bytes = (double)A->nnz * 8 + (A->rows + 1.0) * 4 + A->cols * 4.0 + A->rows * 4.0;
    return bytes / 1e9 / (ms / 1e3);
}

static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    kit_timing ts, tb;
    if (in->d.A.rows > 0 && in->d.A.cols > 0 && kit_lab_time(ctx, in, 2, 9, &ts, &tb) == 0)
        printf("time: spmv_vector %.4f ms, the kit's scalar kernel %.4f ms (medians of 9): speedup %.2fx\n",
               ts.median_ms, tb.median_ms, tb.median_ms / ts.median_ms);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab08", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"spmv_vector GFLOP/s", gflops}, {"spmv_vector effective bandwidth (GB/s)", gbs}},
    .show_time = show_time,
};
