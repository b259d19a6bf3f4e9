/* harness.cu - lab06's declaration, as data (kit/lab_decl.cuh): the input on
 * the GPU, one call of scan_block / scan_block_int (part=1) or scan /
 * scan_int (part=2) on a poisoned output, "out" recorded; bench mode times
 * scan on a fresh input against the kit's one-launch-per-stride
 * global-memory scan.  `make run-lab06 P="... time=1"` prints the speedup
 * (int data: the student's function alone, the baseline is float only).
 */
#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "kit/ref.h"
#include "scan.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab06_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab06)

KIT_LAB_INVOKE(inputs, block_int, scan_block_int((const int *)in->d_in, (int *)in->d_out, in->d.n))
KIT_LAB_INVOKE(inputs, block_float, scan_block((const float *)in->d_in, (float *)in->d_out, in->d.n))
KIT_LAB_INVOKE(inputs, scan_i, scan_int((const int *)in->d_in, (int *)in->d_out, in->d.n))
KIT_LAB_INVOKE(inputs, scan_f, scan((const float *)in->d_in, (float *)in->d_out, in->d.n))
KIT_LAB_BASELINE(inputs, baseline, kit_scan_global((const float *)in->d_in, in->d_out_kit, in->d.n))

/* show mode: the first i where out is not a scan of in (floats: beyond the
 * checker's bound), so a student sees a wrong one without the grader. */
static size_t not_a_scan(const void *s, const void *out, size_t n)
{
    const lab06_data *d = &((const inputs *)s)->d;
    return d->is_int ? kit_scan_first_wrong_i32(d->iin, (const int32_t *)out, n, 0)
                     : kit_scan_first_wrong_f32(d->fin, (const float *)out, n, 0);
}

#define F(member) KIT_AT(inputs, member)
#define OUT(type) {{LAB06_OUT, type, F(d_out), F(d.n), KIT_POISON(0xFF)}} /* NaN (float) / -1 (int) */
static const kit_lab_decl DECL = {
    .bufs = {{F(d_in), KIT_T_F32, F(d.n), F(d.fin), .when = KIT_WHEN(inputs, d.is_int, 0)},
             {F(d_in), KIT_T_I32, F(d.n), F(d.iin), .when = KIT_WHEN(inputs, d.is_int, 1)},
             {F(d_out), KIT_T_F32, F(d.n)},
             {F(d_out_kit), KIT_T_F32, F(d.n), .stage = KIT_LAB_TIMING}},
    /* the first that holds */
    .calls = {{"scan_block_int", block_int, KIT_WHEN2(inputs, d.part, 1, d.is_int, 1), F(d.n), OUT(KIT_T_I32)},
              {"scan_block", block_float, KIT_WHEN(inputs, d.part, 1), F(d.n), OUT(KIT_T_F32)},
              {"scan_int", scan_i, KIT_WHEN(inputs, d.is_int, 1), F(d.n), OUT(KIT_T_I32)},
              {"scan", scan_f, {}, F(d.n), OUT(KIT_T_F32)}},
    .refuse = {{KIT_LAB_BENCH_BEFORE, .why = "the benchmark times scan (part=2 type=float)",
                .needs = KIT_WHEN2(inputs, d.part, 2, d.is_int, 0)},
               {KIT_LAB_BENCH_AFTER, F(d.n), 1, INT32_MAX, "the benchmark needs n >= 1"}},
    /* the input fresh (rotated, scaled) each call */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(d_in)}, .sample = LAB06_TIMED_SAMPLE},
    /* the least traffic any scan needs: read the input once, write the output once */
    .metrics = {{"scan effective bandwidth (GB/s, 8 bytes per element)", F(d.n), 8},
                {"baseline effective bandwidth (GB/s)", F(d.n), 8, 1}},
    /* part=1 too (not graded by the benchmark) */
    .show_time = {"global-memory scan (one launch per stride)", 3, 10, "the baseline is float only",
                  KIT_WHEN(inputs, d.is_int, 1)},
    .show_check = {not_a_scan, "out[i] = out[i-1] + in[i]"},
};

const kit_lab KIT_LAB = {.tag = "lab06", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .baseline = baseline, .decl = &DECL};
