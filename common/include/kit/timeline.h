/* timeline.h - what a student call's CUPTI trace shows on the GPU's own
 * clock, never taken from the student's process: how long its kernels and
 * its host<->device copies were busy, and how long both at once (lab11's
 * overlap of copies and kernels), and the bytes and time of its copies each
 * way (lab11's round trips, kit_check_copies). */
#ifndef KIT_TIMELINE_H
#define KIT_TIMELINE_H
#include "kit/checker.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Records looked at per call (the trace's first ones). */
#define KIT_TIMELINE_MAX 8192

typedef struct {
    int launches;          /* kernels launched (all of them, with a timestamp or not) */
    int timed_launches;    /* those with an end time: the kernels' intervals */
    int streams;           /* the streams those ran on (64 told apart at most) */
    int h2d, d2h;          /* host<->device copies each way */
    unsigned long long bytes[2], ns[2]; /* [0] host-to-device, [1] device-to-host: bytes, summed durations */
    /* Busy time: the union of the intervals (kernels' K, copies' C), and
     * |K ∩ C|, in ms. */
    double kernel_ms, copy_ms, both_ms;
} kit_timeline;

/* The timeline of the (last) student call named `call`: 0, or -1 when the
 * trace is not available (the policy has already noted why). */
int kit_call_timeline(const kit_blobfile *out, const char *call, kit_timeline *t);

/* Copies and kernels of `call` must run at the same time: |K ∩ C| at least
 * min_fraction * min(|K|, |C|).  Fails when the trace is missing, when there
 * is nothing to overlap (no kernel or no copy), or with too little overlap
 * (the timeline as a detail); else the timeline as a note. */
void kit_check_overlap(kit_check_ctx *ctx, const char *call, double min_fraction);

/* `call` must have copied at least want[0] bytes host-to-device and
 * want[1] device-to-host (its copy records: data the host moved by itself,
 * or that never went, does not count).  Fewer: fails with too_few, a format
 * of (what, the bytes each way, want[0], want[1]) as (const char *, 4 x
 * unsigned long long); else a note, a format of (what, the copies' GB/s
 * each way as doubles).  No trace: nothing (the policy has said why). */
void kit_check_copies(kit_check_ctx *ctx, const char *call, const unsigned long long want[2], const char *what,
                      const char *too_few, const char *note);

#ifdef __cplusplus
}
#endif
#endif
