/* harness.cu - lab03's declaration (kit/lab.cuh): a and b on the GPU, one
 * call of dot_shared / dot_shared_int recording its result; bench mode times
 * dot_shared against the kit's global-memory baseline; variant=ladder (show
 * mode only) prints the reduction ladder (ladder.h) instead.
 *
 * Over 100 lines: float and int entries and variant=ladder, the show-mode
 * reduction ladder.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "dot.h"
#include "kit/lab.cuh"
#include "ladder.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab03_data d;
    void *da, *db;
    float r;
    int ri;
} inputs;

KIT_LAB_DATASET(inputs, lab03)

static int buffers(kit_run_ctx *, void *s, kit_lab_stage stage, kit_lab_buf *b)
{
    inputs *in = (inputs *)s;
    if (stage != KIT_LAB_CASE)
        return 0;
    size_t bytes = (size_t)(in->d.n ? in->d.n : 1) * 4, upload = (size_t)in->d.n * 4;
    const void *ha = in->d.is_int ? (const void *)in->d.ia : (const void *)in->d.fa;
    const void *hb = in->d.is_int ? (const void *)in->d.ib : (const void *)in->d.fb;
    b[0] = kit_lab_buf{&in->da, bytes, ha, upload, 0};
    b[1] = kit_lab_buf{&in->db, bytes, hb, upload, 0};
    return 2;
}

static void call_float(void *s)
{
    inputs *in = (inputs *)s;
    in->r = dot_shared((const float *)in->da, (const float *)in->db, in->d.n);
}

static void call_int(void *s)
{
    inputs *in = (inputs *)s;
    in->ri = dot_shared_int((const int *)in->da, (const int *)in->db, in->d.n);
}

/* One call (none for variant=ladder); its result is returned by value. */
static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    if (k > 0 || in->d.ladder)
        return 0;
    c->kernel_optional = in->d.n == 0;
    c->name = in->d.is_int ? "dot_shared_int" : "dot_shared";
    c->invoke = in->d.is_int ? call_int : call_float;
    c->out[0] = in->d.is_int ? kit_lab_out{LAB03_OUT_RESULT_INT, KIT_T_I32, &in->ri, 1, 1, 0, 0, KIT_POISON(0xFF)}
                             : kit_lab_out{LAB03_OUT_RESULT, KIT_T_F32, &in->r, 1, 1, 0, 0, KIT_POISON(0xFF)};
    c->n_out = 1;
    return 1;
}

static int after(kit_run_ctx *ctx, void *s, int, void *const *)
{
    inputs *in = (inputs *)s;
    if (ctx->show && in->d.is_int)
        printf("dot_shared_int(n=%d) = %d\n", in->d.n, in->ri);
    else if (ctx->show)
        printf("dot_shared(n=%d) = %.9g\n", in->d.n, in->r);
    return 0;
}

static const char *refuse(kit_run_ctx *ctx, const void *s, kit_lab_stage stage)
{
    const inputs *in = (const inputs *)s;
    if (stage == KIT_LAB_RUN_BEFORE && in->d.ladder && !ctx->show)
        return "variant=ladder only times the reduction ladder (make run-lab03); it is not graded";
    if (stage == KIT_LAB_BENCH_BEFORE && (in->d.is_int || in->d.ladder || in->d.n < 1))
        return "the benchmark times the float dot product (type=float, variant=dot) with n >= 1";
    return NULL;
}

/* The timed calls of dot_shared (fresh.cuh): before each, b is replaced by
 * scale * (b rotated by shift), in a buffer of its own, and the result slot
 * poisoned (NaN); the result of a few calls is recorded for the checker.
 * The baseline always reads the original b. */
static int timed(kit_run_ctx *, void *s, kit_timed_calls *tc, kit_lab_swap *sw)
{
    inputs *in = (inputs *)s;
    kit_lab_timed_rotate(tc, sw, "dot_shared", call_float, &in->db, in->d.n, NULL, 1, 0);
    tc->out = &in->r, tc->out_host = 1; /* the result, returned by value */
    tc->extra_bytes = 4.0 * in->d.n; /* a, read by every call too */
    return 0;
}

static int baseline(void *s)
{
    inputs *in = (inputs *)s;
    volatile float r = kit_dot_global((const float *)in->da, (const float *)in->db, in->d.n);
    (void)r;
    return 0;
}

static double reads_gbs(const void *s, double ms) { return 2.0 * ((const inputs *)s)->d.n * 4 / 1e9 / (ms / 1e3); }

/* variant=ladder (show mode): the four classic block reductions (ladder.h) side
 * by side, then the student's dot_shared and the baseline on the same n. */
static int show_time(kit_run_ctx *ctx, void *s)
{
    inputs *in = (inputs *)s;
    if (!in->d.ladder)
        return 0;
    if (kit_ladder_show(in->d.fa, in->d.n) != 0)
        return -1;
    kit_timing ts, tb;
    if (in->d.n < 1)
        return 0;
    if (kit_lab_time(ctx, in, 2, 9, &ts, &tb) != 0)
        return -1;
    printf("for comparison, a whole dot product of the same n = %d (two arrays, grid-wide):\n", in->d.n);
    printf("  your dot_shared %.4f ms, the kit's global-memory baseline %.4f ms (medians of 9)\n", ts.median_ms,
           tb.median_ms);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab03", .state_size = sizeof(inputs), .generate = generate, .release = release, .buffers = buffers,
    .call = call, .after = after, .refuse = refuse, .timed = timed, .baseline = baseline,
    .metrics = {{"dot_shared reads (GB/s)", reads_gbs}}, .show_time = show_time,
};
