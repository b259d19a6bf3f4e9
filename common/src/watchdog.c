/* watchdog.c - a student call that does not return ends the run (watchdog.h). */
#include "kit/watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit/protocol.h"
#include "kit/util.h"


static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, armed;
    unsigned long gen;
    double t0, limit, grace;
    double held, hold_t0, hold_max; /* the call's held seconds so far; since when it is held (0: not) */
    int hold_depth;
    char call[64];
    char dir[1024];
    const char *(*kernels)(void);
    char skip[1024], skipped[64];
} W = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The call did not return: its record, one line, the end. */
static void fire(const char *call, double limit, double seconds)
{
    const char *kernel = W.kernels ? W.kernels() : NULL;
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", W.dir, KIT_HANG_FILE);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
        char line[512];
        int len = snprintf(line, sizeof line, "%s\t%.3f\t%.3f\t%s\n", call, limit, seconds,
                           kernel && *kernel ? kernel : "-");
        if (write(fd, line, (size_t)len) != len)
            fprintf(stderr, "kit: could not write %s\n", path);
        close(fd);
    }
    fprintf(stderr, "kit: %s() did not return within %.1f s: the run was ended\n", call, seconds);
    fflush(stderr);
    _exit(KIT_EXIT_HUNG);
}

/* The armed call's seconds that count at `now`: all but the held ones, of
 * which at most hold_max are left out.  W.mu held. */
static double counted(double now)
{
    double held = W.held + (W.hold_t0 > 0 ? now - W.hold_t0 : 0);
    return now - W.t0 - (held < W.hold_max ? held : W.hold_max);
}

static void *watch(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&W.mu);
    for (;;) {
        while (!W.armed)
            pthread_cond_wait(&W.cv, &W.mu);
        unsigned long gen = W.gen;
        double allowed = W.limit * W.grace, seconds;
        /* Woken by the clock, or by a hold starting or ending (which moves the deadline). */
        while (W.armed && W.gen == gen && (seconds = counted(mono())) < allowed) {
            double at = mono() + (allowed - seconds);
            struct timespec ts = {(time_t)at, (long)((at - (time_t)at) * 1e9)};
            pthread_cond_timedwait(&W.cv, &W.mu, &ts);
        }
        if (W.armed && W.gen == gen) {
            char call[64];
            snprintf(call, sizeof call, "%s", W.call);
            double limit = W.limit;
            pthread_mutex_unlock(&W.mu);
            fire(call, limit, seconds); /* does not return */
        }
    }
    return NULL;
}

void kit_watchdog_setup(const char *hang_dir, double limit_s, double grace, double hold_max_s)
{
    W.hold_max = hold_max_s > 0 ? hold_max_s : 0;
    snprintf(W.dir, sizeof W.dir, "%s", hang_dir && *hang_dir ? hang_dir : ".");
    W.limit = limit_s;
    W.grace = grace >= 1 ? grace : 1;
}

void kit_watchdog_limit(double limit_s) { W.limit = limit_s; }

void kit_watchdog_kernel_source(const char *(*kernels)(void)) { W.kernels = kernels; }

/* The thread, once, the first time a call is armed with a limit. */
static int start_thread(void)
{
    if (W.started)
        return W.started > 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&W.cv);
    pthread_cond_init(&W.cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t t;
    W.started = pthread_create(&t, NULL, watch, NULL) == 0 ? 1 : -1;
    if (W.started > 0)
        pthread_detach(t);
    else /* the grader's backstop limit still ends a call that never returns */
        fprintf(stderr, "kit: no watchdog thread (%s): a call that does not return ends only at the run's limit\n",
                strerror(errno));
    return W.started > 0;
}

void kit_watchdog_arm(const char *call)
{
    if (W.limit <= 0 || !start_thread())
        return;
    pthread_mutex_lock(&W.mu);
    snprintf(W.call, sizeof W.call, "%s", call ? call : "the call");
    W.t0 = mono();
    W.held = W.hold_t0 = 0;
    W.hold_depth = 0;
    W.gen++;
    W.armed = 1;
    pthread_cond_signal(&W.cv);
    pthread_mutex_unlock(&W.mu);
}

void kit_watchdog_hold(int on)
{
    pthread_mutex_lock(&W.mu);
    if (W.armed) {
        double now = mono();
        if (on && W.hold_depth++ == 0)
            W.hold_t0 = now;
        else if (!on && W.hold_depth > 0 && --W.hold_depth == 0) {
            W.held += now - W.hold_t0;
            W.hold_t0 = 0;
        }
        pthread_cond_signal(&W.cv);
    }
    pthread_mutex_unlock(&W.mu);
}

double kit_watchdog_disarm(void)
{
    pthread_mutex_lock(&W.mu);
    double seconds = W.armed ? counted(mono()) : 0;
    W.armed = 0;
    pthread_cond_signal(&W.cv);
    pthread_mutex_unlock(&W.mu);
    return seconds;
}

int kit_watchdog_overran(double seconds) { return W.limit > 0 && W.grace > 1 && seconds > W.limit; }

void kit_calls_skip(const char *list) { snprintf(W.skip, sizeof W.skip, "%s", list ? list : ""); }

int kit_call_skipped(const char *call)
{
    if (!kit_list_has(W.skip, call))
        return 0;
    snprintf(W.skipped, sizeof W.skipped, "%s", call);
    return 1;
}

const char *kit_call_skipped_last(void) { return W.skipped; }

int kit_hang_parse(const char *line, kit_hang_record *h)
{
    memset(h, 0, sizeof *h);
    const char *t1 = strchr(line, '\t');
    if (!t1 || t1 == line || (size_t)(t1 - line) >= sizeof h->call)
        return -1;
    memcpy(h->call, line, (size_t)(t1 - line));
    char *end;
    h->limit_s = strtod(t1 + 1, &end);
    if (end == t1 + 1 || *end != '\t')
        return -1;
    const char *s = end + 1;
    h->seconds = strtod(s, &end);
    if (end == s || *end != '\t')
        return -1;
    s = end + 1;
    size_t len = strcspn(s, "\n");
    if (len == 0 || len >= sizeof h->kernel)
        return -1;
    memcpy(h->kernel, s, len);
    if (!strcmp(h->kernel, "-"))
        h->kernel[0] = 0;
    return h->limit_s > 0 && h->seconds >= 0 ? 0 : -1;
}
