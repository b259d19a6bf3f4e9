/* sandbox.c - bubblewrap command lines and detection (see sandbox.h). */
#include "sandbox.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    }
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
    arg(&a, "--tmpfs"), arg(&a, "/tmp");
    /* Mask the kit and the submissions if a system bind above exposed them. */
    for (int i = 0; i < sb->n_hide; i++)
        for (int k = 0; system_ro[k]; k++)
            if (inside(sb->hide[i], system_ro[k]) && is_dir(sb->hide[i])) {
                arg(&a, "--tmpfs"), arg(&a, sb->hide[i]);
                break;
            }
    for (int i = 0; ro && ro[i]; i++)
        arg(&a, "--ro-bind"), arg(&a, ro[i]), arg(&a, ro[i]);
    for (int i = 0; rw && rw[i]; i++)
        arg(&a, "--bind"), arg(&a, rw[i]), arg(&a, rw[i]);
    arg(&a, "--chdir"), arg(&a, cwd);
    arg(&a, "--");
    return a.overflow ? -1 : a.n;
}
