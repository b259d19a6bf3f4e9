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
#include "util/strbuf.h"

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

/* A conversation with a child that serves many requests (the runner's
 * `serve` mode): proc_start starts argv like proc_run, except that the
 * child also gets one end of a socket pair as descriptor ctl_fd (> 2; -1:
 * none) and no time limit of its own; each proc_receive has one.  r is
 * filled as the child runs and completed by proc_end. */
typedef struct proc_session proc_session;
proc_session *proc_start(const char *const argv[], const proc_opts *o, int ctl_fd, proc_result *r);
/* Sends one line (with its newline) to the child: 0, or -1 when it cannot take it. */
int proc_send(proc_session *s, const char *line);
/* Waits at most timeout_s for one line from the child, collecting its output
 * meanwhile: 1 with the line (no newline) in buf and stdout/stderr read up to
 * it; 0 when the child exited first; -1 when it was killed at the time limit
 * (r->timed_out) or for its files (r->disk_exceeded). */
int proc_receive(proc_session *s, double timeout_s, char *buf, size_t len);
/* One line from the child if one is there now, without waiting (and
 * without the time limit's kill): 1 with it in buf, else 0. */
int proc_poll(proc_session *s, char *buf, size_t len);
/* Sends sig to the child's process group (SIGSTOP while it must do nothing,
 * SIGCONT after), unless it exited. */
void proc_signal(proc_session *s, int sig);
/* Kills the child's process group now (it broke the conversation's rules). */
void proc_kill(proc_session *s);
/* Has the child exited?  Reads what its output holds now (a child blocked
 * on a full pipe goes on) and waits for nothing: 1 when it has exited (then
 * proc_end completes r at once), else 0. */
int proc_exited(proc_session *s);
/* Bytes of stdout kept so far (r->out.len while the child runs). */
size_t proc_stdout_len(const proc_session *s);
/* Ends the conversation (the child reads EOF) without waiting: the child
 * may exit meanwhile (its CUDA context torn down beside other work), and
 * proc_end collects it later. */
void proc_hang_up(proc_session *s);
/* Ends the conversation (the child reads EOF), waits at most timeout_s for its
 * exit, then kills what is left and completes r.  Frees s. */
void proc_end(proc_session *s, double timeout_s);
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
