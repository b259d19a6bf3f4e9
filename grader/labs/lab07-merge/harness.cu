/* harness.cu - lab07 harness: copies the sorted inputs to the GPU, calls the
 * student's merge (basic or tiled, ints or tagged records) or, for op=corank,
 * co_rank_host on the host; records the results.  In bench mode it times
 * merge_tiled against the kit's basic kernel.
 *
 * Outputs:  op=merge type=int   "c"                (i32, m + n)
 *           op=merge type=rec   "c", "tag"         (i32, m + n each: keys, tags)
 *           op=corank           "corank"           (i32, one per k of the dataset)
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/ref.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "kit/util.h"
#include "merge.h"

typedef struct {
    lab07_data d;
    int total;
    merge_rec *ra, *rb; /* type=rec: host records */
    void *da, *db, *dc; /* device copies of A, B and the output C */
    size_t elem;        /* bytes per element */
} inputs;

/* Records carry their origin: tag i for A[i], m + j for B[j]. */
static int make_records(inputs *in)
{
    size_t m = (size_t)in->d.m, n = (size_t)in->d.n;
    in->ra = (merge_rec *)malloc((m ? m : 1) * sizeof *in->ra);
    in->rb = (merge_rec *)malloc((n ? n : 1) * sizeof *in->rb);
    if (!in->ra || !in->rb) {
        fprintf(stderr, "lab07: out of host memory\n");
        return -1;
    }
    for (size_t i = 0; i < m; i++)
        in->ra[i] = merge_rec{in->d.a[i], (int)i};
    for (size_t j = 0; j < n; j++)
        in->rb[j] = merge_rec{in->d.b[j], (int)(m + j)};
    return 0;
}

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab07_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab07: %s\n", err);
        return -1;
    }
    in->total = in->d.m + in->d.n;
    if (in->d.op == LAB07_CORANK)
        return 0; /* host only */
    const void *ha = in->d.a, *hb = in->d.b;
    in->elem = sizeof(int);
    if (in->d.is_rec) {
        if (make_records(in) != 0)
            return -1;
        ha = in->ra, hb = in->rb;
        in->elem = sizeof(merge_rec);
    }
    size_t m = (size_t)in->d.m, n = (size_t)in->d.n, total = (size_t)in->total;
    KIT_HCHECK(cudaMalloc(&in->da, (m ? m : 1) * in->elem));
    KIT_HCHECK(cudaMalloc(&in->db, (n ? n : 1) * in->elem));
    KIT_HCHECK(cudaMalloc(&in->dc, (total ? total : 1) * in->elem));
    KIT_HCHECK(cudaMemcpy(in->da, ha, m * in->elem, cudaMemcpyHostToDevice));
    KIT_HCHECK(cudaMemcpy(in->db, hb, n * in->elem, cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->da);
    cudaFree(in->db);
    cudaFree(in->dc);
    free(in->ra);
    free(in->rb);
    lab07_free(&in->d);
}

/* The student's merge for this case, on the device buffers. */
static void student_merge(inputs *in)
{
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

/* show mode: how the result compares with the CPU's stable merge. */
static void show_merge(const inputs *in, const int32_t *keys, const int32_t *tags)
{
    size_t total = (size_t)in->total;
    int32_t *ref = (int32_t *)malloc((total ? total : 1) * sizeof *ref);
    uint32_t *src = (uint32_t *)malloc((total ? total : 1) * sizeof *src);
    if (!ref || !src) {
        free(ref);
        free(src);
        return;
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
}

static int run_merge(kit_run_ctx *ctx, inputs *in)
{
    size_t total = (size_t)in->total;
    /* poison: -1 in every int (key and tag) the merge does not write */
    KIT_HCHECK(cudaMemset(in->dc, 0xFF, (total ? total : 1) * in->elem));
    ctx->kernel_optional = in->total == 0;
    kit_student_begin(ctx, call_name(in));
    student_merge(in);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    int32_t *keys = (int32_t *)malloc((total ? total : 1) * sizeof *keys);
    int32_t *tags = in->d.is_rec ? (int32_t *)malloc((total ? total : 1) * sizeof *tags) : NULL;
    void *raw = malloc((total ? total : 1) * in->elem);
    if (!keys || !raw || (in->d.is_rec && !tags)) {
        fprintf(stderr, "lab07: out of host memory\n");
        free(keys), free(tags), free(raw);
        return -1;
    }
    cudaError_t e = cudaMemcpy(raw, in->dc, total * in->elem, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(keys), free(tags), free(raw);
        KIT_HCHECK(e);
    }
    for (size_t k = 0; k < total; k++) {
        if (in->d.is_rec) {
            keys[k] = ((merge_rec *)raw)[k].key;
            tags[k] = ((merge_rec *)raw)[k].tag;
        } else
            keys[k] = ((int *)raw)[k];
    }
    kit_out(ctx, "c", KIT_T_I32, keys, total);
    if (tags)
        kit_out(ctx, "tag", KIT_T_I32, tags, total);
    if (ctx->show)
        show_merge(in, keys, tags);
    free(keys), free(tags), free(raw);
    return 0;
}

/* co_rank_host runs on the host: no kernel, nothing to trace. */
static int run_corank(kit_run_ctx *ctx, inputs *in)
{
    int32_t *got = (int32_t *)malloc((size_t)in->d.nk * sizeof *got);
    if (!got) {
        fprintf(stderr, "lab07: out of host memory\n");
        return -1;
    }
    for (int t = 0; t < in->d.nk; t++)
        got[t] = co_rank_host(in->d.ks[t], in->d.a, in->d.m, in->d.b, in->d.n);
    kit_out(ctx, "corank", KIT_T_I32, got, (uint64_t)in->d.nk);
    if (ctx->show) {
        printf("co_rank_host(k, m=%d, n=%d) for %d values of k:\n", in->d.m, in->d.n, in->d.nk);
        for (int t = 0; t < in->d.nk && t < 8; t++)
            printf("  k=%d: i=%d, j=%d\n", in->d.ks[t], got[t], in->d.ks[t] - got[t]);
    }
    free(got);
    return 0;
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    kit_merge_basic((const int *)in->da, in->d.m, (const int *)in->db, in->d.n, (int *)in->dc);
}

/* The timed calls of the int merges (fresh.cuh): before each, every key of
 * A and B gets an offset added (order and ties unchanged, so the merge is the
 * old one plus the offset; recorded as the shift) and C is poisoned with a key
 * no input has, in buffers of their own; LAB07_TIMED_SAMPLE keys of C of a
 * few calls are recorded for the checker. */
static void timed_merge(const kit_timed_calls *tc)
{
    const lab07_data *d = &((const inputs *)tc->lab)->d;
    const int *a = (const int *)tc->in[0].work, *b = (const int *)tc->in[1].work;
    if (d->tiled)
        merge_tiled(a, d->m, b, d->n, (int *)tc->out);
    else
        merge_basic(a, d->m, b, d->n, (int *)tc->out);
}

static int time_merge(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    kit_timed_calls tc = {};
    tc.name = call_name(in), tc.call = timed_merge, tc.lab = in;
    tc.how = KIT_FRESH_OFFSET, tc.shift_lo = -1000000000, tc.shift_hi = 1000000000;
    tc.in[0].orig = in->da, tc.in[0].count = in->d.m;
    tc.in[1].orig = in->db, tc.in[1].count = in->d.n, tc.n_in = 2;
    tc.out_count = in->total, tc.poison = 0x7F; /* 0x7F7F7F7F > 2*10^9: no key */
    tc.sample = LAB07_TIMED_SAMPLE;
    return kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
}

/* show mode, int merges: a few timings for exercise 22 (no verdict). */
static void show_timing(kit_run_ctx *ctx, inputs *in)
{
    kit_timing ts, tb;
    if (in->d.is_rec || in->total == 0 || time_merge(ctx, in, 1, 5, &ts, &tb) != 0)
        return;
    printf("time: %s %.3f ms, the kit's basic kernel %.3f ms (medians of 5)\n", call_name(in), ts.median_ms,
           tb.median_ms);
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = in.d.op == LAB07_CORANK ? run_corank(ctx, &in) : run_merge(ctx, &in);
    if (rc == 0 && ctx->show && in.d.op == LAB07_MERGE)
        show_timing(ctx, &in);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.op != LAB07_MERGE || in.d.is_rec)) {
        fprintf(stderr, "lab07: the benchmark times int merges (op=merge type=int)\n");
        rc = -1;
    }
    if (rc == 0)
        rc = run_merge(ctx, &in); /* the result of this call is checked */
    if (rc == 0 && in.total < 1) {
        fprintf(stderr, "lab07: the benchmark needs elements to merge\n");
        rc = -1;
    }
    kit_timing ts, tb;
    if (rc == 0)
        rc = time_merge(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) == 0 ? 0 : -1;
    if (rc == 0) {
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        double gb = 2.0 * in.total * sizeof(int) / 1e9; /* every element read once and written once */
        kit_out_f64(ctx, "metric.merge rate (10^9 elements/s)", in.total / 1e9 / (ts.median_ms / 1e3));
        kit_out_f64(ctx, "metric.effective bandwidth (GB/s)", gb / (ts.median_ms / 1e3));
    }
    teardown(&in);
    return rc;
}
