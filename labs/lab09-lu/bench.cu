/* lab09 bench: blocked Crout LU (no pivoting) against cusolverDnSgetrf
 * without pivoting.  getrf works on column-major storage: given our row-major
 * A it factors A^T = L' U' (L' unit lower), i.e. A = U'^T L'^T, which is
 * Crout's A = L U (U unit upper) stored exactly where lu.h stores it. */
#include <cusolverDn.h>
#include <math.h>

#include "baseline.h"
#include "bench.cuh"
#include "kit/gen.h"

typedef int (*lu_fn)(float *, int);
/* The stretch solution's lu_stretch_phases: the same factorization on one
 * stream, milliseconds per phase (tolerances, diagonal blocks, triangular
 * solves, updates) summed over the panels; returns the status. */
typedef int (*lu_phases_fn)(float *, int, float *);

typedef struct {
    lu_fn fn;       /* NULL: the peer or the baseline */
    int baseline;
    const float *orig;
    float *a;
    int n, status;
    cusolverDnHandle_t h;
    float *work;
    int *info;
    const float *h_orig; /* for the check */
} lu_arg;

static void restore(void *p)
{
    lu_arg *x = (lu_arg *)p;
    BENCH_CUDA(cudaMemcpyAsync(x->a, x->orig, (size_t)x->n * x->n * sizeof(float), cudaMemcpyDeviceToDevice, 0));
}

static void call_fn(void *p)
{
    lu_arg *x = (lu_arg *)p;
    x->status = x->baseline ? kit_lu_step(x->a, x->n) : x->fn(x->a, x->n);
}

static void call_cusolver(void *p)
{
    lu_arg *x = (lu_arg *)p;
    x->status = cusolverDnSgetrf(x->h, x->n, x->n, x->a, x->n, x->work, NULL, x->info) == CUSOLVER_STATUS_SUCCESS
                    ? 0 : -1;
}

/* Backward error probed with a random vector: |A v - L (U v)| against the
 * bound n 2^-20 |A| |v| (a backward-stable LU of these diagonally dominant
 * matrices stays orders of magnitude below it; a wrong tile does not). */
static const char *check(void *p)
{
    lu_arg *x = (lu_arg *)p;
    int n = x->n;
    if (x->status != 0)
        return bench_cmp_scalar(x->status, 0, 0);
    float *f = (float *)bench_host((size_t)n * n * sizeof(float));
    BENCH_CUDA(cudaMemcpy(f, x->a, (size_t)n * n * sizeof(float), cudaMemcpyDeviceToHost));
    double *v = (double *)bench_host(n * sizeof(double)), *uv = (double *)bench_host(n * sizeof(double));
    for (int i = 0; i < n; i++)
        v[i] = 1.0 + (i % 7) * 0.125;
    for (int i = 0; i < n; i++) { /* U v, U unit upper */
        double s = v[i];
        for (int j = i + 1; j < n; j++)
            s += (double)f[(size_t)i * n + j] * v[j];
        uv[i] = s;
    }
    const char *msg = NULL;
    for (int i = 0; i < n && !msg; i++) {
        double luv = 0, av = 0, bound = 0;
        for (int j = 0; j <= i; j++)
            luv += (double)f[(size_t)i * n + j] * uv[j];
        for (int j = 0; j < n; j++) {
            av += (double)x->h_orig[(size_t)i * n + j] * v[j];
            bound += fabs((double)x->h_orig[(size_t)i * n + j] * v[j]);
        }
        if (!(fabs(luv - av) <= n * 0x1p-20 * bound))
            msg = bench_cmp_scalar(luv, av, n * 0x1p-20 * bound);
    }
    free(f), free(v), free(uv);
    return msg ? msg : NULL;
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab09-lu");
    lu_fn stu = (lu_fn)bench_fn(BENCH_STUDENT, "_Z16lu_crout_blockedPfi");
    lu_fn ref = (lu_fn)bench_fn(BENCH_REFERENCE, "_Z16lu_crout_blockedPfi");
    lu_fn str = (lu_fn)bench_fn(BENCH_STRETCH, "_Z16lu_crout_blockedPfi"); /* panels of 128, register-blocked update, look-ahead (handout, stretch) */
    lu_phases_fn str_phases = (lu_phases_fn)bench_fn(BENCH_STRETCH, "lu_stretch_phases");
    bench_gpu();
    cusolverDnHandle_t h;
    if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "bench lab09-lu: cusolverDnCreate failed\n");
        return 1;
    }
    const int sizes[] = {1024, 2048, 4096};
    for (int n : sizes) {
        size_t elems = (size_t)n * n;
        double *hd = (double *)bench_host(elems * sizeof(double));
        kit_rng r;
        kit_rng_seed(&r, 0xbe9c4ULL, 9);
        kit_gen_diag_dominant(&r, hd, n);
        float *hf = (float *)bench_host(elems * sizeof(float));
        for (size_t i = 0; i < elems; i++)
            hf[i] = (float)hd[i];
        const float *orig = (const float *)bench_upload(hf, elems * sizeof(float));
        lu_arg args[5];
        lu_fn fns[5] = {NULL, stu, ref, NULL, str};
        for (int i = 0; i < 5; i++)
            args[i] = (lu_arg){fns[i], i == 3, orig, (float *)bench_malloc(elems * sizeof(float)), n, 0, h, NULL,
                               NULL, hf};
        int lwork = 0;
        if (cusolverDnSgetrf_bufferSize(h, n, n, args[0].a, n, &lwork) != CUSOLVER_STATUS_SUCCESS) {
            fprintf(stderr, "bench lab09-lu: cusolverDnSgetrf_bufferSize failed\n");
            return 1;
        }
        args[0].work = (float *)bench_malloc((size_t)lwork * sizeof(float));
        args[0].info = (int *)bench_malloc(sizeof(int));
        bench_row rows[5] = {bench_make("cusolverDnSgetrf (no pivoting)", call_cusolver, &args[0], check, 1, restore)};
        int k = 1;
        k += bench_add_both(&rows[k], "blocked", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, restore);
        k += bench_add(&rows[k], BENCH_STRETCH, "(NB = 128, look-ahead)", (void *)str, call_fn, &args[4], check, restore);
        if (n <= 2048) /* ~1 s a call at 4096 */
            rows[k++] = bench_make("baseline (kit_lu_step)", call_fn, &args[3], check, 0, restore);
        bench_case c = {"", 0, 2.0 * n * (double)n * n / 3.0};
        snprintf(c.title, sizeof c.title, "LU without pivoting, n = %d floats, diagonally dominant", n);
        bench_case_run(&c, rows, k);
        if (str_phases) { /* where the stretch's time goes (its timed row overlaps panels and updates) */
            float ms[4];
            restore(&args[4]);
            int st = str_phases(args[4].a, n, ms);
            BENCH_CUDA(cudaDeviceSynchronize());
            if (st == 0)
                printf("   stretch phases, one stream, no overlap: tolerances %.3f ms, diagonal blocks %.3f, "
                       "triangular solves %.3f, updates %.3f (sum %.3f ms)\n",
                       ms[0], ms[1], ms[2], ms[3], ms[0] + ms[1] + ms[2] + ms[3]);
            else
                printf("   stretch phases: status %d, not timed\n", st);
        }
        for (int i = 0; i < 5; i++)
            bench_free(args[i].a);
        bench_free(args[0].work);
        bench_free(args[0].info);
        bench_free((void *)orig);
        free(hd), free(hf);
    }
    cusolverDnDestroy(h);
    return bench_finish();
}
