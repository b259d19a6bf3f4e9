/* archive.c - unpacking a student's archive safely (see archive.h). */
#include "course/archive.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "process/proc.h"
#include "util/fsutil.h"

#define UNPACK_TIMEOUT 120
#define UNPACK_FILE_MB 16

static const char *const exts[] = {".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz", ".tar", ".zip", NULL};

size_t archive_stem(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; exts[i]; i++) {
        size_t e = strlen(exts[i]);
        if (n > e && !strcasecmp(name + n - e, exts[i]))
            return n - e;
    }
    return 0;
}

static const char *find_bsdtar(void)
{
    static const char *const where[] = {"/usr/bin/bsdtar", "/bin/bsdtar", "/usr/local/bin/bsdtar", NULL};
    for (int i = 0; where[i]; i++)
        if (access(where[i], X_OK) == 0)
            return where[i];
    return NULL;
}

static void run_bsdtar(sandbox *sb, const char *const *argv, const char *cwd, const char *rw, const char *ro,
                       proc_result *r)
{
    proc_opts o = {0};
    o.timeout_s = UNPACK_TIMEOUT;
    o.mem_mb = 1024;
    o.nproc = 64;
    o.fsize_mb = UNPACK_FILE_MB;
    o.out_cap = 1u << 20;
    o.cwd = cwd;
    const char *rws[] = {rw, NULL}, *ros[] = {ro, NULL};
    o.sb = sb;
    o.sb_rw = rw ? rws : NULL;
    o.sb_ro = ros;
    o.drop_uid = sb->drop_uid;
    if (rw) {
        o.watch_dir = rw;
        o.watch_max_bytes = ARCHIVE_MAX_BYTES;
    }
    proc_run(argv, &o, r);
}

/* The listing (bsdtar -tvf, ls -l style): type and size of every entry. */
static int check_listing(const char *text, char *why, size_t len)
{
    long files = 0;
    long long bytes = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        char mode[16] = "";
        long long size = 0;
        if (sscanf(line, "%15s %*s %*s %*s %lld", mode, &size) >= 1) {
            if (mode[0] != '-' && mode[0] != 'd') {
                snprintf(why, len, "it holds %s (%.*s); only files and folders are unpacked",
                         mode[0] == 'l' ? "a symbolic link" : mode[0] == 'h' ? "a hard link" : "a special file",
                         (int)((nl ? nl : line + strlen(line)) - line), line);
                return -1;
            }
            files++;
            bytes += size > 0 ? size : 0;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (files > ARCHIVE_MAX_FILES) {
        snprintf(why, len, "it holds %ld entries (at most %d)", files, ARCHIVE_MAX_FILES);
        return -1;
    }
    if (bytes > ARCHIVE_MAX_BYTES) {
        snprintf(why, len, "it unpacks to %lld MB (at most %lld MB)", bytes >> 20, ARCHIVE_MAX_BYTES >> 20);
        return -1;
    }
    return 0;
}

/* After extraction: nothing but files and folders; owned by the grader. */
static int check_tree(const char *dir, int depth, long *files, char *why, size_t len)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, len, "cannot read what it unpacked: %s", strerror(errno));
        return -1;
    }
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (lstat(path, &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
            snprintf(why, len, "it unpacked something that is not a file or a folder (%s)", de->d_name);
            rc = -1;
        } else if (++*files > ARCHIVE_MAX_FILES || depth > 16) {
            snprintf(why, len, "it holds too many entries or folders too deep");
            rc = -1;
        } else {
            if (geteuid() == 0 && lchown(path, 0, 0) != 0) {
                snprintf(why, len, "cannot take back what it unpacked: %s", strerror(errno));
                rc = -1;
            }
            chmod(path, S_ISDIR(st.st_mode) ? 0755 : 0644);
            if (S_ISDIR(st.st_mode))
                rc = check_tree(path, depth + 1, files, why, len);
        }
    }
    closedir(d);
    return rc;
}

int archive_unpack(sandbox *sb, const char *archive, const char *dest, const char *scratch, char *why, size_t len)
{
    const char *bsdtar = find_bsdtar();
    if (!bsdtar) {
        snprintf(why, len, "bsdtar is not installed (Debian/Ubuntu package libarchive-tools; 'make deps' installs "
                           "it), or unpack the archives into one folder per student yourself");
        return -1;
    }
    /* A private copy the sandbox uid can read (the original may be root's alone). */
    char copy[4096];
    const char *base = strrchr(archive, '/');
    snprintf(copy, sizeof copy, "%s/%s", scratch, base ? base + 1 : archive);
    if (mkdirs(scratch, 0755) != 0) {
        snprintf(why, len, "cannot create %s: %s", scratch, strerror(errno));
        return -1;
    }
    chmod(scratch, 0755);
    if (copy_file(archive, copy, 0644) != 0) {
        snprintf(why, len, "cannot read it: %s", strerror(errno));
        return -1;
    }
    chmod(copy, 0644);
    int rc = -1;
    proc_result r;
    const char *list[] = {bsdtar, "-tvf", copy, NULL};
    run_bsdtar(sb, list, scratch, NULL, scratch, &r);
    if (!proc_ok(&r)) {
        snprintf(why, len, "not a readable archive (%.*s)", (int)strcspn(sb_str(&r.err), "\n"), sb_str(&r.err));
        proc_result_free(&r);
        goto out;
    }
    if (check_listing(sb_str(&r.out), why, len) != 0) {
        proc_result_free(&r);
        goto out;
    }
    proc_result_free(&r);
    if (mkdirs(dest, 0755) != 0) {
        snprintf(why, len, "cannot create %s: %s", dest, strerror(errno));
        goto out;
    }
    if (sb->drop_uid && chown(dest, sb->uid, sb->gid) != 0) {
        snprintf(why, len, "cannot hand %s to the sandbox uid: %s", dest, strerror(errno));
        goto out;
    }
    const char *x[] = {bsdtar, "-x", "-f", copy, "-C", dest, "--no-same-owner", "--no-same-permissions",
                       "--no-xattrs", "--no-acls", "--no-fflags", NULL};
    run_bsdtar(sb, x, dest, dest, scratch, &r);
    if (!proc_ok(&r)) {
        strbuf d;
        sb_init(&d);
        proc_describe(&r, &d);
        snprintf(why, len, "unpacking it failed: bsdtar %s%s%.*s", sb_str(&d), r.err.len ? ": " : "",
                 (int)strcspn(sb_str(&r.err), "\n"), sb_str(&r.err));
        sb_free(&d);
        proc_result_free(&r);
        goto out;
    }
    proc_result_free(&r);
    long files = 0;
    if (geteuid() == 0 && chown(dest, 0, 0) != 0) {
        snprintf(why, len, "cannot take back %s: %s", dest, strerror(errno));
        goto out;
    }
    rc = check_tree(dest, 0, &files, why, len);
out:
    unlink(copy);
    if (rc != 0)
        rm_rf(dest);
    return rc;
}
