/* timing_rule.c - when the grader's timing's warm-up ends (timing_rule.h). */
#include <math.h>

#include "kit/timing_rule.h"
#include "kit/util.h"

/* Have the last two windows of probe times (`sweeps` written so far) the
 * same median within 2%? */
static int settled(const double *ring, int sweeps)
{
    double older[KIT_STABLE_WINDOW], newer[KIT_STABLE_WINDOW];
    for (int k = 0; k < KIT_STABLE_WINDOW; k++) {
        newer[k] = ring[(sweeps - 1 - k) % KIT_PROBE_RING];
        older[k] = ring[(sweeps - 1 - KIT_STABLE_WINDOW - k) % KIT_PROBE_RING];
    }
    double a = kit_median(older, KIT_STABLE_WINDOW), b = kit_median(newer, KIT_STABLE_WINDOW);
    return b > 0 && a > 0 && fabs(a - b) <= 0.02 * b;
}

int kit_warm_done(const kit_warm_rule *w, int sweeps, double elapsed_s, const double *probe, double last_ms)
{
    if (sweeps < w->min_calls)
        return 0;
    if (elapsed_s >= w->max_s)
        return 1;
    if (w->slow_ms > 0 && last_ms >= w->slow_ms && elapsed_s >= w->slow_s)
        return 1;
    return elapsed_s * 1e3 >= w->min_ms && sweeps >= KIT_PROBE_RING && settled(probe, sweeps);
}
