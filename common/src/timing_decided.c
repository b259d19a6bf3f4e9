/* timing_decided.c - whether the timed pairs so far decide a performance
 * test's score (see kit/timing_decided.h for the rule and why it holds). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/timing_decided.h"

int kit_decided_parse(const char *text, kit_decided *d, char *why, size_t len)
{
    char *end = NULL, *end2 = NULL;
    double lo = text ? strtod(text, &end) : NAN;
    double hi = end && end != text && *end == ',' ? strtod(end + 1, &end2) : NAN;
    if (!end2 || end2 == end + 1 || *end2 || !isfinite(lo) || !isfinite(hi) || !(lo >= 0) || !(lo < hi)) {
        snprintf(why, len, "--decided '%s': must be MIN,FULL, two numbers with 0 <= MIN < FULL (the rubric's "
                 "min_speedup and threshold)", text ? text : "");
        return -1;
    }
    d->given = 1, d->min_speedup = lo, d->full = hi;
    if (len)
        why[0] = 0;
    return 0;
}

int kit_timing_decided(const kit_decided *d, const double *student_ms, const double *baseline_ms, int n)
{
    if (!d || !d->given || n < KIT_DECIDED_MIN_PAIRS)
        return KIT_DECIDED_NOT;
    int full = 1, none = 1;
    for (int i = 0; i < n && (full || none); i++) {
        if (!(student_ms[i] > 0) || !(baseline_ms[i] > 0))
            return KIT_DECIDED_NOT;
        double s = baseline_ms[i] / student_ms[i];
        full = full && s >= d->full * KIT_DECIDED_MARGIN;
        none = none && s <= d->min_speedup / KIT_DECIDED_MARGIN;
    }
    return full ? KIT_DECIDED_FULL : none ? KIT_DECIDED_NONE : KIT_DECIDED_NOT;
}
