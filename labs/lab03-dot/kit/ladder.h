/* ladder.h - lab03's reduction ladder (four classic block reductions), timed side
 * by side for students: make run-lab03 P="variant=ladder [n=...]". */
#ifndef LAB03_LADDER_H
#define LAB03_LADDER_H
#include <stdint.h>
/* Times the four block reductions on the n floats a (host memory; n a
 * multiple of LADDER_BLOCK, at least one block), one block of LADDER_BLOCK
 * threads per LADDER_BLOCK values, and prints a table: time, speed relative
 * to variant 1, and the 2010 figures.  Each variant's block sums are checked
 * against the CPU first.  Returns 0, or -1 after printing why. */
#define LADDER_BLOCK 512
int kit_ladder_show(const float *a, int n);
#endif
