/* proc.c - run a program with limits, capture its output, kill it on time (see proc.h). */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandbox.h"

#define DEFAULT_CAP (64u << 10)
#define MAX_ARGS 160

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void proc_result_init(proc_result *r)
{
    memset(r, 0, sizeof *r);
    sb_init(&r->out);
    sb_init(&r->err);
}

void proc_result_free(proc_result *r)
{
    sb_free(&r->out);
    sb_free(&r->err);
}

void proc_become_subreaper(void) { prctl(PR_SET_CHILD_SUBREAPER, 1); }

static void set_limit(int res, rlim_t v)
{
    struct rlimit rl = {v, v};
    setrlimit(res, &rl);
}

/* In the child: limits, uid, descriptors, then exec.  Only async-signal-safe calls. */
static void child(const char *const argv[], const proc_opts *o, int out_w, int err_w, pid_t parent)
{
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        _exit(126);
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    if (o->mem_mb > 0)
        set_limit(RLIMIT_DATA, (rlim_t)o->mem_mb << 20);
    if (o->fsize_mb > 0)
        set_limit(RLIMIT_FSIZE, (rlim_t)o->fsize_mb << 20);
    if (o->nproc > 0)
        set_limit(RLIMIT_NPROC, (rlim_t)o->nproc);
    if (o->timeout_s > 0) /* CPU time: a backstop if the wall-clock kill were missed */
        set_limit(RLIMIT_CPU, (rlim_t)(o->timeout_s * 4 + 10));
    set_limit(RLIMIT_CORE, 0);
    if (o->drop_uid && o->sb) {
        if (setgroups(0, NULL) != 0 || setgid(o->sb->gid) != 0 || setuid(o->sb->uid) != 0) {
            static const char msg[] = "sandbox: cannot switch to the unprivileged uid\n";
            if (write(2, msg, sizeof msg - 1) < 0) {
            }
            _exit(126);
        }
    }
    /* Die with the grader (a kill -9 of a batch must not leave runs behind);
     * set after the uid change, which clears it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the grader died before that */
        _exit(126);
    if (o->cwd && chdir(o->cwd) != 0) {
        static const char msg[] = "sandbox: cannot enter the working folder (is it readable by the sandbox uid?)\n";
        if (write(2, msg, sizeof msg - 1) < 0) {
        }
        _exit(126);
    }
    static const char *const default_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "LC_ALL=C", NULL};
    execve(argv[0], (char *const *)argv, (char *const *)(o->env ? o->env : default_env));
    static const char msg[] = "cannot execute the program\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    _exit(127);
}

/* What is kept of one output stream: the first `head` bytes in b, and, when
 * ring_cap > 0, the last ring_cap bytes of the rest in a ring buffer. */
typedef struct {
    strbuf *b;
    size_t head, *total;
    char *ring;
    size_t ring_cap, ring_len, ring_pos;
} capture;

static void capture_add(capture *c, const char *p, size_t n)
{
    *c->total += n;
    if (c->b->len < c->head) {
        size_t k = n < c->head - c->b->len ? n : c->head - c->b->len;
        sb_addn(c->b, p, k);
        p += k, n -= k;
    }
    if (!c->ring_cap || !n)
        return;
    if (n > c->ring_cap) /* only the last ring_cap bytes can survive */
        p += n - c->ring_cap, n = c->ring_cap;
    size_t first = c->ring_cap - c->ring_pos < n ? c->ring_cap - c->ring_pos : n;
    memcpy(c->ring + c->ring_pos, p, first);
    memcpy(c->ring, p + first, n - first);
    c->ring_pos = (c->ring_pos + n) % c->ring_cap;
    c->ring_len = c->ring_len + n < c->ring_cap ? c->ring_len + n : c->ring_cap;
}

/* Appends the kept tail after the head; returns 1 when bytes were dropped. */
static int capture_finish(capture *c)
{
    size_t dropped = *c->total - c->b->len - c->ring_len;
    if (c->ring_len) {
        if (dropped)
            sb_printf(c->b, "\n[... %zu bytes not kept ...]\n", dropped);
        size_t start = (c->ring_pos + c->ring_cap - c->ring_len) % c->ring_cap;
        size_t first = c->ring_cap - start < c->ring_len ? c->ring_cap - start : c->ring_len;
        sb_addn(c->b, c->ring + start, first);
        sb_addn(c->b, c->ring, c->ring_len - first);
    }
    free(c->ring);
    c->ring = NULL;
    return dropped > 0;
}

/* Reads what is available from fd; returns 0 at EOF. */
static int drain(int fd, capture *c)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (n == 0)
        return 0;
    capture_add(c, buf, (size_t)n);
    return 1;
}

/* After the process ended: what is still in the pipe, without blocking (a
 * descendant that escaped could otherwise keep the pipe open forever). */
static void drain_rest(int fd, capture *c)
{
    char buf[65536];
    for (int i = 0; i < 4096; i++) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            return;
        capture_add(c, buf, (size_t)n);
    }
}

/* Bytes used by the files under dir (not following links), counting at most
 * max_entries entries; returns -1 when there are more (a flood of files). */
static long long dir_usage(int dirfd, int depth, long *entries, long max_entries)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return 0;
    }
    long long sum = 0;
    struct dirent *e;
    while (sum >= 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (++*entries > max_entries)
            return closedir(d), -1;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        sum += (long long)st.st_blocks * 512;
        if (S_ISDIR(st.st_mode) && depth < 16) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                long long s2 = dir_usage(sub, depth + 1, entries, max_entries);
                sum = s2 < 0 ? -1 : sum + s2;
            }
        }
    }
    closedir(d);
    return sum;
}

#define WATCH_MAX_ENTRIES 10000

static int over_disk_limit(const proc_opts *o)
{
    int fd = open(o->watch_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long entries = 0;
    long long used = dir_usage(fd, 0, &entries, WATCH_MAX_ENTRIES);
    return used < 0 || used > o->watch_max_bytes;
}

/* Kills and reaps descendants that escaped the process group: as subreaper we
 * inherit orphans; kill every process whose parent is us (except `keep`). */
static void reap_orphans(pid_t keep)
{
    for (int round = 0; round < 20; round++) {
        int found = 0;
        DIR *d = opendir("/proc");
        if (!d)
            return;
        struct dirent *e;
        pid_t me = getpid();
        while ((e = readdir(d))) {
            pid_t pid = (pid_t)atoi(e->d_name);
            if (pid <= 0 || pid == keep)
                continue;
            char path[64], buf[512];
            snprintf(path, sizeof path, "/proc/%d/stat", pid);
            FILE *f = fopen(path, "r");
            if (!f)
                continue;
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = 0;
            char *rp = strrchr(buf, ')');
            int ppid = 0;
            char state;
            if (rp && sscanf(rp + 2, "%c %d", &state, &ppid) == 2 && ppid == me) {
                kill(pid, SIGKILL);
                found = 1;
            }
        }
        closedir(d);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (!found)
            return;
        usleep(10000);
    }
}

int proc_run(const char *const argv[], const proc_opts *o, proc_result *r)
{
    proc_result_init(r);
    const char *full[MAX_ARGS + 1];
    char store[16384];
    int n = 0;
    if (o->sb && o->sb->use_bwrap) {
        n = sandbox_argv(o->sb, o->cwd ? o->cwd : "/", o->sb_rw, o->sb_ro, full, MAX_ARGS - 32, store, sizeof store);
        if (n < 0) {
            snprintf(r->spawn_error, sizeof r->spawn_error, "sandbox command line too long");
            return -1;
        }
    }
    for (int i = 0; argv[i] && n < MAX_ARGS; i++)
        full[n++] = argv[i];
    full[n] = NULL;

    int out_p[2], err_p[2];
    if (pipe2(out_p, O_CLOEXEC) != 0 || pipe2(err_p, O_CLOEXEC) != 0) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "pipe: %s", strerror(errno));
        return -1;
    }
    double t0 = now();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "fork: %s", strerror(errno));
        close(out_p[0]), close(out_p[1]), close(err_p[0]), close(err_p[1]);
        return -1;
    }
    if (pid == 0)
        child(full, o, out_p[1], err_p[1], parent);
    setpgid(pid, pid); /* also in the parent: no race with the kill below */
    r->started = 1;
    close(out_p[1]);
    close(err_p[1]);
    fcntl(out_p[0], F_SETFL, O_NONBLOCK);
    fcntl(err_p[0], F_SETFL, O_NONBLOCK);

    size_t out_cap = o->out_cap ? o->out_cap : DEFAULT_CAP, err_cap = o->err_cap ? o->err_cap : DEFAULT_CAP;
    capture out = {&r->out, out_cap, &r->out_total, NULL, 0, 0, 0};
    capture err = {&r->err, err_cap / 2, &r->err_total, malloc(err_cap - err_cap / 2), err_cap - err_cap / 2, 0, 0};
    if (!err.ring)
        err.head = err_cap, err.ring_cap = 0;
    int out_open = 1, err_open = 1, status = 0, done = 0;
    double next_watch = t0 + 0.25;
    while (!done) {
        double left = o->timeout_s > 0 ? o->timeout_s - (now() - t0) : 1.0;
        if (left <= 0) {
            r->timed_out = 1;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            break;
        }
        if (o->watch_dir && now() >= next_watch) {
            if (over_disk_limit(o)) {
                r->disk_exceeded = 1;
                r->watch_limit_mb = o->watch_max_bytes >> 20;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                break;
            }
            next_watch = now() + 0.25;
        }
        struct pollfd fds[2];
        int nf = 0;
        if (out_open)
            fds[nf++] = (struct pollfd){out_p[0], POLLIN, 0};
        if (err_open)
            fds[nf++] = (struct pollfd){err_p[0], POLLIN, 0};
        int ms = (int)(left * 1000 < 100 ? left * 1000 + 1 : 100);
        if (nf)
            poll(fds, (nfds_t)nf, ms);
        else
            usleep((useconds_t)ms * 1000);
        for (int i = 0; i < nf; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (fds[i].fd == out_p[0])
                out_open = drain(out_p[0], &out);
            else
                err_open = drain(err_p[0], &err);
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            done = 1;
    }
    if (!done) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    /* Whatever is still buffered in the pipes (bounded: the writers are gone or killed). */
    kill(-pid, SIGKILL);
    reap_orphans(0);
    if (out_open)
        drain_rest(out_p[0], &out);
    if (err_open)
        drain_rest(err_p[0], &err);
    r->out_capped = capture_finish(&out);
    r->err_capped = capture_finish(&err);
    close(out_p[0]);
    close(err_p[0]);
    r->seconds = now() - t0;
    if (WIFEXITED(status) && o->sb && o->sb->use_bwrap && WEXITSTATUS(status) > 128 &&
        WEXITSTATUS(status) < 128 + 32) {
        /* bubblewrap exits with 128 + N when its child was killed by signal N
         * (as a shell does): report the signal, not a status. */
        r->signaled = 1;
        r->signal = WEXITSTATUS(status) - 128;
    } else if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->signaled = 1;
        r->signal = WTERMSIG(status);
    }
    return 0;
}

int proc_ok(const proc_result *r)
{
    return r->started && !r->timed_out && !r->disk_exceeded && r->exited && r->exit_code == 0;
}

void proc_describe(const proc_result *r, strbuf *b)
{
    if (!r->started)
        sb_printf(b, "could not start: %s", r->spawn_error);
    else if (r->timed_out)
        sb_printf(b, "killed after the %.0f s time limit", r->seconds);
    else if (r->disk_exceeded)
        sb_printf(b, "killed: it wrote more files than allowed (over %lld MB, or more than %d files)",
                  r->watch_limit_mb, WATCH_MAX_ENTRIES);
    else if (r->signaled) {
        const char *what = r->signal == SIGSEGV   ? ": segmentation fault"
                           : r->signal == SIGABRT ? ": abort"
                           : r->signal == SIGKILL ? ": killed"
                           : r->signal == SIGXFSZ ? ": file size limit exceeded"
                           : r->signal == SIGXCPU ? ": CPU time limit exceeded"
                           : r->signal == SIGFPE  ? ": arithmetic exception"
                           : r->signal == SIGBUS  ? ": bus error"
                                                  : "";
        const char *abbrev = sigabbrev_np(r->signal);
        sb_printf(b, "crashed: signal %d (SIG%s)%s", r->signal, abbrev ? abbrev : "?", what);
    } else
        sb_printf(b, "exited with status %d", r->exit_code);
}

int proc_capture(const char *const argv[], const char *cwd, double timeout_s, size_t cap, strbuf *out)
{
    proc_opts o = {0};
    o.timeout_s = timeout_s;
    o.cwd = cwd;
    o.out_cap = cap;
    proc_result r;
    proc_run(argv, &o, &r);
    int ok = proc_ok(&r);
    if (ok)
        sb_add(out, sb_str(&r.out));
    proc_result_free(&r);
    return ok ? 0 : -1;
}
