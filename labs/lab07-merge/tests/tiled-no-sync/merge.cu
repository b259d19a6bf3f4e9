/* lab07 known-bad submission "tiled-no-sync": the reference solution without
 * the barrier between staging the tile in shared memory and merging from it,
 * so threads may read elements another warp has not stored yet.
 *
 * (was: lab07 reference solution - stable merge with co-rank.)
 *
 * Everything is a template on the element type T (int, or merge_rec whose
 * key is compared); merge_key() from merge.h gives the key.
 *
 *  - co_rank: binary search for the largest i with a[i-1] <= b[k-i]; ties
 *    resolve towards A, which makes the split (and so the merge) stable.
 *  - basic: each thread owns ITEMS consecutive outputs, finds the co-ranks of
 *    both ends of its slice in global memory and merges the slice.
 *  - tiled: a small kernel first finds the co-ranks of every tile boundary
 *    (one thread per boundary); then each block stages its slices of A and B
 *    (together exactly TILE elements) in shared memory with coalesced loads,
 *    each thread merges ITEMS outputs from shared memory into a shared output
 *    tile, and the block writes the tile back coalesced.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "merge.h"

#define THREADS 256
#define ITEMS 8
#define TILE (THREADS * ITEMS) /* outputs per block in the tiled merge */

/* The co-rank i of output index k (0 <= k <= m + n): a[0..i) and b[0..k-i)
 * are the first k elements of the stable merge.  i lies in [lo, hi]; the
 * test "a[i-1] > b[k-i]" (i takes too much of A) is false up to the answer
 * and true after it, so a binary search finds the last i where it is false.
 * On a tie a[i-1] == b[k-i] the element of A belongs in front: not too much. */
template <typename T> __host__ __device__ int co_rank(int k, const T *a, int m, const T *b, int n)
{
    int lo = k > n ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        int i = lo + (hi - lo + 1) / 2; /* i >= 1 and k - i < n: both reads in range */
        if (merge_key(a[i - 1]) > merge_key(b[k - i]))
            hi = i - 1;
        else
            lo = i;
    }
    return lo;
}

/* out[0 .. m+n) = stable merge of a[0..m) and b[0..n). */
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

int co_rank_host(int k, const int *a, int m, const int *b, int n) { return co_rank(k, a, m, b, n); }

/* ---- Part 1: basic ------------------------------------------------------------ */
template <typename T> __global__ void merge_basic_kernel(const T *a, int m, const T *b, int n, T *c)
{
    int total = m + n;
    long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
    if (first >= total)
        return;
    int k = (int)first;
    int k_next = k + ITEMS < total ? k + ITEMS : total; /* the last slice may be shorter */
    int i = co_rank(k, a, m, b, n), i_next = co_rank(k_next, a, m, b, n);
    int j = k - i, j_next = k_next - i_next;
    serial_merge(a + i, i_next - i, b + j, j_next - j, c + k);
}

template <typename T> static void merge_basic_t(const T *d_a, int m, const T *d_b, int n, T *d_c)
{
    long long total = (long long)m + n;
    if (total <= 0)
        return;
    long long threads = (total + ITEMS - 1) / ITEMS;
    int blocks = (int)((threads + THREADS - 1) / THREADS);
    merge_basic_kernel<T><<<blocks, THREADS>>>(d_a, m, d_b, n, d_c);
    CUDA_CHECK_LAUNCH();
}

void merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c) { merge_basic_t(d_a, m, d_b, n, d_c); }

void merge_basic_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c)
{
    merge_basic_t(d_a, m, d_b, n, d_c);
}

/* ---- Part 2: tiled --------------------------------------------------------------- */
/* split[t] = co-rank of output index min(t * TILE, m + n), t = 0 .. tiles. */
template <typename T> __global__ void tile_split_kernel(const T *a, int m, const T *b, int n, int tiles, int *split)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles)
        return;
    long long k = (long long)t * TILE;
    int total = m + n;
    split[t] = co_rank(k < total ? (int)k : total, a, m, b, n);
}

template <typename T> __global__ void merge_tiled_kernel(const T *a, int m, const T *b, int n, const int *split, T *c)
{
    __shared__ T s_in[TILE];  /* this tile's slice of A, then its slice of B */
    __shared__ T s_out[TILE]; /* the merged tile */
    int total = m + n;
    int k0 = blockIdx.x * TILE;
    int k1 = total - k0 < TILE ? total : k0 + TILE;
    int i0 = split[blockIdx.x], i1 = split[blockIdx.x + 1];
    int j0 = k0 - i0, j1 = k1 - i1;
    int la = i1 - i0, lb = j1 - j0, len = la + lb; /* len = k1 - k0 <= TILE */

    for (int t = threadIdx.x; t < la; t += blockDim.x)
        s_in[t] = a[i0 + t];
    for (int t = threadIdx.x; t < lb; t += blockDim.x)
        s_in[la + t] = b[j0 + t];

    int kt = threadIdx.x * ITEMS < len ? threadIdx.x * ITEMS : len;
    int kt_next = kt + ITEMS < len ? kt + ITEMS : len;
    const T *sa = s_in, *sb = s_in + la;
    int it = co_rank(kt, sa, la, sb, lb), it_next = co_rank(kt_next, sa, la, sb, lb);
    int jt = kt - it, jt_next = kt_next - it_next;
    serial_merge(sa + it, it_next - it, sb + jt, jt_next - jt, s_out + kt);
    __syncthreads(); /* every slice of the tile is merged before it is written out */

    for (int t = threadIdx.x; t < len; t += blockDim.x)
        c[k0 + t] = s_out[t];
}

/* Tile boundaries for up to `tiles` tiles, kept between calls (grown when needed). */
static int *d_split;
static int split_cap;

template <typename T> static void merge_tiled_t(const T *d_a, int m, const T *d_b, int n, T *d_c)
{
    long long total = (long long)m + n;
    if (total <= 0)
        return;
    int tiles = (int)((total + TILE - 1) / TILE);
    if (tiles + 1 > split_cap) {
        CUDA_CHECK(cudaFree(d_split));
        CUDA_CHECK(cudaMalloc(&d_split, (size_t)(tiles + 1) * sizeof *d_split));
        split_cap = tiles + 1;
    }
    tile_split_kernel<T><<<(tiles + 1 + THREADS - 1) / THREADS, THREADS>>>(d_a, m, d_b, n, tiles, d_split);
    CUDA_CHECK_LAUNCH();
    merge_tiled_kernel<T><<<tiles, THREADS>>>(d_a, m, d_b, n, d_split, d_c);
    CUDA_CHECK_LAUNCH();
}

void merge_tiled(const int *d_a, int m, const int *d_b, int n, int *d_c) { merge_tiled_t(d_a, m, d_b, n, d_c); }

void merge_tiled_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c)
{
    merge_tiled_t(d_a, m, d_b, n, d_c);
}
