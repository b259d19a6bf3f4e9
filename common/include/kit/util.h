/* util.h - small host helpers shared by the harnesses, checkers and grader. */
#ifndef KIT_UTIL_H
#define KIT_UTIL_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* printf into err[0..errlen) when err is given (the kit's "why" strings). */
void kit_set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Median of v[0..n) (v is reordered).  NaN when n == 0. */
double kit_median(double *v, size_t n);
/* 1 when name is one of the comma-separated names of list ("a,b,c"). */
int kit_list_has(const char *list, const char *name);
/* Wall clock in seconds (monotonic). */
double kit_now(void);
/* malloc (freed by free(), NULL on failure) whose blocks of 8 MiB or more
 * are asked for transparent huge pages: fewer page faults (util.c says why). */
void *kit_malloc_large(size_t bytes);
/* kit_malloc_large that exits with a message naming `what` on failure (harness/checker use). */
void *kit_xmalloc(size_t bytes, const char *what);
/* Reads a whole file (at most max bytes; 0 = no cap).  NULL on error, also
 * when the file is larger than max (errno EFBIG).  *len gets the size; the
 * buffer is NUL-terminated (caller frees). */
char *kit_read_file(const char *path, size_t max, size_t *len);
/* 64 bits from /dev/urandom (a clock-derived value if it cannot be read):
 * nonces, and choices a submission must not be able to predict. */
uint64_t kit_random_u64(void);
/* Piece k of `pieces` consecutive ranges of [0, n), near-equal: [*lo, *hi)
 * (empty at the end when n < pieces).  How the generators and references
 * cut long arrays among threads (gen.c, ref.c). */
void kit_piece(size_t n, int pieces, int k, size_t *lo, size_t *hi);
/* dst[i] = scale * src[(i + shift) % n]: what a timed call with fresh
 * contents (fresh.cuh) was given, for the checker. */
void kit_fresh_apply_host(const float *src, float *dst, int64_t n, int64_t shift, double scale);
/* dst[i] = src[(i + shift) % n] ^ mask, and every byte of dst = byte: a
 * timed call's fresh words and poisoned output in host memory (fresh.cuh's
 * KIT_FRESH_ROTATE_XOR, lab11), made before each timed call on
 * kit_threads() threads (util.c says why). */
void kit_fresh_rotate_xor_host(const uint32_t *src, uint32_t *dst, int64_t n, int64_t shift, uint32_t mask);
void kit_fill_host(void *dst, unsigned char byte, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
