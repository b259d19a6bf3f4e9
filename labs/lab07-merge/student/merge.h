/* merge.h - lab07: the functions the kit's harness calls.  Do not change this file:
 * the grader uses its own copy.
 *
 * A merge combines two arrays sorted in ascending order, A (m elements) and
 * B (n elements), into one sorted array C of m + n elements.  The merge must
 * be STABLE: when an element of A and an element of B compare equal, the one
 * from A comes first in C (and elements of the same array keep their order).
 *
 * m >= 0, n >= 0 (either may be 0) and m + n < 2^30.  d_a, d_b and d_c are
 * DEVICE pointers (the harness copied the inputs to the GPU); the work must be
 * done by your own kernels: the harness records which kernels ran.
 *
 * Integers can't show whether a merge is stable (two equal ints look
 * identical), so every merge also exists for records that carry a tag: the
 * merge compares keys only and must move the tag along with its key.  Write
 * your code once, as templates on the element type T, and compare with
 * merge_key(x): the starter shows how.
 */
#ifndef LAB07_MERGE_H
#define LAB07_MERGE_H

/* A key and a tag that says where the element came from (the harness sets
 * tag = i for A[i] and tag = m + j for B[j]; the merge never looks at it). */
typedef struct {
    int key;
    int tag;
} merge_rec;

/* The value a merge compares: the int itself, or the record's key. */
__host__ __device__ inline int merge_key(int v) { return v; }
__host__ __device__ inline int merge_key(const merge_rec &r) { return r.key; }

/* Part 1: co-rank, called by the harness ON THE HOST (a, b are host arrays
 * here) for many k in [0, m + n].  Returns the co-rank i of output index k:
 * the first k elements of the stable merge are a[0..i) and b[0..k-i). */
int co_rank_host(int k, const int *a, int m, const int *b, int n);

/* Part 1: the basic kernel - each thread merges its own slice of C, reading
 * A and B from global memory. */
void merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c);
void merge_basic_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c);

/* Part 2: the tiled kernel - each block stages the slices of A and B its
 * threads need in shared memory and merges from there. */
void merge_tiled(const int *d_a, int m, const int *d_b, int n, int *d_c);
void merge_tiled_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c);

#endif
