/* runner.h - what a lab's harness provides and may use.
 *
 * A runner is one executable built from the student's file(s), the lab's
 * harness.cu (kit code), the lab's baseline and dataset, and common/.  The
 * generic main (common/src/runner_main.cu) parses the command line
 *
 *   runner run   --params "n=1025 type=float" --seed 0x1234 --nonce N --out FILE
 *   runner bench --params "..." --seed S --nonce N --out FILE --warmup 3 --reps 15 [--decided MIN,FULL]
 *   runner show  --params "..." [--seed S]      (runs once, prints a summary; for students)
 *
 * and calls the lab's hooks.  Inputs are generated from (params, seed) with
 * the lab's dataset.c, so the checker can regenerate them; outputs are
 * written with kit_out_*.  The runner never judges its own results.
 */
#ifndef KIT_RUNNER_H
#define KIT_RUNNER_H
#include <stdint.h>
#include "kit/blob.h"
#include "kit/params.h"
#include "kit/protocol.h"
#include "kit/timing.cuh"

/* Bench mode's warm-up and timed calls when the command line names none
 * (the runner's --warmup and --reps; make bench's rows). */
#define KIT_RUN_WARMUP 3
#define KIT_RUN_REPS 15

typedef struct kit_run_ctx {
    const kit_params *params;
    uint64_t seed;
    kit_writer *out; /* NULL in `show` mode */
    int warmup, reps; /* bench mode */
    kit_decided decided; /* bench mode: the score's bounds (--decided), timing.cuh */
    int show;         /* `show` mode: print a human summary on stdout */
    int bench;        /* bench mode (set by the lab driver, lab_driver.cu) */
    int kernel_optional; /* set before kit_student_begin when the call may
                            legitimately launch no kernel (empty input) */
} kit_run_ctx;

/* ---- the runner's modes: kit_lab_run, kit_lab_bench, kit_lab_baseline
 * (kit/lab.cuh), the one driver on the lab's descriptor ----
 * run: generates the inputs, calls the student's function(s) between
 * kit_student_begin/end, writes the outputs.  0, or nonzero after printing
 * why on stderr (invalid parameters, a CUDA error of the harness).
 * bench: times the student's function against the kit's baseline, writes
 * "student_ms", "baseline_ms" (f64) and any lab metric as an f64 named
 * "metric.<label>" (e.g. "metric.achieved bandwidth (GB/s)", shown under the
 * performance test), and the outputs of one untimed student call (so a fast
 * but wrong kernel earns nothing).
 * baseline: times the kit's baseline alone on the case (KIT_BASELINE_REPS
 * calls after one untimed) and writes "baseline_ms": what the case needs on
 * this GPU, from which the grader sets a student call's time limit
 * (watchdog.h). */

/* ---- provided by common/ for the harness ---- */
/* Brackets one call of a student function.  Kernels launched inside are
 * recorded (name, grid, block, start/end, stream) and so are memory copies
 * and memsets (kind, bytes, start/end, stream), for the device-execution
 * check and the checker (kit_call_launches, kit_call_copies);
 * end() marks the end of the call on stdout (output printed later, e.g. by
 * an unsynchronised device printf, is after the mark), synchronises, and
 * records any CUDA error the call left behind.  Returns 0, or -1 if the call
 * left a CUDA error (already reported on stderr and in the output file). */
void kit_student_begin(kit_run_ctx *ctx, const char *call);
int kit_student_end(kit_run_ctx *ctx);

/* Output helpers (no-ops in show mode). */
void kit_out(kit_run_ctx *ctx, const char *name, kit_type t, const void *data, uint64_t count);
void kit_out_f64(kit_run_ctx *ctx, const char *name, double v);
void kit_out_text(kit_run_ctx *ctx, const char *name, const char *text);

/* What kind of memory p points to, as the CUDA runtime says: "host"
 * (page-locked), "device", "managed", or "pageable" (ordinary memory, which
 * the runtime does not know; its error cleared).  lab11 asks it of
 * pinned_alloc's buffers. */
const char *kit_memory_kind(const void *p);

/* Harness-side CUDA check: reports "harness.cu:LINE: CUDA error ..." and
 * returns -1 from the hook (the grader shows it as an error of the run). */
#define KIT_HCHECK(call)                                                                              \
    do {                                                                                              \
        cudaError_t kit_e_ = (call);                                                                  \
        if (kit_e_ != cudaSuccess) {                                                                  \
            kit_harness_error(kit_e_, #call, __FILE__, __LINE__);                                     \
            return -1;                                                                                \
        }                                                                                             \
    } while (0)
void kit_harness_error(cudaError_t e, const char *what, const char *file, int line);

/* Hook return value when a student call left a CUDA error (the runner exits
 * with KIT_EXIT_STUDENT_CUDA). */
#define KIT_RC_STUDENT_CUDA KIT_EXIT_STUDENT_CUDA
/* ... when a student call overran its limit while the GPU was shared, and
 * when a call was not made because the grader said it hung before
 * (watchdog.h); the runner exits with the KIT_EXIT_* of the same number. */
#define KIT_RC_OVERRAN KIT_EXIT_OVERRAN
#define KIT_RC_SKIPPED KIT_EXIT_SKIPPED

/* Marker the runner prints on stdout when a student call returns. */
#define KIT_STDOUT_MARK "@@kit: student call returned@@"

#endif
