/* rng.c - xoshiro256** seeded through splitmix64 (see kit/rng.h).
 *
 * Only uint64_t arithmetic, so every platform produces the same stream.
 * Reference: D. Blackman, S. Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 2021; https://prng.di.unimi.it/
 */
#include "kit/rng.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ULL

uint64_t kit_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t splitmix_next(uint64_t *state)
{
    *state += SPLITMIX_GAMMA;
    return kit_mix64(*state);
}

void kit_rng_seed(kit_rng *r, uint64_t seed, uint64_t stream)
{
    /* The stream number goes through the mixer before it touches the seed,
     * so nearby streams (0, 1, 2 ...) start far apart in splitmix's sequence. */
    uint64_t sm = seed ^ kit_mix64(stream + 1);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix_next(&sm);
    /* An all-zero state would be a fixed point; splitmix never yields four
     * zeros in a row, but the guard costs nothing. */
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = SPLITMIX_GAMMA;
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The state update of xoshiro256 (linear over GF(2): kit_rng_advance). */
static void step_linear(uint64_t s[4])
{
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
}

static inline uint64_t next_u64(kit_rng *r)
{
    uint64_t result = rotl(r->s[1] * 5, 7) * 9;
    step_linear(r->s);
    return result;
}

uint64_t kit_rng_u64(kit_rng *r)
{
    return next_u64(r);
}

/* Full 64 x 64 -> 128-bit product: high and low halves. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (uint32_t)p00;
#endif
}

/* Uniform in [0, range) for range >= 1, without bias: Lemire's multiply-shift
 * with rejection ("Fast random integer generation in an interval", 2019). */
static uint64_t below(kit_rng *r, uint64_t range)
{
    uint64_t hi, lo;
    mul64(kit_rng_u64(r), range, &hi, &lo);
    if (lo < range) {
        uint64_t threshold = (0 - range) % range; /* 2^64 mod range */
        while (lo < threshold)
            mul64(kit_rng_u64(r), range, &hi, &lo);
    }
    return hi;
}

int64_t kit_rng_range(kit_rng *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi - lo without signed overflow */
    uint64_t off = span == UINT64_MAX ? kit_rng_u64(r) : below(r, span + 1);
    return (int64_t)((uint64_t)lo + off);
}

double kit_rng_unit(kit_rng *r)
{
    return (double)(kit_rng_u64(r) >> 11) * 0x1.0p-53;
}

static inline float next_f32(kit_rng *r, float lo, float hi)
{
    /* 24 bits: u is exact in float; computing in double and rounding once
     * keeps the common cases ([-1,1), [0,1)) exact. */
    double u = (double)(next_u64(r) >> 40) * 0x1.0p-24;
    float v = (float)((double)lo + ((double)hi - (double)lo) * u);
    if (hi > lo && v >= hi) /* rounding up to hi would break [lo, hi) */
        v = nextafterf(hi, lo);
    return v;
}

float kit_rng_f32(kit_rng *r, float lo, float hi)
{
    return next_f32(r, lo, hi);
}

void kit_rng_fill_f32(kit_rng *r, float *out, size_t n, float lo, float hi)
{
    kit_rng my = *r; /* a local copy: the state stays in registers, not stored at each draw */
    for (size_t i = 0; i < n; i++)
        out[i] = next_f32(&my, lo, hi);
    *r = my;
}

uint64_t kit_hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64 offset basis */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL; /* FNV 64 prime */
    }
    return h;
}

int kit_parse_seed(const char *s, uint64_t *out, char *err, size_t errlen)
{
    const char *hex = s && (s[0] == '0') && (s[1] == 'x' || s[1] == 'X') ? s + 2 : NULL;
    size_t n = hex ? strspn(hex, "0123456789abcdefABCDEF") : 0;
    if (!hex || n == 0 || n > 16 || hex[n] != '\0') {
        if (err && errlen)
            snprintf(err, errlen, "bad seed '%.40s%s': a seed is 0x followed by 1 to 16 hex digits, as reports print it "
                     "(e.g. SEED=0x5eed1234abcd)", s ? s : "", s && strlen(s) > 40 ? "..." : "");
        return -1;
    }
    *out = strtoull(hex, NULL, 16);
    return 0;
}

/* ---- jumping ahead (kit_rng_advance) -------------------------------------------
 * The state update of xoshiro256 (without its output scrambler, step_linear)
 * is a linear map T on 256 bits.  A matrix is kept as its 256 columns T(e_i); jump[j] is
 * T^(2^j), made once by squaring. */
typedef uint64_t vec4[4];
#define JUMP_BITS 48 /* advances up to 2^48 draws */

static void mat_apply(const vec4 *cols, const vec4 v, vec4 out)
{
    uint64_t o[4] = {0, 0, 0, 0};
    for (int w = 0; w < 4; w++)
        for (uint64_t bits = v[w]; bits; bits &= bits - 1) {
            const uint64_t *c = cols[64 * w + __builtin_ctzll(bits)];
            o[0] ^= c[0], o[1] ^= c[1], o[2] ^= c[2], o[3] ^= c[3];
        }
    memcpy(out, o, sizeof o);
}

static vec4 (*jump)[256];
static pthread_once_t jump_once = PTHREAD_ONCE_INIT;

static void make_jumps(void)
{
    vec4(*j)[256] = malloc(JUMP_BITS * sizeof *j);
    if (!j)
        return; /* kit_rng_advance then steps one by one */
    for (int i = 0; i < 256; i++) {
        memset(j[0][i], 0, sizeof(vec4));
        j[0][i][i / 64] = 1ULL << (i % 64);
        step_linear(j[0][i]);
    }
    for (int k = 1; k < JUMP_BITS; k++)
        for (int i = 0; i < 256; i++)
            mat_apply(j[k - 1], j[k - 1][i], j[k][i]);
    jump = j;
}

void kit_rng_advance(kit_rng *r, uint64_t steps)
{
    int jumps = steps >= 512 && !(steps >> JUMP_BITS); /* few steps: stepping is quicker */
    if (jumps)
        pthread_once(&jump_once, make_jumps);
    if (!jumps || !jump) { /* no jump tables (out of memory): step */
        for (uint64_t i = 0; i < steps; i++)
            kit_rng_u64(r);
        return;
    }
    for (int k = 0; k < JUMP_BITS; k++)
        if (steps >> k & 1)
            mat_apply(jump[k], r->s, r->s);
}

int kit_threads(void)
{
    const char *v = getenv("KIT_THREADS");
    if (v && *v) {
        long n = strtol(v, NULL, 10);
        if (n >= 1 && n <= 64)
            return (int)n;
    }
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return n < 1 ? 1 : n > 16 ? 16 : n;
}
