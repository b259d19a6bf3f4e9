/* harness.cu - lab03's declaration, as data (kit/lab_decl.cuh): a and b on
 * the GPU, one call of dot_shared / dot_shared_int recording its result;
 * bench mode times dot_shared against the kit's global-memory baseline;
 * variant=ladder (show mode only) prints the reduction ladder (ladder.h).
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "dot.h"
#include "kit/lab_decl.cuh"
#include "ladder.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab03_data d;
    void *da, *db;
    float r;
    int ri;
} inputs;

KIT_LAB_DATASET(inputs, lab03)

KIT_LAB_INVOKE(inputs, call_float, in->r = dot_shared((const float *)in->da, (const float *)in->db, in->d.n))
KIT_LAB_INVOKE(inputs, call_int, in->ri = dot_shared_int((const int *)in->da, (const int *)in->db, in->d.n))
/* its result unused: kit_dot_global (kernels, a copy back) is made all the same */
KIT_LAB_BASELINE(inputs, baseline, (void)kit_dot_global((const float *)in->da, (const float *)in->db, in->d.n), 0)

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

#define F(member) KIT_AT(inputs, member)
#define BENCH(field, lo, hi) {KIT_LAB_BENCH_BEFORE, field, lo, hi, \
    "the benchmark times the float dot product (type=float, variant=dot) with n >= 1"}
#define INT(x) KIT_WHEN(inputs, d.is_int, x)
static const kit_lab_decl DECL = {
    .bufs = {{F(da), KIT_T_F32, F(d.n), F(d.fa), .when = INT(0)}, {F(db), KIT_T_F32, F(d.n), F(d.fb), .when = INT(0)},
             {F(da), KIT_T_I32, F(d.n), F(d.ia), .when = INT(1)}, {F(db), KIT_T_I32, F(d.n), F(d.ib), .when = INT(1)}},
    /* the result, returned by value, poisoned in the state; none for variant=ladder */
    .calls = {{"dot_shared", call_float, INT(0), F(d.n),
               {{LAB03_OUT_RESULT, KIT_T_F32, F(r), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE}}},
              {"dot_shared_int", call_int, INT(1), F(d.n),
               {{LAB03_OUT_RESULT_INT, KIT_T_I32, F(ri), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE}}}},
    .no_call_if = F(d.ladder),
    .refuse = {{KIT_LAB_RUN_BEFORE, F(d.ladder), 0, 0, "variant=ladder only times the reduction ladder (make run-lab03); "
                                                       "it is not graded", 1},
               BENCH(F(d.is_int), 0, 0), BENCH(F(d.ladder), 0, 0), BENCH(F(d.n), 1, INT32_MAX)},
    /* b fresh (rotated, scaled) each timed call; the baseline reads the original */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(db)}},
    .metrics = {{"dot_shared reads (GB/s)", F(d.n), 8}},
};

const kit_lab KIT_LAB = {.tag = "lab03", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .baseline = baseline, .show_time = show_time, .decl = &DECL};
