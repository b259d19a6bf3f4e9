/* dataset.h - lab08 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  matrix  which A (x is always uniform in [-1, 1), one entry per column):
 *                example      the classic 4 x 4 CSR example, with its empty row 2
 *                fixed        rows x cols, exactly per_row nonzeros in every row
 *                powerlaw     rows x cols, row lengths floor(max_per_row * u^alpha),
 *                             u uniform in [0,1); a fraction `empty` of rows forced empty
 *                mtx:NAME     the matrix of resources/matrices/NAME.mtx, regenerated
 *                             here from its fixed seed (see lab08_named_matrix)
 *              rows, cols     sizes (cols defaults to rows)
 *              per_row        fixed: nonzeros per row (capped at cols)
 *              max_per_row, alpha, empty   powerlaw (defaults 1000, 3, 0)
 * At most 2^27 nonzeros: fixed, rows * per_row; powerlaw, the expected
 * count's bound rows * max_per_row / (alpha + 1), and at most 2^29 drawn.
 * Nonzero values are uniform in [-1, 1) (kit_gen_csr_*), columns distinct.
 */
#ifndef LAB08_DATASET_H
#define LAB08_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/gen.h"
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB08_MAX_DIM (1 << 24)
#define LAB08_MAX_NNZ (1LL << 27)
#define LAB08_MAX_DRAWN (1LL << 29) /* a power law's drawn nonzeros (its expected count is at most 2^27) */

/* The output, as harness.cu writes it and check.c reads it: one y per row. */
#define LAB08_OUT_Y "y"

/* A benchmark run also records the whole y of a few timed calls of
 * spmv_vector with the (shift, scale) of their fresh x, under the
 * KIT_KEY_TIMED_* names (kit/protocol.h, kit/timed.h; see harness.cu). */

typedef struct {
    kit_csr A;
    float *x; /* A.cols entries */
} lab08_data;

int lab08_generate(const kit_params *p, uint64_t seed, lab08_data *d, char *err, size_t errlen);
void lab08_free(lab08_data *d);

/* The matrices shipped as resources/matrices/NAME.mtx, generated here from
 * fixed seeds (resources/matrices/gen_matrices.c writes the files with these
 * calls; the unit test checks that the files still match).  NULL-terminated. */
extern const char *const lab08_named_list[];
/* Builds the named matrix; *what (may be NULL) gets a one-line description.
 * Returns 0, or -1 with a reason in err. */
int lab08_named_matrix(const char *name, kit_csr *A, const char **what, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
