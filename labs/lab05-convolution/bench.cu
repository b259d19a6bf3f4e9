/* lab05 bench: 1D convolution against the copy roof (NVIDIA's libraries have
 * no plain 1D convolution of a float array: the yardstick is the bandwidth of
 * a copy of the same bytes, in + out). */
#include <math.h>

#include "baseline.h"
#include "bench.cuh"
#include "conv1d.h"

typedef void (*conv_fn)(const float *, float *, int, const float *, int);

typedef struct {
    conv_fn fn; /* NULL: the baseline */
    const float *in;
    float *out;
    int n;
    const float *mask;
    int mask_size;
    const double *want, *tol;
} conv_arg;

static void call_fn(void *p)
{
    conv_arg *x = (conv_arg *)p;
    if (x->fn)
        x->fn(x->in, x->out, x->n, x->mask, x->mask_size);
    else
        kit_conv1d_global(x->in, x->out, x->n, x->mask, x->mask_size);
}

static const char *check(void *p)
{
    conv_arg *x = (conv_arg *)p;
    return bench_cmp_f32(x->out, x->want, x->tol, (size_t)x->n);
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab05-convolution");
    conv_fn stu = (conv_fn)bench_fn(BENCH_STUDENT, "_Z12conv1d_tiledPKfPfiS0_i");
    conv_fn ref = (conv_fn)bench_fn(BENCH_REFERENCE, "_Z12conv1d_tiledPKfPfiS0_i");
    conv_fn ref_halo = (conv_fn)bench_fn(BENCH_REFERENCE, "_Z18conv1d_halo_globalPKfPfiS0_i");
    conv_fn str = (conv_fn)bench_fn(BENCH_STRETCH, "_Z12conv1d_tiledPKfPfiS0_i"); /* register tiling (handout, stretch) */
    bench_gpu();
    const int n = 1 << 26, masks[] = {5, 21, 31};
    size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)bench_host(bytes);
    bench_rand_f32(h, n, -1.0f, 1.0f, 0);
    const float *din = (const float *)bench_upload(h, bytes);
    double *want = (double *)bench_host((size_t)n * sizeof(double)), *tol = (double *)bench_host((size_t)n * sizeof(double));
    float *dout[5];
    for (int i = 0; i < 5; i++)
        dout[i] = (float *)bench_malloc(bytes);
    for (int mask_size : masks) {
        float mask[CONV_MAX_MASK];
        bench_rand_f32(mask, mask_size, -1.0f, 1.0f, 7);
        int r = mask_size / 2;
        for (int i = 0; i < n; i++) {
            double s = 0, a = 0;
            for (int j = 0; j < mask_size; j++) {
                int g = i + j - r;
                if (g >= 0 && g < n) {
                    s += (double)mask[j] * h[g];
                    a += fabs((double)mask[j] * h[g]);
                }
            }
            want[i] = s;
            tol[i] = (mask_size + 1) * 0x1p-24 * a; /* mask_size float products and sums in any order */
        }
        conv_arg args[5];
        conv_fn fns[5] = {stu, ref, ref_halo, NULL, str};
        for (int i = 0; i < 5; i++)
            args[i] = (conv_arg){fns[i], din, dout[i], n, mask, mask_size, want, tol};
        bench_row rows[5];
        int k = 0;
        k += bench_add_both(&rows[k], "tiled", (void *)stu, (void *)ref, call_fn, &args[0], &args[1], check, NULL);
        k += bench_add(&rows[k], BENCH_REFERENCE, "halo from global", (void *)ref_halo, call_fn, &args[2], check, NULL);
        k += bench_add(&rows[k], BENCH_STRETCH, "(register tiling)", (void *)str, call_fn, &args[4], check, NULL);
        rows[k++] = bench_make("baseline (kit_conv1d_global)", call_fn, &args[3], check, 0);
        bench_case c = {"", 2.0 * bytes, 0};
        snprintf(c.title, sizeof c.title, "convolution, n = %s floats, mask %d (no library peer: x copy is the yardstick)",
                 bench_size(n), mask_size);
        bench_case_run(&c, rows, k);
    }
    for (int i = 0; i < 5; i++)
        bench_free(dout[i]);
    bench_free((void *)din);
    free(h), free(want), free(tol);
    return bench_finish();
}
