/* kit_trace.h - internal to the runner: start and finish the kernel trace. */
#ifndef KIT_TRACE_INTERNAL_H
#define KIT_TRACE_INTERNAL_H
#include "kit/blob.h"
void kit_trace_init(int enable);
/* Flushes CUPTI and writes trace.status, trace.calls, trace.kernels, trace.copies. */
void kit_trace_finish(kit_writer *out);
/* Forgets the records of the case just finished (a runner serving many). */
void kit_trace_reset(void);
/* The kernels the current student call launched (the first few, each once,
 * demangled, ", " between them), or NULL: the watchdog's record of a call
 * that does not return (watchdog.h). */
const char *kit_trace_call_kernels(void);
#ifndef KIT_NO_CUPTI
#include <cupti.h>
/* Called on entry to and exit from every kernel launch entry point, and the
 * callbacks enabled with kit_api_enable (launches.cu owns CUPTI's one
 * callback subscription: a second cuptiSubscribe in the process fails).
 * data: a CUpti_CallbackData for the driver and runtime API domains, a
 * CUpti_ResourceData for the resource domain; launch: the callback is one
 * of a kernel launch entry point. */
typedef void (*kit_launch_observer)(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data, int launch);
#else
typedef void (*kit_launch_observer)(int, int, const void *, int);
#endif
/* Registers one more observer (every observer sees every callback); 0, or
 * -1 when launches cannot be observed. */
int kit_launch_observe(kit_launch_observer fn);
#ifndef KIT_NO_CUPTI
/* Also passes this callback to the observers (not counted as a launch). */
int kit_api_enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
#endif

/* ---- the watchdog's held time (watchdog_hold.cu) ----
 * Holds the watchdog's clock while a student call waits for the driver to
 * tear a context down (cudaDeviceReset); call before the first CUDA call. */
void kit_watchdog_follow_teardown(void);

/* ---- work a student call left running (pending.cu) ---- */
#include <cuda_runtime.h>
/* Follows the streams the program creates (CUPTI resource callbacks); call
 * before the first CUDA call.  Without CUPTI nothing is followed. */
void kit_pending_init(void);
#define KIT_PENDING_MAX 16
typedef struct {
    int n;                            /* streams that still had work when the call returned */
    cudaEvent_t done[KIT_PENDING_MAX]; /* recorded on each of them after the call: its work's end */
    char what[KIT_PENDING_MAX][200];  /* "kernel add_kernel on a non-blocking stream (cudaStreamNonBlocking)" */
    int lost;                         /* streams with work the kit could not follow (no event left) */
} kit_pending_set;
/* Around one student call: begin before it (streams it destroys with work
 * still queued are followed until it returns), end right after it returns,
 * before anything waits: p gets an event on every followed stream (the
 * per-thread default stream, each stream the program created) that still has
 * work.  Nothing is followed while the call left a CUDA error behind (the
 * run reports that error instead). */
void kit_pending_begin(void);
void kit_pending_end(kit_pending_set *p);
/* After `ref` (an event recorded on the legacy default stream when the call
 * returned) and p's events have completed: the milliseconds by which the
 * latest of p's streams finished after ref (> 0: work the legacy default
 * stream does not wait for - the caller's next cudaMemcpy would not have
 * waited either), its index in *which; 0 when none; < 0 on a CUDA error. */
double kit_pending_late_ms(const kit_pending_set *p, cudaEvent_t ref, int *which);
/* Gives p's events back. */
void kit_pending_release(kit_pending_set *p);
#endif
