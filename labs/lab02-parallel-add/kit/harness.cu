/* harness.cu - lab02's declaration, mostly data (kit/lab_decl.cuh): one call
 * of vector_add (host arrays) or vector_add_device (device arrays) on a
 * poisoned c (an element never written, or never copied back, stays NaN),
 * "c" recorded; bench mode times vector_add_device on fresh a and b against
 * the device's own copy of the same bytes, and a serial CPU loop (exercise
 * 4).  `make run-lab02 P="n=... time=1"` prints those timings (and the round
 * trip's) in a table of its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "kit/util.h"
#include "parallel_add.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab02_data d;
    float *h_c;           /* the result on the host (entry=host) */
    float *da, *db, *dc;  /* device copies (entry=device, bench, or timings in show mode) */
    double cpu_ms;        /* serial loop, median */
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

static void release(kit_run_ctx *, void *s) { free(((inputs *)s)->h_c), lab02_free(&((inputs *)s)->d); }

KIT_LAB_INVOKE(inputs, add_device, vector_add_device(in->da, in->db, in->dc, in->d.n))
KIT_LAB_INVOKE(inputs, add_host, vector_add(in->d.a, in->d.b, in->h_c, in->d.n))

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

/* time=1, `make run-lab02` only: the timings need device arrays whatever the entry */
static int show_timed(const kit_run_ctx *ctx) { return ctx->show && kit_params_ll(ctx->params, "time", 0, NULL) != 0; }

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

#define F(member) KIT_AT(inputs, member)
#define BENCH(field, lo, hi) {KIT_LAB_BENCH_BEFORE, field, lo, hi, \
    "the benchmark times vector_add_device (entry=device) with n > 0"}
static const kit_lab_decl DECL = {
    .bufs = {{F(da), KIT_T_F32, F(d.n), F(d.a)}, {F(db), KIT_T_F32, F(d.n), F(d.b)}, {F(dc), KIT_T_F32, F(d.n)}},
    /* c poisoned with NaN; n = 0 needs no kernel */
    .calls = {{"vector_add_device", add_device, KIT_WHEN(inputs, d.on_device, 1), F(d.n),
               {{LAB02_OUT_C, KIT_T_F32, F(dc), F(d.n), KIT_POISON(0xFF)}}},
              {"vector_add", add_host, KIT_WHEN(inputs, d.on_device, 0), F(d.n),
               {{LAB02_OUT_C, KIT_T_F32, F(h_c), F(d.n), KIT_POISON(0xFF), KIT_DECL_HOST}}}},
    .refuse = {BENCH(F(d.on_device), 1, 1), BENCH(F(d.n), 1, INT32_MAX)},
    /* a and b fresh (rotated, scaled) each call, c in a buffer of its own (the baseline writes dc) */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(da), F(db)}, .sample = LAB02_TIMED_SAMPLE, .call = "vector_add_device"},
};

/* The device arrays: for entry=device, and for the timings whatever the entry. */
static int buffers(kit_run_ctx *ctx, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    int wanted = ((inputs *)s)->d.on_device || ctx->bench || show_timed(ctx);
    return wanted ? kit_decl_buffers(&DECL, s, stage, b) : 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab02", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .baseline = copy_baseline, .after_timing = after_timing,
    .metrics = {{"vector_add_device (GB/s, a and b read, c written)", gbs},
                {"device copy of the same bytes (GB/s)", gbs, 1},
                {"serial CPU loop (ms)", cpu_ms},
                {"kernel vs the serial CPU loop (x faster)", vs_cpu}},
    .show_time = show_time, .decl = &DECL,
};
