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

#endif
