/* lab07 - merging two sorted arrays with co-rank.
 *
 * Read labs/lab07-merge/handout.md first.  Check your work with:   make lab07
 *
 * Every function is a template on the element type T, so the same code
 * merges ints and tagged records (the grader uses the records to see whether
 * your merge is stable).  Compare elements with merge_key(x), never with x
 * itself.  serial_merge is complete; co_rank only makes its first guess, the
 * basic kernel loses the end of C, and the tiled merge is still to be
 * written.  The TODOs say what to do.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/cuda_check.cuh"
#include "merge.h"

#define THREADS_PER_BLOCK 256
#define ITEMS_PER_THREAD 8 /* outputs merged by one thread of the basic kernel */

/* out[0 .. m+n) = the stable merge of a[0..m) and b[0..n): on a tie the
 * element of a goes first.  (Complete - keep it as it is.) */
template <typename T> __host__ __device__ void serial_merge(const T *a, int m, const T *b, int n, T *out)
{
    int i = 0, j = 0, k = 0;
    while (i < m && j < n)
        out[k++] = merge_key(a[i]) <= merge_key(b[j]) ? a[i++] : b[j++];
    while (i < m)
        out[k++] = a[i++];
    while (j < n)
        out[k++] = b[j++];
}

/* The co-rank of output index k (0 <= k <= m + n): returns i such that the
 * first k elements of the stable merge are a[0..i) and b[0..j), j = k - i. */
template <typename T> __host__ __device__ int co_rank(int k, const T *a, int m, const T *b, int n)
{
    int i = k < m ? k : m; /* first guess: as many elements of a as possible */
    int j = k - i;
    /* TODO 1: the guess is right only when every one of those elements of a
     * really comes before b[j].  Find the true co-ranks: keep i + j == k and
     * move i and j until
     *     i == 0 or j == n or a[i-1] <= b[j]     (not too much of a), and
     *     j == 0 or i == m or b[j-1] <  a[i]     (not too much of b).
     * Stepping one element at a time is too slow for 10^7 elements: halve the
     * range that can still hold the answer at every step (a binary search).
     * Why is the first test "<=" and the second "<"?  (The handout asks.)
     * Check it alone with:   make lab07 TEST=corank */
    (void)a, (void)b, (void)n, (void)j;
    return i;
}

/* Called by the harness on the host (co_rank is __host__ __device__). */
int co_rank_host(int k, const int *a, int m, const int *b, int n) { return co_rank(k, a, m, b, n); }

/* ---- Part 1: basic kernel -------------------------------------------------------- */
/* Thread t merges the outputs k .. k_next-1, k = t * ITEMS_PER_THREAD. */
template <typename T> __global__ void merge_basic_kernel(const T *a, int m, const T *b, int n, T *c)
{
    int total = m + n;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int k = tid * ITEMS_PER_THREAD; /* first output of this thread's slice */
    if (k >= total)
        return;
    int k_next = k + ITEMS_PER_THREAD; /* first output of the next slice */
    /* TODO 2: run   make lab07 TEST=basic-edge   and look at which outputs are
     * wrong when m + n is not a multiple of ITEMS_PER_THREAD. */
    if (k_next > total)
        return; /* this slice would run past the end of c */
    int i = co_rank(k, a, m, b, n), i_next = co_rank(k_next, a, m, b, n);
    int j = k - i, j_next = k_next - i_next;
    serial_merge(a + i, i_next - i, b + j, j_next - j, c + k);
}

template <typename T> static void merge_basic_t(const T *d_a, int m, const T *d_b, int n, T *d_c)
{
    int total = m + n;
    if (total == 0)
        return; /* nothing to merge (a launch of 0 blocks would be an error) */
    /* Exercise 22: try other THREADS_PER_BLOCK and ITEMS_PER_THREAD values. */
    int threads = (total + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD;
    int blocks = (threads + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    merge_basic_kernel<T><<<blocks, THREADS_PER_BLOCK>>>(d_a, m, d_b, n, d_c);
    CUDA_CHECK_LAUNCH();
}

void merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c) { merge_basic_t(d_a, m, d_b, n, d_c); }

void merge_basic_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c)
{
    merge_basic_t(d_a, m, d_b, n, d_c);
}

/* ---- Part 2: tiled kernel -------------------------------------------------------- */
/* TODO 3: write merge_tiled_kernel.  Each block owns a range of outputs; it
 * finds the co-ranks of both ends of its range (in global memory, once per
 * block), loads the slices of a and b that the range needs into __shared__
 * arrays with coalesced loads, and then its threads merge from shared memory
 * (co_rank works on shared arrays too).  Mind the barriers: who may read the
 * shared arrays, and when?  Check with   make lab07 TEST=racecheck
 * Until then merge_tiled uses the basic kernel, which the performance test
 * (tiled against the kit's basic kernel) does not reward. */
template <typename T> static void merge_tiled_t(const T *d_a, int m, const T *d_b, int n, T *d_c)
{
    merge_basic_t(d_a, m, d_b, n, d_c);
}

void merge_tiled(const int *d_a, int m, const int *d_b, int n, int *d_c) { merge_tiled_t(d_a, m, d_b, n, d_c); }

void merge_tiled_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c)
{
    merge_tiled_t(d_a, m, d_b, n, d_c);
}
