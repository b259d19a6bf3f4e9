/* histogram.h - lab04: the function the kit's harness calls.  Do not change
 * this file: the grader uses its own copy.
 *
 * d_in is a DEVICE pointer to n ints (n >= 0), every value in [0, bins).
 * d_bins is a DEVICE pointer to `bins` unsigned counters, 1 <= bins <= HISTO_MAX_BINS.
 * On entry d_bins holds garbage (the harness fills it with 0xFF bytes): when
 * the function returns, d_bins[v] must be the number of elements equal to v,
 * for EVERY v in [0, bins) - zero for values that never occur.
 * The counting must be done by your own kernels; the harness checks which
 * kernels ran.
 */
#ifndef LAB04_HISTOGRAM_H
#define LAB04_HISTOGRAM_H

/* Largest bin count the grader uses: 8192 counters = 32 KB, which fits in the
 * shared memory of one block on every GPU the kit supports. */
#define HISTO_MAX_BINS 8192

/* Privatised histogram: each block counts into its own histogram in shared
 * memory, then adds it to the global one with atomics. */
void histogram_shared(const int *d_in, int n, unsigned int *d_bins, int bins);

#endif
