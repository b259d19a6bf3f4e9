/* submission.c - copying a submission's named files safely (see submission.h). */
#include "grading/submission.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

int mkdirs(const char *path, int mode)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, (mode_t)mode) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(buf, (mode_t)mode) == 0)
        return 0;
    struct stat st; /* already there: as a folder (or a link to one), not a file in its place */
    if (errno != EEXIST || stat(buf, &st) != 0)
        return -1;
    errno = ENOTDIR;
    return S_ISDIR(st.st_mode) ? 0 : -1;
}

int mkdirs_said(const char *path, int mode, const char *who)
{
    if (mkdirs(path, mode) == 0)
        return 0;
    fprintf(stderr, "%s: cannot create the folder %s: %s\n", who, path, strerror(errno));
    return -1;
}

int rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -1; /* ENOTDIR: under a file, nothing to remove */
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    /* A submission may leave a folder without permissions (chmod 000): make
     * it ours to empty, without following a link put in its place. */
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES) {
        int p = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (p >= 0) {
            char via[64];
            snprintf(via, sizeof via, "/proc/self/fd/%d", p);
            chmod(via, 0700);
            close(p);
        }
        fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0)
        return -1;
    if ((st.st_mode & 0700) != 0700)
        fchmod(fd, 0700);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (rm_rf(sub) != 0)
            rc = -1;
    }
    closedir(d);
    if (rmdir(path) != 0)
        rc = -1;
    return rc;
}

/* Copies in -> to (to == NULL: only reads, for the digest). */
static int copy_fd(int in, const char *to, int mode, uint64_t *h, size_t max, size_t *copied)
{
    int out = to ? open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode) : -2;
    if (out == -1)
        return -1;
    char buf[65536];
    ssize_t n;
    size_t total = 0;
    while ((n = read(in, buf, sizeof buf)) > 0) {
        total += (size_t)n;
        if (max && total > max) {
            if (out >= 0)
                close(out);
            errno = EFBIG;
            return -1;
        }
        for (ssize_t i = 0; h && i < n; i++)
            *h = (*h ^ (unsigned char)buf[i]) * 1099511628211ULL;
        if (out >= 0 && write(out, buf, (size_t)n) != n) {
            close(out);
            return -1;
        }
    }
    if (copied)
        *copied = total;
    return (out < 0 || close(out) == 0) && n == 0 ? 0 : -1;
}

int copy_file(const char *from, const char *to, int mode)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return -1;
    int rc = copy_fd(in, to, mode, NULL, 0, NULL);
    close(in);
    return rc;
}

/* "dot.cu" (this lab takes: dot.cu, answers.md) */
static void list_taken(const manifest *m, strbuf *b)
{
    for (int i = 0; i < m->n_student_files; i++)
        sb_printf(b, "%s%s", i ? ", " : "", m->student_files[i]);
}

/* A file the lab takes is not in src_dir: one line saying so and what is
 * there instead - a name that differs only in case (Dot.cu for dot.cu), else
 * the folder's source files - so that it reads as a hand-in problem, not as
 * code that does not compile. */
static void say_missing(const manifest *m, const char *src_dir, const char *name, strbuf *problems)
{
    size_t n = 0;
    char **names = dir_names(src_dir, &n);
    for (size_t i = 0; names && i < n; i++)
        if (!strcasecmp(names[i], name)) {
            sb_printf(problems, "missing required file %s: the folder has %s instead (file names are case-sensitive: "
                                "rename it to %s)\n", name, names[i], name);
            dir_names_free(names);
            return;
        }
    sb_printf(problems, "missing required file %s (this lab takes: ", name);
    list_taken(m, problems);
    int shown = 0;
    for (size_t i = 0; names && i < n && shown < 6; i++) {
        const char *dot = strrchr(names[i], '.');
        if (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh") || !strcmp(dot, ".c") || !strcmp(dot, ".h")))
            sb_printf(problems, "%s%s", shown++ ? ", " : "; the folder has: ", names[i]);
    }
    sb_add(problems, shown ? ")\n" : n ? "; the folder has no source file)\n" : "; the folder is empty)\n");
    dir_names_free(names);
}

int submission_take(const manifest *m, const char *src_dir, const char *dst_dir, strbuf *problems, char hash[65])
{
    uint64_t h[4] = {1469598103934665603ULL, 0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL};
    int taken = 0;
    for (int i = 0; i < m->n_student_files; i++) {
        const char *name = m->student_files[i];
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", src_dir, name);
        snprintf(to, sizeof to, "%s/%s", dst_dir ? dst_dir : "", name);
        /* O_NOFOLLOW: a symlink (to /etc/shadow, to another student's file...) is refused. */
        int fd = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        if (fd < 0) {
            if (errno == ENOENT)
                say_missing(m, src_dir, name, problems);
            else if (errno == ELOOP)
                sb_printf(problems, "%s is a symbolic link; submit the file itself\n", name);
            else
                sb_printf(problems, "cannot read %s: %s\n", name, strerror(errno));
            continue;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            sb_printf(problems, "%s is not a regular file\n", name);
            close(fd);
            continue;
        }
        if (st.st_size > SUBMISSION_MAX_BYTES) {
            sb_printf(problems, "%s is too large (%lld bytes; the limit is %u)\n", name, (long long)st.st_size,
                      SUBMISSION_MAX_BYTES);
            close(fd);
            continue;
        }
        fcntl(fd, F_SETFL, 0);
        for (const char *p = name; *p; p++)
            h[0] = (h[0] ^ (unsigned char)*p) * 1099511628211ULL;
        size_t copied = 0;
        if (copy_fd(fd, dst_dir ? to : NULL, 0644, &h[0], SUBMISSION_MAX_BYTES, &copied) != 0) {
            sb_printf(problems, "cannot copy %s: %s\n", name, strerror(errno));
            close(fd);
            continue;
        }
        close(fd);
        h[1] ^= h[0] + copied, h[1] *= 1099511628211ULL;
        taken++;
    }
    /* Spread the state into 256 bits of hex (an identity for resume checks). */
    for (int k = 1; k < 4; k++)
        h[k] ^= h[k - 1] * 0xff51afd7ed558ccdULL + (uint64_t)k;
    snprintf(hash, 65, "%016llx%016llx%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1],
             (unsigned long long)h[2], (unsigned long long)h[3]);
    return taken;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **dir_names(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    struct dirent *de;
    while (names && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (*n + 1 == cap) {
            char **p = realloc(names, (cap *= 2) * sizeof *names);
            if (!p)
                break;
            names = p;
        }
        names[(*n)++] = strdup(de->d_name);
    }
    closedir(d);
    if (!names)
        return NULL;
    names[*n] = NULL;
    qsort(names, *n, sizeof *names, cmp_names);
    return names;
}

void dir_names_free(char **names)
{
    for (char **p = names; p && *p; p++)
        free(*p);
    free(names);
}
