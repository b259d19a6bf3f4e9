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
