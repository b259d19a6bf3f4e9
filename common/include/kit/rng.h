/* rng.h - a seeded pseudo-random generator with the same stream on every machine.
 *
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64.  Only integer
 * arithmetic on uint64_t is used, so the stream does not depend on the
 * compiler, the C library or the CPU: a seed printed by the grader on one
 * machine reproduces the same inputs on a student's laptop.
 */
#ifndef KIT_RNG_H
#define KIT_RNG_H
#include <stdint.h>
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t s[4];
} kit_rng;

/* Seeds the generator.  `stream` selects an independent stream for the same
 * seed (e.g. 0 for array A, 1 for array B), so two arrays never share values. */
void kit_rng_seed(kit_rng *r, uint64_t seed, uint64_t stream);

uint64_t kit_rng_u64(kit_rng *r);
/* Uniform integer in [lo, hi] (inclusive), without modulo bias. hi >= lo. */
int64_t kit_rng_range(kit_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1) with 53 random bits. */
double kit_rng_unit(kit_rng *r);
/* Uniform float in [lo, hi): 24 random bits, so every value is exact in float.
 * Exactly one draw per value (kit_gen_uniform_f32 cuts arrays on that). */
float kit_rng_f32(kit_rng *r, float lo, float hi);
/* out[i] = kit_rng_f32(r, lo, hi) for i < n, in order, r left as after
 * them: the same values, without a call and a stored state per element
 * (inputs of 2^27 floats). */
void kit_rng_fill_f32(kit_rng *r, float *out, size_t n, float lo, float hi);

/* Advances r by `steps` draws of kit_rng_u64 at once (the generator is
 * linear over GF(2): its transition matrix raised to `steps` by repeated
 * squaring).  Lets threads generate the pieces of one stream: piece k starts
 * at a copy of r advanced by its first index, and the values are exactly
 * those of one sequential pass. */
void kit_rng_advance(kit_rng *r, uint64_t steps);

/* Threads for the kit's own host work on large arrays (generation,
 * references): $KIT_THREADS if set (1..64), else the CPUs this process may
 * use, at most 16. */
int kit_threads(void);

/* splitmix64 finaliser: mixes a 64-bit value; used to derive per-case seeds. */
uint64_t kit_mix64(uint64_t x);
/* FNV-1a of a string, for deriving seeds from test names. */
uint64_t kit_hash_str(const char *s);

/* A seed as the kit prints it: "0x" and 1 to 16 hex digits, nothing else
 * (no sign, no spaces, no decimal or octal).  Returns 0 and *out, or -1 with
 * one line naming the value and what is allowed in err. */
int kit_parse_seed(const char *s, uint64_t *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
