/* lab02 bench: c = a + b against cub::DeviceTransform and the copy roof. */
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>

#include "baseline.h"
#include "bench.cuh"

typedef void (*add_fn)(const float *, const float *, float *, int);

typedef struct {
    add_fn fn;                /* student / reference; NULL: the peer or the baseline */
    const float *a, *b;
    float *c;
    int n;
    const double *want;
} add_arg;

static void call_fn(void *p)
{
    add_arg *x = (add_arg *)p;
    x->fn(x->a, x->b, x->c, x->n);
}

static void call_cub(void *p)
{
    add_arg *x = (add_arg *)p;
    BENCH_CUDA(cub::DeviceTransform::Transform(::cuda::std::make_tuple(x->a, x->b), x->c, x->n,
                                               ::cuda::std::plus<float>{}));
}

static void call_baseline(void *p)
{
    add_arg *x = (add_arg *)p;
    BENCH_CUDA(kit_copy_same_bytes(x->a, x->b, x->c, x->n));
}

static const char *check(void *p)
{
    add_arg *x = (add_arg *)p;
    return bench_cmp_f32(x->c, x->want, NULL, (size_t)x->n); /* a + b rounded once: exact */
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab02-parallel-add");
    add_fn stu = (add_fn)bench_fn(BENCH_STUDENT, "_Z17vector_add_devicePKfS0_Pfi");
    add_fn ref = (add_fn)bench_fn(BENCH_REFERENCE, "_Z17vector_add_devicePKfS0_Pfi");
    bench_gpu();
    const int sizes[] = {1 << 20, (1 << 24) + 3, 1 << 26};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        size_t bytes = (size_t)n * sizeof(float);
        float *ha = (float *)bench_host(bytes), *hb = (float *)bench_host(bytes);
        bench_rand_f32(ha, n, -1.0f, 1.0f, 0);
        bench_rand_f32(hb, n, -1.0f, 1.0f, 1);
        double *want = (double *)bench_host((size_t)n * sizeof(double));
        for (int i = 0; i < n; i++)
            want[i] = (double)(ha[i] + hb[i]);
        const float *da = (const float *)bench_upload(ha, bytes), *db = (const float *)bench_upload(hb, bytes);
        float *dc[3];
        for (int i = 0; i < 3; i++)
            dc[i] = (float *)bench_malloc(bytes);
        add_arg args[4] = {{NULL, da, db, dc[0], n, want}, {stu, da, db, dc[1], n, want},
                           {ref, da, db, dc[2], n, want}, {NULL, da, db, dc[0], n, want}};
        bench_row rows[4] = {bench_make("cub::DeviceTransform (a + b)", call_cub, &args[0], check, 1)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, NULL);
        rows[k++] = bench_make("baseline (kit_copy_same_bytes)", call_baseline, &args[3], NULL, 0);
        bench_case c = {"", 3.0 * bytes, 0};
        snprintf(c.title, sizeof c.title, "c = a + b, n = %s floats", bench_size(n));
        bench_case_run(&c, rows, k);
        for (int i = 0; i < 3; i++)
            bench_free(dc[i]);
        bench_free((void *)da);
        bench_free((void *)db);
        free(ha), free(hb), free(want);
    }
    return bench_finish();
}
