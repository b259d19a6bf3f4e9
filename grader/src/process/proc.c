/* proc.c - run a program with limits, capture its output, kill it on time (see proc.h). */
#include "process/proc.h"

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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "process/sandbox.h"

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
static void child(const char *const argv[], const proc_opts *o, int out_w, int err_w, int ctl, int ctl_fd,
                  pid_t parent)
{
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        _exit(126);
    /* The control channel survives the exec: dup2 clears close-on-exec, and
     * when it already is ctl_fd the flag is cleared by hand. */
    if (ctl >= 0 && (ctl == ctl_fd ? fcntl(ctl, F_SETFD, 0) : dup2(ctl, ctl_fd)) < 0)
        _exit(126);
    for (int fd = 3; fd < 1024; fd++)
        if (ctl < 0 || fd != ctl_fd)
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

static int over_disk_limit(const char *dir, long long max_bytes)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    long entries = 0;
    long long used = dir_usage(fd, 0, &entries, WATCH_MAX_ENTRIES);
    return used < 0 || used > max_bytes;
}

/* Children of ours that are still in a conversation (proc_start without
 * proc_end yet): a case server lives on while other programs (the checker)
 * run and end, and must not be taken for their orphan. */
#define MAX_LIVE 16
static pid_t live[MAX_LIVE];

static void set_live(pid_t pid, int on)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (on ? live[i] == 0 : live[i] == pid) {
            live[i] = on ? pid : 0;
            return;
        }
}

static int is_live(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == pid)
            return 1;
    return 0;
}

/* Kills and reaps descendants that escaped the process group: as subreaper we
 * inherit orphans; kill every process whose parent is us (except `keep` and
 * the children still in a conversation). */
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
            if (pid <= 0 || pid == keep || is_live(pid))
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
                /* reaped one by one: waitpid(-1) could take the exit of a
                 * live child, whose status is its own caller's to read */
                waitpid(pid, NULL, WNOHANG);
            }
        }
        closedir(d);
        if (!found)
            return;
        usleep(10000);
    }
}

/* A started child and what is being collected of it (proc_run, proc_start). */
struct proc_session {
    pid_t pid;
    int out_fd, err_fd, ctl_fd; /* ctl_fd: the parent's end of the control channel, -1 when none */
    int pid_fd;                 /* readable when the child has exited (pidfd_open); -1: not available */
    int idle_ms;                /* the next sleep while nothing can be polled (no pid_fd) */
    int out_open, err_open, exited;
    int status;
    capture out, err;
    double t0, next_watch;
    const char *watch_dir;
    long long watch_max_bytes;
    int use_bwrap;
    proc_result *r;
    char line[4096]; /* control bytes received, not yet a whole line */
    size_t line_len;
};

static void kill_group(proc_session *s)
{
    kill(-s->pid, SIGKILL);
    kill(s->pid, SIGKILL);
}

/* Reads what stdout and stderr hold now, without waiting. */
static void drain_now(proc_session *s)
{
    for (int i = 0; i < 64 && s->out_open; i++) {
        size_t before = *s->out.total;
        s->out_open = drain(s->out_fd, &s->out);
        if (*s->out.total == before)
            break;
    }
    for (int i = 0; i < 64 && s->err_open; i++) {
        size_t before = *s->err.total;
        s->err_open = drain(s->err_fd, &s->err);
        if (*s->err.total == before)
            break;
    }
}

/* Takes one whole control line out of s->line into buf; 1 when there was one. */
static int take_line(proc_session *s, char *buf, size_t len)
{
    char *nl = memchr(s->line, '\n', s->line_len);
    if (!nl)
        return 0;
    size_t n = (size_t)(nl - s->line);
    size_t k = n < len - 1 ? n : len - 1;
    memcpy(buf, s->line, k);
    buf[k] = 0;
    memmove(s->line, nl + 1, s->line_len - n - 1);
    s->line_len -= n + 1;
    return 1;
}

enum { PUMP_EXITED = 0, PUMP_LINE = 1, PUMP_KILLED = -1 };

/* Collects output until the child exits (PUMP_EXITED), a whole control line
 * arrives (PUMP_LINE: in buf, stdout and stderr read up to it), or the
 * deadline passes or the watched folder overflows (PUMP_KILLED: the group is
 * killed, r->timed_out or r->disk_exceeded says which).  deadline <= 0: none. */
static int pump(proc_session *s, double deadline, char *buf, size_t len)
{
    if (buf && take_line(s, buf, len)) {
        drain_now(s);
        return PUMP_LINE;
    }
    while (!s->exited) {
        double left = deadline > 0 ? deadline - now() : 1.0;
        if (left <= 0) {
            s->r->timed_out = 1;
            kill_group(s);
            return PUMP_KILLED;
        }
        if (s->watch_dir && now() >= s->next_watch) {
            if (over_disk_limit(s->watch_dir, s->watch_max_bytes)) {
                s->r->disk_exceeded = 1;
                s->r->watch_limit_mb = s->watch_max_bytes >> 20;
                kill_group(s);
                return PUMP_KILLED;
            }
            s->next_watch = now() + 0.25;
        }
        struct pollfd fds[4];
        int nf = 0;
        if (s->out_open)
            fds[nf++] = (struct pollfd){s->out_fd, POLLIN, 0};
        if (s->err_open)
            fds[nf++] = (struct pollfd){s->err_fd, POLLIN, 0};
        if (s->ctl_fd >= 0 && buf)
            fds[nf++] = (struct pollfd){s->ctl_fd, POLLIN, 0};
        int ms = (int)(left * 1000 < 100 ? left * 1000 + 1 : 100);
        /* The child's exit wakes the poll (its pidfd): a child that closed
         * its pipes before exiting is reaped at once, not after a 100 ms
         * sleep (one per process run added up to seconds per check).
         * Without a pidfd, short sleeps first, growing to 100 ms. */
        struct pollfd *exit_fd = NULL;
        if (s->pid_fd >= 0) {
            exit_fd = &fds[nf];
            fds[nf++] = (struct pollfd){s->pid_fd, POLLIN, 0};
        } else if (!s->out_open && !s->err_open) {
            ms = ms < s->idle_ms ? ms : s->idle_ms;
            s->idle_ms = s->idle_ms < 50 ? 2 * s->idle_ms : 100;
        }
        if (nf)
            poll(fds, (nfds_t)nf, ms);
        else
            usleep((useconds_t)ms * 1000);
        if (exit_fd) /* not one of the streams below */
            exit_fd->revents = 0, nf--;
        for (int i = 0; i < nf; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (fds[i].fd == s->out_fd)
                s->out_open = drain(s->out_fd, &s->out);
            else if (fds[i].fd == s->err_fd)
                s->err_open = drain(s->err_fd, &s->err);
            else {
                ssize_t n = read(s->ctl_fd, s->line + s->line_len, sizeof s->line - 1 - s->line_len);
                if (n > 0)
                    s->line_len += (size_t)n;
                else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                    close(s->ctl_fd); /* the child closed its end: wait for its exit */
                    s->ctl_fd = -1;
                }
                if (s->line_len == sizeof s->line - 1 && !memchr(s->line, '\n', s->line_len))
                    s->line_len = 0; /* an endless line is no message */
                if (take_line(s, buf, len)) {
                    drain_now(s);
                    return PUMP_LINE;
                }
            }
        }
        if (waitpid(s->pid, &s->status, WNOHANG) == s->pid)
            s->exited = 1;
    }
    return PUMP_EXITED;
}

proc_session *proc_start(const char *const argv[], const proc_opts *o, int ctl_fd, proc_result *r)
{
    proc_result_init(r);
    const char *full[MAX_ARGS + 1];
    char store[16384];
    int n = 0;
    if (o->sb && o->sb->use_bwrap) {
        n = sandbox_argv(o->sb, o->cwd ? o->cwd : "/", o->sb_rw, o->sb_ro, full, MAX_ARGS - 32, store, sizeof store);
        if (n < 0) {
            snprintf(r->spawn_error, sizeof r->spawn_error, "sandbox command line too long");
            return NULL;
        }
    }
    for (int i = 0; argv[i] && n < MAX_ARGS; i++)
        full[n++] = argv[i];
    full[n] = NULL;

    proc_session *s = calloc(1, sizeof *s);
    int out_p[2], err_p[2], ctl_p[2] = {-1, -1};
    if (!s || pipe2(out_p, O_CLOEXEC) != 0) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "pipe: %s", strerror(errno));
        free(s);
        return NULL;
    }
    if (pipe2(err_p, O_CLOEXEC) != 0 || (ctl_fd > 2 && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl_p) != 0)) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "pipe: %s", strerror(errno));
        close(out_p[0]), close(out_p[1]);
        free(s);
        return NULL;
    }
    s->t0 = now();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(r->spawn_error, sizeof r->spawn_error, "fork: %s", strerror(errno));
        close(out_p[0]), close(out_p[1]), close(err_p[0]), close(err_p[1]);
        if (ctl_p[0] >= 0)
            close(ctl_p[0]), close(ctl_p[1]);
        free(s);
        return NULL;
    }
    if (pid == 0)
        child(full, o, out_p[1], err_p[1], ctl_p[1], ctl_fd, parent);
    setpgid(pid, pid); /* also in the parent: no race with the kill below */
    r->started = 1;
    close(out_p[1]);
    close(err_p[1]);
    if (ctl_p[1] >= 0)
        close(ctl_p[1]);
    fcntl(out_p[0], F_SETFL, O_NONBLOCK);
    fcntl(err_p[0], F_SETFL, O_NONBLOCK);
    if (ctl_p[0] >= 0)
        fcntl(ctl_p[0], F_SETFL, O_NONBLOCK);

    size_t out_cap = o->out_cap ? o->out_cap : DEFAULT_CAP, err_cap = o->err_cap ? o->err_cap : DEFAULT_CAP;
    s->pid = pid;
    s->out_fd = out_p[0], s->err_fd = err_p[0], s->ctl_fd = ctl_p[0];
#ifdef SYS_pidfd_open
    s->pid_fd = (int)syscall(SYS_pidfd_open, pid, 0); /* Linux 5.3 and later; else -1 */
    if (s->pid_fd >= 0)
        fcntl(s->pid_fd, F_SETFD, FD_CLOEXEC);
#else
    s->pid_fd = -1;
#endif
    s->idle_ms = 1;
    s->out = (capture){&r->out, out_cap, &r->out_total, NULL, 0, 0, 0};
    s->err = (capture){&r->err, err_cap / 2, &r->err_total, malloc(err_cap - err_cap / 2), err_cap - err_cap / 2, 0, 0};
    if (!s->err.ring)
        s->err.head = err_cap, s->err.ring_cap = 0;
    s->out_open = s->err_open = 1;
    s->next_watch = s->t0 + 0.25;
    s->watch_dir = o->watch_dir;
    s->watch_max_bytes = o->watch_max_bytes;
    s->use_bwrap = o->sb && o->sb->use_bwrap;
    s->r = r;
    set_live(pid, 1);
    return s;
}

int proc_send(proc_session *s, const char *line)
{
    if (!s || s->ctl_fd < 0)
        return -1;
    size_t n = strlen(line), done = 0;
    while (done < n) {
        struct pollfd p = {s->ctl_fd, POLLOUT, 0};
        if (poll(&p, 1, 1000) <= 0) /* the child reads nothing: it is stuck or gone */
            return -1;
        ssize_t k = send(s->ctl_fd, line + done, n - done, MSG_NOSIGNAL);
        if (k < 0 && errno != EINTR && errno != EAGAIN)
            return -1;
        done += k > 0 ? (size_t)k : 0;
    }
    return 0;
}

int proc_receive(proc_session *s, double timeout_s, char *buf, size_t len)
{
    if (!s)
        return -1;
    int got = pump(s, timeout_s > 0 ? now() + timeout_s : 0, buf, len);
    return got == PUMP_LINE ? 1 : got == PUMP_EXITED ? 0 : -1;
}

int proc_poll(proc_session *s, char *buf, size_t len)
{
    if (!s)
        return 0;
    if (take_line(s, buf, len))
        return 1;
    if (s->ctl_fd < 0)
        return 0;
    struct pollfd p = {s->ctl_fd, POLLIN, 0};
    if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN))
        return 0;
    ssize_t n = read(s->ctl_fd, s->line + s->line_len, sizeof s->line - 1 - s->line_len);
    if (n > 0)
        s->line_len += (size_t)n;
    if (s->line_len == sizeof s->line - 1 && !memchr(s->line, '\n', s->line_len))
        s->line_len = 0; /* an endless line is no message */
    return take_line(s, buf, len);
}

void proc_signal(proc_session *s, int sig)
{
    if (s && !s->exited)
        kill(-s->pid, sig);
}

void proc_kill(proc_session *s)
{
    if (s && !s->exited)
        kill_group(s);
}

int proc_exited(proc_session *s)
{
    if (!s)
        return 1;
    drain_now(s);
    if (!s->exited && waitpid(s->pid, &s->status, WNOHANG) == s->pid)
        s->exited = 1;
    return s->exited;
}

size_t proc_stdout_len(const proc_session *s) { return s ? s->r->out.len : 0; }

void proc_hang_up(proc_session *s)
{
    if (s && s->ctl_fd >= 0)
        shutdown(s->ctl_fd, SHUT_WR);
}

void proc_end(proc_session *s, double timeout_s)
{
    if (!s)
        return;
    proc_result *r = s->r;
    proc_hang_up(s); /* end of the conversation: the child sees EOF */
    if (!r->timed_out && !r->disk_exceeded)
        pump(s, timeout_s > 0 ? now() + timeout_s : 0, NULL, 0);
    if (!s->exited) {
        while (waitpid(s->pid, &s->status, 0) < 0 && errno == EINTR)
            ;
    }
    /* Whatever is still buffered in the pipes (bounded: the writers are gone or killed). */
    kill(-s->pid, SIGKILL);
    set_live(s->pid, 0);
    reap_orphans(0);
    if (s->out_open)
        drain_rest(s->out_fd, &s->out);
    if (s->err_open)
        drain_rest(s->err_fd, &s->err);
    r->out_capped = capture_finish(&s->out);
    r->err_capped = capture_finish(&s->err);
    close(s->out_fd);
    close(s->err_fd);
    if (s->ctl_fd >= 0)
        close(s->ctl_fd);
    if (s->pid_fd >= 0)
        close(s->pid_fd);
    r->seconds = now() - s->t0;
    int status = s->status;
    if (WIFEXITED(status) && s->use_bwrap && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 32) {
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
    free(s);
}

int proc_run(const char *const argv[], const proc_opts *o, proc_result *r)
{
    proc_session *s = proc_start(argv, o, -1, r);
    if (!s)
        return -1;
    proc_end(s, o->timeout_s);
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
