/* harness.cu - lab07's declaration, as data (kit/lab_decl.cuh): the sorted
 * inputs on the GPU, one call of the student's merge (basic or tiled, ints or
 * tagged records) on a poisoned C or, for op=corank, co_rank_host on the host
 * (a hook: untraced), recording the outputs dataset.h names; bench mode times
 * the int merge against the kit's basic kernel on keys with an offset added.
 */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "kit/ref.h"
#include "kit/util.h"
#include "merge.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab07_data d;
    void *da, *db, *dc; /* device copies of A, B and the output C */
} inputs;

KIT_LAB_DATASET(inputs, lab07) /* generate and release: dataset.c */

#define INTS (const int *)in->da, in->d.m, (const int *)in->db, in->d.n, (int *)in->dc
#define RECS (const merge_rec *)in->da, in->d.m, (const merge_rec *)in->db, in->d.n, (merge_rec *)in->dc
KIT_LAB_INVOKE(inputs, basic, merge_basic(INTS))
KIT_LAB_INVOKE(inputs, tiled, merge_tiled(INTS))
KIT_LAB_INVOKE(inputs, basic_rec, merge_basic_rec(RECS))
KIT_LAB_INVOKE(inputs, tiled_rec, merge_tiled_rec(RECS))
KIT_LAB_BASELINE(inputs, baseline, (kit_merge_basic(INTS), 0))

/* show mode, after the summary of C: the CPU's stable merge, and for
 * records where each key came from (tag i for A[i], m + j for B[j]). */
static void cpu_merge(const void *s, int32_t *const *ref, size_t)
{
    const inputs *in = (const inputs *)s;
    kit_ref_merge_i32(in->d.a, (size_t)in->d.m, in->d.b, (size_t)in->d.n, ref[0], (uint32_t *)ref[1]);
}

/* op=corank: co_rank_host runs on the host: no kernel, nothing to trace. */
static int corank(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (in->d.op != LAB07_CORANK)
        return 0;
    int32_t *got = (int32_t *)kit_xmalloc((size_t)in->d.nk * sizeof *got, "the co-ranks");
    for (int t = 0; t < in->d.nk; t++)
        got[t] = co_rank_host(in->d.ks[t], in->d.a, in->d.m, in->d.b, in->d.n);
    kit_out(ctx, LAB07_OUT_CORANK, KIT_T_I32, got, (uint64_t)in->d.nk);
    if (ctx->show) {
        printf("co_rank_host(k, m=%d, n=%d) for %d values of k:\n", in->d.m, in->d.n, in->d.nk);
        for (int t = 0; t < in->d.nk && t < 8; t++)
            printf("  k=%d: i=%d, j=%d\n", in->d.ks[t], got[t], in->d.ks[t] - got[t]);
    }
    free(got);
    return 0;
}

#define F(member) KIT_AT(inputs, member)
#define INT_CASE KIT_WHEN2(inputs, d.op, LAB07_MERGE, d.is_rec, 0)
#define REC_CASE KIT_WHEN2(inputs, d.op, LAB07_MERGE, d.is_rec, 1)
/* -1 in every int (key and tag) the merge does not write; a record's key at byte 0 of 8, its tag at 4 */
#define C_INT {{LAB07_OUT_C, KIT_T_I32, F(dc), F(d.total), KIT_POISON(0xFF)}}
#define REC(name, at) {name, KIT_T_I32, F(dc), F(d.total), KIT_POISON(0xFF), .stride = sizeof(merge_rec), .offset = at}
#define C_REC {REC(LAB07_OUT_C, 0), REC(LAB07_OUT_TAG, 4)}
#define NOT_TIMED "the benchmark times int merges (op=merge type=int)"
static const kit_lab_decl DECL = {
    /* op=corank: none (co_rank_host is host only); records are 8 bytes (an i64 each), carrying their
     * origin: tag i for A[i], m + j for B[j] */
    .bufs = {{F(da), KIT_T_I32, F(d.m), F(d.a), .when = INT_CASE}, {F(db), KIT_T_I32, F(d.n), F(d.b), .when = INT_CASE},
             {F(dc), KIT_T_I32, F(d.total), .when = INT_CASE},
             {F(da), KIT_T_I64, F(d.m), F(d.a), .when = REC_CASE, .tagged = 1},
             {F(db), KIT_T_I64, F(d.n), F(d.b), .when = REC_CASE, .tagged = 1, .tag_base = F(d.m)},
             {F(dc), KIT_T_I64, F(d.total), .when = REC_CASE}},
    /* the first that holds; nothing to merge: no kernel needed */
    .calls = {{"merge_tiled_rec", tiled_rec, KIT_WHEN2(inputs, d.is_rec, 1, d.tiled, 1), F(d.total), C_REC},
              {"merge_basic_rec", basic_rec, KIT_WHEN(inputs, d.is_rec, 1), F(d.total), C_REC},
              {"merge_tiled", tiled, KIT_WHEN(inputs, d.tiled, 1), F(d.total), C_INT},
              {"merge_basic", basic, {}, F(d.total), C_INT}},
    .no_call_if = F(d.op), /* LAB07_CORANK: the untraced hook */
    /* records again after the checked call: what show mode's timing asks (the baseline merges ints) */
    .refuse = {{KIT_LAB_BENCH_BEFORE, F(d.op), LAB07_MERGE, LAB07_MERGE, NOT_TIMED},
               {KIT_LAB_BENCH_BEFORE, F(d.is_rec), 0, 0, NOT_TIMED},
               {KIT_LAB_BENCH_AFTER, F(d.total), 1, INT32_MAX, "the benchmark needs elements to merge"},
               {KIT_LAB_BENCH_AFTER, F(d.is_rec), 0, 0, NOT_TIMED}},
    /* before each timed call every key of A and B gets an offset added (order and ties unchanged, so
     * the merge is the old one plus the offset; recorded as the shift) and C is poisoned with a key no
     * input has (0x7F7F7F7F > 2*10^9), in buffers of their own; LAB07_TIMED_SAMPLE keys of C of a few
     * calls are recorded for the checker */
    .timed = {KIT_FRESH_OFFSET, {F(da), F(db)}, .sample = LAB07_TIMED_SAMPLE, .shift_lo = -1000000000,
              .shift_hi = 1000000000, .poison = KIT_POISON(0x7F)},
    /* every element read once and written once */
    .metrics = {{"merge rate (10^9 elements/s)", F(d.total), 1}, {"effective bandwidth (GB/s)", F(d.total), 8}},
    /* int merges, in every show run: a few timings for exercise 22 (no verdict) */
    .show_time = {"the kit's basic kernel", 1, 5, .always = 1},
    .show_ref = {cpu_merge, "the CPU merge", "C", "an equal key from the wrong place (instability)"},
};

const kit_lab KIT_LAB = {.tag = "lab07", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .untraced = corank, .baseline = baseline, .decl = &DECL};
