/* harness.cu - lab02 harness: calls the student's vector_add (host arrays)
 * or vector_add_device (device arrays), records c; in bench mode times
 * vector_add_device against the device's own copy of the same bytes, and a
 * serial CPU loop (exercise 4).  `make run-lab02 P="n=... time=1"` prints
 * those timings (and the round trip's) instead of recording them.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"
#include "parallel_add.h"

typedef struct {
    lab02_data d;
    float *h_c;            /* the result on the host */
    float *da, *db, *dc;   /* device copies (entry=device, or timings in show mode) */
} inputs;

typedef struct {
    kit_timing kernel, copy; /* vector_add_device, kit_copy_same_bytes */
    double cpu_ms;           /* serial loop, median */
    double round_trip_ms;    /* vector_add, median (show mode only) */
} timings;

static size_t alloc_count(const inputs *in) { return in->d.n ? (size_t)in->d.n : 1; }

/* Generates the inputs; device copies for entry=device, or when force_device. */
static int setup(kit_run_ctx *ctx, inputs *in, int force_device)
{
    char err[256];
    if (lab02_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab02: %s\n", err);
        return -1;
    }
    size_t bytes = alloc_count(in) * sizeof(float);
    in->h_c = (float *)kit_xmalloc(bytes, "lab02 result");
    if (!in->d.on_device && !force_device)
        return 0;
    KIT_HCHECK(cudaMalloc(&in->da, bytes));
    KIT_HCHECK(cudaMalloc(&in->db, bytes));
    KIT_HCHECK(cudaMalloc(&in->dc, bytes));
    KIT_HCHECK(cudaMemcpy(in->da, in->d.a, (size_t)in->d.n * sizeof(float), cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->db, in->d.b, (size_t)in->d.n * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->da);
    cudaFree(in->db);
    cudaFree(in->dc);
    free(in->h_c);
    lab02_free(&in->d);
}

/* A few elements of c next to a + b, and how many were never written. */
static void show_result(const inputs *in, const char *call)
{
    int n = in->d.n;
    printf("%s(n=%d):\n", call, n);
    int idx[4] = {0, 1, n / 2, n - 1};
    for (int k = 0; k < 4; k++) {
        int i = idx[k];
        if (i < 0 || i >= n || (k > 0 && i <= idx[k - 1]))
            continue;
        printf("  c[%d] = %.9g    (a[%d] + b[%d] = %.9g)\n", i, in->h_c[i], i, i,
               (double)in->d.a[i] + (double)in->d.b[i]);
    }
    long nan = 0;
    for (int i = 0; i < n; i++)
        nan += isnan(in->h_c[i]) != 0;
    if (nan)
        printf("  %ld of %d elements of c are NaN: the kit filled c with NaN before the call, so these were never "
               "written\n",
               nan, n);
}

/* One traced call of the student's function; records c. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    int n = in->d.n;
    size_t bytes = alloc_count(in) * sizeof(float);
    ctx->kernel_optional = n == 0;
    const char *call = in->d.on_device ? "vector_add_device" : "vector_add";
    if (in->d.on_device) {
        KIT_HCHECK(cudaMemset(in->dc, 0xFF, bytes)); /* NaN: an element never written stays NaN */
        kit_student_begin(ctx, call);
        vector_add_device(in->da, in->db, in->dc, n);
        if (kit_student_end(ctx) != 0)
            return KIT_RC_STUDENT_CUDA;
        KIT_HCHECK(cudaMemcpy(in->h_c, in->dc, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    } else {
        memset(in->h_c, 0xFF, bytes); /* NaN: catches a result never copied back */
        kit_student_begin(ctx, call);
        vector_add(in->d.a, in->d.b, in->h_c, n);
        if (kit_student_end(ctx) != 0)
            return KIT_RC_STUDENT_CUDA;
    }
    kit_out(ctx, "c", KIT_T_F32, in->h_c, (uint64_t)n);
    if (ctx->show)
        show_result(in, call);
    return 0;
}

/* ---------------------------------------------------------------- timing */

static void time_copy(void *arg)
{
    inputs *in = (inputs *)arg;
    cudaError_t e = kit_copy_same_bytes(in->da, in->db, in->dc, in->d.n);
    if (e != cudaSuccess)
        fprintf(stderr, "lab02 baseline: %s\n", cudaGetErrorString(e)); /* kit_time_once fails on it too */
}

static void time_round_trip(void *arg)
{
    inputs *in = (inputs *)arg;
    vector_add(in->d.a, in->d.b, in->h_c, in->d.n);
}

/* Exercise 4's serial loop; not inlined so the compiler keeps it as written. */
static __attribute__((noinline)) void serial_add(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static double time_cpu(inputs *in, int reps)
{
    double *t = (double *)kit_xmalloc((size_t)reps * sizeof *t, "lab02 timings");
    for (int r = 0; r < reps; r++) {
        double t0 = kit_now();
        serial_add(in->d.a, in->d.b, in->h_c, in->d.n);
        t[r] = (kit_now() - t0) * 1e3;
    }
    volatile float keep = in->d.n ? in->h_c[in->d.n / 2] : 0.0f; /* the loop's result is used */
    (void)keep;
    double m = kit_median(t, (size_t)reps);
    free(t);
    return m;
}

#define CPU_REPS 3
#define ROUND_TRIP_REPS 3

/* The timed calls of vector_add_device (fresh.cuh): before each, a and b
 * are replaced by scale * (a, b rotated by shift) and c is poisoned (NaN), in
 * buffers of their own (the baseline writes the shared c); LAB02_TIMED_SAMPLE
 * elements of c of a few calls are recorded for the checker. */
static void timed_add(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    vector_add_device((const float *)tc->in[0].work, (const float *)tc->in[1].work, (float *)tc->out, in->d.n);
}

static int measure(kit_run_ctx *ctx, inputs *in, int with_round_trip, timings *t)
{
    memset(t, 0, sizeof *t);
    kit_timed_calls tc = {};
    tc.name = "vector_add_device", tc.call = timed_add, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SCALE, tc.shift_hi = in->d.n - 1;
    tc.in[0].orig = in->da, tc.in[1].orig = in->db, tc.n_in = 2;
    tc.in[0].count = tc.in[1].count = in->d.n;
    tc.out_count = in->d.n, tc.poison = 0xFF, tc.sample = LAB02_TIMED_SAMPLE;
    if (kit_timed_calls_time(&tc, ctx, time_copy, in, ctx->warmup, ctx->reps, &t->kernel, &t->copy) != 0)
        return -1;
    t->cpu_ms = time_cpu(in, CPU_REPS);
    if (with_round_trip) {
        kit_timing rt;
        if (kit_time_median(time_round_trip, in, 1, ROUND_TRIP_REPS, &rt) != 0)
            return -1;
        t->round_trip_ms = rt.median_ms;
    }
    return 0;
}

/* Bytes a vector add moves: a and b read, c written. */
static double traffic_gb(int n) { return 3.0 * n * sizeof(float) / 1e9; }

static void show_timings(const inputs *in, const timings *t)
{
    double gb = traffic_gb(in->d.n);
    printf("timings, n = %d (medians):\n", in->d.n);
    printf("  vector_add_device (kernel only)    %10.4f ms  %8.1f GB/s\n", t->kernel.median_ms,
           gb / (t->kernel.median_ms / 1e3));
    printf("  device copy of the same bytes      %10.4f ms  %8.1f GB/s\n", t->copy.median_ms,
           gb / (t->copy.median_ms / 1e3));
    printf("  vector_add (allocate, copy, add,   %10.4f ms\n", t->round_trip_ms);
    printf("              copy back, free)\n");
    printf("  serial loop on the CPU             %10.4f ms  %8.1f GB/s\n", t->cpu_ms, gb / (t->cpu_ms / 1e3));
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    /* time=1, `make run-lab02` only: the timings need device arrays whatever the entry */
    int timed = ctx->show && kit_params_ll(ctx->params, "time", 0, NULL) != 0;
    int rc = setup(ctx, &in, timed);
    if (rc == 0)
        rc = call_student(ctx, &in);
    if (rc == 0 && timed) {
        timings t;
        if (in.d.n == 0)
            printf("nothing to time for n = 0\n");
        else if (measure(ctx, &in, 1, &t) != 0)
            rc = -1;
        else
            show_timings(&in, &t);
    }
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in, 1);
    if (rc == 0 && (!in.d.on_device || in.d.n == 0)) {
        fprintf(stderr, "lab02: the benchmark times vector_add_device (entry=device) with n > 0\n");
        rc = -1;
    }
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    timings t;
    if (rc == 0 && measure(ctx, &in, 0, &t) != 0)
        rc = -1;
    if (rc == 0) {
        double gb = traffic_gb(in.d.n);
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, t.kernel.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, t.copy.median_ms);
        kit_out_f64(ctx, "metric.vector_add_device (GB/s, a and b read, c written)", gb / (t.kernel.median_ms / 1e3));
        kit_out_f64(ctx, "metric.device copy of the same bytes (GB/s)", gb / (t.copy.median_ms / 1e3));
        kit_out_f64(ctx, "metric.serial CPU loop (ms)", t.cpu_ms);
        kit_out_f64(ctx, "metric.kernel vs the serial CPU loop (x faster)", t.cpu_ms / t.kernel.median_ms);
    }
    teardown(&in);
    return rc;
}
