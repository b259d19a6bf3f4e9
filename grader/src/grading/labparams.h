/* labparams.h - case parameters checked with the lab's own rules.
 *
 * The engine knows a lab only through its manifest, harness and rubric: the
 * rules for a case's parameters (which keys, which values, which sizes) live
 * in the lab's dataset.c, and the lab's checker applies them without
 * generating data (`check --validate`, common/src/checker_main.c).  Used by
 * `kitgrade validate`, at the start of every grading (the rubric's cases)
 * and by `kitgrade run` (the student's P="...").
 */
#ifndef GRADER_LABPARAMS_H
#define GRADER_LABPARAMS_H
#include <stddef.h>
#include "grading/engine.h"

/* Checks one parameter line (e.g. "n=1000 type=int").  0 when valid; 1 with
 * one line naming the value and what is allowed in err; -1 when the lab's
 * checker could not say (not built: the reason in err). */
int lab_params_check(const engine *e, const char *params, char *err, size_t errlen);

/* Checks every case of the engine's (effective) rubric.  0 when all are
 * valid; otherwise -1 with one line in err:
 * "RUBRIC:LINE: [test NAME] case 'm=31': unknown parameter 'm' (this lab
 * takes: n type dist)" (and how many more cases are bad). */
int lab_rubric_cases_check(const engine *e, char *err, size_t errlen);

#endif
