/* similarity.h - which hand-ins of a lab look copied from each other.
 *
 * Uses the distribution's similarity tester (sim_c, Debian package
 * similarity-tester): it compares token streams, so renamed variables and
 * reordered functions still match.  The starter's own text is discounted
 * first: passages of a hand-in that match the lab's starter (sim_c -S
 * against it) are blanked, so the skeleton every student received counts
 * for nobody.  Then every pair is compared (sim_c -p -e) and pairs at or
 * above the threshold get their matching passages (sim_c runs) for the
 * class report, side by side.
 */
#ifndef GRADER_SIMILARITY_H
#define GRADER_SIMILARITY_H
#include "grading/engine.h"
#include "util/strbuf.h"

#define SIMILARITY_DEFAULT_THRESHOLD 50 /* percent of one hand-in's own tokens found in the other */
#define SIMILARITY_MIN_RUN 20           /* tokens in the shortest run that counts */

typedef struct {
    int a, b;           /* indexes into the folders given */
    int pct;            /* the larger of "a consists for N % of b material" and the reverse */
    char file[NAME_LEN];
    strbuf passages;    /* "LA1 LA2 LB1 LB2\n" line ranges of matching runs (1-based, inclusive) */
} sim_pair;

typedef struct {
    int available;      /* sim_c was found and ran */
    char why[256];      /* when not */
    sim_pair *pairs;    /* at or above the threshold, largest first */
    int n_pairs;
    int n_compared;     /* hand-ins compared */
} sim_report;

/* dirs[i] (NULL or "": left out) hold the manifest's files of each hand-in. */
void similarity_run(const engine *e, const char *const *dirs, int n, double threshold, sim_report *out);
void similarity_free(sim_report *r);

#endif
