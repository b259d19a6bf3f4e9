/* proc.h - running an untrusted program with limits, and collecting what it did.
 *
 * The child gets its own process group, stdin from /dev/null, a minimal
 * environment, resource limits (memory, processes, file size, CPU time) and,
 * when configured, a bubblewrap sandbox and an unprivileged uid.  stdout and
 * stderr are read through pipes: the first `cap` bytes of stdout are kept;
 * of stderr the first and the last half of `cap` (the error that ends a
 * flood is what a student needs to see); the rest is counted and thrown
 * away (a flood cannot fill the disk or the memory).  At the wall-clock
 * limit the whole process group is killed; orphans that escaped the group
 * are reaped too (the grader is their subreaper).  Optionally the size of a
 * folder the program may write is watched: past the limit it is killed.
 */
#ifndef GRADER_PROC_H
#define GRADER_PROC_H
#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"

typedef struct sandbox sandbox; /* sandbox.h */

typedef struct {
    double timeout_s;       /* wall clock; <= 0: none */
    long mem_mb;            /* RLIMIT_DATA; 0: none */
    long nproc;             /* RLIMIT_NPROC; 0: none (only effective for an unprivileged uid) */
    long fsize_mb;          /* RLIMIT_FSIZE; 0: none */
    size_t out_cap, err_cap;/* bytes of stdout/stderr kept (0: 64 KiB) */
    const char *cwd;        /* working directory (inside the sandbox: the same path) */
    const char *const *env; /* NULL-terminated "K=V" list; NULL: a minimal default */
    const sandbox *sb;      /* NULL: no sandbox */
    const char *const *sb_rw; /* extra paths bound read-write in the sandbox (NULL-terminated) */
    const char *const *sb_ro; /* extra paths bound read-only */
    int drop_uid;           /* run as the sandbox uid (root only) */
    const char *watch_dir;  /* killed when the files under it exceed watch_max_bytes */
    long long watch_max_bytes;
} proc_opts;

typedef struct {
    int started;            /* 0: could not start (spawn_error says why) */
    int exited, exit_code;  /* normal exit */
    int signaled, signal;   /* killed by a signal */
    int timed_out;          /* killed by us at the time limit */
    double seconds;
    strbuf out, err;        /* kept output (raw bytes, NUL-terminated) */
    size_t out_total, err_total; /* bytes produced, kept or not */
    int out_capped, err_capped;  /* some of it was not kept */
    int disk_exceeded;      /* killed: watch_dir grew past watch_max_bytes (or too many files) */
    long long watch_limit_mb;
    char spawn_error[256];
} proc_result;

int proc_run(const char *const argv[], const proc_opts *o, proc_result *r);
void proc_result_init(proc_result *r);
void proc_result_free(proc_result *r);
/* One phrase: "exited with status 3", "crashed: SIGSEGV (segmentation fault)",
 * "killed after the 10 s time limit", "killed: it wrote more than 2048 MB
 * of files", "could not start: ...". */
void proc_describe(const proc_result *r, strbuf *b);
/* 1 when it exited with status 0. */
int proc_ok(const proc_result *r);
/* Runs a trusted tool (sha256sum, sim_c) in cwd, no sandbox: 0 with its
 * stdout (at most cap bytes) appended to out, -1 when it did not exit 0. */
int proc_capture(const char *const argv[], const char *cwd, double timeout_s, size_t cap, strbuf *out);
/* Make this process the subreaper of its descendants (call once at start). */
void proc_become_subreaper(void);

#endif
