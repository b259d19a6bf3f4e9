/* util.c - small host helpers (see kit/util.h). */
#include "kit/util.h"
#include "kit/rng.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void kit_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Ascending, NaN last, so a stray NaN cannot scramble the order qsort sees. */
static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

double kit_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    /* n is a handful of timing repetitions: sorting is simplest and fast enough. */
    qsort(v, n, sizeof *v, cmp_double);
    if (n % 2)
        return v[n / 2];
    return 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int kit_list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; n && *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

double kit_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Arrays of this size or more are asked for huge pages. */
#define HUGE_MIN ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

/* A checker's arrays reach 2^27 elements (an input, the output file, its
 * reference and bounds: well over a GiB in lab06), each faulted in fresh.
 * In 4 KiB pages that is half a million faults, a third of a checker's CPU
 * time; asked for transparent huge pages (the kernel's "madvise" mode, a
 * common default) it is 512 times fewer.  Only a hint: under "never" or
 * without THP madvise fails and nothing changes, under "always" it is
 * already so.  The huge pages whole inside the block are advised: glibc
 * maps a block of over 32 MiB on its own; a smaller one may lie in its
 * heap, where the hint is as harmless to the neighbours. */
void *kit_malloc_large(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes >= HUGE_MIN) {
        uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
        if (hi > lo)
            (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
    return p;
}

void *kit_xmalloc(size_t bytes, const char *what)
{
    void *p = kit_malloc_large(bytes);
    if (!p) {
        fprintf(stderr, "out of memory allocating %s (%zu bytes)\n", what ? what : "memory", bytes);
        exit(2);
    }
    return p;
}

char *kit_read_file(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    /* Read in chunks rather than trusting a size from stat: the file may be
     * a pipe or still growing. */
    while (buf) {
        if (n == cap) {
            char *nb = cap > ((size_t)-1) / 4 ? NULL : realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (max && n > max) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        if (got == 0) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
                errno = EIO;
            }
            break;
        }
    }
    int saved = errno; /* fclose must not hide why we failed */
    fclose(f);
    if (!buf) {
        errno = saved;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

uint64_t kit_random_u64(void)
{
    uint64_t n = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, &n, sizeof n) != (ssize_t)sizeof n)
            n = 0;
        close(fd);
    }
    return n ? n : (uint64_t)(kit_now() * 1e9) * 2654435761u;
}

/* fresh.cuh's host side (plain C: the checkers link libkit, not the runner library). */
void kit_piece(size_t n, int pieces, int k, size_t *lo, size_t *hi)
{
    size_t per = (n + (size_t)pieces - 1) / (size_t)pieces;
    *lo = per * (size_t)k < n ? per * (size_t)k : n;
    *hi = *lo + per < n ? *lo + per : n;
}

void kit_fresh_apply_host(const float *src, float *dst, int64_t n, int64_t shift, double scale)
{
#pragma omp parallel for num_threads(n >= (1 << 18) ? kit_threads() : 1) schedule(static)
    for (int64_t i = 0; i < n; i++)
        dst[i] = (float)(scale * src[(i + shift) % n]);
}

/* lab11's timed calls get fresh words and a poisoned output in host memory
 * before each call (fresh.cu's prepare hook, outside the timed region).
 * Both are written with non-temporal stores where the CPU has them, so
 * they go to memory, not into the caches: the baseline's buffers, which
 * nothing rewrites, are in memory too, and the copies the two calls make
 * from host memory start alike.  (Written with ordinary stores, the last
 * few MiB stay dirty in the caches, more of them the more threads write:
 * the copies the student's call makes from them were slower, the
 * reference's streams speedup 1.47-1.49x where it measured 1.56-1.67x
 * so, H100.)  Streaming stores are x86's (SSE2); elsewhere the stores
 * are ordinary ones.  On kit_threads() threads: 2^25 words took ~70 ms on one
 * core, ten times the call itself.  Arrays below HOST_THREADS_FROM words
 * (a scalar result, a status) are written as before, by one thread with
 * ordinary stores.  Their timing holds every CPU slot (rubric host = alone),
 * so the threads take no one's. */
#define HOST_THREADS_FROM (1 << 18)

/* Each thread's streaming stores done before the timed call copies what they wrote. */
static void store_fence(void)
{
#ifdef __SSE2__
    _mm_sfence();
#endif
}

/* dst[i] = src[i] ^ mask for i in [0, n), dst's full 16-byte blocks by
 * streaming stores when nt (ordinary stores otherwise). */
static void xor_words(const uint32_t *src, uint32_t *dst, size_t n, uint32_t mask, int nt)
{
    size_t i = 0;
#ifdef __SSE2__
    for (; nt && i < n && ((uintptr_t)(dst + i) & 15); i++)
        dst[i] = src[i] ^ mask;
    const __m128i m = _mm_set1_epi32((int)mask);
    for (; nt && i + 4 <= n; i += 4)
        _mm_stream_si128((__m128i *)(dst + i), _mm_xor_si128(_mm_loadu_si128((const __m128i *)(src + i)), m));
#endif
    for (; i < n; i++)
        dst[i] = src[i] ^ mask;
}

static void fill_bytes(unsigned char *dst, unsigned char byte, size_t n, int nt)
{
    size_t i = 0;
#ifdef __SSE2__
    for (; nt && i < n && ((uintptr_t)(dst + i) & 15); i++)
        dst[i] = byte;
    const __m128i v = _mm_set1_epi8((char)byte);
    for (; nt && i + 16 <= n; i += 16)
        _mm_stream_si128((__m128i *)(dst + i), v);
#endif
    memset(dst + i, byte, n - i);
}

void kit_fresh_rotate_xor_host(const uint32_t *src, uint32_t *dst, int64_t n, int64_t shift, uint32_t mask)
{
    if (n < 1)
        return;
    /* dst[0, head) from src[s, n), the rest from src[0, s) */
    size_t s = (size_t)((shift % n + n) % n), head = (size_t)n - s;
    int big = n >= HOST_THREADS_FROM, np = big ? kit_threads() : 1;
#pragma omp parallel for num_threads(np) schedule(static, 1)
    for (int k = 0; k < np; k++) {
        size_t a, b;
        kit_piece((size_t)n, np, k, &a, &b);
        if (a < head)
            xor_words(src + s + a, dst + a, (b < head ? b : head) - a, mask, big);
        if (b > head) {
            size_t c = a > head ? a : head;
            xor_words(src + (c - head), dst + c, b - c, mask, big);
        }
        store_fence();
    }
}

void kit_fill_host(void *dst, unsigned char byte, size_t bytes)
{
    int big = bytes >= 4 * (size_t)HOST_THREADS_FROM, np = big ? kit_threads() : 1;
#pragma omp parallel for num_threads(np) schedule(static, 1)
    for (int k = 0; k < np; k++) {
        size_t a, b;
        kit_piece(bytes, np, k, &a, &b);
        fill_bytes((unsigned char *)dst + a, byte, b - a, big);
        store_fence();
    }
}
