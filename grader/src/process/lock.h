/* lock.h - one lock per GPU, so concurrent grading runs don't time each other.
 *
 * Correctness and sanitizer runs share the GPU (shared lock); a timing run
 * needs it alone (exclusive lock).  Timing runs go first: while one waits
 * or times (it holds the "writers" file shared), no new shared hold starts,
 * so a stream of shared holders cannot starve it, and the timing runs that
 * queue meanwhile time one after another once the shared holders are done,
 * not each behind a new round of them.  Locks are flock(2) on files in
 * KIT_LOCK_DIR (default /tmp), so a killed holder releases its lock at once.
 * Waiting is announced on `log` (once), with the holder's pid when known.
 */
#ifndef GRADER_LOCK_H
#define GRADER_LOCK_H
#include <stdio.h>

typedef struct {
    int fd;        /* the GPU's lock file, -1 when not held */
    int writers_fd; /* exclusive: the writers file, held shared until the release */
    int exclusive;
    double waited_s;
    double asked_at; /* wall-clock seconds when asked (KIT_LOCK_LOG) */
} gpu_lock;

/* device: a name for the GPU (its UUID).  Returns 0, or -1 (lock files not
 * usable: the run goes ahead unlocked, with a warning on log). */
int gpu_lock_acquire(gpu_lock *l, const char *device, int exclusive, FILE *log);
void gpu_lock_release(gpu_lock *l);
/* How many other processes hold (or hold queued behind them) this GPU's
 * lock now, from /proc/locks: 0 when this one uses the GPU alone, -1 when
 * it cannot be told.  What a student call's grace depends on (hang.c). */
int gpu_lock_others(const char *device);
/* An exclusive hold becomes a shared one without a wait behind the timing
 * runs queued meanwhile (a timing run between two timing loops). */
void gpu_lock_share(gpu_lock *l);

/* CPU slots: builds and checkers (the kit's CPU-heavy work that may overlap
 * a timing run) take one of N slots machine-wide, N = online CPUs - 2
 * (KIT_CPU_SLOTS overrides; none taken without a GPU), so a timing run finds free cores: a
 * student's call that includes host work (an allocation, a blocking copy)
 * is timed the same with 50 checks at once as alone.  Correctness and
 * sanitizer runs need no slot: they hold the GPU shared lock, so none runs
 * during a timing run.  Files kit-cpu-slot.<i> in KIT_LOCK_DIR; a holder that
 * dies releases its slot.  Never wait for a slot while holding a GPU lock. */
typedef struct {
    int fd; /* -1 when not held (or the slot files are unusable) */
} cpu_slot;
void cpu_slot_acquire(cpu_slot *s);
void cpu_slot_release(cpu_slot *s);
/* Every slot, each waited for in turn: from then on no build or checker of
 * the kit runs on this machine until the release.  For a timing run whose
 * copies between host and GPU share the host's memory with that work
 * (rubric `host = alone`: lab11's pinned round trips and streams measured
 * 1.63x alone, 1.34x beside 12 processes writing host memory, 1.06x in the
 * GPU suite).  Never while holding a GPU lock. */
typedef struct {
    int n, fd[256]; /* n = 0: none held */
} cpu_slot_all;
void cpu_slots_acquire_all(cpu_slot_all *s);
void cpu_slots_release_all(cpu_slot_all *s);

#endif
