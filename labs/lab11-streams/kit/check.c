/* check.c - lab11 checker.
 *
 * Part 1: pinned_alloc must return page-locked host memory (the runner asks
 * the CUDA runtime what the pointer is); both round trips must bring every
 * word back, and the trace must show them going through the device (a
 * host-to-device and a device-to-host copy of all the bytes).  The copies'
 * bandwidths, from the CUPTI records, are reported.
 * Part 2: every result is lab11_mix(in, rounds), exact (sampled above
 * FULL_MAX word-rounds: the first and last SAMPLE_EDGE words, the words
 * around every chunk boundary of an even split, SAMPLE_RANDOM random ones).
 * With min_overlap, the CUPTI timeline of the call must show copies and
 * kernels running at the same time (kit_check_overlap, kit/timeline.h): with
 * K the union of the kernels' [start, end] intervals and C that of the
 * host<->device copies, |K ∩ C| must be at least min_overlap * min(|K|,
 * |C|).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/rng.h"
#include "kit/timeline.h"
#include "transfer.h"

#define FULL_MAX (1LL << 28)
#define SAMPLE_EDGE 4096
#define SAMPLE_RANDOM 65536

/* ---- Part 1 ---- */
static void check_back(kit_check_ctx *ctx, const lab11_data *d, const char *name, const char *what)
{
    const uint32_t *got = kit_expect_array(ctx, name, KIT_T_U32, (uint64_t)d->n, NULL);
    if (!got)
        return;
    long long bad = 0, first = -1;
    for (long long i = 0; i < d->n; i++)
        if (got[i] != d->in[i] && !bad++)
            first = i;
    if (bad)
        kit_fail(ctx, "round_trip with %s buffers: %lld of %lld words did not come back; first at index %lld: "
                      "expected %#x, got %#x%s",
                 what, bad, d->n, first, d->in[first], got[first],
                 got[first] == ~d->in[first] ? " (never written: the harness poisons h_dst)" : "");
}

static void check_copies(kit_check_ctx *ctx, const lab11_data *d, const char *call, const char *what)
{
    kit_timeline t;
    if (kit_call_timeline(ctx->out, call, &t) != 0)
        return; /* no trace: the policy has said why */
    unsigned long long want = (unsigned long long)d->n * 4;
    if (t.bytes[0] < want || t.bytes[1] < want) {
        kit_fail(ctx, "round_trip with %s buffers copied %llu bytes host-to-device and %llu device-to-host, expected "
                      "%llu each way: the data must go to the device and back through d_buf",
                 what, t.bytes[0], t.bytes[1], want);
        return;
    }
    kit_detail(ctx, "note: round trip with %s buffers: host-to-device %.1f GB/s, device-to-host %.1f GB/s (CUPTI "
                    "copy records)",
               what, t.ns[0] ? t.bytes[0] / (double)t.ns[0] : 0.0, t.ns[1] ? t.bytes[1] / (double)t.ns[1] : 0.0);
}

/* pinned_alloc's memory, then both round trips (each judged on its own). */
static void part1(kit_check_ctx *ctx, const lab11_data *d)
{
    char *k = kit_blob_text(ctx->out, LAB11_OUT_PINNED_KIND);
    if (!k)
        return;
    if (!strcmp(k, "NULL"))
        kit_fail(ctx, "pinned_alloc(%lld) returned NULL", d->n);
    else if (!strcmp(k, "pageable"))
        kit_fail(ctx, "pinned_alloc returned ordinary pageable memory (malloc?): page-locked host memory comes "
                      "from cudaMallocHost (or cudaHostAlloc), and goes back with cudaFreeHost");
    else if (!strcmp(k, "device"))
        kit_fail(ctx, "pinned_alloc returned device memory (cudaMalloc?): the host cannot use it; page-locked HOST "
                      "memory comes from cudaMallocHost");
    else if (!strcmp(k, "managed"))
        kit_fail(ctx, "pinned_alloc returned managed memory (cudaMallocManaged?): page-locked host memory comes "
                      "from cudaMallocHost");
    else if (strcmp(k, "host"))
        kit_fail(ctx, "pinned_alloc returned memory of an unknown kind ('%s')", k);
    free(k);
    if (ctx->failed)
        return;
    check_back(ctx, d, LAB11_OUT_BACK_PAGEABLE, "pageable");
    check_back(ctx, d, LAB11_OUT_BACK_PINNED, "pinned");
    if (!ctx->failed) {
        check_copies(ctx, d, "round_trip_pageable", "pageable");
        check_copies(ctx, d, "round_trip_pinned", "pinned");
    }
}

/* ---- Part 2 ---- */
static int judge(kit_check_ctx *ctx, const lab11_data *d, const uint32_t *got, long long i, long long *bad)
{
    uint32_t want = lab11_mix(d->in[i], d->rounds);
    if (got[i] == want)
        return 0;
    if (!(*bad)++)
        kit_fail(ctx, "out[%lld] = %#x, expected lab11_mix(in[%lld], %d) = %#x%s", i, got[i], i, d->rounds, want,
                 got[i] == ~d->in[i] ? " (never written: the harness poisons h_out; is every chunk copied back, "
                                       "the last one included?)"
                                     : "");
    return 1;
}

static void check_values(kit_check_ctx *ctx, const lab11_data *d, const uint32_t *got)
{
    long long bad = 0, checked = 0, n = d->n;
    if (n * (long long)(d->rounds + 1) <= FULL_MAX) {
        for (long long i = 0; i < n; i++)
            judge(ctx, d, got, i, &bad);
        checked = n;
    } else {
        for (long long i = 0; i < SAMPLE_EDGE && i < n; i++, checked += 2) {
            judge(ctx, d, got, i, &bad);
            judge(ctx, d, got, n - 1 - i, &bad);
        }
        for (int c = 1; c < d->chunks; c++) { /* around the boundaries of an even split */
            long long b = n * c / d->chunks;
            for (long long i = b - 2; i <= b + 1; i++, checked++)
                if (i >= 0 && i < n)
                    judge(ctx, d, got, i, &bad);
        }
        kit_rng r;
        kit_rng_seed(&r, ctx->seed, 11);
        for (int s = 0; s < SAMPLE_RANDOM; s++, checked++)
            judge(ctx, d, got, (long long)(kit_rng_u64(&r) % (uint64_t)n), &bad);
    }
    if (bad)
        kit_detail(ctx, "%lld of %lld %s results wrong", bad, checked, checked < n ? "sampled" : "");
}

/* The results, then the overlap on the timeline. */
static void part2(kit_check_ctx *ctx, const lab11_data *d, const uint32_t *got)
{
    check_values(ctx, d, got);
    if (!ctx->failed && d->min_overlap >= 0)
        kit_check_overlap(ctx, "process_streams", d->min_overlap);
}

/* Part 2's result of one (fresh) input word. */
static uint32_t mixed(const void *data, uint32_t word) { return lab11_mix(word, ((const lab11_data *)data)->rounds); }

static void judge_part(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab11_data *d = data;
    if (ok && d->part == 1)
        part1(ctx, d);
    else if (ok)
        part2(ctx, d, outs[0].got);
}

KIT_CHECK_DATASET(lab11)

/* Part 1: the kind of pinned_alloc's memory (the round trips' outputs are
 * judged by part1, each on its own); Part 2: the results.  No evidence
 * input: Part 1 is about the copies themselves (judged from the trace
 * here), Part 2's overlap too. */
#define F(member) KIT_AT(lab11_data, member)
#define PART(p) KIT_WHEN(lab11_data, part, p)
const kit_check KIT_CHECK = {
    sizeof(lab11_data), check_generate, check_release,
    .out = {{LAB11_OUT_PINNED_KIND, KIT_T_TEXT, .len_any = 1, .when = PART(1)},
            {LAB11_OUT, KIT_T_U32, .len_fmt = "output 'out' has %llu words, expected n = %llu", .len_of = F(words),
             .when = PART(2)}},
    .judge = judge_part,
    /* A benchmark run sampled the destination of a few timed calls (chosen
     * at random as they happened, and the last) whose input words were the
     * original ones rotated by shift and XORed with a mask (dataset.h): every
     * sampled word is recomputed, so a destination left from an earlier
     * call fails. */
    .timed_xor = {{"round_trip", "h_dst", "input words", F(in), F(words), LAB11_TIMED_SAMPLE, NULL, PART(1)},
                  {"process_streams", "h_out", "input words", F(in), F(words), LAB11_TIMED_SAMPLE, mixed, PART(2)}}};
