/* kit_trace.h - internal to the runner: start and finish the kernel trace. */
#ifndef KIT_TRACE_INTERNAL_H
#define KIT_TRACE_INTERNAL_H
#include "kit/blob.h"
void kit_trace_init(int enable);
/* Flushes CUPTI and writes trace.status, trace.calls, trace.kernels, trace.copies. */
void kit_trace_finish(kit_writer *out);
#endif
