/* harness.cu - lab05's declaration, as data (kit/lab_decl.cuh): the input on
 * the GPU, the mask on the host, one call of conv1d_tiled / conv1d_tiled_int
 * / conv1d_halo_global on a poisoned output, "out" recorded; bench mode times
 * the float versions on a fresh input against the kit's global-memory
 * baseline.  `make run-lab05 P="... time=1"` prints the speedup (int data:
 * the student's function alone, the baseline is float only).
 */
#include "baseline.h"
#include "conv1d.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab05_data d;
    void *d_in, *d_out;
    float *d_out_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab05)

#define FLOATS (const float *)in->d_in, (float *)in->d_out, in->d.n, in->d.fmask, in->d.mask_size
KIT_LAB_INVOKE(inputs, halo, conv1d_halo_global(FLOATS))
KIT_LAB_INVOKE(inputs, tiled, conv1d_tiled(FLOATS))
KIT_LAB_INVOKE(inputs, tiled_int, conv1d_tiled_int((const int *)in->d_in, (int *)in->d_out, in->d.n, in->d.imask,
                                                   in->d.mask_size))
KIT_LAB_BASELINE(inputs, baseline,
                 kit_conv1d_global((const float *)in->d_in, in->d_out_kit, in->d.n, in->d.fmask, in->d.mask_size))

#define F(member) KIT_AT(inputs, member)
#define OUT(type) {{LAB05_OUT, type, F(d_out), F(d.n), KIT_POISON(0xFF)}} /* NaN (float) / -1 (int) */
static const kit_lab_decl DECL = {
    .bufs = {{F(d_in), KIT_T_F32, F(d.n), F(d.fin), .when = KIT_WHEN(inputs, d.is_int, 0)},
             {F(d_in), KIT_T_I32, F(d.n), F(d.iin), .when = KIT_WHEN(inputs, d.is_int, 1)},
             {F(d_out), KIT_T_F32, F(d.n)},
             {F(d_out_kit), KIT_T_F32, F(d.n), .stage = KIT_LAB_TIMING}},
    /* the first that holds: variant=halo is float only */
    .calls = {{"conv1d_halo_global", halo, KIT_WHEN(inputs, d.halo, 1), F(d.n), OUT(KIT_T_F32)},
              {"conv1d_tiled_int", tiled_int, KIT_WHEN(inputs, d.is_int, 1), F(d.n), OUT(KIT_T_I32)},
              {"conv1d_tiled", tiled, {}, F(d.n), OUT(KIT_T_F32)}},
    .refuse = {{KIT_LAB_BENCH_BEFORE, F(d.is_int), 0, 0, "the benchmark times the float versions (type=float)"},
               {KIT_LAB_BENCH_AFTER, F(d.n), 1, INT32_MAX, "the benchmark needs n >= 1"}},
    /* the input fresh (rotated, scaled) each call; one multiply and one add per term */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(d_in)}, .sample = LAB05_TIMED_SAMPLE, .flops_per = 2,
              .flops_of = {F(d.n), F(d.mask_size)}},
    .metrics = {{"%s (GFLOP/s)", F(d.n), 2, 0, F(d.mask_size)},
                {"global-memory baseline (GFLOP/s)", F(d.n), 2, 1, F(d.mask_size)}},
    /* exercises 13, 14 and 16 */
    .show_time = {"global-memory baseline", 3, 10, "the baseline is float only: use type=float to compare",
                  KIT_WHEN(inputs, d.is_int, 1)},
};

const kit_lab KIT_LAB = {.tag = "lab05", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .baseline = baseline, .decl = &DECL};
