/* lab06 known-bad: the reference solution with one twist, for the profile's
 * test (tests/run-profile): Part 2's tiles are scanned by a Brent-Kung tree
 * in shared memory - an up-sweep adding pairs 2*stride apart, then a
 * down-sweep carrying the partial sums back - without padding.  The tree's
 * indices (p+1)*2*stride-1 lie 2*stride words apart, so at stride 1 two
 * threads of a warp share a bank, at stride 2 four, and from stride 16 on
 * all 32: bank conflicts, all on the one line both sweeps add on
 * (scan.cu:92).  The results are right (the sums' order changes, within the
 * checker's bound).
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

/* ---- Part 1 ---- */
template <typename T> __global__ void scan_block_kernel(const T *in, T *out, int n)
{
    __shared__ T buf[2][SCAN_BLOCK_MAX];
    int tid = threadIdx.x;
    int cur = 0;
    buf[cur][tid] = tid < n ? in[tid] : T(0);
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        T v = buf[cur][tid];
        if (tid >= stride)
            v += buf[cur][tid - stride];
        buf[1 - cur][tid] = v; /* the other buffer: nobody reads it in this step */
        cur = 1 - cur;
        __syncthreads();
    }
    if (tid < n)
        out[tid] = buf[cur][tid];
}

/* ---- Part 2 ---- */
#define THREADS 1024
#define ITEMS 4                     /* consecutive elements per thread */
#define TILE (THREADS * ITEMS)      /* elements per block */

/* Four consecutive elements as one 16-byte load or store. */
template <typename T> struct vec4;
template <> struct vec4<float> { typedef float4 type; };
template <> struct vec4<int> { typedef int4 type; };

/* v[0..3] = p[i..i+3], elements at or past n as 0.  One vector load when all
 * four exist and p + i is 16-byte aligned (cudaMalloc'ed arrays and tiles of
 * 4096 elements always are), else one element at a time. */
template <typename T> __device__ void load4(const T *p, long i, int n, T v[4])
{
    typedef typename vec4<T>::type V;
    if (i + 3 < n && (uintptr_t)(p + i) % sizeof(V) == 0) {
        V x = *(const V *)(p + i);
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    } else {
        for (int k = 0; k < 4; k++)
            v[k] = i + k < n ? p[i + k] : T(0);
    }
}

template <typename T> __device__ void store4(T *p, long i, int n, const T v[4])
{
    typedef typename vec4<T>::type V;
    if (i + 3 < n && (uintptr_t)(p + i) % sizeof(V) == 0) {
        V x;
        x.x = v[0], x.y = v[1], x.z = v[2], x.w = v[3];
        *(V *)(p + i) = x;
    } else {
        for (int k = 0; k < 4 && i + k < n; k++)
            p[i + k] = v[k];
    }
}

#define LOG_TILE 12 /* TILE = 2^12 */

/* Step 1: out = the scan of each tile of TILE elements (a Brent-Kung tree in
 * shared memory); tile_totals[b] = tile b's sum (tile_totals may be NULL).
 * Steps 0 .. LOG_TILE-1 sweep up (stride 1 .. TILE/2: s[i] += s[i - stride]),
 * the others down (stride TILE/4 .. 1: s[i + stride] += s[i]). */
template <typename T> __global__ void scan_tiles(const T *in, T *out, T *tile_totals, int n)
{
    __shared__ T s[TILE];
    long first = (long)blockIdx.x * TILE;
    for (int k = threadIdx.x; k < TILE; k += THREADS) /* coalesced, conflict-free */
        s[k] = first + k < n ? in[first + k] : T(0);
    __syncthreads();
    for (int step = 0; step < 2 * LOG_TILE - 1; step++) {
        int up = step < LOG_TILE, stride = up ? 1 << step : 1 << (2 * LOG_TILE - 2 - step), shift = up ? 0 : stride;
        for (int p = threadIdx.x; (p + 1) * 2 * stride - 1 + shift < TILE; p += THREADS) {
            int i = (p + 1) * 2 * stride - 1;
            s[i + shift] += s[up ? i - stride : i];
        }
        __syncthreads();
    }
    for (int k = threadIdx.x; k < TILE; k += THREADS)
        if (first + k < n)
            out[first + k] = s[k];
    if (tile_totals && threadIdx.x == 0)
        tile_totals[blockIdx.x] = s[TILE - 1];
}

/* Step 3: out += scanned_totals[b - 1] for the elements of tile b >= 1; the
 * grid starts at tile 1 (tile 0 has nothing to add). */
template <typename T> __global__ void add_tile_offsets(T *out, const T *scanned_totals, int n)
{
    int tile = blockIdx.x + 1;
    long first = (long)tile * TILE + (long)threadIdx.x * ITEMS;
    T v[ITEMS];
    load4((const T *)out, first, n, v);
    T offset = scanned_totals[tile - 1];
    for (int k = 0; k < ITEMS; k++)
        v[k] += offset;
    store4(out, first, n, v);
}

static int tiles_for(int n) { return (n + TILE - 1) / TILE; }

/* Room for the totals of every level of the recursion. */
static size_t scratch_elements(int n)
{
    size_t total = 0;
    for (int t = tiles_for(n); t > 1; t = tiles_for(t))
        total += (size_t)t;
    return total;
}

/* Scans n >= 1 elements; scratch holds scratch_elements(n) elements. */
template <typename T> static void scan_level(const T *d_in, T *d_out, int n, T *scratch)
{
    int tiles = tiles_for(n);
    if (tiles == 1) {
        scan_tiles<T><<<1, THREADS>>>(d_in, d_out, (T *)nullptr, n);
        CUDA_CHECK_LAUNCH();
        return;
    }
    T *totals = scratch;
    scan_tiles<T><<<tiles, THREADS>>>(d_in, d_out, totals, n);
    CUDA_CHECK_LAUNCH();
    scan_level<T>(totals, totals, tiles, scratch + tiles); /* in place: each thread reads before it writes */
    add_tile_offsets<T><<<tiles - 1, THREADS>>>(d_out, totals, n);
    CUDA_CHECK_LAUNCH();
}

/* Scratch for the totals, kept between calls and grown when a larger n
 * comes (the handout allows it): a cudaMalloc and cudaFree in every call
 * cost more than scanning 2^20 elements. */
static void *d_scratch;
static size_t scratch_bytes;

template <typename T> static void scan_any(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    size_t bytes = scratch_elements(n) * sizeof(T);
    if (bytes > scratch_bytes) {
        CUDA_CHECK(cudaFree(d_scratch));
        CUDA_CHECK(cudaMalloc(&d_scratch, bytes));
        scratch_bytes = bytes;
    }
    scan_level<T>(d_in, d_out, n, (T *)d_scratch);
}

template <typename T> static void scan_one_block(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    if (n > SCAN_BLOCK_MAX) { /* outside Part 1's contract: still give the right answer */
        scan_any(d_in, d_out, n);
        return;
    }
    scan_block_kernel<T><<<1, n>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
}

void scan_block(const float *d_in, float *d_out, int n) { scan_one_block(d_in, d_out, n); }

void scan_block_int(const int *d_in, int *d_out, int n) { scan_one_block(d_in, d_out, n); }

void scan(const float *d_in, float *d_out, int n) { scan_any(d_in, d_out, n); }

void scan_int(const int *d_in, int *d_out, int n) { scan_any(d_in, d_out, n); }
