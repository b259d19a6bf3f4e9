/* lab03 bench: float dot product against cublasSdot. */
#include <cublas_v2.h>
#include <math.h>

#include "baseline.h"
#include "bench.cuh"

typedef float (*dot_fn)(const float *, const float *, int);

typedef struct {
    dot_fn fn;
    cublasHandle_t h; /* the peer's */
    const float *a, *b;
    int n;
    float got;
    double want, tol;
} dot_arg;

static void call_fn(void *p)
{
    dot_arg *x = (dot_arg *)p;
    x->got = x->fn(x->a, x->b, x->n);
}

static void call_cublas(void *p)
{
    dot_arg *x = (dot_arg *)p;
    if (cublasSdot(x->h, x->n, x->a, 1, x->b, 1, &x->got) != CUBLAS_STATUS_SUCCESS) /* host pointer mode: waits */
        x->got = NAN;
}

static void call_baseline(void *p)
{
    dot_arg *x = (dot_arg *)p;
    x->got = kit_dot_global(x->a, x->b, x->n);
}

static const char *check(void *p)
{
    dot_arg *x = (dot_arg *)p;
    return bench_cmp_scalar(x->got, x->want, x->tol);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab03-dot");
    dot_fn stu = (dot_fn)bench_fn(BENCH_STUDENT, "_Z10dot_sharedPKfS0_i");
    dot_fn ref = (dot_fn)bench_fn(BENCH_REFERENCE, "_Z10dot_sharedPKfS0_i");
    bench_gpu();
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "bench lab03-dot: cublasCreate failed\n");
        return 1;
    }
    const int sizes[] = {1 << 20, (1 << 24) + 3, 1 << 26};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        size_t bytes = (size_t)n * sizeof(float);
        float *ha = (float *)bench_host(bytes), *hb = (float *)bench_host(bytes);
        bench_rand_f32(ha, n, -1.0f, 1.0f, 0);
        bench_rand_f32(hb, n, -1.0f, 1.0f, 1);
        double want = 0, abs_sum = 0;
        for (int i = 0; i < n; i++) {
            want += (double)ha[i] * hb[i];
            abs_sum += fabs((double)ha[i] * hb[i]);
        }
        /* Any blocked or tree order whose longest chain of float additions is
         * at most 2^12 long (the kit's and the libraries' are far shorter)
         * stays within 2^12 * 2^-24 of the sum of the |terms|. */
        double tol = 0x1p-12 * abs_sum;
        const float *da = (const float *)bench_upload(ha, bytes), *db = (const float *)bench_upload(hb, bytes);
        dot_arg args[4];
        for (int i = 0; i < 4; i++)
            args[i] = (dot_arg){i == 1 ? stu : i == 2 ? ref : NULL, h, da, db, n, 0.0f, want, tol};
        bench_row rows[4] = {bench_make("cublasSdot", call_cublas, &args[0], check, 1)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, NULL);
        rows[k++] = bench_make("baseline (kit_dot_global)", call_baseline, &args[3], check, 0);
        bench_case c = {"", 2.0 * bytes, 0};
        snprintf(c.title, sizeof c.title, "dot product, n = %s floats", bench_size(n));
        bench_case_run(&c, rows, k);
        bench_free((void *)da);
        bench_free((void *)db);
        free(ha), free(hb);
    }
    cublasDestroy(h);
    return bench_finish();
}
