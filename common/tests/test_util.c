/* test_util.c - median, clock, xmalloc, malloc_large, read_file. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "kit/util.h"

START_TEST(median_cases)
{
    ck_assert(isnan(kit_median(NULL, 0)));
    double one[] = {4.5};
    ck_assert_double_eq(kit_median(one, 1), 4.5);
    double odd[] = {9, 1, 5, 3, 7};
    ck_assert_double_eq(kit_median(odd, 5), 5);
    double even[] = {10, 2, 8, 4};
    ck_assert_double_eq(kit_median(even, 4), 6);
    double dup[] = {2, 2, 1, 2, 3};
    ck_assert_double_eq(kit_median(dup, 5), 2);
}
END_TEST

START_TEST(now_is_monotonic)
{
    double a = kit_now();
    usleep(2000);
    double b = kit_now();
    ck_assert(b - a >= 0.0015 && b - a < 1.0);
}
END_TEST

START_TEST(xmalloc_ok)
{
    char *p = kit_xmalloc(100, "a buffer");
    memset(p, 1, 100);
    free(p);
    free(kit_xmalloc(0, "nothing")); /* zero bytes still gives a pointer */
}
END_TEST

/* Whether the mapping of this process that holds p has the flag `flag`
 * (VmFlags of /proc/self/smaps); -1 when p is in none. */
static int vm_flag(const void *p, const char *flag)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, found = -1;
    ck_assert(f);
    while (found < 0 && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (in && !strncmp(line, "VmFlags:", 8)) {
            char want[8];
            snprintf(want, sizeof want, " %s", flag);
            found = strstr(line, want) != NULL;
        }
    }
    fclose(f);
    return found;
}

/* A large block is usable memory asked for huge pages (where the kernel
 * has them at all); a small one is left alone. */
START_TEST(malloc_large_advises)
{
    size_t big = (size_t)64 << 20, small = (size_t)1 << 20;
    char *p = kit_malloc_large(big), *q = kit_malloc_large(small);
    ck_assert(p && q);
    memset(p, 3, big), memset(q, 4, small);
    ck_assert(p[0] == 3 && p[big - 1] == 3 && q[small - 1] == 4);
    char *mid = p + big / 2; /* inside a whole huge page of the block */
    if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
        ck_assert_int_eq(vm_flag(mid, "hg"), 1);
    ck_assert_int_eq(vm_flag(q, "hg"), 0);
    free(p), free(q);
    free(kit_malloc_large(0)); /* zero bytes still gives a pointer */
}
END_TEST

/* The failure path exits the process: run it in a child, capture stderr. */
START_TEST(xmalloc_out_of_memory)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        kit_xmalloc(SIZE_MAX / 2, "the histogram");
        _exit(0);
    }
    close(fd[1]);
    char buf[1024] = {0};
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)got;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(n > 0);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 2);
    char want[128];
    snprintf(want, sizeof want, "out of memory allocating the histogram (%zu bytes)", SIZE_MAX / 2);
    ck_assert_msg(strstr(buf, want), "stderr was: %s", buf);
}
END_TEST

START_TEST(read_file_cases)
{
    char path[] = "/tmp/kit-util-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] = "hello\0world"; /* embedded NUL survives */
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (int)sizeof text - 1);
    close(fd);
    size_t len = 0;
    char *s = kit_read_file(path, 0, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(len, sizeof text - 1);
    ck_assert_int_eq(memcmp(s, text, len), 0);
    ck_assert_int_eq(s[len], '\0');
    free(s);
    s = kit_read_file(path, 11, &len); /* exactly at the cap */
    ck_assert_ptr_nonnull(s);
    free(s);
    errno = 0;
    ck_assert_ptr_null(kit_read_file(path, 10, &len)); /* over the cap */
    ck_assert_int_eq(errno, EFBIG);
    unlink(path);
    ck_assert_ptr_null(kit_read_file(path, 0, &len)); /* gone */

    /* empty file and a file larger than the first read chunk */
    strcpy(path, "/tmp/kit-util-XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    s = kit_read_file(path, 0, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(s[0], '\0');
    free(s);
    FILE *f = fopen(path, "wb");
    for (int i = 0; i < 300000; i++)
        fputc('a' + i % 26, f);
    fclose(f);
    s = kit_read_file(path, 0, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(len, 300000);
    ck_assert_int_eq(s[299999], 'a' + 299999 % 26);
    free(s);
    unlink(path);
}
END_TEST

START_TEST(comma_lists)
{
    ck_assert_int_eq(kit_list_has("scan,scan_int,dot", "scan_int"), 1);
    ck_assert_int_eq(kit_list_has("scan,scan_int,dot", "scan"), 1);
    ck_assert_int_eq(kit_list_has("scan,scan_int,dot", "dot"), 1);
    ck_assert_int_eq(kit_list_has("scan,scan_int,dot", "sca"), 0);
    ck_assert_int_eq(kit_list_has("scan,scan_int,dot", "dot_shared"), 0);
    ck_assert_int_eq(kit_list_has("scan,,dot", ""), 0);
    ck_assert_int_eq(kit_list_has("", "scan"), 0);
}
END_TEST

/* The host's fresh words for a timed call (fresh.cu, lab11): element by
 * element src[(i + shift) % n] ^ mask, on one thread (short) and on threads
 * (from 2^18 words: streaming stores), for shifts 0, 1, n - 1 and past n,
 * into aligned and unaligned arrays; nothing written past n. */
START_TEST(fresh_rotate_xor_words)
{
    static const int64_t ns[] = {1, 2, 7, 1000, (1 << 18) + 5, (1 << 20) + 3};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        int64_t n = ns[a];
        uint32_t *src = malloc((size_t)n * 4), *buf = malloc((size_t)(n + 2) * 4);
        ck_assert(src && buf);
        for (int64_t i = 0; i < n; i++)
            src[i] = (uint32_t)(i * 2654435761u + 17);
        const int64_t shifts[] = {0, 1, n - 1, n / 3, n + 2};
        for (size_t b = 0; b < sizeof shifts / sizeof *shifts; b++) {
            uint32_t *dst = buf + (b & 1); /* 16-byte aligned, and not */
            dst[n] = 0xABCDEF01u;
            kit_fresh_rotate_xor_host(src, dst, n, shifts[b], 0x5A5A00FFu);
            int64_t bad = -1;
            for (int64_t i = 0; i < n && bad < 0; i++)
                if (dst[i] != (src[(i + shifts[b]) % n] ^ 0x5A5A00FFu))
                    bad = i;
            ck_assert_msg(bad < 0, "n=%lld shift=%lld: first wrong word at %lld", (long long)n,
                          (long long)shifts[b], (long long)bad);
            ck_assert_uint_eq(dst[n], 0xABCDEF01u);
        }
        free(src);
        free(buf);
    }
}
END_TEST

/* Every byte of [dst, dst + bytes) the poison, on one thread and on
 * threads (from 1 MiB, streaming stores; pieces that are not multiples of
 * anything, an unaligned start), none beyond. */
START_TEST(fill_host_bytes)
{
    static const size_t sizes[] = {0, 1, 4095, (1 << 20) - 1, (4 << 20) + 13};
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        size_t bytes = sizes[a];
        unsigned char *p = malloc(bytes + 2);
        ck_assert(p);
        memset(p, 0x11, bytes + 2);
        kit_fill_host(p + 1, 0xFF, bytes);
        size_t wrong = 0;
        for (size_t i = 0; i < bytes; i++)
            wrong += p[1 + i] != 0xFF;
        ck_assert_msg(wrong == 0, "%zu bytes: %zu not filled", bytes, wrong);
        ck_assert_uint_eq(p[0], 0x11);
        ck_assert_uint_eq(p[bytes + 1], 0x11);
        free(p);
    }
}
END_TEST

static Suite *util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, comma_lists);
    tcase_add_test(tc, median_cases);
    tcase_add_test(tc, now_is_monotonic);
    tcase_add_test(tc, xmalloc_ok);
    tcase_add_test(tc, malloc_large_advises);
    tcase_add_test(tc, xmalloc_out_of_memory);
    tcase_add_test(tc, read_file_cases);
    tcase_add_test(tc, fresh_rotate_xor_words);
    tcase_add_test(tc, fill_host_bytes);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(util_suite)
