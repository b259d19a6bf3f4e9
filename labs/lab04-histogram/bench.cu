/* lab04 bench: histogram against cub::DeviceHistogram::HistogramEven. */
#include <cub/device/device_histogram.cuh>

#include "baseline.h"
#include "bench.cuh"
#include "histogram.h"
#include "kit/gen.h"

typedef void (*histo_fn)(const int *, int, unsigned int *, int);

typedef struct {
    histo_fn fn;
    const int *in;
    int n, bins;
    unsigned int *out;
    void *temp; /* the peer's scratch, allocated once (as a caller of CUB would) */
    size_t temp_bytes;
    const int *want;
} histo_arg;

static void call_fn(void *p)
{
    histo_arg *x = (histo_arg *)p;
    x->fn(x->in, x->n, x->out, x->bins);
}

static void call_cub(void *p)
{
    histo_arg *x = (histo_arg *)p;
    BENCH_CUDA(cub::DeviceHistogram::HistogramEven(x->temp, x->temp_bytes, x->in, x->out, x->bins + 1, 0, x->bins,
                                                   x->n));
}

static void call_baseline(void *p)
{
    histo_arg *x = (histo_arg *)p;
    kit_histogram_global(x->in, x->n, x->out, x->bins);
}

static void poison(void *p)
{
    histo_arg *x = (histo_arg *)p;
    BENCH_CUDA(cudaMemsetAsync(x->out, 0xff, (size_t)x->bins * sizeof(unsigned), 0));
}

static const char *check(void *p)
{
    histo_arg *x = (histo_arg *)p;
    return bench_cmp_i32((const int *)x->out, x->want, (size_t)x->bins);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab04-histogram");
    histo_fn stu = (histo_fn)bench_fn(BENCH_STUDENT, "_Z16histogram_sharedPKiiPji");
    histo_fn ref = (histo_fn)bench_fn(BENCH_REFERENCE, "_Z16histogram_sharedPKiiPji");
    bench_gpu();
    struct { int n, bins; double p_hot; const char *what; } cases[] = {
        {1 << 26, 256, 0.0, "uniform"}, {1 << 26, 256, 0.9, "skewed (90% one bin)"},
        {1 << 26, 4096, 0.0, "uniform"}, {1 << 26, 4096, 0.9, "skewed (90% one bin)"}};
    for (auto &cs : cases) {
        int n = cs.n, bins = cs.bins;
        int *h = (int *)bench_host((size_t)n * sizeof(int));
        kit_rng r;
        kit_rng_seed(&r, 0xbe9c4ULL, 4);
        kit_gen_skewed_i32(&r, h, n, 0, bins - 1, cs.p_hot, bins / 3);
        int *want = (int *)bench_host((size_t)bins * sizeof(int));
        for (int b = 0; b < bins; b++)
            want[b] = 0;
        for (int i = 0; i < n; i++)
            want[h[i]]++;
        const int *din = (const int *)bench_upload(h, (size_t)n * sizeof(int));
        histo_arg args[4];
        for (int i = 0; i < 4; i++) {
            args[i] = (histo_arg){i == 1 ? stu : i == 2 ? ref : NULL, din, n, bins, NULL, NULL, 0, want};
            args[i].out = (unsigned *)bench_malloc((size_t)bins * sizeof(unsigned));
        }
        BENCH_CUDA(cub::DeviceHistogram::HistogramEven(NULL, args[0].temp_bytes, din, args[0].out, bins + 1, 0, bins,
                                                       n));
        args[0].temp = bench_malloc(args[0].temp_bytes);
        bench_row rows[4] = {bench_make("cub::DeviceHistogram::HistogramEven", call_cub, &args[0], check, 1, poison)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, poison);
        rows[k++] = bench_make("baseline (kit_histogram_global)", call_baseline, &args[3], check, 0, poison);
        bench_case c = {"", (double)n * sizeof(int), 0};
        snprintf(c.title, sizeof c.title, "histogram, n = %s ints, %d bins, %s", bench_size(n), bins, cs.what);
        bench_case_run(&c, rows, k);
        for (int i = 0; i < 4; i++)
            bench_free(args[i].out);
        bench_free(args[0].temp);
        bench_free((void *)din);
        free(h), free(want);
    }
    return bench_finish();
}
