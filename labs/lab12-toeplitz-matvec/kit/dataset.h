/* dataset.h - lab12 inputs, generated identically by the runner and the checker.
 *
 * The problem (the 2010 thesis's contact problem, its section 4.1): a grid of
 * nx x ny points, p and u with one value per point, u = A p, where A's
 * entry for the pair (ix, iy), (jx, jy) depends only on the offsets:
 *     u[iy*nx + ix] = sum over jy < ny, jx < nx of
 *                     B(jx - ix + nx - 1, jy - iy + ny - 1) * p[jy*nx + jx]
 * so the (nx*ny)^2 matrix A is held as the (2nx - 1) x (2ny - 1) array B.
 *
 * Parameters:  nx, ny   the grid (1 .. 2^14 each, nx*ny <= 2^17); ny defaults to nx
 *              dist     uniform (default): B and p uniform in [-1, 1)
 *                       positive: uniform in [0, 1) (no cancellation: a lost
 *                                 or extra product always shows)
 * Inputs:      b        B with each row padded by one dummy entry (the thesis's
 *                       Figure 4.3): 2ny - 1 rows of LAB12_LDB(nx) = 2nx
 *                       floats, B(kx, ky) at b[ky*2nx + kx], b[ky*2nx + 2nx - 1] = 0
 *              p        nx*ny floats, p at grid point (jx, jy) is p[jy*nx + jx]
 * Never symmetric data: the physical B is symmetric (B(kx) = B(-kx)), which
 * hides every index that swaps i and j; random B is not.
 */
#ifndef LAB12_DATASET_H
#define LAB12_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB12_MAX_DIM (1 << 14)
#define LAB12_MAX_POINTS (1 << 17)
#define LAB12_LDB(nx) (2 * (size_t)(nx)) /* B's row stride: 2nx - 1 values and the dummy */

/* The output, as harness.cu writes it and check.c reads it: u, nx*ny floats. */
#define LAB12_OUT_U "u"

/* Output elements of a few timed calls a benchmark run records for the
 * checker (KIT_KEY_TIMED_*, kit/protocol.h; see harness.cu).  Each costs the
 * checker nx*ny products. */
#define LAB12_TIMED_SAMPLE 256

typedef struct {
    int nx, ny;
    int n;       /* nx * ny grid points (int: the descriptors' counts, kit/field.h) */
    int b_count; /* (2ny - 1) * LAB12_LDB(nx), under 2^20 */
    float *b, *p;
} lab12_data;

int lab12_generate(const kit_params *p, uint64_t seed, lab12_data *d, char *err, size_t errlen);
void lab12_free(lab12_data *d);

#ifdef __cplusplus
}
#endif
#endif
