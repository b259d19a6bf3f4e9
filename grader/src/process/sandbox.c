/* sandbox.c - bubblewrap command lines and detection (see sandbox.h). */
#include "process/sandbox.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static int find_in_path(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, len, "%.*s/%s", (int)n, path, prog);
        if (n && access(out, X_OK) == 0)
            return 0;
        path += n + (colon ? 1 : 0);
    }
    return -1;
}

/* Runs `bwrap <minimal sandbox> true` as the submission uid: does it work here? */
static int bwrap_works(const sandbox *sb, char *why, size_t len)
{
    const char *argv[96];
    char store[8192];
    int n = sandbox_argv(sb, "/", NULL, NULL, argv, 90, store, sizeof store);
    if (n < 0)
        return 0;
    argv[n++] = "/bin/true";
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, len, "fork failed: %s", strerror(errno));
        return 0;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0), dup2(devnull, 1), dup2(devnull, 2);
        if (sb->drop_uid && (setgroups(0, NULL) || setgid(sb->gid) || setuid(sb->uid)))
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 1;
    fmt_into(why, len, "%s does not work here (exit %d; are unprivileged user namespaces disabled?)", sb->bwrap,
             WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return 0;
}

void sandbox_detect(sandbox *sb)
{
    memset(sb, 0, sizeof *sb);
    sb->drop_uid = geteuid() == 0;
    sb->uid = NOBODY;
    sb->gid = NOBODY;
    sb->uid_fd = -1;
    const char *mode = getenv("KIT_SANDBOX");
    if (mode && !strcmp(mode, "none")) {
        snprintf(sb->why, sizeof sb->why, "KIT_SANDBOX=none");
        return;
    }
    if (find_in_path("bwrap", sb->bwrap, sizeof sb->bwrap) != 0) {
        snprintf(sb->why, sizeof sb->why, "bubblewrap (bwrap) is not installed");
        return;
    }
    sb->use_bwrap = 1;
    char why[256];
    if (!bwrap_works(sb, why, sizeof why)) {
        sb->use_bwrap = 0;
        snprintf(sb->why, sizeof sb->why, "%s", why);
        return;
    }
    /* Size-limited tmpfs (bubblewrap >= 0.5); without it /tmp is only
     * bounded by the host's default (half the memory). */
    sb->size_ok = 1;
    sb->tmpfs_mb = 16;
    if (!bwrap_works(sb, why, sizeof why))
        sb->size_ok = 0;
    sb->tmpfs_mb = 0;
}

/* ---- the uid pool ---- */

static int uid_has_processes(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300];
        struct stat st;
        snprintf(path, sizeof path, "/proc/%s", e->d_name);
        if (stat(path, &st) == 0 && st.st_uid == uid)
            found = 1;
    }
    closedir(d);
    return found;
}

/* The pool's lock files live in a folder only root can write (the locks of
 * every grader on the machine, whatever its KIT_LOCK_DIR). */
#define UID_LOCK_DIR "/tmp/kit-uids"

static int uid_lock_dir_ok(void)
{
    mkdir(UID_LOCK_DIR, 0700);
    struct stat st;
    return lstat(UID_LOCK_DIR, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 022);
}

static int try_uid(sandbox *sb, uid_t uid)
{
    if (getpwuid(uid) || getgrgid((gid_t)uid))
        return -1; /* someone's account */
    char path[256];
    snprintf(path, sizeof path, UID_LOCK_DIR "/uid-%u.lock", (unsigned)uid);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || uid_has_processes(uid)) {
        close(fd);
        return -1;
    }
    sb->uid_fd = fd;
    sb->uid = uid;
    sb->gid = (gid_t)uid;
    return 0;
}

int sandbox_claim_uid(sandbox *sb, FILE *log)
{
    if (!sb->drop_uid || sb->uid_fd >= 0)
        return 0;
    unsigned long first = 65600, count = 64;
    const char *env = getenv("KIT_SANDBOX_UIDS");
    if (env && *env && (sscanf(env, "%lu %lu", &first, &count) != 2 || first == 0 || count == 0)) {
        if (log)
            fprintf(log, "warning: KIT_SANDBOX_UIDS should be \"FIRST COUNT\" (got \"%s\"); using nobody\n", env);
        return -1;
    }
    if (first == NOBODY && count == 1) /* explicitly the old behaviour */
        return 0;
    if (!uid_lock_dir_ok()) {
        if (log)
            fprintf(log, "warning: %s is not a folder only root can write; running submissions as nobody\n",
                    UID_LOCK_DIR);
        return -1;
    }
    for (int round = 0;; round++) {
        for (unsigned long k = 0; k < count; k++)
            if (try_uid(sb, (uid_t)(first + k)) == 0)
                return 0;
        if (round == 0 && log) {
            fprintf(log, "waiting for a free sandbox uid (%lu..%lu are all in use)...\n", first, first + count - 1);
            fflush(log);
        }
        if (round == 600) { /* 5 minutes: something is wrong with the pool */
            if (log)
                fprintf(log, "warning: no free sandbox uid in %lu..%lu; running as nobody\n", first, first + count - 1);
            return -1;
        }
        usleep(500000);
    }
}

void sandbox_release_uid(sandbox *sb)
{
    if (sb->uid_fd >= 0)
        close(sb->uid_fd);
    sb->uid_fd = -1;
    sb->uid = NOBODY;
    sb->gid = NOBODY;
}

void sandbox_hide(sandbox *sb, const char *path)
{
    if (sb->n_hide < SANDBOX_MAX_HIDE && path && *path) {
        char *real = realpath(path, NULL);
        snprintf(sb->hide[sb->n_hide++], sizeof sb->hide[0], "%s", real ? real : path);
        free(real);
    }
}

const char *sandbox_warning(const sandbox *sb)
{
    static char msg[512];
    if (sb->use_bwrap)
        return NULL;
    snprintf(msg, sizeof msg,
             "warning: submissions run WITHOUT a filesystem/network sandbox (%s); only resource limits%s apply",
             sb->why, sb->drop_uid ? " and an unprivileged uid" : "");
    return msg;
}

/* ---- argv building ---- */

typedef struct {
    const char **argv;
    int n, max;
    char *store;
    size_t used, cap;
    int overflow;
} args;

static void arg(args *a, const char *s)
{
    size_t len = strlen(s) + 1;
    if (a->n >= a->max || a->used + len > a->cap) {
        a->overflow = 1;
        return;
    }
    char *p = a->store + a->used;
    memcpy(p, s, len);
    a->used += len;
    a->argv[a->n++] = p;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is `path` inside `dir` (both absolute, resolved)? */
static int inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0 || (n == 1 && dir[0] == '/'));
}

int sandbox_argv(const sandbox *sb, const char *cwd, const char *const *rw, const char *const *ro,
                 const char **argv, int max_args, char *store, size_t store_len)
{
    args a = {argv, 0, max_args, store, 0, store_len, 0};
    static const char *system_ro[] = {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/sys", "/opt",
                                      NULL};
    arg(&a, sb->bwrap);
    arg(&a, "--unshare-all");
    if (sb->drop_uid || geteuid() != 0)
        arg(&a, "--unshare-user");
    arg(&a, "--die-with-parent");
    arg(&a, "--new-session");
    arg(&a, "--hostname"), arg(&a, "sandbox");
    for (int i = 0; system_ro[i]; i++)
        if (is_dir(system_ro[i]))
            arg(&a, "--ro-bind"), arg(&a, system_ro[i]), arg(&a, system_ro[i]);
    arg(&a, "--proc"), arg(&a, "/proc");
    arg(&a, "--dev"), arg(&a, "/dev");
    /* GPU device nodes (and the driver's libraries where the host keeps them apart). */
    glob_t g;
    if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            arg(&a, "--dev-bind"), arg(&a, g.gl_pathv[i]), arg(&a, g.gl_pathv[i]);
        globfree(&g);
    }
    if (is_dir("/usr/local/nvidia"))
        arg(&a, "--ro-bind"), arg(&a, "/usr/local/nvidia"), arg(&a, "/usr/local/nvidia");
    /* The writable scratch in memory: /tmp and /dev/shm, limited in size;
     * /dev itself (a tmpfs the sandbox user owns) read-only. */
    char size[32];
    snprintf(size, sizeof size, "%lld", (long long)sb->tmpfs_mb << 20);
    if (sb->size_ok && sb->tmpfs_mb > 0)
        arg(&a, "--size"), arg(&a, size);
    arg(&a, "--tmpfs"), arg(&a, "/dev/shm");
    arg(&a, "--remount-ro"), arg(&a, "/dev");
    if (sb->size_ok && sb->tmpfs_mb > 0)
        arg(&a, "--size"), arg(&a, size);
    arg(&a, "--tmpfs"), arg(&a, "/tmp");
    /* Mask the kit and the submissions if a system bind above exposed them. */
    for (int i = 0; i < sb->n_hide; i++)
        for (int k = 0; system_ro[k]; k++)
            if (inside(sb->hide[i], system_ro[k]) && is_dir(sb->hide[i])) {
                arg(&a, "--tmpfs"), arg(&a, sb->hide[i]);
                arg(&a, "--remount-ro"), arg(&a, sb->hide[i]);
                break;
            }
    for (int i = 0; ro && ro[i]; i++)
        arg(&a, "--ro-bind"), arg(&a, ro[i]), arg(&a, ro[i]);
    for (int i = 0; rw && rw[i]; i++)
        arg(&a, "--bind"), arg(&a, rw[i]), arg(&a, rw[i]);
    /* The sandbox's root is a tmpfs the sandbox user owns: read-only too. */
    arg(&a, "--remount-ro"), arg(&a, "/");
    arg(&a, "--chdir"), arg(&a, cwd);
    arg(&a, "--");
    return a.overflow ? -1 : a.n;
}
