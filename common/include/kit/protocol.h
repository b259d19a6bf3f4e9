/* protocol.h - what the runner, the checker and the grader say to each other.
 *
 * The runner (student code + harness) exits with a KIT_EXIT_* status and
 * writes its outputs into a blob file (blob.h) under the KIT_KEY_* names
 * below plus the lab's own output names (declared in its harness.cu:
 * kit/lab.cuh's kit_lab_out); the checker
 * reads that file and prints one JSON verdict with the KIT_VERDICT_* keys;
 * the grader (grader/src: the case runs and the case server) reads both and
 * talks to a serving or timing runner in the KIT_SERVE_* and KIT_GATE_* words
 * on descriptor KIT_CTL_FD.  One header, so that a key, a word or a status
 * changed here changes for all three.  (kitgrade's own exit statuses, what
 * users and scripts read, are KITGRADE_EXIT_* in grader/src/util/exit_codes.h.)
 */
#ifndef KIT_PROTOCOL_H
#define KIT_PROTOCOL_H

/* ---- runner exit statuses ---- */
#define KIT_EXIT_OK 0
#define KIT_EXIT_HARNESS 1          /* bad parameters, a CUDA error of the kit's own calls */
#define KIT_EXIT_USAGE 2
#define KIT_EXIT_CUDA_CHECK 3       /* a CUDA_CHECK in the student's code failed (cuda_check.cuh) */
#define KIT_EXIT_STUDENT_CUDA 4     /* a student call left a CUDA error behind */
#define KIT_EXIT_TIMED_NO_KERNEL 5  /* a timed call of the student's function launched no kernel */
#define KIT_EXIT_HUNG 6             /* a student call did not return within its limit (watchdog.h):
                                       the run was ended, its record is in KIT_HANG_FILE */
#define KIT_EXIT_OVERRAN 7          /* a student call returned, but after its limit, while the GPU was
                                       shared (--call-grace > 1): the grader runs it again alone */
#define KIT_EXIT_SKIPPED 8          /* a student call the grader named in --skip-calls (it hung in an
                                       earlier run of this grading) was not made */

/* ---- a student call's time limit (watchdog.h; the grader sets it per case) ----
 * --call-limit S: a student call may take S seconds; --call-grace K: while the
 * GPU is shared it is ended only at K x S (between S and K x S it finishes,
 * and the run exits KIT_EXIT_OVERRAN); --skip-calls a,b: calls not to make.
 * A call ended at its limit leaves one line in KIT_HANG_FILE, in the folder
 * of --out: "CALL<TAB>LIMIT_S<TAB>SECONDS<TAB>KERNELS\n" (KERNELS: the
 * kernels the call launched, ", " between them; "-" when unknown). */
#define KIT_HANG_FILE "hang.txt"
/* Seconds of a call spent tearing its context down (cudaDeviceReset: the
 * driver's work, seconds long beside many other contexts, no sign of a hang)
 * that do not count toward its limit; beyond them they count.  The grader's
 * backstop of a run leaves room for them (hang.c, run_limit). */
#define KIT_CALL_HOLD_MAX_S 20.0
/* what the runner says on stderr, then the call's name, for a call of --skip-calls
 * (serve mode answers KIT_SERVE_SKIPPED instead) */
#define KIT_SKIPPED_LINE "kit: not called, as it did not return in an earlier run: "
/* the runner's `baseline` mode: one untimed and KIT_BASELINE_REPS timed calls of
 * the kit's baseline on a case, their median recorded as KIT_KEY_BASELINE_MS */
#define KIT_BASELINE_REPS 3

/* ---- runner result file keys ---- */
#define KIT_KEY_RUNNER_STATUS "runner.status" /* KIT_RUNNER_OK once the runner finished its work */
#define KIT_RUNNER_OK "ok"
#define KIT_RUNNER_ERROR "error"
#define KIT_KEY_STUDENT_MS "student_ms"       /* bench: the student's time (f64) */
#define KIT_KEY_BASELINE_MS "baseline_ms"     /* bench: the baseline's time (f64) */
#define KIT_KEY_METRIC_PREFIX "metric."       /* bench: "metric.<label>" (f64), shown under the test */
#define KIT_KEY_TIMED_PAIRS "timed.pairs"     /* bench: timed calls of each side, all rounds (f64) */
/* bench, when the timing stopped early because the score's bounds (--decided)
 * were decided (kit/timing_decided.h): KIT_DECIDED_FULL or _NONE (f64);
 * absent: timed in full */
#define KIT_KEY_TIMED_DECIDED "timed.decided"
/* the kernel trace (trace.cu writes them, check_util.c and evidence.c read them) */
#define KIT_KEY_TRACE_STATUS "trace.status"
#define KIT_KEY_TRACE_CALLS "trace.calls"
#define KIT_KEY_TRACE_KERNELS "trace.kernels"
#define KIT_KEY_TRACE_PINNED "trace.pinned"
#define KIT_KEY_TRACE_COPIES "trace.copies"
#define KIT_KEY_TRACE_DEVICE "trace.device"
/* "call<TAB>name<TAB>what" per student call that returned while work it
 * started went on where the legacy default stream does not wait (what: the
 * stream and its last kernel); the runner waited for it before reading results */
#define KIT_KEY_TRACE_LEFT "trace.left"

/* bench, fresh contents (fresh.cuh, timed.h): a few timed calls' outputs */
#define KIT_KEY_TIMED_CALL "timed.call"   /* i32: which call (1 = the first timed call) */
#define KIT_KEY_TIMED_SHIFT "timed.shift" /* i64: its input's shift (or offset) */
#define KIT_KEY_TIMED_SCALE "timed.scale" /* f64: its input's scale */
#define KIT_KEY_TIMED_INDEX "timed.index" /* i64: sampled output indices (absent: whole outputs) */
#define KIT_KEY_TIMED_VALUE "timed.value" /* 4-byte elements: the output at those indices */
#define KIT_TIMED_MAX 3                   /* calls recorded at most */
/* bench: what the timed calls left running (timing.cuh kit_time_left), text
 * "what<TAB>calls<TAB>timed calls<TAB>max ms later<TAB>calls not followed"; absent when none */
#define KIT_KEY_TIMED_LEFT "timed.left"
/* bench: the plausibility check's inputs (plausible.h), f64: the least work one
 * timed call must do, and what this device can do */
#define KIT_KEY_TIMED_BYTES "timed.bytes"      /* bytes read and written at the least (0: not declared) */
#define KIT_KEY_TIMED_FLOPS "timed.flops"      /* floating-point operations (0: not declared) */
#define KIT_KEY_DEVICE_COPY_GBS "device.copy_gbs"      /* measured: a device-to-device copy of as many bytes */
#define KIT_KEY_DEVICE_DRAM_GBS "device.dram_gbs"      /* the memory's peak (clock x bus width) */
#define KIT_KEY_DEVICE_PEAK_GFLOPS "device.peak_gflops" /* FP32: SMs x FP32 lanes x 2 x clock */

/* ---- checker verdict (JSON on stdout; exit 0 when printed, 2 on usage) ---- */
#define KIT_VERDICT_PASS "pass"           /* bool */
#define KIT_VERDICT_DEVICE_OK "device_ok" /* bool: the device-execution check */
#define KIT_VERDICT_RESULT_OK "result_ok" /* bool: the values alone */
#define KIT_VERDICT_SUMMARY "summary"     /* string */
#define KIT_VERDICT_DETAILS "details"     /* array of strings */
#define KIT_VERDICT_KERNELS "kernels"     /* array of {name, grid, block, ms} */
#define KIT_VERDICT_METRICS "metrics"     /* object: the KIT_KEY_*_MS and metric.* values */

/* ---- the runner's conversation with the grader (runner_main.cu <-> grader/src/grading/serve.c) ----
 * One line each way on descriptor KIT_CTL_FD (--ctl-fd, --gate-fd): far above
 * the ones a program and its libraries open first. */
#define KIT_CTL_FD 100
#define KIT_CTL_FD_S "100" /* the same, for a command line */
/* serve mode: the runner says KIT_SERVE_READY once started; the grader sends
 * "KIT_SERVE_RUN SEED NONCE LIMIT PARAMS" (seed 0x..., nonce decimal, LIMIT the
 * case's --call-limit in seconds) per case, and the runner answers
 * KIT_SERVE_DONE once the case's result file is complete, or
 * "KIT_SERVE_SKIPPED CALL" when the case would call a function of --skip-calls */
#define KIT_SERVE_READY "ready"
#define KIT_SERVE_RUN "run"
#define KIT_SERVE_DONE "done"
#define KIT_SERVE_SKIPPED "skipped"
/* the timing gate (bench --gate-fd): the runner asks for the GPU alone
 * (KIT_GATE_EXCLUSIVE, answered KIT_GATE_GO) and gives it back
 * (KIT_GATE_SHARED, answered KIT_GATE_OK) */
#define KIT_GATE_EXCLUSIVE "exclusive"
#define KIT_GATE_GO "go"
#define KIT_GATE_SHARED "shared"
#define KIT_GATE_OK "ok"

/* ---- the barrier check's findings (kit/barrier_check.cuh -> grader/src/grading/sanitizer.c) ----
 * One line on the runner's stdout per finding, printed by the device:
 *     kit barrier check: FILE:LINE: WHAT: WHY
 * WHAT says what was seen (no ": " in it), WHY what it means. */
#define KIT_BARRIER_PREFIX "kit barrier check: "

#endif
