/* harness.cu - lab02's declaration, as data (kit/lab_decl.cuh): one call
 * of vector_add (host arrays) or vector_add_device (device arrays) on a
 * poisoned c (an element never written, or never copied back, stays NaN),
 * "c" recorded; bench mode times vector_add_device on fresh a and b against
 * the device's own copy of the same bytes, and a serial CPU loop (exercise
 * 4).  `make run-lab02 P="n=... time=1"` prints those timings (and the round
 * trip's) in a table.
 */
#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "parallel_add.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab02_data d;
    float *h_c;           /* the result on the host (entry=host) */
    float *da, *db, *dc;  /* device copies (entry=device, bench, or timings in show mode) */
    double cpu_ms;        /* serial loop, median */
    double round_trip_ms; /* vector_add, median (show mode only) */
} inputs;

KIT_LAB_DATASET(inputs, lab02)

KIT_LAB_INVOKE(inputs, add_device, vector_add_device(in->da, in->db, in->dc, in->d.n))
KIT_LAB_INVOKE(inputs, add_host, vector_add(in->d.a, in->d.b, in->h_c, in->d.n))
KIT_LAB_BASELINE(inputs, copy_baseline, kit_copy_same_bytes(in->da, in->db, in->dc, in->d.n) != cudaSuccess)

/* Exercise 4's serial loop; not inlined so the compiler keeps it as written. */
static __attribute__((noinline)) void serial_add(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
KIT_LAB_INVOKE(inputs, cpu_add, serial_add(in->d.a, in->d.b, in->h_c, in->d.n))

#define F(member) KIT_AT(inputs, member)
#define DEV(at, host) {F(at), KIT_T_F32, F(d.n), host, .when = KIT_WHEN(inputs, d.on_device, 1), .when_timed = 1}
#define BENCH(field, lo, hi) {KIT_LAB_BENCH_BEFORE, field, lo, hi, \
    "the benchmark times vector_add_device (entry=device) with n > 0"}
static const kit_lab_decl DECL = {
    /* the device arrays: for entry=device, and for the timings whatever the entry */
    .bufs = {DEV(da, F(d.a)), DEV(db, F(d.b)), DEV(dc, 0), {F(h_c), KIT_T_F32, F(d.n), .pageable = 1}},
    /* c poisoned with NaN; n = 0 needs no kernel */
    .calls = {{"vector_add_device", add_device, KIT_WHEN(inputs, d.on_device, 1), F(d.n),
               {{LAB02_OUT_C, KIT_T_F32, F(dc), F(d.n), KIT_POISON(0xFF)}}},
              {"vector_add", add_host, KIT_WHEN(inputs, d.on_device, 0), F(d.n),
               {{LAB02_OUT_C, KIT_T_F32, F(h_c), F(d.n), KIT_POISON(0xFF), KIT_DECL_HOST}}}},
    .refuse = {BENCH(F(d.on_device), 1, 1), BENCH(F(d.n), 1, INT32_MAX)},
    /* a and b fresh (rotated, scaled) each call, c in a buffer of its own (the baseline writes dc) */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(da), F(db)}, .sample = LAB02_TIMED_SAMPLE, .call = "vector_add_device"},
    /* a and b read, c written: 12 bytes an element */
    .metrics = {{"vector_add_device (GB/s, a and b read, c written)", F(d.n), 12},
                {"device copy of the same bytes (GB/s)", F(d.n), 12, 1},
                {"serial CPU loop (ms)", .ms_of = F(cpu_ms)},
                {"kernel vs the serial CPU loop (x faster)", .ms_of = F(cpu_ms), .vs = 1}},
    /* after each timing: the serial loop (3 runs, the host's clock), in show mode the round trip */
    .also_timed = {{cpu_add, F(cpu_ms), 0, 3, .on_cpu = 1}, {add_host, F(round_trip_ms), 1, 3, .show_only = 1}},
    .show_table = {"timings, n = %d (medians):", "nothing to time for n = 0", F(d.n),
                   {{"vector_add_device (kernel only)", 0, 0, 12}, {"device copy of the same bytes", 0, 1, 12},
                    {"vector_add (allocate, copy, add,\n              copy back, free)", F(round_trip_ms)},
                    {"serial loop on the CPU", F(cpu_ms), 0, 12}}},
};

const kit_lab KIT_LAB = {.tag = "lab02", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .baseline = copy_baseline, .decl = &DECL};
