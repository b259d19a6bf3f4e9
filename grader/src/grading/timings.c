/* timings.c - a test's seconds in one line (see timings.h). */
#include "grading/timings.h"

#include <string.h>

#include "util/strbuf.h"

void times_reset(test_times *t) { memset(t, 0, sizeof *t); }

void times_run(test_times *t, double seconds, const char *what)
{
    t->runs += seconds;
    t->n_runs++;
    if (seconds > t->run_max) {
        t->run_max = seconds;
        snprintf(t->run_max_what, sizeof t->run_max_what, "%s", what ? what : "");
    }
}

void times_add(test_times *t, const test_times *from)
{
    t->start += from->start;
    t->runs += from->runs, t->n_runs += from->n_runs;
    if (from->run_max > t->run_max) {
        t->run_max = from->run_max;
        snprintf(t->run_max_what, sizeof t->run_max_what, "%s", from->run_max_what);
    }
    t->checks += from->checks, t->n_checks += from->n_checks;
    t->checks_overlap |= from->checks_overlap;
    t->waits += from->waits, t->alone += from->alone;
}

void times_print(FILE *f, const test_times *t)
{
    strbuf b;
    sb_init(&b);
    if (t->reused)
        sb_printf(&b, ", build from the cache");
    if (t->nvcc > 0)
        sb_printf(&b, ", nvcc %.2f s", t->nvcc);
    if (t->nvcc_beside > 0)
        sb_printf(&b, ", barrier-checked build beside it %.2f s", t->nvcc_beside);
    if (t->start > 0)
        sb_printf(&b, ", runner start %.2f s", t->start);
    if (t->n_runs == 1)
        sb_printf(&b, t->run_max_what[0] ? ", runner %.2f s (%s)" : ", runner %.2f s", t->runs, t->run_max_what);
    else if (t->n_runs > 1)
        sb_printf(&b, ", %d runs %.2f s (longest %.2f s: %s)", t->n_runs, t->runs, t->run_max, t->run_max_what);
    if (t->alone > 0)
        sb_printf(&b, " of which timing with the GPU alone %.2f s", t->alone);
    if (t->n_checks)
        sb_printf(&b, ", checker %.2f s%s", t->checks, t->checks_overlap ? " (beside the next runs)" : "");
    if (t->first && t->check_beside > 0)
        sb_printf(&b, ", checker %.2f s beside the tests above, waited for %.2f s here", t->check_beside,
                  t->check_wait);
    if (t->beside_check)
        sb_printf(&b, ", the performance test's checker beside");
    if (t->waits > 0.005)
        sb_printf(&b, ", waiting for the GPU %.2f s", t->waits);
    if (b.len)
        fprintf(f, "      time: %s%s\n", t->first ? "ran first, before the other tests: " : "", sb_str(&b) + 2);
    sb_free(&b);
}
