/* toeplitz_matvec.h - lab12: the function the kit's harness calls.  Do not
 * change this file: the grader uses its own copy.
 *
 * u = A p on a grid of nx x ny points, where A's entry for the points
 * (ix, iy) and (jx, jy) depends only on their offset, so A is held as the
 * (2nx - 1) x (2ny - 1) array B:
 *     u[iy*nx + ix] = sum over jy < ny, jx < nx of
 *                     B(jx - ix + nx - 1, jy - iy + ny - 1) * p[jy*nx + jx]
 * d_B holds B with one dummy entry padded to each row: 2ny - 1 rows of
 * 2nx floats, B(kx, ky) at d_B[ky * 2nx + kx] (kx <= 2nx - 2), the dummy
 * d_B[ky * 2nx + 2nx - 1] = 0.  d_p and d_u hold nx*ny floats, grid row by
 * grid row.  All three are DEVICE pointers; 1 <= nx, ny (nx*ny <= 2^17), not
 * multiples of anything.  Every element of u must be written: the harness
 * fills u with NaN before the call.  The work must be done by your own
 * kernels (no cuBLAS).
 */
#ifndef LAB12_TOEPLITZ_MATVEC_H
#define LAB12_TOEPLITZ_MATVEC_H

/* Shared memory: each block computes one tile of a grid row of u, walking
 * over p one tile at a time with the tile of p and the 2 tiles of B it
 * needs in shared memory. */
void toeplitz_matvec(const float *d_B, const float *d_p, float *d_u, int nx, int ny);

#endif
