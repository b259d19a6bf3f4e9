/* buildcache.c - a student's built runner, reused (see buildcache.h). */
#include "grading/buildcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "grading/gradekey.h"
#include "process/proc.h"
#include "util/fsutil.h"

extern char **environ;

/* Ours alone: owned by the user we run as, writable by no one else. */
static int ours(const struct stat *st) { return st->st_uid == geteuid() && !(st->st_mode & 022); }

static int cache_path(char *out, size_t len)
{
    const char *env = getenv("KIT_BUILD_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && (!strcmp(env, "off") || !strcmp(env, "0")))
        return -1;
    if (env && env[0] == '/')
        return fmt_into(out, len, "%s", env);
    if (xdg && xdg[0] == '/')
        return fmt_into(out, len, "%s/kit/builds", xdg);
    if (home && home[0] == '/')
        return fmt_into(out, len, "%s/.cache/kit/builds", home);
    return -1;
}

/* A file's identity without reading it (compilers are large): path, inode,
 * size, modification time. */
static void digest_identity(kit_digest *d, const char *path)
{
    char real[PATH_MAX];
    struct stat st;
    digest_str(d, path);
    if (!realpath(path, real) || stat(real, &st) != 0) {
        digest_str(d, "missing");
        return;
    }
    digest_str(d, real);
    long long v[5] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                      (long long)st.st_mtim.tv_nsec};
    digest_bytes(d, v, sizeof v);
}

/* The toolchain the build ran: nvcc's version, its programs, the host
 * compiler and linker the sandbox's PATH finds (cases.c submission_env). */
static void digest_toolchain(kit_digest *d, const engine *e)
{
    const char *argv[] = {e->conf.nvcc, "--version", NULL};
    proc_opts o = {0};
    o.timeout_s = 30;
    o.env = (const char *const *)environ;
    proc_result r;
    proc_run(argv, &o, &r);
    digest_str(d, sb_str(&r.out));
    digest_bytes(d, &r.exit_code, sizeof r.exit_code);
    proc_result_free(&r);
    digest_identity(d, e->conf.nvcc);
    static const char *cuda[] = {"bin/ptxas", "bin/nvlink", "bin/fatbinary", "bin/cudafe++", "nvvm/bin/cicc",
                                 "bin/nvcc.profile"};
    char path[2200];
    for (size_t i = 0; i < sizeof cuda / sizeof *cuda; i++) {
        snprintf(path, sizeof path, "%s/%s", e->conf.cuda_home, cuda[i]);
        digest_identity(d, path);
    }
    static const char *dirs[] = {"/usr/local/cuda/bin", "/usr/local/bin", "/usr/bin", "/bin"};
    static const char *host[] = {"gcc", "g++", "cc", "c++", "ld", "as"};
    for (size_t i = 0; i < sizeof host / sizeof *host; i++)
        for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
            snprintf(path, sizeof path, "%s/%s", dirs[k], host[i]);
            if (access(path, X_OK) == 0) {
                digest_identity(d, path);
                break;
            }
        }
    static const char *pass[] = {"LD_LIBRARY_PATH", "CUDA_HOME"}; /* what the build's environment passes on */
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++)
        digest_str(d, getenv(pass[i]) ? getenv(pass[i]) : "(unset)");
    /* -arch=native is this machine's GPU: the same words build other code
     * under another GPU (a home folder shared by several machines) */
    if (strstr(e->conf.arch_flags, "native") || strstr(e->conf.nvcc_flags, "native") || strstr(e->man.nvcc_flags, "native")) {
        snprintf(path, sizeof path, "%s/bin/__nvcc_device_query", e->conf.cuda_home);
        const char *query[] = {path, NULL};
        proc_run(query, &o, &r);
        digest_str(d, sb_str(&r.out));
        digest_bytes(d, &r.exit_code, sizeof r.exit_code);
        proc_result_free(&r);
    }
}

/* Every regular file under dir, names (relative to the work folder, which
 * is per process for root) and contents, in a fixed order. */
static void digest_folder(kit_digest *d, const char *dir, const char *rel)
{
    size_t n;
    char **names = dir_names(dir, &n);
    digest_str(d, rel);
    for (size_t i = 0; names && i < n; i++) {
        char path[4200], sub[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(sub, sizeof sub, "%s/%s", rel, names[i]);
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            digest_folder(d, path, sub);
            continue;
        }
        if (!S_ISREG(st.st_mode))
            continue;
        digest_str(d, sub);
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        char buf[65536];
        ssize_t got = -1;
        while (fd >= 0 && (got = read(fd, buf, sizeof buf)) > 0)
            digest_bytes(d, buf, (size_t)got);
        digest_str(d, got == 0 ? "read" : "unreadable");
        if (fd >= 0)
            close(fd);
    }
    dir_names_free(names);
}

void buildcache_open(buildcache *c, const engine *e, const workdirs *w, const char *const extra[])
{
    c->fd = -1;
    c->key[0] = c->name[0] = 0;
    char path[PATH_MAX];
    if (cache_path(path, sizeof path) != 0 || mkdirs(path, 0700) != 0)
        return;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !ours(&st)) {
        close(fd);
        return;
    }
    kit_digest d;
    digest_init(&d);
    digest_str(&d, "kit build cache 1");
    digest_folder(&d, w->src, "src");
    digest_folder(&d, w->lib, "lib");
    const char *how[] = {e->conf.nvcc, e->conf.nvcc_flags, e->conf.arch_flags, e->man.nvcc_flags, e->conf.link_flags};
    for (size_t i = 0; i < sizeof how / sizeof *how; i++)
        digest_str(&d, how[i]);
    for (int i = 0; i < e->man.n_student_files; i++)
        digest_str(&d, e->man.student_files[i]);
    for (int i = 0; extra && extra[i]; i++)
        digest_str(&d, extra[i]);
    digest_toolchain(&d, e);
    digest_hex(&d, c->key);
    snprintf(c->name, sizeof c->name, "%s.%s", e->man.name, c->key);
    c->fd = fd;
}

void buildcache_close(buildcache *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* A file of an entry, opened only when it is ours and plain. */
static int open_member(int dir, const char *name)
{
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !ours(&st))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* 1 when the two open files hold the same bytes. */
static int same_bytes(int a, int b)
{
    char x[65536], y[65536];
    for (;;) {
        ssize_t n = read(a, x, sizeof x), m = n > 0 ? read(b, y, (size_t)n) : read(b, y, 1);
        if (n < 0 || m < 0 || n != m)
            return 0;
        if (n == 0)
            return 1;
        if (memcmp(x, y, (size_t)n))
            return 0;
    }
}

/* The compiler's messages name the work folder (the linker's paths), which
 * differs per process for root: kept as WORK_MARK, given back as the
 * folder of the grading that reuses them. */
#define WORK_MARK "\001KIT-WORK\001"
static void swap_text(strbuf *out, const char *in, const char *from, const char *to)
{
    size_t n = strlen(from);
    for (const char *hit; n && (hit = strstr(in, from)); in = hit + n) {
        sb_addn(out, in, (size_t)(hit - in));
        sb_add(out, to);
    }
    sb_add(out, in);
}

static int copy_out(int in, const char *to, int mode)
{
    unlink(to);
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (out < 0)
        return -1;
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            close(out);
            return -1;
        }
    return close(out) == 0 && n == 0 ? 0 : -1;
}

int buildcache_get(buildcache *c, const engine *e, const workdirs *w, const char *out, strbuf *raw)
{
    if (c->fd < 0)
        return 0;
    int dir = openat(c->fd, c->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (dir < 0)
        return 0;
    int ok = fstat(dir, &st) == 0 && ours(&st);
    for (int i = 0; ok && i < e->man.n_student_files; i++) {
        char member[32], path[4200];
        snprintf(member, sizeof member, "src.%d", i);
        snprintf(path, sizeof path, "%s/%s", w->src, e->man.student_files[i]);
        int a = open_member(dir, member), b = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        ok = a >= 0 && b >= 0 && same_bytes(a, b);
        if (a >= 0)
            close(a);
        if (b >= 0)
            close(b);
    }
    int runner = ok ? open_member(dir, "runner") : -1, log = ok ? open_member(dir, "log") : -1;
    ok = runner >= 0 && log >= 0 && copy_out(runner, out, 0755) == 0;
    if (ok) {
        strbuf kept;
        sb_init(&kept);
        char buf[65536];
        ssize_t n;
        while ((n = read(log, buf, sizeof buf)) > 0)
            sb_addn(&kept, buf, (size_t)n);
        swap_text(raw, sb_str(&kept), WORK_MARK, w->root);
        sb_free(&kept);
        futimens(dir, NULL); /* recently used: pruned last */
    } else
        unlink(out);
    if (runner >= 0)
        close(runner);
    if (log >= 0)
        close(log);
    close(dir);
    return ok;
}

/* Removes an entry (flat: files only) of the cache folder. */
static void remove_entry(int cache, const char *name)
{
    int dir = openat(cache, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) {
        DIR *d = fdopendir(dir);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                unlinkat(dir, de->d_name, 0);
        if (d)
            closedir(d);
        else
            close(dir);
    }
    unlinkat(cache, name, AT_REMOVEDIR);
}

static int put_member(int dir, const char *name, int in, const char *text, int mode)
{
    int out = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (out < 0)
        return -1;
    int rc = 0;
    if (text)
        rc = write(out, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
    char buf[65536];
    ssize_t n = 0;
    while (in >= 0 && !rc && (n = read(in, buf, sizeof buf)) > 0)
        rc = write(out, buf, (size_t)n) == n ? 0 : -1;
    return close(out) == 0 && !rc && n >= 0 ? 0 : -1;
}

/* At most BUILDCACHE_KEEP entries of this lab: the least recently used go. */
static void prune(int cache, const char *lab)
{
    for (;;) {
        int dup = fcntl(cache, F_DUPFD_CLOEXEC, 0);
        DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
        if (!d) {
            if (dup >= 0)
                close(dup);
            return;
        }
        rewinddir(d);
        struct dirent *de;
        size_t len = strlen(lab);
        int n = 0;
        char oldest[256] = "";
        struct timespec when = {0, 0};
        while ((de = readdir(d))) {
            struct stat st;
            if (fstatat(cache, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            if (!strncmp(de->d_name, "tmp.", 4) && st.st_mtim.tv_sec < time(NULL) - 3600) {
                remove_entry(cache, de->d_name); /* left by a grader that was killed */
                continue;
            }
            if (strncmp(de->d_name, lab, len) || de->d_name[len] != '.')
                continue;
            n++;
            if (!oldest[0] || st.st_mtim.tv_sec < when.tv_sec ||
                (st.st_mtim.tv_sec == when.tv_sec && st.st_mtim.tv_nsec < when.tv_nsec)) {
                snprintf(oldest, sizeof oldest, "%s", de->d_name);
                when = st.st_mtim;
            }
        }
        closedir(d);
        if (n <= BUILDCACHE_KEEP || !oldest[0])
            return;
        remove_entry(cache, oldest);
    }
}

void buildcache_put(buildcache *c, const engine *e, const workdirs *w, const char *built, const char *raw)
{
    if (c->fd < 0)
        return;
    static unsigned serial; /* several builds of one process */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char tmp[96];
    snprintf(tmp, sizeof tmp, "tmp.%d.%ld.%ld.%u", (int)getpid(), (long)now.tv_sec, now.tv_nsec, serial++);
    remove_entry(c->fd, tmp);
    if (mkdirat(c->fd, tmp, 0700) != 0)
        return;
    int dir = openat(c->fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int ok = dir >= 0;
    for (int i = 0; ok && i < e->man.n_student_files; i++) {
        char member[32], path[4200];
        snprintf(member, sizeof member, "src.%d", i);
        snprintf(path, sizeof path, "%s/%s", w->src, e->man.student_files[i]);
        int in = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        ok = in >= 0 && put_member(dir, member, in, NULL, 0600) == 0;
        if (in >= 0)
            close(in);
    }
    strbuf log;
    sb_init(&log);
    swap_text(&log, raw, w->root, WORK_MARK);
    int in = ok ? open(built, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    ok = in >= 0 && put_member(dir, "runner", in, NULL, 0700) == 0 &&
         put_member(dir, "log", -1, sb_str(&log), 0600) == 0;
    sb_free(&log);
    if (in >= 0)
        close(in);
    if (dir >= 0)
        close(dir);
    if (ok && renameat(c->fd, tmp, c->fd, c->name) != 0) {
        remove_entry(c->fd, c->name); /* an entry that did not match (see buildcache_get) */
        ok = renameat(c->fd, tmp, c->fd, c->name) == 0;
    }
    if (!ok)
        remove_entry(c->fd, tmp);
    prune(c->fd, e->man.name);
}
