/* lu_residual.h - the rows of A - L U of factors stored in place
 * (lu_residual.c), for lu_check.c's backward error and for
 * kit_lu_relative_residual (kit/lu_check.h).  Private to common/src. */
#ifndef KIT_LU_RESIDUAL_H
#define KIT_LU_RESIDUAL_H
#include <stddef.h>
#include "kit/lu_check.h"

/* One row of A - L U from the factors: sums of squares, wrong entries and
 * the worst of them (the first of equals), an entry wrong where |A - LU|
 * exceeds gu |L||U| + gd (|A| + |L||U|). */
typedef struct {
    double r2, a2, m2, worst, err, bound;
    size_t bad;
    int j;
} residual_row;

/* Every row (n of them, freed by the caller), rows on kit_threads() threads. */
residual_row *kit_lu_residual_rows(const kit_lu *f, double gu, double gd);

#endif
