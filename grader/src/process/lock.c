/* lock.c - per-GPU shared/exclusive locks, timing runs first (see lock.h). */
#include "process/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* KIT_LOCK_LOG=file: one line per hold (pid, shared/exclusive, when asked,
 * when got, when released), appended: where the GPU's time went in a run of
 * many gradings (for kit developers). */
static void log_hold(const gpu_lock *l, double released)
{
    const char *path = getenv("KIT_LOCK_LOG");
    if (!path || !*path || l->fd < 0)
        return;
    char line[160];
    int n = snprintf(line, sizeof line, "%d %s %.3f %.3f %.3f\n", (int)getpid(), l->exclusive ? "X" : "S",
                     l->asked_at, l->asked_at + l->waited_s, released);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) < 0) {
        }
        close(fd);
    }
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Opens (creating, world-writable) a lock file; students share one GPU. */
static int open_lock(const char *device, const char *suffix)
{
    if (!device) /* machine-wide: suffix is the whole name */
        device = "";
    const char *dir = getenv("KIT_LOCK_DIR");
    char path[1024], safe[128];
    size_t k = 0;
    for (const char *p = device; *p && k < sizeof safe - 1; p++)
        safe[k++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'
                               ? *p
                               : '_');
    safe[k] = 0;
    if (device[0])
        snprintf(path, sizeof path, "%s/kit-gpu-%s.%s", dir && *dir ? dir : "/tmp", safe, suffix);
    else
        snprintf(path, sizeof path, "%s/kit-%s", dir && *dir ? dir : "/tmp", suffix);
    /* Open an existing file without O_CREAT first: with fs.protected_regular
     * another user's file in a sticky /tmp cannot be opened with O_CREAT. */
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        mode_t old = umask(0);
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        umask(old);
        if (fd < 0 && errno == EEXIST)
            fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    return fd;
}

static void holder_info(int fd, char *buf, size_t len)
{
    buf[0] = 0;
    ssize_t n = pread(fd, buf, len - 1, 0);
    if (n > 0) {
        buf[n] = 0;
        buf[strcspn(buf, "\n")] = 0;
    }
}

int gpu_lock_acquire(gpu_lock *l, const char *device, int exclusive, FILE *log)
{
    l->fd = l->writers_fd = -1;
    l->exclusive = exclusive;
    l->waited_s = 0;
    l->asked_at = wall();
    int writers = open_lock(device, "writers"), fd = open_lock(device, "lock");
    if (writers < 0 || fd < 0) {
        if (log)
            fprintf(log, "warning: cannot use the GPU lock files in %s (%s); running without the lock\n",
                    getenv("KIT_LOCK_DIR") ? getenv("KIT_LOCK_DIR") : "/tmp", strerror(errno));
        if (writers >= 0)
            close(writers);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    double t0 = now();
    int announced = 0;
    if (exclusive) {
        /* Counted among the timing runs that wait or time (shared holds of
         * the writers file) until the release: no new shared hold starts
         * meanwhile, so the runs that queue while the GPU's shared holders
         * finish then time one after another, without a wait for another
         * round of shared holders each (a convoy: 50 timing runs waited
         * 105 s each behind one grading's correctness phase after another). */
        while (flock(writers, LOCK_SH) != 0 && errno == EINTR)
            ;
    } else if (flock(writers, LOCK_EX | LOCK_NB) != 0) {
        /* A shared hold waits while any timing run waits or times. */
        if (log) {
            fprintf(log, "waiting for the GPU (timing runs go first)...\n");
            fflush(log);
        }
        announced = 1;
        while (flock(writers, LOCK_EX) != 0 && errno == EINTR)
            ;
    }
    if (!exclusive) {
        flock(writers, LOCK_UN);
        close(writers);
        writers = -1;
    }
    int op = exclusive ? LOCK_EX : LOCK_SH;
    if (flock(fd, op | LOCK_NB) != 0) {
        if (log && !announced) {
            char who[256];
            holder_info(fd, who, sizeof who);
            fprintf(log, "waiting for the GPU (in use%s%s)...\n", who[0] ? " by " : "", who);
            fflush(log);
        }
        while (flock(fd, op) != 0 && errno == EINTR)
            ;
    }
    if (exclusive) {
        char who[160];
        int n = snprintf(who, sizeof who, "pid %d (uid %d) since %ld\n", (int)getpid(), (int)getuid(), (long)time(NULL));
        if (ftruncate(fd, 0) == 0 && pwrite(fd, who, (size_t)n, 0) < 0) {
        }
    }
    l->fd = fd;
    l->writers_fd = writers;
    l->waited_s = now() - t0;
    return 0;
}

/* A timing run's hold leaves the writers (lock.h): shared holds may start. */
static void leave_writers(gpu_lock *l)
{
    if (l->writers_fd >= 0) {
        flock(l->writers_fd, LOCK_UN);
        close(l->writers_fd);
    }
    l->writers_fd = -1;
}

void gpu_lock_share(gpu_lock *l)
{
    if (l->fd < 0 || !l->exclusive)
        return;
    log_hold(l, wall());
    l->asked_at = wall(), l->waited_s = 0;
    /* flock converts the held lock in place (Linux: under the file's lock
     * list, before a waiting timing run is woken), then leaves the writers */
    while (flock(l->fd, LOCK_SH) != 0 && errno == EINTR)
        ;
    leave_writers(l);
    l->exclusive = 0;
}

void gpu_lock_release(gpu_lock *l)
{
    if (l->fd >= 0) {
        log_hold(l, wall());
        flock(l->fd, LOCK_UN);
        close(l->fd);
    }
    leave_writers(l);
    l->fd = -1;
}

int gpu_lock_others(const char *device)
{
    int fd = open_lock(device, "lock");
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    FILE *f = fopen("/proc/locks", "r");
    if (!f)
        return -1;
    char line[256];
    int others = 0;
    while (fgets(line, sizeof line, f)) {
        /* "1: FLOCK  ADVISORY  READ  1234 08:01:5678 0 EOF" (a waiter: "1: -> FLOCK ...") */
        char kind[16], mode[16], rw[16];
        int pid;
        unsigned maj, min;
        unsigned long ino;
        const char *p = strchr(line, ':');
        if (!p)
            continue;
        p++;
        while (*p == ' ')
            p++;
        if (!strncmp(p, "->", 2))
            p += 2;
        if (sscanf(p, "%15s %15s %15s %d %x:%x:%lu", kind, mode, rw, &pid, &maj, &min, &ino) == 7 &&
            !strcmp(kind, "FLOCK") && ino == (unsigned long)st.st_ino && pid != (int)getpid())
            others++;
    }
    fclose(f);
    return others;
}

static int cpu_slots(void)
{
    const char *v = getenv("KIT_CPU_SLOTS");
    long n = v && *v ? strtol(v, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN) - 2;
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* Slot i's lock file (kit-cpu-slot.<i>), opened; -1 when unusable. */
static int open_slot(int i)
{
    char name[64];
    snprintf(name, sizeof name, "cpu-slot.%d", i);
    return open_lock(NULL, name);
}

void cpu_slot_acquire(cpu_slot *s)
{
    s->fd = -1;
    int n = cpu_slots();
    int fds[256];
    for (int i = 0; i < n; i++) {
        fds[i] = open_slot(i);
        if (fds[i] < 0) { /* unusable lock folder: go ahead (the GPU lock warns about it) */
            for (int k = 0; k < i; k++)
                close(fds[k]);
            return;
        }
    }
    /* The first free slot, polled: a holder is a build or a checker (seconds),
     * and whichever slot frees first is taken. */
    for (int tries = 0; s->fd < 0; tries++) {
        for (int i = 0; i < n && s->fd < 0; i++)
            if (flock(fds[i], LOCK_EX | LOCK_NB) == 0)
                s->fd = fds[i];
        if (s->fd < 0)
            usleep(tries < 10 ? 10000 : 50000);
    }
    for (int i = 0; i < n; i++)
        if (fds[i] != s->fd)
            close(fds[i]);
}

void cpu_slots_acquire_all(cpu_slot_all *s)
{
    int n = cpu_slots();
    s->n = 0;
    for (int i = 0; i < n; i++) {
        int fd = open_slot(i);
        if (fd < 0) /* unusable lock folder: go ahead (the GPU lock warns about it) */
            break;
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
        }
        s->fd[s->n++] = fd;
    }
}

void cpu_slots_release_all(cpu_slot_all *s)
{
    for (int i = 0; i < s->n; i++)
        close(s->fd[i]);
    s->n = 0;
}

void cpu_slot_release(cpu_slot *s)
{
    if (s->fd >= 0)
        close(s->fd); /* closing the last descriptor releases the flock */
    s->fd = -1;
}
