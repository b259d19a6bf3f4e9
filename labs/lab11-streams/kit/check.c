/* check.c - lab11 checker (the outputs: dataset.h; the calls: harness.cu).
 *
 * Part 1: pinned_alloc must return page-locked host memory (the runner asks
 * the CUDA runtime what the pointer is); both round trips must bring every
 * word back, each judged on its own, and the trace must show them going
 * through the device (a host-to-device and a device-to-host copy of all the
 * bytes); the copies' bandwidths, from the CUPTI records, are reported.
 * Part 2: every result is lab11_mix(in, rounds), exact (sampled above
 * FULL_MAX word-rounds: the ends, the words around every chunk boundary of
 * an even split, random ones).  With min_overlap, the CUPTI timeline of the
 * call must show copies and kernels running at the same time, at least
 * min_overlap of the shorter of the two (kit_check_overlap, kit/timeline.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/timeline.h"
#include "transfer.h"

#define FULL_MAX (1LL << 28)
#define SAMPLE_EDGE 4096
#define SAMPLE_RANDOM 65536

/* ---- Part 1 ---- */
/* The kind of pinned_alloc's memory: page-locked host memory ("host"), or what it is instead. */
static void pinned_kind(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    char *k = kit_blob_text(ctx->out, g->out->name);
    if (!strcmp(k, "NULL"))
        kit_fail(ctx, "pinned_alloc(%lld) returned NULL", ((const lab11_data *)data)->n);
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
}

/* A round trip's words that did not come back (its row's `what`: the buffers). */
static void not_back(kit_check_ctx *ctx, const void *data, const kit_check_wrong *w)
{
    (void)data;
    kit_fail(ctx, "round_trip with %s buffers: %lld of %lld words did not come back; first at index %lld: "
                  "expected %#x, got %#x%s",
             w->out->what, w->bad, w->checked, w->at, w->want, w->got,
             w->unwritten ? " (never written: the harness poisons h_dst)" : "");
}

/* ---- Part 2 ---- */
/* The result of one input word: the checked call's and the timed calls'. */
static uint32_t mixed(const void *data, uint32_t word) { return lab11_mix(word, ((const lab11_data *)data)->rounds); }

static void not_mixed(kit_check_ctx *ctx, const void *data, const kit_check_wrong *w)
{
    const lab11_data *d = data;
    kit_fail(ctx, "out[%lld] = %#x, expected lab11_mix(in[%lld], %d) = %#x%s", w->at, w->got, w->at, d->rounds,
             w->want, w->unwritten ? " (never written: the harness poisons h_out; is every chunk copied back, "
                                     "the last one included?)" : "");
    kit_detail(ctx, "%lld of %lld %s results wrong", w->bad, w->checked, w->checked < d->n ? "sampled" : "");
}

/* The results right: the overlap on the timeline. */
static void overlap(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab11_data *d = data;
    (void)outs;
    if (ok && d->part == 2 && d->min_overlap >= 0)
        kit_check_overlap(ctx, "process_streams", d->min_overlap);
}

KIT_CHECK_DATASET(lab11)

#define F(member) KIT_AT(lab11_data, member)
#define PART(p) KIT_WHEN(lab11_data, part, p)
/* Part 1's destinations, each a copy of the input words */
#define BACK(name, buffers, beside_) {name, KIT_T_U32, .what = buffers, .len_of = F(words), .when = PART(1), \
    .poison = KIT_POISON_COMPLEMENT, .map = {F(in), .wrong = not_back}, .beside = beside_}
#define COPIES(call, buffers) {call, buffers, F(words), {4, 4}, PART(1),                                     \
    "round_trip with %s buffers copied %llu bytes host-to-device and %llu device-to-host, expected %llu each " \
    "way: the data must go to the device and back through d_buf",                                           \
    "note: round trip with %s buffers: host-to-device %.1f GB/s, device-to-host %.1f GB/s (CUPTI copy records)"}
/* No evidence input: Part 1 is about the copies themselves (judged from the
 * trace), Part 2's overlap too. */
const kit_check KIT_CHECK = {
    sizeof(lab11_data), check_generate, check_release,
    .out = {{LAB11_OUT_PINNED_KIND, KIT_T_TEXT, .len_any = 1, .after = pinned_kind, .when = PART(1)},
            BACK(LAB11_OUT_BACK_PAGEABLE, "pageable", 0), BACK(LAB11_OUT_BACK_PINNED, "pinned", 1),
            {LAB11_OUT, KIT_T_U32, .len_fmt = "output 'out' has %llu words, expected n = %llu", .len_of = F(words),
             .when = PART(2), .poison = KIT_POISON_COMPLEMENT,
             .map = {F(in), mixed, FULL_MAX, F(rounds), F(chunks), SAMPLE_EDGE, SAMPLE_RANDOM, 11, not_mixed}}},
    .judge = overlap,
    /* A benchmark run's timed calls (their fresh words and the sample:
     * dataset.h): every sampled word is recomputed, so a destination left
     * from an earlier call fails. */
    .timed_xor = {{"round_trip", "h_dst", "input words", F(in), F(words), LAB11_TIMED_SAMPLE, NULL, PART(1)},
                  {"process_streams", "h_out", "input words", F(in), F(words), LAB11_TIMED_SAMPLE, mixed, PART(2)}},
    .copies = {COPIES("round_trip_pageable", "pageable"), COPIES("round_trip_pinned", "pinned")}};
