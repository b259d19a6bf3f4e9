/* gradekey.c - the digest of everything that made a result (see gradekey.h). */
#include "grading/gradekey.h"
#include "util/fsutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FNV_PRIME 1099511628211ULL

void digest_init(kit_digest *d)
{
    d->h[0] = 1469598103934665603ULL;
    d->h[1] = 0x9E3779B97F4A7C15ULL;
    d->h[2] = 0xC2B2AE3D27D4EB4FULL;
    d->h[3] = 0x165667B19E3779F9ULL;
}

void digest_bytes(kit_digest *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        d->h[0] = (d->h[0] ^ b[i]) * FNV_PRIME;
        d->h[1] = (d->h[1] ^ (d->h[0] >> 7)) * FNV_PRIME;
    }
}

void digest_str(kit_digest *d, const char *s) { digest_bytes(d, s, strlen(s) + 1); }

int digest_file(kit_digest *d, const char *path)
{
    digest_str(d, path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        digest_str(d, "missing");
        return -1;
    }
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        digest_bytes(d, buf, (size_t)n);
    close(fd);
    return n == 0 ? 0 : -1;
}

void digest_hex(const kit_digest *d, char out[65])
{
    uint64_t h[4] = {d->h[0], d->h[1], d->h[2], d->h[3]};
    for (int k = 1; k < 4; k++)
        h[k] ^= h[k - 1] * 0xff51afd7ed558ccdULL + (uint64_t)k;
    snprintf(out, 65, "%016llx%016llx%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1],
             (unsigned long long)h[2], (unsigned long long)h[3]);
}

/* Every regular file under dir (recursively), in a fixed order. */
static void digest_tree(kit_digest *d, const char *dir)
{
    size_t n;
    char **names = dir_names(dir, &n);
    if (!names) {
        digest_str(d, dir);
        digest_str(d, "missing");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (names[i] && lstat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                digest_tree(d, path);
            else if (S_ISREG(st.st_mode))
                digest_file(d, path);
        }
    }
    dir_names_free(names);
}

/* The lab's runner objects, as make listed them for the grader. */
static void digest_objects(kit_digest *d, const char *lab_build)
{
    char list[2048], line[4096];
    snprintf(list, sizeof list, "%s/objects", lab_build);
    digest_file(d, list);
    FILE *f = fopen(list, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (*line)
            digest_file(d, line);
    }
    if (f)
        fclose(f);
}

void engine_grading_key(engine *e)
{
    kit_digest d;
    char path[4200];
    digest_init(&d);
    /* the effective rubric */
    digest_file(&d, e->rubric_path);
    /* the lab's kit code and common/ */
    digest_tree(&d, e->lab_dir);
    snprintf(path, sizeof path, "%s/%s", e->starter_dir, e->man.interface);
    digest_file(&d, path);
    snprintf(path, sizeof path, "%s/common/src", e->conf.kit_root);
    digest_tree(&d, path);
    snprintf(path, sizeof path, "%s/common/include", e->conf.kit_root);
    digest_tree(&d, path);
    /* what was built from them, and how */
    digest_file(&d, "/proc/self/exe");
    snprintf(path, sizeof path, "%s/check", e->lab_build);
    digest_file(&d, path);
    digest_objects(&d, e->lab_build);
    static const char *built[] = {"common/libkit.a", "common/libkit-runner.a"};
    for (size_t i = 0; i < sizeof built / sizeof *built; i++) {
        snprintf(path, sizeof path, "%s/%s", e->conf.build_dir, built[i]);
        digest_file(&d, path);
    }
    /* how submissions are built (kit.ini, but not its version line: a
     * commit that changes no code regrades nothing) */
    const char *how[] = {e->conf.nvcc, e->conf.cuda_arch, e->conf.arch_flags, e->conf.nvcc_flags, e->conf.link_flags,
                         e->conf.compute_sanitizer};
    for (size_t i = 0; i < sizeof how / sizeof *how; i++)
        digest_str(&d, how[i]);
    if (e->profile) /* and the profiler, for results with a profile only: the others' keys stay as they were */
        digest_str(&d, e->conf.ncu);
    /* the conditions */
    int sanitizer = e->conf.compute_sanitizer[0] && access(e->conf.compute_sanitizer, X_OK) == 0;
    /* a profile adds figures to a result (profile.h): one made without cannot stand for one with */
    snprintf(e->conditions, sizeof e->conditions, "gpu=%s;sanitizer=%s;tests=%s;mode=%s;no_gpu_allowed=%d%s",
             e->gpu ? e->gpu_name : "none", sanitizer ? "yes" : "no", e->only_test ? e->only_test : "all",
             e->student_mode ? "student" : "instructor", e->allow_no_gpu, e->profile ? ";profile=yes" : "");
    digest_str(&d, e->conditions);
    digest_hex(&d, e->grading_key);
}

int result_reusable(const grade_result *old, const char *source_hash, const char *grading_key, int gpu_now)
{
    if (strstr(sb_str(&old->notes), "internal grader error"))
        return 0;
    if (!old->grading_key[0] || strcmp(old->grading_key, grading_key))
        return 0; /* other rubric, kit, GPU, tools or test selection (or a result from before keys) */
    if (gpu_now && !old->gpu_ran && old->build_ok)
        return 0; /* built without a GPU: its tests never ran */
    return !strcmp(old->source_hash, source_hash);
}
