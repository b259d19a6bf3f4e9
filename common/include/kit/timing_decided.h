/* timing_decided.h - when a performance test's score is decided before all
 * of its timed calls (timing.cu stops there; timing_decided.c decides).
 *
 * A performance test gives full points at or above a speedup `full` (the
 * rubric's threshold) and none at or below `min_speedup`.  The grader tells
 * the runner both (`--decided MIN,FULL`, grader/src/grading/cases.c) when
 * the case's speedup alone is the test's score (a test of one case: with
 * several, the score is their geometric mean, which no one case decides).
 * The timed pairs then stop as soon as every pair so far is far beyond one
 * bound: at least KIT_DECIDED_MIN_PAIRS pairs (and, timing.cu, a round's
 * least duration), and each pair's speedup (baseline / student) at least
 * full x KIT_DECIDED_MARGIN, or each at most min_speedup / KIT_DECIDED_MARGIN.  What is reported is the median of
 * those pairs, which lies beyond the same bound (when every b_i >= k a_i,
 * median(b) >= k median(a)), so the score is the one the full timing gives;
 * anything nearer the bounds is timed exactly as without them.
 */
#ifndef KIT_TIMING_DECIDED_H
#define KIT_TIMING_DECIDED_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Pairs timed before an early stop, at the least.  The timing alternates
 * A B, B A, ... (timing.cu): 3 pairs hold both orders (a B that always ran
 * right after A cannot decide alone) and one pair that a disturbance made
 * look far better than it is cannot decide either, as the others must agree. */
#define KIT_DECIDED_MIN_PAIRS 3
/* How far beyond a bound every pair must be.  The reference's speedup
 * spreads by a few percent between gradings (make bench-grader), a single
 * pair's by more: 25% is several spreads, so a case stopped early would not
 * have crossed the bound in any full timing. */
#define KIT_DECIDED_MARGIN 1.25

typedef struct {
    int given;          /* 0: no bounds, time as always */
    double min_speedup; /* no points at or below */
    double full;        /* full points at or above */
} kit_decided;

/* What the pairs so far decide. */
enum { KIT_DECIDED_NOT = 0, KIT_DECIDED_FULL = 1, KIT_DECIDED_NONE = -1 };

/* "MIN,FULL" (two numbers, 0 <= MIN < FULL, as the rubric demands) into *d;
 * 0, or -1 with one line in why naming the value and what is allowed. */
int kit_decided_parse(const char *text, kit_decided *d, char *why, size_t len);

/* After n timed pairs (student_ms[i], baseline_ms[i], in timing order):
 * KIT_DECIDED_FULL, KIT_DECIDED_NONE, or KIT_DECIDED_NOT (no bounds, fewer
 * than KIT_DECIDED_MIN_PAIRS pairs, a pair nearer a bound, a time <= 0). */
int kit_timing_decided(const kit_decided *d, const double *student_ms, const double *baseline_ms, int n);

#ifdef __cplusplus
}
#endif
#endif
