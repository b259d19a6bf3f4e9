/* spool.h - the course spool: students' hand-ins, kept for grading.
 *
 * Layout (made by `kitgrade spool-init SPOOL`, run by the instructor):
 *
 *   SPOOL/                      0755, the instructor's
 *   SPOOL/lab07/                1733 (sticky; anyone may create an entry, nobody
 *                               but its owner and the instructor can list or remove);
 *                               with --group STAFF: 3753, group STAFF, setgid, so the
 *                               course staff can list and read without being root
 *   SPOOL/lab07/.kit-spool      marker (the lab's name), the instructor's
 *   SPOOL/lab07/<login>/        created by the student's first hand-in, 0700 (2750 with a group)
 *   SPOOL/lab07/<login>/<UTC time>[-N]/   one folder per hand-in, never overwritten:
 *                               the manifest's files, answers.md, RECEIPT.txt
 *
 * No setuid program: a student writes their own folder through ordinary
 * permissions.  What a student could forge - the file times, the receipt -
 * is therefore never trusted: a version's time is the latest inode change
 * time (ctime) of its folder and files, which no unprivileged user can set
 * back.  The cut-off check at hand-in time is a courtesy; the grader
 * enforces it.  A folder whose owner is not the login it is named after
 * (someone squatting another student's name) is reported, not graded.
 */
#ifndef GRADER_SPOOL_H
#define GRADER_SPOOL_H
#include <stddef.h>
#include "grading/engine.h"

#define SPOOL_MARKER ".kit-spool"
#define ANSWERS_FILE "answers.md"
#define ANSWERS_MAX_BYTES (64u << 10)

/* One student of a lab folder of the spool: the version to grade. */
typedef struct {
    char login[256];
    char dir[4096];      /* the version folder to grade; "" when none may be graded */
    char version[64];    /* its name */
    long long t;         /* its time (ctime, seconds) */
    int n_versions, n_after_cutoff;
    char why[512];       /* when dir is "": why nothing is graded */
} spool_pick;

/* 1 when dir is a lab folder of a spool (holds the marker). */
int spool_is_lab_folder(const char *dir);
/* Picks each student's last version before the rubric's cut-off.  Returns
 * the number of students (*out malloc'ed, sorted by login), or -1 with err. */
int spool_pick_versions(const char *lab_dir, const rubric *r, spool_pick **out, char *err, size_t errlen);
/* Fills g's hand-in fields from the pick and applies the late policy to
 * g->score (after grade_result_total); notes what was done. */
void spool_apply_late_policy(const spool_pick *p, const rubric *r, grade_result *g);
/* Reads dir/answers.md (no symlinks, capped, sanitized) into g->answers. */
void spool_read_answers(const char *dir, grade_result *g);

/* `kitgrade spool-init SPOOL [--group G]`: the folders above for every lab. */
int spool_init(const char *kit_root, const char *spool, const char *group);
/* `kitgrade handin LAB [DIR]`: builds, copies, prints the receipt.  anyway:
 * hand in even when the build fails.  Returns the exit code. */
int spool_handin(engine *e, const char *dir, const char *work, int anyway);
/* The spool configured for this kit (KIT_ROOT/course.ini, [course] spool = ...). */
int spool_configured(const char *kit_root, char *out, size_t len, char *err, size_t errlen);

#endif
