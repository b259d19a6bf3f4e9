/* lab06 bench: inclusive scan against cub::DeviceScan::InclusiveSum. */
#include <cub/device/device_scan.cuh>
#include <math.h>

#include "baseline.h"
#include "bench.cuh"

typedef void (*scan_fn)(const float *, float *, int);

typedef struct {
    scan_fn fn;
    const float *in;
    float *out;
    int n;
    void *temp; /* the peer's scratch, allocated once (as a caller of CUB would) */
    size_t temp_bytes;
    const double *want, *tol;
} scan_arg;

static void call_fn(void *p)
{
    scan_arg *x = (scan_arg *)p;
    x->fn(x->in, x->out, x->n);
}

static void call_cub(void *p)
{
    scan_arg *x = (scan_arg *)p;
    BENCH_CUDA(cub::DeviceScan::InclusiveSum(x->temp, x->temp_bytes, x->in, x->out, x->n));
}

static void call_baseline(void *p)
{
    scan_arg *x = (scan_arg *)p;
    kit_scan_global(x->in, x->out, x->n);
}

static const char *check(void *p)
{
    scan_arg *x = (scan_arg *)p;
    return bench_cmp_f32(x->out, x->want, x->tol, (size_t)x->n);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab06-scan");
    scan_fn stu = (scan_fn)bench_fn(BENCH_STUDENT, "_Z4scanPKfPfi");
    scan_fn ref = (scan_fn)bench_fn(BENCH_REFERENCE, "_Z4scanPKfPfi");
    scan_fn str = (scan_fn)bench_fn(BENCH_STRETCH, "_Z4scanPKfPfi"); /* single pass, decoupled look-back (handout, stretch) */
    bench_gpu();
    const int sizes[] = {1 << 20, (1 << 24) + 3, 1 << 26};
    for (int n : sizes) {
        size_t bytes = (size_t)n * sizeof(float);
        float *h = (float *)bench_host(bytes);
        bench_rand_f32(h, n, -1.0f, 1.0f, 0);
        double *want = (double *)bench_host((size_t)n * sizeof(double)), *tol = (double *)bench_host((size_t)n * sizeof(double));
        double s = 0, a = 0;
        for (int i = 0; i < n; i++) {
            s += h[i];
            a += fabs(h[i]);
            want[i] = s;
            /* a blocked scan adds along chains of at most ~2^14 float
             * additions (in-tile steps plus one per preceding tile) */
            tol[i] = 0x1p-10 * a;
        }
        const float *din = (const float *)bench_upload(h, bytes);
        scan_arg args[5];
        scan_fn fns[5] = {NULL, stu, ref, NULL, str};
        for (int i = 0; i < 5; i++)
            args[i] = (scan_arg){fns[i], din, (float *)bench_malloc(bytes), n, NULL, 0, want, tol};
        BENCH_CUDA(cub::DeviceScan::InclusiveSum(NULL, args[0].temp_bytes, din, args[0].out, n));
        args[0].temp = bench_malloc(args[0].temp_bytes);
        bench_row rows[5] = {bench_make("cub::DeviceScan::InclusiveSum", call_cub, &args[0], check, 1)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, NULL);
        k += bench_add(&rows[k], BENCH_STRETCH, "(decoupled look-back)", (void *)str, call_fn, &args[4], check, NULL);
        rows[k++] = bench_make("baseline (kit_scan_global)", call_baseline, &args[3], check, 0);
        bench_case c = {"", 2.0 * bytes, 0};
        snprintf(c.title, sizeof c.title, "inclusive scan, n = %s floats", bench_size(n));
        bench_case_run(&c, rows, k);
        for (int i = 0; i < 5; i++)
            bench_free(args[i].out);
        bench_free(args[0].temp);
        bench_free((void *)din);
        free(h), free(want), free(tol);
    }
    return bench_finish();
}
