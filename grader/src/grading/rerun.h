/* rerun.h - the command that reruns one test, printed under a failure.
 *
 * It must work when pasted: `make lab03 TEST=float-small SEED=0x...` for a
 * student (plus DIR=... when the folder is not the lab's own; a folder make
 * cannot pass, one with spaces or quotes, gets the kitgrade form), and for
 * an instructor the grader's full path with options only, the folder and a
 * --rubric made absolute and shell-quoted:
 *   /kit/build/bin/kitgrade grade lab03 '/subs/o'\''brien' --rubric /x/r.ini --test float-small --seed 0x...
 */
#ifndef GRADER_RERUN_H
#define GRADER_RERUN_H
#include "grading/engine.h"

/* Sets e->repro for grading `dir` (student: make syntax; else kitgrade). */
void rerun_setup(engine *e, const char *dir, int student);
/* Appends the command rerunning test `test` with the engine's seed (nothing
 * when rerun_setup was not called). */
void rerun_command(const engine *e, const char *test, strbuf *b);

#endif
