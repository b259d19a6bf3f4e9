/* fsutil.c - files and folders (see fsutil.h). */
#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int copy_fd(int in, const char *to, int mode, uint64_t *h, size_t max, size_t *copied)
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

/* Percent-encodes everything but [A-Za-z0-9._-] (and a leading dot).  A
 * file name has at most 255 bytes: an encoded name longer than
 * SAFE_NAME_MAX (a long name in a non-Latin script triples in size) is cut
 * and ends with "~" and a digest of the whole name, so it stays unique. */
#define SAFE_NAME_MAX 200
void safe_file_name(const char *name, char *out, size_t len)
{
    size_t k = 0, cut = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && k + 4 < len; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                    *p == '-' || (*p == '.' && p != (const unsigned char *)name);
        if (k <= SAFE_NAME_MAX - 17)
            cut = k;
        if (plain)
            out[k++] = (char)*p;
        else
            k += (size_t)snprintf(out + k, len - k, "%%%02X", *p);
    }
    out[k] = 0;
    if (k > SAFE_NAME_MAX && len > SAFE_NAME_MAX) {
        uint64_t h = 1469598103934665603ULL;
        for (const unsigned char *p = (const unsigned char *)name; *p; p++)
            h = (h ^ *p) * 1099511628211ULL;
        snprintf(out + cut, len - cut, "~%016llx", (unsigned long long)h);
    }
}
