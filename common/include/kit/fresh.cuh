/* fresh.cuh - fresh contents for timed calls (timing.cuh's prepare hook).
 *
 * A timed call must not be answerable from memory: before each one, the
 * harness replaces an input by scale * (the original rotated by shift), with
 * (shift, scale) drawn from a generator seeded from /dev/urandom, so neither
 * pointers nor contents repeat in a way the submission can predict.  The
 * scale is a power of two (±2^-8 .. ±2^8): scaling is exact, so the checker
 * recomputes the expected output from the original input and (shift, scale)
 * with the same error bound as the checked call.
 */
#ifndef KIT_FRESH_CUH
#define KIT_FRESH_CUH
#include <stdint.h>
#include "kit/protocol.h"
#include "kit/rng.h"

typedef struct {
    int64_t shift;
    double scale;
} kit_fresh;

/* A new (shift in [0, n), scale) for an input of n elements (n >= 1). */
kit_fresh kit_fresh_draw(kit_rng *r, int64_t n);
/* dst[i] = scale * src[(i + shift) % n] on the device (default stream, asynchronous). */
void kit_fresh_apply(const float *src, float *dst, int64_t n, kit_fresh f);
/* The host side, for the checker: kit_fresh_apply_host in util.h. */

/* Whether to record the output of the timed call just made: about one call
 * in 32, while fewer than max - 1 are recorded (the last slot is kept for
 * the last call, recorded after timing). */
int kit_fresh_record_now(kit_rng *r, int n_recorded, int max);

/* For outputs too large to record whole: m indices drawn in [0, n) and the
 * device output's 4-byte elements there (float, int: copied bit for bit;
 * synchronous).  Returns 0, or -1 on a CUDA error (reported on stderr). */
int kit_fresh_sample(const void *d_out, int64_t n, kit_rng *r, int m, int64_t *idx, void *val);

/* The record of a few timed calls' outputs, written under the
 * KIT_KEY_TIMED_* names (protocol.h) and read by the checker with
 * kit_timed_load (timed.h).  A harness's own per-call state is a struct whose
 * first member is a kit_timed, so that kit_timed_after serves as the timing
 * loop's after hook; its prepare hook sets `cur` and refills the input. */
typedef struct {
    kit_rng rng;
    kit_fresh cur;          /* the current call's (shift, scale); set by prepare */
    const void *d_out;      /* the timed calls' output (4-byte elements) */
    int64_t out_count;
    int sample;             /* elements sampled per call; 0: the whole output */
    int n_rec, calls;
    int32_t call[KIT_TIMED_MAX];
    int64_t shift[KIT_TIMED_MAX];
    double scale[KIT_TIMED_MAX];
    int64_t *index;         /* KIT_TIMED_MAX * sample */
    uint32_t *value;        /* KIT_TIMED_MAX * (sample or out_count) */
} kit_timed;

/* Seeds from /dev/urandom and allocates the record; 0, or -1 (message on stderr). */
int kit_timed_init(kit_timed *t, const void *d_out, int64_t out_count, int sample);
/* The after hook (arg: a kit_timed, or a struct starting with one). */
int kit_timed_after(void *arg, int k);
struct kit_run_ctx;
/* After timing: records the last call (its output is still in d_out) and
 * writes the record.  0, or -1. */
int kit_timed_finish(kit_timed *t, struct kit_run_ctx *ctx);
void kit_timed_free(kit_timed *t);

#endif
