/* harness.cu - lab11 harness.
 *
 * Part 1: fills a pageable (malloc) buffer and a buffer from the student's
 * pinned_alloc with the same data, calls round_trip on each (traced calls
 * "round_trip_pageable" and "round_trip_pinned", so the checker sees their
 * copies), and records what came back ("back_pageable", "back_pinned", u32)
 * and what kind of memory pinned_alloc returned ("pinned_kind", text: host =
 * page-locked, pageable, device, managed).  In bench mode it times
 * round_trip from the pinned buffers against round_trip from pageable ones.
 * Part 2: pinned h_in / h_out, one traced call of process_streams, "out"
 * (u32, n); bench and show mode time it against the serialised baseline.
 * Destination buffers are poisoned with the complement of the data, so an
 * element that was never written always differs.  Timed calls get fresh
 * contents (fresh.cuh): the input words rotated and XORed with a random mask,
 * the destination poisoned, a sample of it recorded for the checker.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "transfer.h"

typedef struct {
    lab11_data d;
    size_t bytes;
    /* part 1 */
    uint32_t *pg_src, *pg_back, *pn_src, *pn_back, *d_buf;
    /* part 2 */
    uint32_t *h_in, *h_out;
} inputs;

static void poison(uint32_t *dst, const uint32_t *src, long long n)
{
    for (long long i = 0; i < n; i++)
        dst[i] = ~src[i];
}

static const char *memory_kind(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return "pageable";
    }
    switch (a.type) {
    case cudaMemoryTypeHost:
        return "host";
    case cudaMemoryTypeDevice:
        return "device";
    case cudaMemoryTypeManaged:
        return "managed";
    default:
        return "pageable";
    }
}

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab11_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab11: %s\n", err);
        return -1;
    }
    in->bytes = (size_t)in->d.n * sizeof(uint32_t);
    size_t alloc = in->bytes ? in->bytes : sizeof(uint32_t);
    if (in->d.part == 1) {
        in->pg_src = (uint32_t *)malloc(alloc);
        in->pg_back = (uint32_t *)malloc(alloc);
        if (!in->pg_src || !in->pg_back) {
            fprintf(stderr, "lab11: out of host memory\n");
            return -1;
        }
        memcpy(in->pg_src, in->d.in, in->bytes);
        poison(in->pg_back, in->d.in, in->d.n);
        KIT_HCHECK(cudaMalloc(&in->d_buf, alloc));
    } else {
        KIT_HCHECK(cudaMallocHost(&in->h_in, alloc));
        KIT_HCHECK(cudaMallocHost(&in->h_out, alloc));
        memcpy(in->h_in, in->d.in, in->bytes);
        poison(in->h_out, in->d.in, in->d.n);
    }
    return 0;
}

static void teardown(kit_run_ctx *ctx, inputs *in)
{
    if (in->pn_src || in->pn_back) {
        ctx->kernel_optional = 1;
        kit_student_begin(ctx, "pinned_free");
        pinned_free(in->pn_src);
        pinned_free(in->pn_back);
        kit_student_end(ctx);
    }
    free(in->pg_src);
    free(in->pg_back);
    cudaFree(in->d_buf);
    cudaFreeHost(in->h_in);
    cudaFreeHost(in->h_out);
    lab11_free(&in->d);
}

/* ---- Part 1 ---- */
static int part1(kit_run_ctx *ctx, inputs *in)
{
    ctx->kernel_optional = 1; /* Part 1 is copies only (set before every call: begin resets it) */
    kit_student_begin(ctx, "pinned_alloc");
    in->pn_src = pinned_alloc((size_t)in->d.n);
    in->pn_back = pinned_alloc((size_t)in->d.n);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    if (!in->pn_src || !in->pn_back) {
        fprintf(stderr, "lab11: pinned_alloc(%lld) returned NULL\n", in->d.n);
        kit_out_text(ctx, "pinned_kind", "NULL");
        return 0;
    }
    const char *kind = memory_kind(in->pn_src);
    kit_out_text(ctx, "pinned_kind", kind);
    if (!strcmp(kind, "device")) { /* the host must not touch it */
        fprintf(stderr, "lab11: pinned_alloc returned device memory\n");
        return 0;
    }
    memcpy(in->pn_src, in->d.in, in->bytes);
    poison(in->pn_back, in->d.in, in->d.n);

    ctx->kernel_optional = 1;
    kit_student_begin(ctx, "round_trip_pageable");
    round_trip(in->pg_src, in->d_buf, in->pg_back, (size_t)in->d.n);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    ctx->kernel_optional = 1;
    kit_student_begin(ctx, "round_trip_pinned");
    round_trip(in->pn_src, in->d_buf, in->pn_back, (size_t)in->d.n);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    kit_out(ctx, "back_pageable", KIT_T_U32, in->pg_back, (uint64_t)in->d.n);
    kit_out(ctx, "back_pinned", KIT_T_U32, in->pn_back, (uint64_t)in->d.n);
    if (ctx->show) {
        printf("pinned_alloc returned %s memory%s\n", kind,
               strcmp(kind, "host") ? " - not page-locked" : " (page-locked)");
        printf("round trip of %lld words: pageable %s, pinned %s\n", in->d.n,
               memcmp(in->pg_back, in->d.in, in->bytes) ? "WRONG data back" : "data back intact",
               memcmp(in->pn_back, in->d.in, in->bytes) ? "WRONG data back" : "data back intact");
    }
    return 0;
}

static void time_pageable(void *arg)
{
    inputs *in = (inputs *)arg;
    round_trip(in->pg_src, in->d_buf, in->pg_back, (size_t)in->d.n);
}

/* ---- Part 2 ---- */
static int part2(kit_run_ctx *ctx, inputs *in)
{
    const lab11_data *d = &in->d;
    ctx->kernel_optional = d->n == 0 || d->rounds == 0; /* rounds = 0: copying through is the whole job */
    kit_student_begin(ctx, "process_streams");
    process_streams(in->h_in, in->h_out, (int)d->n, d->rounds, d->chunks, d->streams);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    kit_out(ctx, "out", KIT_T_U32, in->h_out, (uint64_t)d->n);
    if (ctx->show) {
        long long wrong = 0;
        for (long long i = 0; i < d->n; i += d->n > 1000000 ? 97 : 1)
            wrong += in->h_out[i] != lab11_mix(d->in[i], d->rounds);
        printf("process_streams(n=%lld, rounds=%d, chunks=%d, streams=%d): %s\n", d->n, d->rounds, d->chunks,
               d->streams, wrong ? "WRONG results" : d->n > 1000000 ? "every 97th result right" : "all results right");
    }
    return 0;
}

static void time_serial(void *arg)
{
    inputs *in = (inputs *)arg;
    kit_process_serial(in->h_in, in->h_out, (int)in->d.n, in->d.rounds);
}

/* The timed calls (fresh.cuh): before each, the source words are replaced by
 * the original ones rotated by shift and XORed with a 32-bit mask (Part 1:
 * in pinned_alloc's buffer; Part 2: in a pinned buffer of the kit's) and the
 * destination is poisoned; LAB11_TIMED_SAMPLE words of the destination of a
 * few calls are recorded for the checker.  The baseline keeps the original
 * buffers. */
static void timed_call(const kit_timed_calls *tc)
{
    const inputs *in = (const inputs *)tc->lab;
    const lab11_data *d = &in->d;
    uint32_t *src = (uint32_t *)tc->in[0].work, *dst = (uint32_t *)tc->out;
    if (d->part == 1)
        round_trip(src, in->d_buf, dst, (size_t)d->n);
    else
        process_streams(src, dst, (int)d->n, d->rounds, d->chunks, d->streams);
}

static int timed(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    kit_timed_calls tc = {};
    tc.call = timed_call, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_XOR, tc.shift_hi = in->d.n - 1;
    tc.in[0].orig = in->d.in, tc.in[0].count = in->d.n, tc.n_in = 1;
    tc.out_count = in->d.n, tc.out_host = 1, tc.poison = 0xFF, tc.sample = LAB11_TIMED_SAMPLE;
    if (in->d.part == 1) {
        /* Part 1 times copies (no kernel is expected) between pinned_alloc's buffers. */
        tc.name = "round_trip", tc.kernel_optional = 1;
        tc.in[0].work = in->pn_src, tc.out = in->pn_back;
        return kit_timed_calls_time(&tc, ctx, time_pageable, in, warmup, reps, ts, tb);
    }
    tc.name = "process_streams", tc.kernel_optional = in->d.rounds == 0;
    return kit_timed_calls_time(&tc, ctx, time_serial, in, warmup, reps, ts, tb);
}

static int timeable(const inputs *in)
{
    return in->d.n > 0 && (in->d.part == 2 || !strcmp(memory_kind(in->pn_src), "host") ||
                           !strcmp(memory_kind(in->pn_src), "pageable"));
}

static void show_times(const inputs *in, const kit_timing *ts, const kit_timing *tb)
{
    double gb = 2.0 * in->bytes / 1e9; /* in and out */
    if (in->d.part == 1)
        printf("time: round trip from pinned memory %.3f ms (%.1f GB/s), from pageable memory %.3f ms (%.1f GB/s), "
               "medians of 5: pinned %.2fx faster\n",
               ts->median_ms, gb / (ts->median_ms / 1e3), tb->median_ms, gb / (tb->median_ms / 1e3),
               tb->median_ms / ts->median_ms);
    else
        printf("time: process_streams %.3f ms, the kit's serialised version %.3f ms (medians of 5): %.2fx\n",
               ts->median_ms, tb->median_ms, tb->median_ms / ts->median_ms);
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = in.d.part == 1 ? part1(ctx, &in) : part2(ctx, &in);
    kit_timing ts, tb;
    if (rc == 0 && ctx->show && (in.d.part == 2 || in.pn_src) && timeable(&in) &&
        timed(ctx, &in, 1, 5, &ts, &tb) == 0)
        show_times(&in, &ts, &tb);
    teardown(ctx, &in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && in.d.n == 0) {
        fprintf(stderr, "lab11: the benchmark needs n > 0\n");
        rc = -1;
    }
    if (rc == 0)
        rc = in.d.part == 1 ? part1(ctx, &in) : part2(ctx, &in); /* the result of this call is checked */
    kit_timing ts, tb;
    if (rc == 0 && (in.d.part == 2 || in.pn_src) && timeable(&in) &&
        timed(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0) {
        double gb = 2.0 * in.bytes / 1e9;
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        if (in.d.part == 1) {
            kit_out_f64(ctx, "metric.round trip from pinned memory (GB/s)", gb / (ts.median_ms / 1e3));
            kit_out_f64(ctx, "metric.round trip from pageable memory (GB/s)", gb / (tb.median_ms / 1e3));
        } else {
            kit_out_f64(ctx, "metric.copied in and out (GB/s)", gb / (ts.median_ms / 1e3));
        }
    }
    teardown(ctx, &in);
    return rc;
}
