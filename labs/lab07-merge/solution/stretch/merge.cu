/* lab07 stretch exercise - the tiled merge as a library builds it (handout,
 * "How far from the library?").  Part 1 (co_rank, the basic kernel) is the
 * reference solution's (../merge.cu).  Part 2 keeps the reference's plan -
 * a small kernel finds the co-rank of every tile boundary, then one block
 * per tile stages the tile's slices of A and B in shared memory - and
 * changes how a block works, as cub::DeviceMerge does:
 *  - bigger tiles: 512 threads of PER_THREAD outputs (15 ints, 7 tagged records,
 *    the same bytes per thread), so the two searches and the three barriers
 *    of a tile are paid for fewer elements;
 *  - every load of a tile is issued at once: thread t loads elements
 *    t, t + 512, t + 1024, ... of the tile into PER_THREAD registers in one
 *    unrolled loop (coalesced, PER_THREAD loads in flight per thread instead of a
 *    loop that waits for each), then stores them to shared memory;
 *  - the serial merge keeps the next element of A and of B in registers and
 *    reads one new element from shared memory per output (the reference
 *    reads both candidates again for every output), and writes its PER_THREAD
 *    outputs to registers: the loop is unrolled, no index is data-dependent;
 *  - the merged tile goes back through the same shared buffer (PER_THREAD is
 *    odd, so thread t's outputs t * PER_THREAD + r fall in 32 different banks
 *    across a warp: no padding) and out to C coalesced.
 */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "merge.h"

#define THREADS 256 /* Part 1 */
#define ITEMS 8
#define TILE_THREADS 512 /* Part 2: threads per tile */
#define SPLIT_THREADS 256
/* Tiles per SM to fit registers for: a full SM (2048 threads) from compute
 * capability 8.0 on (32 registers a thread), 1024 threads before. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define MIN_TILES (1024 / TILE_THREADS)
#else
#define MIN_TILES (2048 / TILE_THREADS)
#endif

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
/* Outputs per thread: 60 bytes of elements (15 ints, 7 records); odd, so
 * that a warp's writes t * PER_THREAD + r to shared memory hit 32 banks. */
template <typename T> struct tile_of {
    enum { PER_THREAD = sizeof(T) <= 4 ? 15 : 7, SIZE = TILE_THREADS * PER_THREAD };
};

/* split[t] = co-rank of output index min(t * TILE, m + n), t = 0 .. tiles. */
template <typename T> __global__ void tile_split_kernel(const T *a, int m, const T *b, int n, int tiles, int *split)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles)
        return;
    long long k = (long long)t * tile_of<T>::SIZE;
    int total = m + n;
    split[t] = co_rank(k < total ? (int)k : total, a, m, b, n);
}

template <typename T>
__global__ void __launch_bounds__(TILE_THREADS, MIN_TILES) merge_tiled_kernel(const T *a, int m, const T *b, int n,
                                                                   const int *split, T *c)
{
    enum { N = tile_of<T>::PER_THREAD, TILE = tile_of<T>::SIZE };
    __shared__ T s[TILE]; /* the tile's slice of A, then its slice of B; later the merged tile */
    int tid = threadIdx.x;
    int total = m + n;
    int k0 = blockIdx.x * TILE;
    int len = total - k0 < TILE ? total - k0 : TILE;
    int i0 = split[blockIdx.x], i1 = split[blockIdx.x + 1];
    int j0 = k0 - i0, la = i1 - i0; /* s[0..la) = a[i0..i1), s[la..len) = b[j0..j0+len-la) */

    T v[N];
#pragma unroll
    for (int r = 0; r < N; r++) { /* all N loads issued before the first is used */
        int q = r * TILE_THREADS + tid;
        if (q < len)
            v[r] = q < la ? a[i0 + q] : b[j0 + q - la];
    }
#pragma unroll
    for (int r = 0; r < N; r++) {
        int q = r * TILE_THREADS + tid;
        if (q < len)
            s[q] = v[r];
    }
    __syncthreads(); /* the whole tile is staged before anyone merges from it */

    /* this thread's outputs: tile positions kt .. kt + N (fewer at the end) */
    int kt = tid * N < len ? tid * N : len;
    int ia = co_rank(kt, s, la, s + la, len - la); /* next element of A: s[ia], A's end: la */
    int ib = la + kt - ia;                         /* next element of B: s[ib], B's end: len */
    T xa = ia < la ? s[ia] : T(), xb = ib < len ? s[ib] : T();
#pragma unroll
    for (int r = 0; r < N; r++) {
        /* B only when strictly smaller: on a tie A's element comes first (stable) */
        bool take_b = ib < len && (ia >= la || merge_key(xb) < merge_key(xa));
        v[r] = take_b ? xb : xa; /* positions past len are never stored */
        if (take_b) {
            if (++ib < len)
                xb = s[ib];
        } else if (++ia < la)
            xa = s[ia];
    }
    __syncthreads(); /* every thread has read its inputs before the tile is overwritten */

#pragma unroll
    for (int r = 0; r < N; r++)
        if (kt + r < len)
            s[kt + r] = v[r]; /* kt = tid * N here whenever kt + r < len */
    __syncthreads(); /* the merged tile is complete before it is written out */

#pragma unroll
    for (int r = 0; r < N; r++) {
        int q = r * TILE_THREADS + tid;
        if (q < len)
            c[k0 + q] = s[q];
    }
}

/* Tile boundaries for up to `tiles` tiles, kept between calls (grown when needed). */
static int *d_split;
static int split_cap;

template <typename T> static void merge_tiled_t(const T *d_a, int m, const T *d_b, int n, T *d_c)
{
    long long total = (long long)m + n;
    if (total <= 0)
        return;
    int tiles = (int)((total + tile_of<T>::SIZE - 1) / tile_of<T>::SIZE);
    if (tiles + 1 > split_cap) {
        CUDA_CHECK(cudaFree(d_split));
        CUDA_CHECK(cudaMalloc(&d_split, (size_t)(tiles + 1) * sizeof *d_split));
        split_cap = tiles + 1;
    }
    tile_split_kernel<T><<<(tiles + 1 + SPLIT_THREADS - 1) / SPLIT_THREADS, SPLIT_THREADS>>>(d_a, m, d_b, n, tiles,
                                                                                             d_split);
    CUDA_CHECK_LAUNCH();
    merge_tiled_kernel<T><<<tiles, TILE_THREADS>>>(d_a, m, d_b, n, d_split, d_c);
    CUDA_CHECK_LAUNCH();
}

void merge_tiled(const int *d_a, int m, const int *d_b, int n, int *d_c) { merge_tiled_t(d_a, m, d_b, n, d_c); }

void merge_tiled_rec(const merge_rec *d_a, int m, const merge_rec *d_b, int n, merge_rec *d_c)
{
    merge_tiled_t(d_a, m, d_b, n, d_c);
}
