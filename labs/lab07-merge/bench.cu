/* lab07 bench: stable merge of sorted ints against cub::DeviceMerge::MergeKeys
 * and thrust::merge. */
#include <algorithm>
#include <cub/device/device_merge.cuh>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include "baseline.h"
#include "bench.cuh"
#include "kit/gen.h"

typedef void (*merge_fn)(const int *, int, const int *, int, int *);

typedef struct {
    merge_fn fn; /* NULL: a library */
    const int *a, *b;
    int m, n;
    int *c;
    void *temp;
    size_t temp_bytes;
    const int *want;
} merge_arg;

static void call_fn(void *p)
{
    merge_arg *x = (merge_arg *)p;
    x->fn(x->a, x->m, x->b, x->n, x->c);
}

static void call_cub(void *p)
{
    merge_arg *x = (merge_arg *)p;
    BENCH_CUDA(cub::DeviceMerge::MergeKeys(x->temp, x->temp_bytes, x->a, x->m, x->b, x->n, x->c));
}

static void call_thrust(void *p)
{
    merge_arg *x = (merge_arg *)p;
    thrust::merge(thrust::device, x->a, x->a + x->m, x->b, x->b + x->n, x->c);
}

static void call_baseline(void *p)
{
    merge_arg *x = (merge_arg *)p;
    kit_merge_basic(x->a, x->m, x->b, x->n, x->c);
}

static const char *check(void *p)
{
    merge_arg *x = (merge_arg *)p;
    return bench_cmp_i32(x->c, x->want, (size_t)x->m + x->n);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab07-merge");
    merge_fn stu = (merge_fn)bench_fn(BENCH_STUDENT, "_Z11merge_tiledPKiiS0_iPi");
    merge_fn ref = (merge_fn)bench_fn(BENCH_REFERENCE, "_Z11merge_tiledPKiiS0_iPi");
    merge_fn ref_basic = (merge_fn)bench_fn(BENCH_REFERENCE, "_Z11merge_basicPKiiS0_iPi");
    merge_fn str = (merge_fn)bench_fn(BENCH_STRETCH, "_Z11merge_tiledPKiiS0_iPi"); /* CUB-style tiles (handout, stretch) */
    bench_gpu();
    const int sizes[] = {1000000, 10000000};
    for (int m : sizes) {
        int n = m;
        int *ha = (int *)bench_host((size_t)m * sizeof(int)), *hb = (int *)bench_host((size_t)n * sizeof(int));
        kit_rng r;
        kit_rng_seed(&r, 0xbe9c4ULL, 0);
        kit_gen_sorted_i32(&r, ha, m, 0, 1 << 30);
        kit_rng_seed(&r, 0xbe9c4ULL, 1);
        kit_gen_sorted_i32(&r, hb, n, 0, 1 << 30);
        int *want = (int *)bench_host(((size_t)m + n) * sizeof(int));
        std::merge(ha, ha + m, hb, hb + n, want);
        const int *da = (const int *)bench_upload(ha, (size_t)m * sizeof(int));
        const int *db = (const int *)bench_upload(hb, (size_t)n * sizeof(int));
        merge_fn fns[7] = {NULL, NULL, stu, ref, ref_basic, NULL, str};
        merge_arg args[7];
        for (int i = 0; i < 7; i++)
            args[i] = (merge_arg){fns[i], da, db, m, n, (int *)bench_malloc(((size_t)m + n) * sizeof(int)), NULL, 0,
                                  want};
        BENCH_CUDA(cub::DeviceMerge::MergeKeys(NULL, args[0].temp_bytes, da, m, db, n, args[0].c));
        args[0].temp = bench_malloc(args[0].temp_bytes);
        bench_row rows[7] = {bench_make("cub::DeviceMerge::MergeKeys", call_cub, &args[0], check, 1),
                             bench_make("thrust::merge", call_thrust, &args[1], check, 0)};
        int k = 2;
        k += bench_add_both(&rows[k], "tiled", (void *)stu, (void *)ref, call_fn, &args[2], &args[3], check, NULL);
        k += bench_add(&rows[k], BENCH_STRETCH, "(CUB-style tiles)", (void *)str, call_fn, &args[6], check, NULL);
        k += bench_add(&rows[k], BENCH_REFERENCE, "basic", (void *)ref_basic, call_fn, &args[4], check, NULL);
        rows[k++] = bench_make("baseline (kit_merge_basic)", call_baseline, &args[5], check, 0);
        bench_case c = {"", 2.0 * ((double)m + n) * sizeof(int), 0};
        snprintf(c.title, sizeof c.title, "merge, %s + %s sorted ints", bench_size(m), bench_size(n));
        bench_case_run(&c, rows, k);
        for (int i = 0; i < 7; i++)
            bench_free(args[i].c);
        bench_free(args[0].temp);
        bench_free((void *)da);
        bench_free((void *)db);
        free(ha), free(hb), free(want);
    }
    return bench_finish();
}
