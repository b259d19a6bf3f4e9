/* mtx.h - Matrix Market reader (coordinate format) into CSR.
 *
 * Accepts "%%MatrixMarket matrix coordinate {real|integer|pattern}
 * {general|symmetric}".  Pattern entries get the value 1.  Symmetric files
 * store one triangle; the mirror entries are added (the diagonal once).
 * Duplicate entries are summed.  Malformed input (bad banner, unsupported
 * format, wrong counts, index out of range, trailing garbage, too few
 * entries) is rejected with the line number and a reason.
 */
#ifndef KIT_MTX_H
#define KIT_MTX_H
#include <stddef.h>
#include <stdio.h>
#include "kit/gen.h"
#ifdef __cplusplus
extern "C" {
#endif

int kit_mtx_read(FILE *f, kit_csr *out, char *err, size_t errlen);
int kit_mtx_load(const char *path, kit_csr *out, char *err, size_t errlen);
/* Writes A as "coordinate real general" (used to generate resources/). */
int kit_mtx_write(FILE *f, const kit_csr *A, const char *comment);

#ifdef __cplusplus
}
#endif
#endif
