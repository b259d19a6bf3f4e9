/* sandbox.h - where submission processes run.
 *
 * With bubblewrap: a new mount namespace holding only the system folders
 * (read-only), the GPU device nodes, a private /tmp and /dev/shm (tmpfs,
 * limited in size where bwrap supports --size), the run's scratch folder
 * (read-write) and whatever kit paths the step needs (read-only); the root
 * and /dev are read-only (a file written there would take memory no limit
 * counts); no network (all namespaces unshared), a new session (no
 * terminal), killed with the grader.  The kit's own folder and the
 * submissions folder are masked by empty read-only tmpfs mounts if a system
 * bind would expose them.
 *
 * When the grader is root, submission processes run as an unprivileged uid.
 * Each grading job claims a uid of its own from a pool (KIT_SANDBOX_UIDS =
 * "FIRST COUNT", default 65600 64: above nobody, below the usual subuid
 * ranges; uids with a passwd/group entry or a running process are skipped):
 * RLIMIT_NPROC counts processes per uid, so a fork bomb in one submission
 * must not starve the builds and runs of the others graded at the same time.
 *
 * Without bubblewrap (or KIT_SANDBOX=none) only the resource limits and the
 * uid drop apply; the grader prints a warning saying so.
 */
#ifndef GRADER_SANDBOX_H
#define GRADER_SANDBOX_H
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define SANDBOX_MAX_HIDE 4

struct sandbox {
    int use_bwrap;
    char bwrap[512];
    int drop_uid;            /* the grader runs as root: run submissions as uid/gid */
    uid_t uid;
    gid_t gid;
    char why[256];           /* why there is no bwrap sandbox ("" when there is) */
    char hide[SANDBOX_MAX_HIDE][1024]; /* folders to mask (kit root, submissions) */
    int n_hide;
    int size_ok;             /* bwrap takes --size for a tmpfs */
    long tmpfs_mb;           /* size of the sandbox's /tmp and /dev/shm (0: bwrap's default) */
    int uid_fd;              /* lock on the claimed uid, -1 when none */
};
typedef struct sandbox sandbox;

/* Finds bubblewrap and checks that it works here (as the uid submissions
 * will run as).  Never fails: sb->use_bwrap says what was found. */
void sandbox_detect(sandbox *sb);
void sandbox_hide(sandbox *sb, const char *path);
/* Claims a uid of the pool for this grading job (root only; a no-op
 * otherwise), waiting while all are taken; it stays claimed until
 * sandbox_release_uid() or the process exits.  `log` (may be NULL) is told
 * about a wait.  Returns 0, or -1 (no usable uid: sb->uid stays nobody). */
int sandbox_claim_uid(sandbox *sb, FILE *log);
void sandbox_release_uid(sandbox *sb);
/* A line for the report when submissions are not fully sandboxed; NULL when they are. */
const char *sandbox_warning(const sandbox *sb);

/* Writes the bwrap command prefix for one process into argv (NULL-terminated
 * by the caller after appending the program).  Strings live in `store`.
 * Returns the number of arguments, or -1 when they do not fit. */
int sandbox_argv(const sandbox *sb, const char *cwd, const char *const *rw, const char *const *ro,
                 const char **argv, int max_args, char *store, size_t store_len);

#endif
