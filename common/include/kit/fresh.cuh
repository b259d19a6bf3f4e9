/* fresh.cuh - the timed calls of a student's function, one driver for every lab.
 *
 * A timed call must not be answerable from memory.  Before timed call k the
 * driver draws a (shift, scale) from a generator seeded from /dev/urandom,
 * writes scale * (the original input rotated by shift) - or the lab's
 * variant of that, kit_fresh_how - into the timed calls' own copy of each
 * refreshed input, poisons the timed calls' output, and calls the student's
 * function on them (untimed preparation, timed call: kit_time_pair in
 * timing.cuh, whose warm-up and median policy apply unchanged).  The outputs
 * of a few calls - chosen at random as they happen, and the last - are
 * recorded with their (shift, scale) under the KIT_KEY_TIMED_* names
 * (protocol.h); the lab's checker recomputes them (timed.h), so a result
 * remembered from an earlier call (keyed by pointers or by contents) fails.
 * The baseline is timed on the original inputs, as before.
 *
 * A scale is a power of two (±2^-8 .. ±2^8): scaling is exact, so the checker
 * recomputes a timed call's output from the original input and (shift,
 * scale) with the same error bound as the checked call.
 *
 * A lab declares its timed calls in a kit_timed_calls and calls
 * kit_timed_calls_time, both in bench mode (ctx->warmup, ctx->reps: the
 * record is written) and in show mode (`make run-labNN`: the same calls, the
 * record goes nowhere), so a student sees the time the grader measures.
 * Everything the driver allocates is freed before it returns.
 */
#ifndef KIT_FRESH_CUH
#define KIT_FRESH_CUH
#include <stdint.h>
#include "kit/protocol.h"
#include "kit/rng.h"
#include "kit/timing.cuh"

typedef struct {
    int64_t shift;
    double scale;
} kit_fresh;

/* How the inputs of a timed call are made from the originals (4-byte
 * elements; every refreshed input of a call gets the same (shift, scale)). */
typedef enum {
    KIT_FRESH_ROTATE_SCALE,  /* f32, device: dst[i] = scale * src[(i + shift) % count] */
    KIT_FRESH_ROTATE_SQUARE, /* f32, device, side x side, row-major: a symmetric rotation,
                                dst[i][j] = scale * src[(i + shift) % side][(j + shift) % side] */
    KIT_FRESH_OFFSET,        /* i32, device: dst[i] = src[i] + shift, or (src[i] + shift) % modulus
                                when modulus > 0; scale 1 */
    KIT_FRESH_ROTATE_XOR,    /* u32, host: dst[i] = src[(i + shift) % count] ^ mask, with the
                                32-bit mask drawn per call and recorded as the scale */
} kit_fresh_how;

/* dst[i] = scale * src[(i + shift) % n] on the device (default stream, asynchronous). */
void kit_fresh_apply(const float *src, float *dst, int64_t n, kit_fresh f);
/* The host side, for the checker: kit_fresh_apply_host in util.h. */

#define KIT_FRESH_MAX_IN 2

typedef struct {
    const void *orig; /* the case's input (device; host for ROTATE_XOR): never written */
    int64_t count;    /* elements */
    void *work;       /* the timed calls' copy; NULL: the driver allocates one */
} kit_fresh_input;

typedef struct kit_timed_calls kit_timed_calls;
struct kit_timed_calls {
    /* ---- declared by the lab ---- */
    const char *name;       /* the student's function, for messages: "scan" */
    void (*call)(const kit_timed_calls *tc); /* one call on in[].work and out; tc->lab for the rest */
    void *lab;
    kit_fresh_how how;
    int64_t shift_lo, shift_hi, shift_step; /* shift = shift_step * uniform[shift_lo, shift_hi] */
    int64_t side, modulus;  /* ROTATE_SQUARE's side, OFFSET's modulus */
    kit_fresh_input in[KIT_FRESH_MAX_IN];
    int n_in;
    void *out;              /* the timed calls' output (4-byte elements); NULL: the driver allocates it */
    int64_t out_count;
    int out_host;           /* out is host memory (a driver-allocated one is pinned) */
    unsigned char poison;   /* every byte of out before each call */
    int sample;             /* output elements recorded per call; 0: the whole output */
    /* The sampled indices (m of them, in [0, out_count)); NULL: uniform. */
    void (*pick)(const kit_timed_calls *tc, kit_rng *r, int m, int64_t *idx);
    int kernel_optional;    /* the call's job is not a kernel (lab11's copies): no refusal */
    /* The least work of one call, for the plausibility check (plausible.h):
     * the driver counts 4 bytes per element of each refreshed input and of
     * the output; extra_bytes adds what else every correct call must read or
     * write (inputs that are not refreshed), flops its floating-point
     * operations (0: not a measure of this lab). */
    double extra_bytes, flops;

    /* ---- the driver's (kit_timed_calls_time) ---- */
    kit_rng rng;
    kit_fresh cur;          /* the current call's (shift, scale) */
    int n_rec, calls;
    int32_t rec_call[KIT_TIMED_MAX];
    int64_t rec_shift[KIT_TIMED_MAX];
    double rec_scale[KIT_TIMED_MAX];
    int64_t *rec_index;     /* KIT_TIMED_MAX * sample */
    uint32_t *rec_value;    /* KIT_TIMED_MAX * (sample or out_count) */
    unsigned owned;         /* bit k: in[k].work allocated here; bit KIT_FRESH_MAX_IN: out */
};

/* The least bytes one timed call reads and writes: 4 per element of each
 * refreshed input and of the output, and extra_bytes (the plausibility
 * check's measure; make bench's copy roof where a lab rates no bytes). */
static inline double kit_timed_calls_bytes(const kit_timed_calls *tc)
{
    double bytes = tc->extra_bytes + 4.0 * tc->out_count;
    for (int i = 0; i < tc->n_in; i++)
        bytes += 4.0 * tc->in[i].count;
    return bytes;
}

struct kit_run_ctx;
/* Times warmup + reps calls (kit_time_pair) of tc's function against
 * baseline(baseline_arg), which reads the original inputs (fewer once the
 * score's bounds in ctx->decided are decided, timing.cuh); in bench mode
 * (ctx->out) writes the record, what the timed calls left running
 * (KIT_KEY_TIMED_LEFT) and the plausibility check's inputs (KIT_KEY_TIMED_BYTES
 * ...; the checker decides); in show mode prints the check's refusal.
 * Returns 0, -1 (a CUDA error or no memory, reported on stderr), or
 * KIT_TIME_NO_KERNEL (kit_time_pair). */
int kit_timed_calls_time(kit_timed_calls *tc, struct kit_run_ctx *ctx, kit_timed_fn baseline, void *baseline_arg,
                         int warmup, int reps, kit_timing *ts, kit_timing *tb);

#endif
