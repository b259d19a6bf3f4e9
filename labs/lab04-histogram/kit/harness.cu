/* harness.cu - lab04's declaration, as data (kit/lab_decl.cuh): histogram_shared
 * handed a histogram poisoned with 0xFF bytes (every bin must be set), "bins"
 * recorded; bench mode times it against the kit's global atomics on fresh
 * values: v becomes (v + offset) % bins (the histogram rotates; check.c
 * undoes it).  `make run-lab04 P="... time=1"` prints the speedup.
 */
#include "baseline.h"
#include "dataset.h"
#include "histogram.h"
#include "kit/lab_decl.cuh"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab04_data d;
    int *d_in;
    unsigned int *d_bins;     /* the student's histogram */
    unsigned int *d_bins_kit; /* the baseline's, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab04)

KIT_LAB_INVOKE(inputs, histogram, histogram_shared(in->d_in, in->d.n, in->d_bins, in->d.bins))
KIT_LAB_BASELINE(inputs, baseline, kit_histogram_global(in->d_in, in->d.n, in->d_bins_kit, in->d.bins))

#define F(member) KIT_AT(inputs, member)
static const kit_lab_decl DECL = {
    .bufs = {{F(d_in), KIT_T_I32, F(d.n), F(d.in)},
             {F(d_bins), KIT_T_U32, F(d.bins)},
             {F(d_bins_kit), KIT_T_U32, F(d.bins), .stage = KIT_LAB_TIMING}},
    /* all-zero bins (n = 0) need no kernel */
    .calls = {{"histogram_shared", histogram, .optional_if_zero = F(d.n),
               .out = {{LAB04_OUT_BINS, KIT_T_U32, F(d_bins), F(d.bins), KIT_POISON(0xFF)}}}},
    .refuse = {{KIT_LAB_BENCH_AFTER, F(d.n), 1, INT32_MAX, "the benchmark needs n >= 1"}},
    .timed = {KIT_FRESH_OFFSET, {F(d_in)}, .modulus = F(d.bins)},
    .metrics = {{"histogram_shared (G elements/s)", F(d.n), 1}, {"global atomics (G elements/s)", F(d.n), 1, 1}},
    .show_time = {"global atomics (the baseline)", 3, 10},
};

const kit_lab KIT_LAB = {.tag = "lab04", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .baseline = baseline, .decl = &DECL};
