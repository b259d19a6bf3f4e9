/* timed.h - the checker's side of fresh contents (fresh.cuh): the outputs of
 * a few timed calls, recorded by the harness under the KIT_KEY_TIMED_* names
 * (protocol.h), loaded and checked for shape here; each lab recomputes the
 * elements itself (what a timed call's input was differs by lab). */
#ifndef KIT_TIMED_H
#define KIT_TIMED_H
#include <stdint.h>
#include <string.h>
#include "kit/checker.h"
#include "kit/protocol.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;                /* calls recorded */
    int per;              /* elements per call */
    const int32_t *call;  /* 1-based call numbers */
    const int64_t *shift; /* each call's input shift (or offset) */
    const double *scale;  /* each call's input scale */
    const int64_t *index; /* n * per output indices, in [0, out_count); NULL: whole outputs */
    const uint32_t *value;/* n * per elements, bit for bit */
} kit_timed_view;

/* Loads the record.  per: elements per call (the sample size, or out_count
 * when whole outputs were recorded: whole != 0).  Returns 1 with v filled, 0
 * when the run recorded no timed calls (not a benchmark run), -1 after
 * kit_fail (a malformed record). */
int kit_timed_load(kit_check_ctx *ctx, int per, int whole, int64_t out_count, kit_timed_view *v);

/* Whether call k's recorded input shift is in [0, limit) and its scale is a
 * nonzero number; otherwise kit_fail ("its inputs were not recorded") and 0. */
int kit_timed_inputs_ok(kit_check_ctx *ctx, const kit_timed_view *v, int k, int64_t limit, const char *call);
/* kit_fail for a wrong output of timed call k: "timed call K of CALL (fresh
 * FRESH each call): <fmt ...>: every timed call must compute its result (a
 * remembered one is not timed)". */
void kit_timed_fail(kit_check_ctx *ctx, const kit_timed_view *v, int k, const char *call, const char *fresh,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The common check of sampled float outputs: `per` elements of each timed
 * call, each recomputed by element() from the index and the call's (shift,
 * scale) - its fresh input - and held to the bound element() gives.  A call
 * whose inputs were not recorded (a shift outside [0, shift_limit)) fails
 * and ends the check; so does the first wrong element:
 * "timed call K of CALL (fresh FRESH each call): OUT[i] = got, expected exp: ...". */
typedef struct {
    const char *call, *fresh, *out; /* the function timed, its fresh input, the output in messages */
    int per;                        /* elements sampled per call */
    int64_t out_count;              /* the output's length */
    int64_t shift_limit;
    double (*element)(const void *data, int64_t i, int64_t shift, double scale, double *bound);
} kit_timed_samples;
void kit_timed_check_samples(kit_check_ctx *ctx, const void *data, const kit_timed_samples *s);

static inline float kit_timed_f32(const kit_timed_view *v, size_t i)
{
    float f;
    memcpy(&f, &v->value[i], sizeof f);
    return f;
}
static inline int32_t kit_timed_i32(const kit_timed_view *v, size_t i) { return (int32_t)v->value[i]; }

#ifdef __cplusplus
}
#endif
#endif
