/* harness.cu - lab08's declaration, as data (kit/lab_decl.cuh): the CSR
 * matrix and x on the GPU, one call of spmv_vector on a poisoned y, "y"
 * recorded (f32, one per row); bench mode times spmv_vector on a fresh x
 * against the kit's scalar kernel; show mode prints the matrix's size, y and
 * both times (exercises 24 and 25).
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "spmv.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab08_data d;
    /* the table's int counts (nnz <= 2^29): the 4-byte words any spmv must
     * move - val, col, row_ptr and x read, y written - are < 2^31 */
    int nnz, row_ptrs, words;
    int *d_row_ptr, *d_col;
    float *d_val, *d_x, *d_y;
} inputs;

static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)
{
    inputs *in = (inputs *)s;
    const kit_csr *A = &in->d.A;
    if (lab08_generate(p, seed, &in->d, err, len) != 0)
        return -1;
    in->nnz = (int)A->nnz, in->row_ptrs = A->rows + 1;
    in->words = in->nnz * 2 + in->row_ptrs + A->cols + A->rows;
    return 0;
}

static void release(kit_run_ctx *, void *s) { lab08_free(&((inputs *)s)->d); }

KIT_LAB_INVOKE(inputs, spmv, spmv_vector(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y))
KIT_LAB_BASELINE(inputs, baseline,
                 (kit_spmv_scalar(in->d.A.rows, in->d_row_ptr, in->d_col, in->d_val, in->d_x, in->d_y), 0))

/* show mode, after the summary of y: which matrix it is. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *)
{
    const kit_csr *A = &((const inputs *)s)->d.A;
    if (ctx->show)
        printf("  the matrix: %d x %d, %lld nonzeros\n", A->rows, A->cols, (long long)A->nnz);
    return 0;
}

#define F(member) KIT_AT(inputs, member)
#define EMPTY(stage, field) {stage, F(field), 1, INT32_MAX, "the benchmark needs a matrix with rows and columns"}
static const kit_lab_decl DECL = {
    .bufs = {{F(d_row_ptr), KIT_T_I32, F(row_ptrs), F(d.A.row_ptr)},
             {F(d_col), KIT_T_I32, F(nnz), F(d.A.col)},
             {F(d_val), KIT_T_F32, F(nnz), F(d.A.val)},
             {F(d_x), KIT_T_F32, F(d.A.cols), F(d.x)},
             {F(d_y), KIT_T_F32, F(d.A.rows)}},
    /* y is NaN where nothing is written; no rows: no kernel needed */
    .calls = {{"spmv_vector", spmv, .optional_if_zero = F(d.A.rows),
               .out = {{LAB08_OUT_Y, KIT_T_F32, F(d_y), F(d.A.rows), KIT_POISON(0xFF)}}}},
    /* before the checked call; the same after it, which is what show mode's timing asks */
    .refuse = {EMPTY(KIT_LAB_BENCH_BEFORE, d.A.rows), EMPTY(KIT_LAB_BENCH_BEFORE, d.A.cols),
               EMPTY(KIT_LAB_BENCH_AFTER, d.A.rows), EMPTY(KIT_LAB_BENCH_AFTER, d.A.cols)},
    /* x fresh (rotated, scaled) each call, in a buffer of its own, and y poisoned (the baseline's y
     * would otherwise hold the right answer); val, col and row_ptr read by every call; 2 flops per
     * nonzero */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(d_x)}, .flops_per = 2, .flops_of = {F(nnz)}},
    .metrics = {{"spmv_vector GFLOP/s", F(nnz), 2}, {"spmv_vector effective bandwidth (GB/s)", F(words), 4}},
    .show_time = {"the kit's scalar kernel", 2, 9, .always = 1},
};

const kit_lab KIT_LAB = {.tag = "lab08", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .after = after, .baseline = baseline, .decl = &DECL};
