/* harness.cu - lab11's declaration (kit/lab.cuh): its buffers, calls,
 * refusal, metrics and show-mode times as data (kit/lab_decl.cuh); the
 * outputs as dataset.h names them, each destination poisoned with the
 * complement of the data (KIT_POISON_COMPLEMENT: an element never written
 * always differs).
 *
 * Part 1: round_trip from a pageable (malloc) buffer and from the student's
 * pinned_alloc, filled with the same data (traced calls "round_trip_pageable"
 * and "round_trip_pinned": the checker sees their copies); bench mode times
 * round_trip from the pinned buffers against the pageable ones.  Part 2:
 * pinned h_in / h_out, one traced call of process_streams, timed against the
 * serialised baseline.
 *
 * Hooks beside the table, as only this lab does it: the student allocates
 * and frees part 1's buffers (pinned_alloc, a traced pinned_free at the end)
 * and what it returned decides whether the round trips run and are timed;
 * the timed calls, on pinned_alloc's buffers; the show-mode lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "transfer.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab11_data d;
    uint32_t *pg_src, *pg_back, *pn_src, *pn_back, *d_buf; /* part 1 */
    const char *kind;                                      /* of pinned_alloc's memory */
    uint32_t *h_in, *h_out;                                /* part 2 */
} inputs;

KIT_LAB_DATASET(inputs, lab11) /* generate and release: dataset.c */

/* pinned_alloc's buffers go back through the student's pinned_free (traced), then the dataset. */
static void release_all(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (in->pn_src || in->pn_back) {
        ctx->kernel_optional = 1;
        kit_student_begin(ctx, "pinned_free");
        pinned_free(in->pn_src);
        pinned_free(in->pn_back);
        kit_student_end(ctx);
    }
    release(ctx, s);
}

KIT_LAB_INVOKE(inputs, alloc_pinned, in->pn_src = pinned_alloc((size_t)in->d.n),
               in->pn_back = pinned_alloc((size_t)in->d.n))
KIT_LAB_INVOKE(inputs, trip_pageable, round_trip(in->pg_src, in->d_buf, in->pg_back, (size_t)in->d.n))
KIT_LAB_INVOKE(inputs, trip_pinned, round_trip(in->pn_src, in->d_buf, in->pn_back, (size_t)in->d.n))
KIT_LAB_INVOKE(inputs, streams,
               process_streams(in->h_in, in->h_out, (int)in->d.n, in->d.rounds, in->d.chunks, in->d.streams))
/* Part 1: the round trip from pageable memory; Part 2: one stream, no overlap */
KIT_LAB_BASELINE(inputs, baseline, in->d.part == 1 ? trip_pageable(in)
                 : kit_process_serial(in->h_in, in->h_out, (int)in->d.n, in->d.rounds), 0)

/* pinned_alloc's answer decides whether the round trips run. */
static int after_alloc(kit_run_ctx *ctx, inputs *in)
{
    if (!in->pn_src || !in->pn_back) {
        fprintf(stderr, "lab11: pinned_alloc(%lld) returned NULL\n", in->d.n);
        kit_out_text(ctx, LAB11_OUT_PINNED_KIND, "NULL");
        return KIT_LAB_STOP;
    }
    const char *kind = in->kind = kit_memory_kind(in->pn_src);
    kit_out_text(ctx, LAB11_OUT_PINNED_KIND, kind);
    if (!strcmp(kind, "device")) { /* the host must not touch it */
        fprintf(stderr, "lab11: pinned_alloc returned device memory\n");
        return KIT_LAB_STOP;
    }
    memcpy(in->pn_src, in->d.in, (size_t)in->d.n * sizeof(uint32_t));
    return 0;
}

static int after(kit_run_ctx *ctx, void *s, int k, void *const *)
{
    inputs *in = (inputs *)s;
    const lab11_data *d = &in->d;
    if (d->part == 1 && k == 0)
        return after_alloc(ctx, in);
    if (!ctx->show || (d->part == 1 && k == 1))
        return 0;
    if (d->part == 1) {
        const char *kind = in->kind;
        printf("pinned_alloc returned %s memory%s\n", kind,
               strcmp(kind, "host") ? " - not page-locked" : " (page-locked)");
        size_t bytes = (size_t)d->n * sizeof(uint32_t);
        printf("round trip of %lld words: pageable %s, pinned %s\n", d->n,
               memcmp(in->pg_back, d->in, bytes) ? "WRONG data back" : "data back intact",
               memcmp(in->pn_back, d->in, bytes) ? "WRONG data back" : "data back intact");
        return 0;
    }
    long long wrong = 0;
    for (long long i = 0; i < d->n; i += d->n > 1000000 ? 97 : 1)
        wrong += in->h_out[i] != lab11_mix(d->in[i], d->rounds);
    printf("process_streams(n=%lld, rounds=%d, chunks=%d, streams=%d): %s\n", d->n, d->rounds, d->chunks, d->streams,
           wrong ? "WRONG results" : d->n > 1000000 ? "every 97th result right" : "all results right");
    return 0;
}

/* The timed calls (fresh.cuh; their fresh words and the sample: dataset.h),
 * each the checked call's own adapter: Part 1 on pinned_alloc's buffers,
 * Part 2 on pinned buffers of the kit's swapped in for h_in and h_out (the
 * baseline keeps the original ones).  Untimed when pinned_alloc gave nothing
 * usable, or device/managed memory. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    if (in->d.n == 0 || (in->d.part == 1 && (!in->pn_src || (strcmp(kit_memory_kind(in->pn_src), "host") &&
                                                              strcmp(kit_memory_kind(in->pn_src), "pageable")))))
        return KIT_LAB_UNTIMED;
    tc->how = KIT_FRESH_ROTATE_XOR, tc->shift_hi = in->d.n - 1;
    tc->in[0].orig = in->d.in, tc->in[0].count = in->d.n, tc->n_in = 1;
    tc->out_count = in->d.n, tc->out_host = 1, tc->poison = 0xFF, tc->sample = LAB11_TIMED_SAMPLE;
    if (in->d.part == 1) { /* copies (no kernel is expected) between pinned_alloc's buffers */
        tc->name = "round_trip", tc->kernel_optional = 1, sw->invoke = trip_pinned;
        tc->in[0].work = in->pn_src, tc->out = in->pn_back;
    } else {
        tc->name = "process_streams", tc->kernel_optional = in->d.rounds == 0, sw->invoke = streams;
        sw->in[0] = (void **)&in->h_in, sw->out = (void **)&in->h_out;
    }
    return 0;
}

#define F(member) KIT_AT(inputs, member)
#define PART(p) KIT_WHEN(inputs, d.part, p)
/* A destination of n words on the host (NULL name: poisoned, recorded later) */
#define BACK(name, at, poison) {name, KIT_T_U32, F(at), F(d.words), poison, KIT_DECL_HOST, .complement_of = F(d.in)}
/* Part 1's device buffer and pageable ones; Part 2's pinned ones.  Each metric: n words in and out. */
static const kit_lab_decl DECL = {
    .bufs = {{F(d_buf), KIT_T_U32, F(d.words), .when = PART(1)},
             {F(pg_src), KIT_T_U32, F(d.words), F(d.in), .when = PART(1), .pageable = 1},
             {F(pg_back), KIT_T_U32, F(d.words), .when = PART(1), .pageable = 1},
             {F(h_in), KIT_T_U32, F(d.words), F(d.in), .when = PART(2), .pinned = 1},
             {F(h_out), KIT_T_U32, F(d.words), .when = PART(2), .pinned = 1}},
    /* Part 1, in order, copies only (no kernel required): both round trips'
     * destinations recorded after the second, each poisoned before its own;
     * Part 2 needs no kernel for rounds = 0 (copying through is the whole job) */
    .calls = {{"pinned_alloc", alloc_pinned, PART(1), .kernel_optional = 1},
              {"round_trip_pageable", trip_pageable, PART(1), .out = {BACK(NULL, pg_back, KIT_POISON_COMPLEMENT)},
               .kernel_optional = 1},
              {"round_trip_pinned", trip_pinned, PART(1),
               .out = {BACK(LAB11_OUT_BACK_PAGEABLE, pg_back, KIT_POISON_NONE),
                       BACK(LAB11_OUT_BACK_PINNED, pn_back, KIT_POISON_COMPLEMENT)}, .kernel_optional = 1},
              {"process_streams", streams, PART(2), .optional_if_zero = F(d.rounds),
               .out = {BACK(LAB11_OUT, h_out, KIT_POISON_COMPLEMENT)}}},
    .every_call = 1,
    .refuse = {{KIT_LAB_BENCH_BEFORE, F(d.words), 1, INT32_MAX, "the benchmark needs n > 0"}},
    .metrics = {{"round trip from pinned memory (GB/s)", F(d.words), 8, 0, .when = PART(1)},
                {"round trip from pageable memory (GB/s)", F(d.words), 8, 1, .when = PART(1)},
                {"copied in and out (GB/s)", F(d.words), 8, 0, .when = PART(2)}},
    /* show mode: each part's time against its baseline (part 1: pinned against pageable, in GB/s) */
    .show_time = {.warmup = 1, .reps = 5},
    .show_line = {{"round trip from pinned memory", "from pageable memory", "pinned %.2fx faster", "GB/s", 1, PART(1)},
                  {NULL, "the kit's serialised version", "%.2fx", .when = PART(2)}},
};

const kit_lab KIT_LAB = {
    .tag = "lab11", .state_size = sizeof(inputs), .generate = generate, .release = release_all,
    .after = after, .timed = timed, .baseline = baseline, .decl = &DECL,
};
