/* lab08 bench: CSR SpMV against cusparseSpMV on four matrices. */
#include <cusparse.h>
#include <math.h>

#include "baseline.h"
#include "bench.cuh"
#include "kit/gen.h"

typedef void (*spmv_fn)(int, const int *, const int *, const float *, const float *, float *);

typedef struct {
    spmv_fn fn; /* NULL: the peer or the baseline */
    int rows, cols;
    int64_t nnz;
    const int *row_ptr, *col;
    const float *val, *x;
    float *y;
    /* the peer's */
    cusparseHandle_t h;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    void *buf;
    const double *want, *tol;
} spmv_arg;

static void call_fn(void *p)
{
    spmv_arg *a = (spmv_arg *)p;
    if (a->fn)
        a->fn(a->rows, a->row_ptr, a->col, a->val, a->x, a->y);
    else
        kit_spmv_scalar(a->rows, a->row_ptr, a->col, a->val, a->x, a->y);
}

static void sparse_ok(cusparseStatus_t s, const char *what)
{
    if (s != CUSPARSE_STATUS_SUCCESS) {
        fprintf(stderr, "bench lab08-spmv: %s: %s\n", what, cusparseGetErrorString(s));
        exit(1);
    }
}

static const float one = 1.0f, zero = 0.0f;

static void call_cusparse(void *p)
{
    spmv_arg *a = (spmv_arg *)p;
    sparse_ok(cusparseSpMV(a->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a->A, a->vx, &zero, a->vy, CUDA_R_32F,
                           CUSPARSE_SPMV_ALG_DEFAULT, a->buf),
              "cusparseSpMV");
}

static const char *check(void *p)
{
    spmv_arg *a = (spmv_arg *)p;
    return bench_cmp_f32(a->y, a->want, a->tol, (size_t)a->rows);
}

/* The CPU's y = A x in double (want) and what a float sum of each row may
 * be off by in any order (tol); the longest row's length. */
static int reference(const kit_csr *m, const float *hx, double *want, double *tol)
{
    int longest = 0;
    for (int i = 0; i < m->rows; i++) {
        double s = 0, a = 0;
        int len = m->row_ptr[i + 1] - m->row_ptr[i];
        longest = len > longest ? len : longest;
        for (int k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            s += (double)m->val[k] * hx[m->col[k]];
            a += fabs((double)m->val[k] * hx[m->col[k]]);
        }
        want[i] = s;
        tol[i] = (len + 2) * 0x1p-24 * a; /* len float products and sums, any order */
    }
    return longest;
}

/* cuSPARSE's view of pa's matrix (m's shape, pa's device copies) and
 * vectors, and its work buffer. */
static void cusparse_setup(spmv_arg *pa, const kit_csr *m, cusparseHandle_t h)
{
    sparse_ok(cusparseCreateCsr(&pa->A, m->rows, m->cols, m->nnz, (void *)pa->row_ptr, (void *)pa->col,
                                (void *)pa->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
              "cusparseCreateCsr");
    sparse_ok(cusparseCreateDnVec(&pa->vx, m->cols, (void *)pa->x, CUDA_R_32F), "cusparseCreateDnVec");
    sparse_ok(cusparseCreateDnVec(&pa->vy, m->rows, pa->y, CUDA_R_32F), "cusparseCreateDnVec");
    size_t buf_bytes = 0;
    sparse_ok(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, pa->A, pa->vx, &zero, pa->vy,
                                      CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buf_bytes),
              "cusparseSpMV_bufferSize");
    pa->buf = bench_malloc(buf_bytes);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab08-spmv");
    spmv_fn stu = (spmv_fn)bench_fn(BENCH_STUDENT, "_Z11spmv_vectoriPKiS0_PKfS2_Pf");
    spmv_fn ref = (spmv_fn)bench_fn(BENCH_REFERENCE, "_Z11spmv_vectoriPKiS0_PKfS2_Pf");
    spmv_fn str = (spmv_fn)bench_fn(BENCH_STRETCH, "_Z11spmv_hybridiPKiS0_PKfS2_Pf"); /* the hybrid (handout, stretch) */
    bench_gpu();
    cusparseHandle_t h;
    sparse_ok(cusparseCreate(&h), "cusparseCreate");
    struct { const char *what; int rows, per_row, max_per_row; double alpha; } mats[] = {
        {"500 nonzeros per row (the rubric's performance case)", 30000, 500, 0, 0},
        {"16 nonzeros per row", 1000000, 16, 0, 0},
        {"power law: floor(1200 u^9) per row, 5% empty", 1000000, 0, 1200, 9},
        {"heavy tail: floor(10^5 u^2000) per row", 1000000, 0, 100000, 2000}};
    for (auto &mt : mats) {
        kit_csr m;
        kit_rng r;
        kit_rng_seed(&r, 0xbe9c4ULL, 8);
        int rc = mt.per_row ? kit_gen_csr_fixed(&r, &m, mt.rows, mt.rows, mt.per_row)
                            : kit_gen_csr_powerlaw(&r, &m, mt.rows, mt.rows, mt.max_per_row, mt.alpha, 0.05);
        if (rc) {
            fprintf(stderr, "bench lab08-spmv: cannot generate the matrix (%s)\n", mt.what);
            return 1;
        }
        float *hx = (float *)bench_host((size_t)m.cols * sizeof(float));
        bench_rand_f32(hx, m.cols, -1.0f, 1.0f, 9);
        double *want = (double *)bench_host((size_t)m.rows * sizeof(double));
        double *tol = (double *)bench_host((size_t)m.rows * sizeof(double));
        int longest = reference(&m, hx, want, tol);
        spmv_arg base = {NULL, m.rows, m.cols, m.nnz, NULL, NULL, NULL, NULL, NULL, h, NULL, NULL, NULL, NULL,
                         want, tol};
        base.row_ptr = (const int *)bench_upload(m.row_ptr, ((size_t)m.rows + 1) * sizeof(int));
        base.col = (const int *)bench_upload(m.col, (size_t)m.nnz * sizeof(int));
        base.val = (const float *)bench_upload(m.val, (size_t)m.nnz * sizeof(float));
        base.x = (const float *)bench_upload(hx, (size_t)m.cols * sizeof(float));
        spmv_arg args[5];
        spmv_fn fns[5] = {NULL, stu, ref, NULL, str};
        for (int i = 0; i < 5; i++) {
            args[i] = base;
            args[i].fn = fns[i];
            args[i].y = (float *)bench_malloc((size_t)m.rows * sizeof(float));
        }
        spmv_arg *pa = &args[0];
        cusparse_setup(pa, &m, h);
        bench_row rows[5] = {bench_make("cusparseSpMV (CSR)", call_cusparse, &args[0], check, 1)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, NULL);
        k += bench_add(&rows[k], BENCH_STRETCH, "(hybrid)", (void *)str, call_fn, &args[4], check, NULL);
        rows[k++] = bench_make("baseline (kit_spmv_scalar)", call_fn, &args[3], check, 0);
        /* values and columns once, row pointers, x once, y */
        bench_case c = {"", (double)m.nnz * 8 + (m.rows + 1.0) * 4 + m.cols * 4.0 + m.rows * 4.0, 0};
        snprintf(c.title, sizeof c.title, "y = A x, %s rows, %.3g nonzeros (longest row %d), %s",
                 bench_size(m.rows), (double)m.nnz, longest, mt.what);
        bench_case_run(&c, rows, k);
        cusparseDestroySpMat(pa->A);
        cusparseDestroyDnVec(pa->vx);
        cusparseDestroyDnVec(pa->vy);
        bench_free(pa->buf);
        for (int i = 0; i < 5; i++)
            bench_free(args[i].y);
        bench_free((void *)base.row_ptr);
        bench_free((void *)base.col);
        bench_free((void *)base.val);
        bench_free((void *)base.x);
        free(hx), free(want), free(tol);
        kit_csr_free(&m);
    }
    cusparseDestroy(h);
    return bench_finish();
}
