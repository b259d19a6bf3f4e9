/* submission.c - copying a submission's named files safely (see submission.h). */
#include "grading/submission.h"
#include "util/fsutil.h"

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
