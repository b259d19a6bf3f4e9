/* show_corner.h - show mode's look at a matrix result: its top-left corner
 * (common/src/show_corner.c), as lab09 (the factors) and lab10 (C) print it
 * for `make run-labNN`, so a student compares it with a hand computation. */
#ifndef KIT_SHOW_CORNER_H
#define KIT_SHOW_CORNER_H
#include <stdio.h>
#include "kit/blob.h"
#ifdef __cplusplus
extern "C" {
#endif

/* "top-left R x C of WHAT:" (R, C: rows and cols, at most 4 each), then the
 * corner's R rows of C elements of the row-major rows x cols matrix m
 * (KIT_T_F32 or KIT_T_F64), "  " and " %12.6g" each. */
void kit_show_corner(FILE *out, const char *what, kit_type type, const void *m, int rows, int cols);

#ifdef __cplusplus
}
#endif
#endif
