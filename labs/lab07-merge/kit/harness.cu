/* harness.cu - lab07's declaration (kit/lab.cuh): the sorted inputs on the
 * GPU, one call of the student's merge (basic or tiled, ints or tagged
 * records) on a poisoned C or, for op=corank, co_rank_host on the host; bench
 * mode times merge_tiled against the kit's basic kernel.
 *
 * Outputs:  op=merge type=int   "c"                (i32, m + n)
 *           op=merge type=rec   "c", "tag"         (i32, m + n each: keys, tags)
 *           op=corank           "corank"           (i32, one per k of the dataset)
 *
 * Over 100 lines: ints and tagged records, co_rank_host on the host, and the
 * show-mode comparison with the CPU's stable merge.
 */
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab.cuh"
#include "kit/ref.h"
#include "merge.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab07_data d;
    int total;
    merge_rec *ra, *rb; /* type=rec: host records */
    void *da, *db, *dc; /* device copies of A, B and the output C */
    size_t elem;        /* bytes per element */
} inputs;

/* The inputs; type=rec: records carrying their origin, tag i for A[i], m + j for B[j]. */
static int generate(const kit_params *p, uint64_t seed, void *s, char *err, size_t len)
{
    inputs *in = (inputs *)s;
    if (lab07_generate(p, seed, &in->d, err, len) != 0)
        return -1;
    size_t m = (size_t)in->d.m, n = (size_t)in->d.n;
    in->total = in->d.m + in->d.n;
    in->elem = in->d.is_rec ? sizeof(merge_rec) : sizeof(int);
    if (in->d.op == LAB07_CORANK || !in->d.is_rec)
        return 0;
    in->ra = (merge_rec *)malloc((m ? m : 1) * sizeof *in->ra);
    in->rb = (merge_rec *)malloc((n ? n : 1) * sizeof *in->rb);
    if (!in->ra || !in->rb) {
        snprintf(err, len, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < m; i++)
        in->ra[i] = merge_rec{in->d.a[i], (int)i};
    for (size_t j = 0; j < n; j++)
        in->rb[j] = merge_rec{in->d.b[j], (int)(m + j)};
    return 0;
}

static void release(kit_run_ctx *, void *s)
{
    inputs *in = (inputs *)s;
    free(in->ra);
    free(in->rb);
    lab07_free(&in->d);
}

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    if (stage != KIT_LAB_CASE || in->d.op == LAB07_CORANK)
        return 0; /* co_rank_host: host only */
    size_t m = (size_t)in->d.m, n = (size_t)in->d.n, total = (size_t)in->total;
    const void *ha = in->d.is_rec ? (const void *)in->ra : in->d.a, *hb = in->d.is_rec ? (const void *)in->rb : in->d.b;
    b[0] = kit_lab_buf{&in->da, (m ? m : 1) * in->elem, ha, m * in->elem, 0};
    b[1] = kit_lab_buf{&in->db, (n ? n : 1) * in->elem, hb, n * in->elem, 0};
    b[2] = kit_lab_buf{&in->dc, (total ? total : 1) * in->elem, NULL, 0, 0};
    return 3;
}

/* The student's merge for this case, on the device buffers. */
static void student_merge(void *s)
{
    inputs *in = (inputs *)s;
    int m = in->d.m, n = in->d.n;
    if (in->d.is_rec) {
        const merge_rec *a = (const merge_rec *)in->da, *b = (const merge_rec *)in->db;
        merge_rec *c = (merge_rec *)in->dc;
        if (in->d.tiled)
            merge_tiled_rec(a, m, b, n, c);
        else
            merge_basic_rec(a, m, b, n, c);
    } else {
        const int *a = (const int *)in->da, *b = (const int *)in->db;
        int *c = (int *)in->dc;
        if (in->d.tiled)
            merge_tiled(a, m, b, n, c);
        else
            merge_basic(a, m, b, n, c);
    }
}

static const char *call_name(const inputs *in)
{
    if (in->d.is_rec)
        return in->d.tiled ? "merge_tiled_rec" : "merge_basic_rec";
    return in->d.tiled ? "merge_tiled" : "merge_basic";
}

/* op=merge: one call; poison -1 in every int (key and tag) the merge does not write. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    if (k > 0 || in->d.op == LAB07_CORANK)
        return 0;
    *c = kit_lab_call{call_name(in), in->total == 0, student_merge, {}, in->d.is_rec ? 2 : 1};
    c->out[0] = kit_lab_out{LAB07_OUT_C, KIT_T_I32, in->dc, 0, (uint64_t)in->total, in->elem, 0, KIT_POISON(0xFF)};
    c->out[1] = kit_lab_out{LAB07_OUT_TAG, KIT_T_I32, in->dc, 0, (uint64_t)in->total, in->elem, 4, KIT_POISON(0xFF)};
    return 1;
}

/* show mode: how the result compares with the CPU's stable merge. */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const inputs *in = (const inputs *)s;
    const int32_t *keys = (const int32_t *)host[0], *tags = in->d.is_rec ? (const int32_t *)host[1] : NULL;
    size_t total = (size_t)in->total;
    if (!ctx->show)
        return 0;
    int32_t *ref = (int32_t *)malloc((total ? total : 1) * sizeof *ref);
    uint32_t *src = (uint32_t *)malloc((total ? total : 1) * sizeof *src);
    if (!ref || !src) {
        free(ref);
        free(src);
        return 0;
    }
    kit_ref_merge_i32(in->d.a, (size_t)in->d.m, in->d.b, (size_t)in->d.n, ref, src);
    size_t bad = 0, first = total, unstable = 0;
    for (size_t k = 0; k < total; k++) {
        if (keys[k] != ref[k]) {
            if (!bad++)
                first = k;
        } else if (tags && (uint32_t)tags[k] != src[k])
            unstable++;
    }
    printf("%s(m=%d, n=%d): C[0..%d) =", call_name(in), in->d.m, in->d.n, total < 8 ? (int)total : 8);
    for (size_t k = 0; k < total && k < 8; k++)
        printf(" %d", keys[k]);
    printf("%s\n", total > 8 ? " ..." : "");
    if (bad)
        printf("%zu of %zu outputs differ from the CPU merge; first at C[%zu]: %d, expected %d\n", bad, total, first,
               keys[first], ref[first]);
    else
        printf("all %zu outputs match the CPU merge\n", total);
    if (tags)
        printf("%zu outputs hold an equal key from the wrong place (instability)\n", unstable);
    free(ref);
    free(src);
    return 0;
}

/* op=corank: co_rank_host runs on the host: no kernel, nothing to trace. */
static int corank(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (in->d.op != LAB07_CORANK)
        return 0;
    int32_t *got = (int32_t *)malloc((size_t)in->d.nk * sizeof *got);
    if (!got) {
        fprintf(stderr, "lab07: out of host memory\n");
        return -1;
    }
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

static const char *refuse(kit_run_ctx *, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    if (stage == KIT_LAB_BENCH_BEFORE && (in->d.op != LAB07_MERGE || in->d.is_rec))
        return "the benchmark times int merges (op=merge type=int)";
    return stage == KIT_LAB_BENCH_AFTER && in->total < 1 ? "the benchmark needs elements to merge" : NULL;
}

/* The timed calls of the int merges (fresh.cuh): before each, every key of
 * A and B gets an offset added (order and ties unchanged, so the merge is the
 * old one plus the offset; recorded as the shift) and C is poisoned with a key
 * no input has, in buffers of their own; LAB07_TIMED_SAMPLE keys of C of a
 * few calls are recorded for the checker. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    sw->invoke = student_merge, sw->in[0] = &in->da, sw->in[1] = &in->db, sw->out = &in->dc;
    tc->name = call_name(in);
    tc->how = KIT_FRESH_OFFSET, tc->shift_lo = -1000000000, tc->shift_hi = 1000000000;
    tc->in[0].orig = in->da, tc->in[0].count = in->d.m;
    tc->in[1].orig = in->db, tc->in[1].count = in->d.n, tc->n_in = 2;
    tc->out_count = in->total, tc->poison = 0x7F; /* 0x7F7F7F7F > 2*10^9: no key */
    tc->sample = LAB07_TIMED_SAMPLE;
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    kit_merge_basic((const int *)in->da, in->d.m, (const int *)in->db, in->d.n, (int *)in->dc);
    return 0;
}

static double rate(const void *s, double ms) { return ((const inputs *)s)->total / 1e9 / (ms / 1e3); }
/* every element read once and written once */
static double gbs(const void *s, double ms)
{
    return 2.0 * ((const inputs *)s)->total * sizeof(int) / 1e9 / (ms / 1e3);
}

/* show mode, int merges: a few timings for exercise 22 (no verdict). */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    kit_timing ts, tb;
    if (in->d.op != LAB07_MERGE || in->d.is_rec || in->total == 0 || kit_lab_time(ctx, in, 1, 5, &ts, &tb) != 0)
        return 0;
    printf("time: %s %.3f ms, the kit's basic kernel %.3f ms (medians of 5)\n", call_name(in), ts.median_ms,
           tb.median_ms);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab07", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .untraced = corank, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"merge rate (10^9 elements/s)", rate}, {"effective bandwidth (GB/s)", gbs}},
    .show_time = show_time,
};
