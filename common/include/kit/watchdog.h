/* watchdog.h - a student call that does not return ends the run in seconds.
 *
 * A kernel that never ends (a __syncthreads() not every thread reaches, a
 * spin on a flag another block sets, a loop bound that is never met) or a
 * host loop in the student's function would otherwise hold the GPU until
 * the grader's backstop limit.  The runner arms the watchdog around each
 * student call (lab_driver.cu) with the limit the grader chose for the case
 * (--call-limit, kit/protocol.h); a thread of the runner waits beside the
 * call.  At the limit (x the grace while the GPU is shared) it writes the
 * hang record (KIT_HANG_FILE: the call, its limit, the seconds, the kernels
 * the call launched) and one line on stderr, and ends the process with
 * KIT_EXIT_HUNG.  A call that returns between the limit and
 * grace x limit overran: the run exits KIT_EXIT_OVERRAN after it, and the
 * grader runs it again with the GPU to itself.
 *
 * A thread, not a signal: the student's code cannot mask it by accident,
 * and nothing of the student's process state is touched while the call
 * runs.  (Code that ends the thread on purpose only hangs longer: the
 * grader's backstop limit still ends it.)
 *
 * Time the call spends in the driver's teardown of its context
 * (cudaDeviceReset, which some "clean up like the samples" code ends with)
 * is held: it does not count toward the limit, up to hold_max seconds.
 * Beside twenty other contexts on an H100, a correct call ending in a reset
 * took over 8 s (watchdog_hold.cu follows the teardown calls).
 *
 * The calls the grader names in --skip-calls hung earlier in the same
 * grading: the runner does not make them again (kit_call_skipped).
 */
#ifndef KIT_WATCHDOG_H
#define KIT_WATCHDOG_H
#ifdef __cplusplus
extern "C" {
#endif

/* The record's folder (where --out is), the grace, and the most seconds of
 * held time a call may leave out (KIT_CALL_HOLD_MAX_S); limit <= 0: no watchdog. */
void kit_watchdog_setup(const char *hang_dir, double limit_s, double grace, double hold_max_s);
/* The limit of the next calls (serve mode: per case). */
void kit_watchdog_limit(double limit_s);
/* The kernels the current call launched (trace.cu), read when it fires. */
void kit_watchdog_kernel_source(const char *(*kernels)(void));
/* Around one student call: arm before it, disarm after it (its results
 * waited for); disarm returns the call's counted seconds (without the held ones). */
void kit_watchdog_arm(const char *call);
double kit_watchdog_disarm(void);
/* Around the driver's teardown inside a call (nested pairs count once):
 * the time between does not count toward the limit, up to hold_max_s. */
void kit_watchdog_hold(int on);
/* Did a call of `seconds` overrun its limit (only possible with a grace > 1)? */
int kit_watchdog_overran(double seconds);

/* --skip-calls: the comma-separated calls not to make (copied). */
void kit_calls_skip(const char *list);
/* 1 when `call` is one of them; kit_call_skipped_last names the last one found. */
int kit_call_skipped(const char *call);
const char *kit_call_skipped_last(void);

/* Parsing KIT_HANG_FILE's line (grader side): 0, or -1 when it is not one. */
typedef struct {
    char call[64];
    double limit_s, seconds;
    char kernel[400]; /* the kernels the call launched, ", " between them; "" unknown */
} kit_hang_record;
int kit_hang_parse(const char *line, kit_hang_record *h);

#ifdef __cplusplus
}
#endif
#endif
