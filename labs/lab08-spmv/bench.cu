/* lab08 bench (make bench; kit/bench.cuh): the library peer,
 * cusparseSpMV (CSR, the default algorithm), as one more implementation of
 * spmv.h, run through the lab's own descriptor like the student's code; and
 * the cases, the four matrices: long even rows (the rubric's), short ones, a
 * power law and a heavy tail.  The stretch row times spmv_hybrid
 * (mk/bench.mk: BENCH_STRETCH_CALLS_lab08-spmv). */
#include <cusparse.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include "kit/bench.cuh"
#include "spmv.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

static const float one = 1.0f, zero = 0.0f;

/* cuSPARSE's view of one case's matrix and vectors, and its work buffer:
 * made in a case's first call (the untimed checked one), freed before the
 * next case (new_case); the handle is made once. */
static struct {
    cusparseHandle_t h;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t x, y;
    void *buf;
    int ready;
} sp;

#define SPARSE(call) ((call) == CUSPARSE_STATUS_SUCCESS)

/* nnz is row_ptr[rows]; the columns, which the interface does not give, as
 * many as the largest column index + 1 (x's entries beyond are never read).
 * 0, or -1 (what was made is left to release). */
static int setup(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    int nnz = 0;
    size_t bytes = 0;
    if (!sp.h && !SPARSE(cusparseCreate(&sp.h)))
        return sp.h = NULL, -1;
    if (cudaMemcpy(&nnz, d_row_ptr + rows, sizeof nnz, cudaMemcpyDeviceToHost) != cudaSuccess)
        return -1;
    int cols = 1 + (nnz ? thrust::reduce(thrust::device, d_col, d_col + nnz, 0, thrust::maximum<int>()) : 0);
    if (!SPARSE(cusparseCreateCsr(&sp.A, rows, cols, nnz, (void *)d_row_ptr, (void *)d_col, (void *)d_val,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)) ||
        !SPARSE(cusparseCreateDnVec(&sp.x, cols, (void *)d_x, CUDA_R_32F)) ||
        !SPARSE(cusparseCreateDnVec(&sp.y, rows, d_y, CUDA_R_32F)) ||
        !SPARSE(cusparseSpMV_bufferSize(sp.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, sp.A, sp.x, &zero, sp.y,
                                        CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes)) ||
        cudaMalloc(&sp.buf, bytes ? bytes : 1) != cudaSuccess)
        return -1;
    return sp.ready = 1, 0;
}

/* before each case, and after a failed setup */
static void release(void)
{
    if (sp.A)
        cusparseDestroySpMat(sp.A);
    if (sp.x)
        cusparseDestroyDnVec(sp.x);
    if (sp.y)
        cusparseDestroyDnVec(sp.y);
    cudaFree(sp.buf);
    sp.A = NULL, sp.x = sp.y = NULL, sp.buf = NULL, sp.ready = 0;
}

/* Before each case: what the last one made let go; cuSPARSE takes every case. */
static const char *new_case(const kit_params *)
{
    release();
    return NULL;
}

/* a case's matrix is the same in every call of it: its descriptor keeps it;
 * x and y are the timed calls' own (fresh inputs, as the grader times) */
void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (!sp.ready && setup(rows, d_row_ptr, d_col, d_val, d_x, d_y) != 0) {
        release(); /* y keeps its poison: a wrong result */
        return;
    }
    if (!SPARSE(cusparseDnVecSetValues(sp.x, (void *)d_x)) || !SPARSE(cusparseDnVecSetValues(sp.y, d_y)))
        return; /* y keeps its poison */
    cusparseSpMV(sp.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, sp.A, sp.x, &zero, sp.y, CUDA_R_32F,
                 CUSPARSE_SPMV_ALG_DEFAULT, sp.buf);
}

const kit_bench KIT_BENCH = {"y = A x", "cusparseSpMV (CSR)", "", "(hybrid)", "baseline (kit_spmv_scalar)",
                             {"matrix=fixed rows=3*10^4 cols=3*10^4 per_row=500" /* the rubric's */,
                              "matrix=fixed rows=10^6 per_row=16",
                              "matrix=powerlaw rows=10^6 max_per_row=1200 alpha=9 empty=0.05",
                              "matrix=powerlaw rows=10^6 max_per_row=10^5 alpha=2000 empty=0.05"},
                             .new_case = new_case};
