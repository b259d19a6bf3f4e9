/* kit_trace.h - internal to the runner: start and finish the kernel trace. */
#ifndef KIT_TRACE_INTERNAL_H
#define KIT_TRACE_INTERNAL_H
#include "kit/blob.h"
void kit_trace_init(int enable);
/* Flushes CUPTI and writes trace.status, trace.calls, trace.kernels, trace.copies. */
void kit_trace_finish(kit_writer *out);
/* Forgets the records of the case just finished (a runner serving many). */
void kit_trace_reset(void);
#ifndef KIT_NO_CUPTI
#include <cupti.h>
/* Called on entry to and exit from every kernel launch entry point, and the
 * API calls enabled with kit_api_enable (launches.cu owns CUPTI's one
 * callback subscription: a second cuptiSubscribe in the process fails). */
typedef void (*kit_launch_observer)(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *d);
#else
typedef void (*kit_launch_observer)(int, int, const void *);
#endif
/* Registers the observer; 0, or -1 when launches cannot be observed. */
int kit_launch_observe(kit_launch_observer fn);
#ifndef KIT_NO_CUPTI
/* Also passes this API callback to the observer (not counted as a launch). */
int kit_api_enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
#endif
#endif
