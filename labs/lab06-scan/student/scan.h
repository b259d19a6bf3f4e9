/* scan.h - lab06: the functions the kit's harness calls.  Do not change this
 * file: the grader uses its own copy.
 *
 * Inclusive scan (prefix sum):  out[i] = in[0] + in[1] + ... + in[i].
 * d_in and d_out are DEVICE pointers to n elements each, n >= 0 (d_out holds
 * garbage on entry; d_in must not be modified).  The work must be done by
 * your own kernels; the harness checks which kernels ran.
 */
#ifndef LAB06_SCAN_H
#define LAB06_SCAN_H

/* The most threads a block may have on every GPU the kit supports. */
#define SCAN_BLOCK_MAX 1024

/* Part 1 (program 9): Kogge-Stone in ONE block of n threads, one element per
 * thread, in shared memory.  0 <= n <= SCAN_BLOCK_MAX. */
void scan_block(const float *d_in, float *d_out, int n);
void scan_block_int(const int *d_in, int *d_out, int n);

/* Part 2: any n.  Scan blocks, scan the blocks' totals, add each block's
 * offset back.  The grader's int inputs keep every prefix inside the int range. */
void scan(const float *d_in, float *d_out, int n);
void scan_int(const int *d_in, int *d_out, int n);

#endif
