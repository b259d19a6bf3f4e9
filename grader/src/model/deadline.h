/* deadline.h - due dates and the late policy of a rubric.
 *
 * [rubric] may carry
 *   due = 2026-12-04 23:59 +01:00      (ISO 8601; a time zone is required:
 *                                        Z, UTC or +HH:MM/-HH:MM - never guessed)
 *   late_penalty = 10                  (percent of the score per day started after due)
 *   cutoff = 2026-12-07 23:59 +01:00   (hand-ins after it are refused and not graded)
 * A hand-in's time is when it reached the spool (spool.c).
 */
#ifndef GRADER_DEADLINE_H
#define GRADER_DEADLINE_H
#include <stddef.h>
#include "model/model.h"

/* "YYYY-MM-DD[T ]HH:MM[:SS][ ](Z|UTC|+HH:MM|-HH:MM)" -> seconds since the
 * epoch.  Returns 0, or -1 with what is allowed in err. */
int deadline_parse(const char *text, long long *out, char *err, size_t errlen);
/* "2026-12-04T22:59:00Z" */
void deadline_format(long long t, char *buf, size_t len);
/* Days started after due (0: on time or no due date). */
int deadline_late_days(const rubric *r, long long handed_in);
/* Percent taken from the score for a hand-in at that time (0..100). */
double deadline_penalty_pct(const rubric *r, long long handed_in);
/* 1 when the rubric has a cut-off and t is after it. */
int deadline_past_cutoff(const rubric *r, long long t);
/* One line about the policy for reports: "due ..., 10% per day late, cut-off ..." ("" when none). */
void deadline_describe(const rubric *r, char *buf, size_t len);

#endif
