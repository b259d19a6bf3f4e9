/* harness.cu - lab02's declaration (kit/lab.cuh): one call of vector_add
 * (host arrays) or vector_add_device (device arrays) on a poisoned c, "c"
 * recorded; bench mode times vector_add_device against the device's own copy
 * of the same bytes, and a serial CPU loop (exercise 4).  `make run-lab02
 * P="n=... time=1"` prints those timings (and the round trip's) instead.
 *
 * Over 100 lines: two entries (host and device arrays) and exercise 4's show-
 * mode timings (a serial CPU loop, the round trip, a table).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "kit/util.h"
#include "parallel_add.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab02_data d;
    float *h_c;          /* the result on the host (entry=host) */
    float *da, *db, *dc; /* device copies (entry=device, bench, or timings in show mode) */
    double cpu_ms;       /* serial loop, median */
    double round_trip_ms; /* vector_add, median (show mode only) */
} inputs;

#define CPU_REPS 3
#define ROUND_TRIP_REPS 3

static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)
{
    inputs *in = (inputs *)s;
    if (lab02_generate(p, seed, &in->d, err, len) != 0)
        return -1;
    in->h_c = (float *)kit_xmalloc((in->d.n ? (size_t)in->d.n : 1) * sizeof(float), "lab02 result");
    return 0;
}

static void release(kit_run_ctx *, void *s)
{
    free(((inputs *)s)->h_c);
    lab02_free(&((inputs *)s)->d);
}

/* time=1, `make run-lab02` only: the timings need device arrays whatever the entry */
static int show_timed(const kit_run_ctx *ctx) { return ctx->show && kit_params_ll(ctx->params, "time", 0, NULL) != 0; }

static int buffers(kit_run_ctx *ctx, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    if (stage != KIT_LAB_CASE || !(in->d.on_device || ctx->bench || show_timed(ctx)))
        return 0;
    size_t bytes = (in->d.n ? (size_t)in->d.n : 1) * sizeof(float), upload = (size_t)in->d.n * sizeof(float);
    b[0] = kit_lab_buf{(void **)&in->da, bytes, in->d.a, upload, 0};
    b[1] = kit_lab_buf{(void **)&in->db, bytes, in->d.b, upload, 0};
    b[2] = kit_lab_buf{(void **)&in->dc, bytes, NULL, 0, 0};
    return 3;
}

static void add_device(void *s)
{
    inputs *in = (inputs *)s;
    vector_add_device(in->da, in->db, in->dc, in->d.n);
}

static void add_host(void *s)
{
    inputs *in = (inputs *)s;
    vector_add(in->d.a, in->d.b, in->h_c, in->d.n);
}

/* One call on a NaN c: an element never written (or never copied back) stays NaN. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    if (k > 0)
        return 0;
    int dev = in->d.on_device;
    *c = kit_lab_call{dev ? "vector_add_device" : "vector_add", in->d.n == 0, dev ? add_device : add_host, {}, 1};
    c->out[0] = kit_lab_out{LAB02_OUT_C, KIT_T_F32, dev ? (void *)in->dc : (void *)in->h_c, !dev, (uint64_t)in->d.n, 0, 0,
                            KIT_POISON(0xFF)};
    return 1;
}

/* show mode: a few elements of c next to a + b, and how many were never written. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    const float *c = (const float *)host[0];
    int n = in->d.n;
    if (!ctx->show)
        return 0;
    printf("%s(n=%d):\n", in->d.on_device ? "vector_add_device" : "vector_add", n);
    int idx[4] = {0, 1, n / 2, n - 1};
    for (int k = 0; k < 4; k++) {
        int i = idx[k];
        if (i < 0 || i >= n || (k > 0 && i <= idx[k - 1]))
            continue;
        printf("  c[%d] = %.9g    (a[%d] + b[%d] = %.9g)\n", i, c[i], i, i, (double)in->d.a[i] + (double)in->d.b[i]);
    }
    long nan = 0;
    for (int i = 0; i < n; i++)
        nan += isnan(c[i]) != 0;
    if (nan)
        printf("  %ld of %d elements of c are NaN: the kit filled c with NaN before the call, so these were never "
               "written\n",
               nan, n);
    return 0;
}

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    if (stage == KIT_LAB_BENCH_BEFORE && (!in->d.on_device || in->d.n == 0))
        return "the benchmark times vector_add_device (entry=device) with n > 0";
    return NULL;
}

/* The timed calls of vector_add_device (fresh.cuh): before each, a and b
 * are replaced by scale * (a, b rotated by shift) and c is poisoned (NaN), in
 * buffers of their own (the baseline writes the shared c); LAB02_TIMED_SAMPLE
 * elements of c of a few calls are recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    sw->invoke = add_device, sw->in[0] = (void **)&in->da, sw->in[1] = (void **)&in->db, sw->out = (void **)&in->dc;
    tc->name = "vector_add_device";
    tc->how = KIT_FRESH_ROTATE_SCALE, tc->shift_hi = in->d.n - 1;
    tc->in[0].orig = in->da, tc->in[1].orig = in->db, tc->n_in = 2;
    tc->in[0].count = tc->in[1].count = in->d.n;
    tc->out_count = in->d.n, tc->poison = 0xFF, tc->sample = LAB02_TIMED_SAMPLE;
    return 0;
}

static int copy_baseline(void *s)
{
    inputs *in = (inputs *)s;
    cudaError_t e = kit_copy_same_bytes(in->da, in->db, in->dc, in->d.n);
    if (e != cudaSuccess)
        fprintf(stderr, "lab02 baseline: %s\n", cudaGetErrorString(e)); /* kit_time_once fails on it too */
    return 0;
}

/* Exercise 4's serial loop; not inlined so the compiler keeps it as written. */
static __attribute__((noinline)) void serial_add(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

/* After the timed calls: the serial loop, and in show mode the round trip. */
static int after_timing(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    double t[CPU_REPS];
    for (int r = 0; r < CPU_REPS; r++) {
        double t0 = kit_now();
        serial_add(in->d.a, in->d.b, in->h_c, in->d.n);
        t[r] = (kit_now() - t0) * 1e3;
    }
    volatile float keep = in->d.n ? in->h_c[in->d.n / 2] : 0.0f; /* the loop's result is used */
    (void)keep;
    in->cpu_ms = kit_median(t, CPU_REPS);
    kit_timing rt;
    if (!ctx->show)
        return 0;
    if (kit_time_median(add_host, in, 1, ROUND_TRIP_REPS, &rt) != 0)
        return -1;
    in->round_trip_ms = rt.median_ms;
    return 0;
}

/* Bytes a vector add moves: a and b read, c written. */
static double gb(const void *s) { return 3.0 * ((const inputs *)s)->d.n * sizeof(float) / 1e9; }
static double gbs(const void *s, double ms) { return gb(s) / (ms / 1e3); }
static double cpu_ms(const void *s, double) { return ((const inputs *)s)->cpu_ms; }
static double vs_cpu(const void *s, double ms) { return ((const inputs *)s)->cpu_ms / ms; }

static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    kit_timing k, copy;
    if (!show_timed(ctx))
        return 0;
    if (in->d.n == 0) {
        printf("nothing to time for n = 0\n");
        return 0;
    }
    if (kit_lab_time(ctx, in, ctx->warmup, ctx->reps, &k, &copy) != 0)
        return -1;
    printf("timings, n = %d (medians):\n", in->d.n);
    printf("  vector_add_device (kernel only)    %10.4f ms  %8.1f GB/s\n", k.median_ms, gbs(in, k.median_ms));
    printf("  device copy of the same bytes      %10.4f ms  %8.1f GB/s\n", copy.median_ms,
           gbs(in, copy.median_ms));
    printf("  vector_add (allocate, copy, add,   %10.4f ms\n", in->round_trip_ms);
    printf("              copy back, free)\n");
    printf("  serial loop on the CPU             %10.4f ms  %8.1f GB/s\n", in->cpu_ms, gb(in) / (in->cpu_ms / 1e3));
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab02", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = copy_baseline,
    .after_timing = after_timing,
    .metrics = {{"vector_add_device (GB/s, a and b read, c written)", gbs},
                {"device copy of the same bytes (GB/s)", gbs, 1},
                {"serial CPU loop (ms)", cpu_ms},
                {"kernel vs the serial CPU loop (x faster)", vs_cpu}},
    .show_time = show_time,
};
