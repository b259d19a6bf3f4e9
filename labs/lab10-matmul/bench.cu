/* lab10 bench: C = A B (row-major floats) against cublasSgemm.  cuBLAS is
 * column-major: C^T = B^T A^T is the same memory, so it gets (n, m, k, B, A). */
#include <cublas_v2.h>
#include <math.h>

#include "baseline.h"
#include "bench.cuh"

typedef void (*mm_fn)(const float *, const float *, float *, int, int, int);

typedef struct {
    mm_fn fn; /* NULL: the peer or the baseline */
    int baseline;
    const float *a, *b;
    float *c;
    int m, n, k;
    cublasHandle_t h;
    const double *want, *tol; /* C v for a fixed v, and its bound */
    const double *v;
} mm_arg;

static void call_fn(void *p)
{
    mm_arg *x = (mm_arg *)p;
    if (x->baseline)
        kit_matmul_naive(x->a, x->b, x->c, x->m, x->n, x->k);
    else
        x->fn(x->a, x->b, x->c, x->m, x->n, x->k);
}

static void call_cublas(void *p)
{
    mm_arg *x = (mm_arg *)p;
    const float one = 1.0f, zero = 0.0f;
    if (cublasSgemm(x->h, CUBLAS_OP_N, CUBLAS_OP_N, x->n, x->m, x->k, &one, x->b, x->n, x->a, x->k, &zero, x->c,
                    x->n) != CUBLAS_STATUS_SUCCESS)
        BENCH_CUDA(cudaErrorUnknown);
}

static void poison(void *p)
{
    mm_arg *x = (mm_arg *)p;
    BENCH_CUDA(cudaMemsetAsync(x->c, 0xff, (size_t)x->m * x->n * sizeof(float), 0)); /* NaN */
}

/* C v against A (B v): a wrong element of C shows in its row's sum. */
static const char *check(void *p)
{
    mm_arg *x = (mm_arg *)p;
    size_t elems = (size_t)x->m * x->n;
    float *c = (float *)bench_host(elems * sizeof(float));
    BENCH_CUDA(cudaMemcpy(c, x->c, elems * sizeof(float), cudaMemcpyDeviceToHost));
    const char *msg = NULL;
    for (int i = 0; i < x->m && !msg; i++) {
        double s = 0;
        for (int j = 0; j < x->n; j++)
            s += (double)c[(size_t)i * x->n + j] * x->v[j];
        msg = bench_cmp_scalar(s, x->want[i], x->tol[i]);
    }
    free(c);
    return msg;
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab10-matmul");
    mm_fn stu = (mm_fn)bench_fn(BENCH_STUDENT, "_Z12matmul_tiledPKfS0_Pfiii");
    mm_fn ref = (mm_fn)bench_fn(BENCH_REFERENCE, "_Z12matmul_tiledPKfS0_Pfiii");
    mm_fn str = (mm_fn)bench_fn(BENCH_STRETCH, "_Z12matmul_tiledPKfS0_Pfiii"); /* register blocking (handout, stretch) */
    bench_gpu();
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "bench lab10-matmul: cublasCreate failed\n");
        return 1;
    }
    cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH); /* plain FP32: no TF32 tensor cores */
    const int dims[][3] = {{1999, 2049, 2001}, {4096, 4096, 4096}}; /* m, n, k: the rubric's performance case, and a large square one */
    for (auto &d : dims) {
        int m = d[0], n = d[1], k = d[2];
        float *ha = (float *)bench_host((size_t)m * k * sizeof(float));
        float *hb = (float *)bench_host((size_t)k * n * sizeof(float));
        bench_rand_f32(ha, (size_t)m * k, -1.0f, 1.0f, 0);
        bench_rand_f32(hb, (size_t)k * n, -1.0f, 1.0f, 1);
        double *v = (double *)bench_host(n * sizeof(double)), *bv = (double *)bench_host(k * sizeof(double));
        double *abv = (double *)bench_host(k * sizeof(double));
        double *want = (double *)bench_host(m * sizeof(double)), *tol = (double *)bench_host(m * sizeof(double));
        for (int j = 0; j < n; j++)
            v[j] = 1.0 + (j % 5) * 0.25;
        for (int p = 0; p < k; p++) {
            double s = 0, a = 0;
            for (int j = 0; j < n; j++) {
                s += (double)hb[(size_t)p * n + j] * v[j];
                a += fabs((double)hb[(size_t)p * n + j]) * v[j];
            }
            bv[p] = s, abv[p] = a;
        }
        for (int i = 0; i < m; i++) {
            double s = 0, a = 0;
            for (int p = 0; p < k; p++) {
                s += (double)ha[(size_t)i * k + p] * bv[p];
                a += fabs((double)ha[(size_t)i * k + p]) * abv[p];
            }
            want[i] = s;
            tol[i] = (k + 2) * 0x1p-24 * a; /* each c_ij within gamma_k of |A||B| */
        }
        const float *da = (const float *)bench_upload(ha, (size_t)m * k * sizeof(float));
        const float *db = (const float *)bench_upload(hb, (size_t)k * n * sizeof(float));
        mm_arg args[5];
        mm_fn fns[5] = {NULL, stu, ref, NULL, str};
        for (int i = 0; i < 5; i++)
            args[i] = (mm_arg){fns[i], i == 3, da, db, (float *)bench_malloc((size_t)m * n * sizeof(float)), m, n, k,
                               h, want, tol, v};
        bench_row rows[5] = {bench_make("cublasSgemm (FP32, no TF32)", call_cublas, &args[0], check, 1, poison)};
        int kk = 1;
        kk += bench_add_both(&rows[kk], "tiled", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, poison);
        kk += bench_add(&rows[kk], BENCH_STRETCH, "(register blocking)", (void *)str, call_fn, &args[4], check, poison);
        rows[kk++] = bench_make("baseline (kit_matmul_naive)", call_fn, &args[3], check, 0, poison);
        bench_case c = {"", 0, 2.0 * m * (double)n * k};
        snprintf(c.title, sizeof c.title, "C = A B, m = %d, n = %d, k = %d floats", m, n, k);
        bench_case_run(&c, rows, kk);
        for (int i = 0; i < 5; i++)
            bench_free(args[i].c);
        bench_free((void *)da);
        bench_free((void *)db);
        free(ha), free(hb), free(v), free(bv), free(abv), free(want), free(tol);
    }
    cublasDestroy(h);
    return bench_finish();
}
