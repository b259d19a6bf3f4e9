/* harness.cu - lab08 harness: copies the CSR matrix and x to the GPU, calls
 * the student's spmv_vector, records y ("y", f32, one per row).  In bench
 * mode it times spmv_vector against the kit's scalar kernel; in show mode it
 * prints a few rows and both times (exercises 24 and 25).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"
#include "spmv.h"

typedef struct {
    lab08_data d;
    int *d_row_ptr, *d_col;
    float *d_val, *d_x, *d_y;
} inputs;

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab08_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab08: %s\n", err);
        return -1;
    }
    const kit_csr *A = &in->d.A;
    size_t rows = (size_t)A->rows, cols = (size_t)A->cols, nnz = (size_t)A->nnz;
    KIT_HCHECK(cudaMalloc(&in->d_row_ptr, (rows + 1) * sizeof(int)));
    KIT_HCHECK(cudaMalloc(&in->d_col, (nnz ? nnz : 1) * sizeof(int)));
    KIT_HCHECK(cudaMalloc(&in->d_val, (nnz ? nnz : 1) * sizeof(float)));
    KIT_HCHECK(cudaMalloc(&in->d_x, (cols ? cols : 1) * sizeof(float)));
    KIT_HCHECK(cudaMalloc(&in->d_y, (rows ? rows : 1) * sizeof(float)));
    KIT_HCHECK(cudaMemcpy(in->d_row_ptr, A->row_ptr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->d_col, A->col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->d_val, A->val, nnz * sizeof(float), cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->d_x, in->d.x, cols * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->d_row_ptr);
    cudaFree(in->d_col);
    cudaFree(in->d_val);
    cudaFree(in->d_x);
    cudaFree(in->d_y);
    lab08_free(&in->d);
}

static void student_spmv(inputs *in)
{
    spmv_vector(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y);
}

static void show_rows(const inputs *in, const float *y)
{
    const kit_csr *A = &in->d.A;
    printf("spmv_vector: %d x %d matrix, %lld nonzeros\n", A->rows, A->cols, (long long)A->nnz);
    for (int i = 0; i < A->rows && i < 6; i++)
        printf("  y[%d] = %.7g   (row %d: %d nonzeros)\n", i, y[i], i, A->row_ptr[i + 1] - A->row_ptr[i]);
    if (A->rows > 6)
        printf("  ...\n");
}

/* One traced call of the student's function; records y. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    size_t rows = (size_t)in->d.A.rows;
    KIT_HCHECK(cudaMemset(in->d_y, 0xFF, (rows ? rows : 1) * sizeof(float))); /* NaN where nothing is written */
    ctx->kernel_optional = rows == 0;
    kit_student_begin(ctx, "spmv_vector");
    student_spmv(in);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    float *y = (float *)malloc((rows ? rows : 1) * sizeof *y);
    if (!y) {
        fprintf(stderr, "lab08: out of host memory\n");
        return -1;
    }
    cudaError_t e = cudaMemcpy(y, in->d_y, rows * sizeof *y, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
        free(y);
    KIT_HCHECK(e);
    kit_out(ctx, "y", KIT_T_F32, y, rows);
    if (ctx->show)
        show_rows(in, y);
    free(y);
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    kit_spmv_scalar(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y);
}

/* The timed calls (fresh.cuh): before each, x is replaced by scale * (x
 * rotated by shift) and y is poisoned (NaN), in buffers of their own (the
 * baseline's y would otherwise hold the right answer); the whole y of a few
 * calls is recorded for the checker. */
static void timed_spmv(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    spmv_vector(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, (const float *)tc->in[0].work, (float *)tc->out);
}

static int time_spmv(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    const kit_csr *A = &in->d.A;
    kit_timed_calls tc = {};
    tc.name = "spmv_vector", tc.call = timed_spmv, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = A->cols - 1;
    tc.in[0].orig = in->d_x, tc.in[0].count = A->cols, tc.n_in = 1;
    tc.out_count = A->rows, tc.poison = 0xFF;
    tc.extra_bytes = (double)A->nnz * 8 + (A->rows + 1.0) * 4; /* values, column indices, row pointers */
    tc.flops = 2.0 * A->nnz;
    return kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in);
    kit_timing ts, tb;
    if (rc == 0 && ctx->show && in.d.A.rows > 0 && in.d.A.cols > 0 && time_spmv(ctx, &in, 2, 9, &ts, &tb) == 0)
        printf("time: spmv_vector %.4f ms, the kit's scalar kernel %.4f ms (medians of 9): speedup %.2fx\n",
               ts.median_ms, tb.median_ms, tb.median_ms / ts.median_ms);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.A.rows == 0 || in.d.A.cols == 0)) {
        fprintf(stderr, "lab08: the benchmark needs a matrix with rows and columns\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    const kit_csr *A = &in.d.A;
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_spmv(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        /* what must be read at least once: val, col, row_ptr, x; y is written */
        double bytes = (double)A->nnz * 8 + (A->rows + 1.0) * 4 + A->cols * 4.0 + A->rows * 4.0;
        kit_out_f64(ctx, "metric.spmv_vector GFLOP/s", 2.0 * A->nnz / 1e9 / (ts.median_ms / 1e3));
        kit_out_f64(ctx, "metric.spmv_vector effective bandwidth (GB/s)", bytes / 1e9 / (ts.median_ms / 1e3));
    }
    teardown(&in);
    return rc;
}
