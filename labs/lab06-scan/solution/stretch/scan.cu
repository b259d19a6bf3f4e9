/* lab06 stretch exercise - single-pass scan with decoupled look-back
 * (handout, "How far from the library?").  Same interface as the reference
 * solution (../scan.cu) and the same Part 1; Part 2 reads the array once and
 * writes it once, in ONE launch:
 *   1. each block takes the next tile of TILE = 3072 elements (a ticket from
 *      a global counter, so tiles are handed out in the order blocks start)
 *      and scans it in registers: every warp scans its 768 elements (24 a
 *      thread, read with 6 coalesced 16-byte loads all in flight at once;
 *      only the last tile, or unaligned arrays, check bounds) with warp
 *      shuffles, one barrier-separated round combines the 4 warps' totals.
 *      Small blocks of many elements each: the steps that wait (the ticket,
 *      the look-back) are per block, and the 10 or so blocks resident on an
 *      SM overlap each other's waits;
 *   2. warp 0 publishes the tile's total (status A, "aggregate") in global
 *      memory, then walks back over the statuses of the tiles before it, 32
 *      at a time, adding aggregates until it meets a tile that has published
 *      its inclusive prefix (status P); it publishes its own prefix (P);
 *   3. every element gets the prefix of the tiles before its tile, and the
 *      tile is written.
 * A status is one 64-bit word (value and flag written and read together, so
 * no reader sees a flag without its value).  The flag carries the number of
 * the call (the "epoch"): statuses of earlier calls count as not yet
 * published, so the array is cleared only when it is allocated.
 * Why it cannot deadlock: a block looks back only at tiles whose tickets
 * were taken before its own, by blocks that are already running, and every
 * block publishes its aggregate without waiting for anyone.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "scan.h"
#include "kit/cuda_check.cuh"

/* ---- Part 1 (the reference's) ---- */
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
/* The tile's shape: CUB's own tuning for a float sum on sm_90 (cub/device/
 * dispatch/tuning/tuning_scan.cuh: 128 threads, 24 items each).  Both can
 * be set from the command line to try others (make bench LAB=lab06
 * NVCCFLAGS="-O2 -DSCAN_THREADS=256 -DSCAN_CHUNKS=4" is the earlier
 * 256 x 16; -O2 is the kit's default NVCCFLAGS), as can the pauses below. */
#ifndef SCAN_THREADS
#define SCAN_THREADS 128
#endif
#ifndef SCAN_CHUNKS
#define SCAN_CHUNKS 6
#endif
#define THREADS SCAN_THREADS
#define WARPS (THREADS / 32)
#define VEC 4                        /* elements per 16-byte load */
#define CHUNKS SCAN_CHUNKS           /* 16-byte loads per thread */
#define WARP_ITEMS (32 * VEC * CHUNKS) /* consecutive elements per warp: 768 */
#define TILE (WARPS * WARP_ITEMS)    /* elements per block: 3072 */
static_assert(THREADS % 32 == 0 && WARPS >= 1 && WARPS <= 32, "whole warps, at most 32 (one lane per warp total)");
#define FULL_MASK 0xffffffffu
#define EPOCH_MAX 0x7fffffffu        /* the flag is epoch * 2 + (1 for P, 0 for A) */
/* Pauses of the look-back, in ns (the command line may set them too): between
 * two polls of a status not yet published, and before the first window (CUB
 * waits about 1140 ns there on sm_90; 0 here: no wait before a window whose
 * statuses are usually all published already). */
#ifndef SCAN_PAUSE_NS
#define SCAN_PAUSE_NS 128
#endif
#ifndef SCAN_FIRST_PAUSE_NS
#define SCAN_FIRST_PAUSE_NS 0
#endif

template <typename T> struct vec4;
template <> struct vec4<float> { typedef float4 type; };
template <> struct vec4<int> { typedef int4 type; };

/* The value of a status as 32 bits and back. */
__device__ unsigned to_bits(float x) { return __float_as_uint(x); }
__device__ unsigned to_bits(int x) { return (unsigned)x; }
template <typename T> __device__ T from_bits(unsigned b);
template <> __device__ float from_bits<float>(unsigned b) { return __uint_as_float(b); }
template <> __device__ int from_bits<int>(unsigned b) { return (int)b; }

/* v[0..3] = p[i..i+3], elements at or past n as 0.  One 16-byte load when
 * `vec` (p is 16-byte aligned: i is a multiple of 4) and all four exist. */
template <typename T> __device__ void load4(const T *p, long i, int n, bool vec, T v[VEC])
{
    typedef typename vec4<T>::type V;
    if (vec && i + 3 < n) {
        V x = *(const V *)(p + i);
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    } else {
        for (int k = 0; k < VEC; k++)
            v[k] = i + k < n ? p[i + k] : T(0);
    }
}

template <typename T> __device__ void store4(T *p, long i, int n, bool vec, const T v[VEC])
{
    typedef typename vec4<T>::type V;
    if (vec && i + 3 < n) {
        V x;
        x.x = v[0], x.y = v[1], x.z = v[2], x.w = v[3];
        *(V *)(p + i) = x;
    } else {
        for (int k = 0; k < VEC && i + k < n; k++)
            p[i + k] = v[k];
    }
}

/* Kogge-Stone inside a warp: lane l gets x(0) + ... + x(l). */
template <typename T> __device__ T warp_scan(T x)
{
    int lane = threadIdx.x % 32;
    for (int stride = 1; stride < 32; stride *= 2) {
        T left = __shfl_up_sync(FULL_MASK, x, stride);
        if (lane >= stride)
            x += left;
    }
    return x;
}

/* Every lane gets x(0) + ... + x(31). */
template <typename T> __device__ T warp_sum(T x)
{
    for (int stride = 16; stride > 0; stride /= 2)
        x += __shfl_xor_sync(FULL_MASK, x, stride);
    return x;
}

/* The lane before's value (0 for lane 0): an exclusive scan from an
 * inclusive one without subtracting (a float difference would round). */
template <typename T> __device__ T from_lane_before(T inclusive)
{
    T x = __shfl_up_sync(FULL_MASK, inclusive, 1);
    return threadIdx.x % 32 == 0 ? T(0) : x;
}

/* Writes value and flag in one 64-bit store: a reader sees both or neither. */
template <typename T> __device__ void publish(unsigned long long *status, unsigned epoch, bool prefix, T value)
{
    unsigned flag = epoch * 2u + (prefix ? 1u : 0u);
    *(volatile unsigned long long *)status = (unsigned long long)flag << 32 | to_bits(value);
}

/* Warp 0 of tile `tile` >= 1: the sum of all tiles before it.  Lane l looks
 * at tile (end - l); the window moves back 32 tiles while every tile in it
 * has published only its aggregate.  All lanes return the same value. */
template <typename T> __device__ T look_back(const unsigned long long *status, int tile, unsigned epoch)
{
    int lane = threadIdx.x % 32;
    T before = T(0);
#if __CUDA_ARCH__ >= 700
    if (SCAN_FIRST_PAUSE_NS > 0)
        __nanosleep(SCAN_FIRST_PAUSE_NS);
#endif
    for (int end = tile - 1;; end -= 32) {
        int j = end - lane;
        bool prefix = true; /* j < 0: past tile 0, which always publishes P, so never added */
        T value = T(0);
        if (j >= 0) {
            unsigned long long word = *(const volatile unsigned long long *)&status[j];
            while ((unsigned)(word >> 33) != epoch) { /* until tile j has published in this call */
                /* A short pause between polls (the tile's block is at most
                 * a load and a block scan away from publishing): fewer
                 * requests to the L2 slice that holds the status, which the
                 * publishing block needs too.  CUB's sm_90 tuning pauses
                 * too (its fixed_delay_constructor_t, 688 ns for floats). */
#if __CUDA_ARCH__ >= 700
                __nanosleep(SCAN_PAUSE_NS);
#endif
                word = *(const volatile unsigned long long *)&status[j];
            }
            prefix = (word >> 32) & 1u;
            value = from_bits<T>((unsigned)word);
        }
        unsigned prefixes = __ballot_sync(FULL_MASK, prefix);
        int last = prefixes ? __ffs(prefixes) - 1 : 31; /* the nearest P, or the whole window */
        before += warp_sum(lane <= last ? value : T(0));
        if (prefixes)
            return before;
    }
}

/* Chunk c of this warp: 32 lanes x 4 consecutive elements, 512 bytes.  A
 * whole tile (every tile but perhaps the last) is read with 16-byte loads
 * and no bounds checks, all CHUNKS of them issued before the first is used;
 * the same for every thread of the block (full is). */
template <typename T>
__device__ __forceinline__ void load_tile(const T *in, long first, int n, bool vec, bool full, T (&v)[CHUNKS][VEC])
{
    if (full) {
        typedef typename vec4<T>::type V;
        const V *src = (const V *)(in + first);
#pragma unroll
        for (int c = 0; c < CHUNKS; c++) {
            V x = src[c * 32];
            v[c][0] = x.x, v[c][1] = x.y, v[c][2] = x.z, v[c][3] = x.w;
        }
    } else {
#pragma unroll
        for (int c = 0; c < CHUNKS; c++)
            load4(in, first + c * 32 * VEC, n, vec, v[c]);
    }
}

/* The warp's elements: each chunk scanned across the lanes, the chunks one
 * after the other (carry = the warp's elements before the chunk).  Returns
 * the warp's total (in every lane). */
template <typename T> __device__ __forceinline__ T scan_warp_chunks(T (&v)[CHUNKS][VEC])
{
    T carry = T(0);
#pragma unroll
    for (int c = 0; c < CHUNKS; c++) {
        for (int k = 1; k < VEC; k++)
            v[c][k] += v[c][k - 1];
        T upto_lane = warp_scan(v[c][VEC - 1]);
        T add = carry + from_lane_before(upto_lane);
        for (int k = 0; k < VEC; k++)
            v[c][k] += add;
        carry += __shfl_sync(FULL_MASK, upto_lane, 31);
    }
    return carry;
}

/* Warp 0: the warps' totals scanned, the tile's aggregate published, the
 * tiles before it looked back on (tile 0 publishes its prefix at once), and
 * warp_offset[w] set to what warp w adds to its elements. */
template <typename T>
__device__ __forceinline__ void tile_offsets(T *warp_offset, unsigned long long *status, int tile, unsigned epoch)
{
    int lane = threadIdx.x % 32;
    T upto_warp = warp_scan(lane < WARPS ? warp_offset[lane] : T(0));
    T aggregate = __shfl_sync(FULL_MASK, upto_warp, WARPS - 1);
    T before = T(0);
    if (tile == 0) {
        if (lane == 0)
            publish(&status[0], epoch, true, aggregate);
    } else {
        if (lane == 0)
            publish(&status[tile], epoch, false, aggregate);
        before = look_back<T>(status, tile, epoch);
        if (lane == 0)
            publish(&status[tile], epoch, true, before + aggregate);
    }
    T warp_before = from_lane_before(upto_warp);
    if (lane < WARPS) /* each lane reads and writes only its own entry */
        warp_offset[lane] = before + warp_before;
}

/* The tile's elements plus offset, written as load_tile read them. */
template <typename T>
__device__ __forceinline__ void store_tile(T *out, long first, int n, bool vec, bool full, T offset, T (&v)[CHUNKS][VEC])
{
#pragma unroll
    for (int c = 0; c < CHUNKS; c++)
        for (int k = 0; k < VEC; k++)
            v[c][k] += offset;
    if (full) {
        typedef typename vec4<T>::type V;
        V *dst = (V *)(out + first);
#pragma unroll
        for (int c = 0; c < CHUNKS; c++) {
            V x;
            x.x = v[c][0], x.y = v[c][1], x.z = v[c][2], x.w = v[c][3];
            dst[c * 32] = x;
        }
    } else {
#pragma unroll
        for (int c = 0; c < CHUNKS; c++)
            store4(out, first + c * 32 * VEC, n, vec, v[c]);
    }
}

template <typename T>
__global__ void __launch_bounds__(THREADS) scan_single_pass(const T *in, T *out, int n, int tiles,
                                                            unsigned long long *status, unsigned *ticket,
                                                            unsigned epoch, bool vec)
{
    __shared__ int my_tile;
    __shared__ T warp_offset[WARPS]; /* the warps' totals, then what each warp adds */
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) /* 0, 1, ..., tiles - 1, and back to 0 for the next call */
        my_tile = (int)atomicInc(ticket, (unsigned)tiles - 1u);
    __syncthreads();
    int tile = my_tile;

    long first = (long)tile * TILE + (long)warp * WARP_ITEMS + lane * VEC;
    bool full = vec && (long)(tile + 1) * TILE <= n;
    T v[CHUNKS][VEC];
    load_tile(in, first, n, vec, full, v);
    T total = scan_warp_chunks(v);
    if (lane == 31)
        warp_offset[warp] = total;
    __syncthreads();
    if (warp == 0)
        tile_offsets(warp_offset, status, tile, epoch);
    __syncthreads();
    store_tile(out, first, n, vec, full, warp_offset[warp], v);
}

/* Kept between calls (the handout allows it): the tiles' statuses (cleared
 * when allocated), the ticket counter (back at 0 after every launch), and
 * the number of the current call. */
static unsigned long long *d_status;
static int status_tiles;
static unsigned *d_ticket;
static unsigned epoch;

template <typename T> static void scan_any(const T *d_in, T *d_out, int n)
{
    if (n <= 0)
        return;
    int tiles = (int)(((long)n + TILE - 1) / TILE);
    if (!d_ticket) {
        CUDA_CHECK(cudaMalloc(&d_ticket, sizeof *d_ticket));
        CUDA_CHECK(cudaMemset(d_ticket, 0, sizeof *d_ticket));
    }
    if (tiles > status_tiles) {
        CUDA_CHECK(cudaFree(d_status));
        CUDA_CHECK(cudaMalloc(&d_status, (size_t)tiles * sizeof *d_status));
        CUDA_CHECK(cudaMemset(d_status, 0, (size_t)tiles * sizeof *d_status));
        status_tiles = tiles;
    }
    if (epoch == EPOCH_MAX) { /* the flag would wrap: old statuses could look current */
        CUDA_CHECK(cudaMemset(d_status, 0, (size_t)status_tiles * sizeof *d_status));
        epoch = 0;
    }
    epoch++; /* 1, 2, ...: a cleared status (flag 0) is never current */
    bool vec = ((uintptr_t)d_in | (uintptr_t)d_out) % 16 == 0;
    scan_single_pass<T><<<tiles, THREADS>>>(d_in, d_out, n, tiles, d_status, d_ticket, epoch, vec);
    CUDA_CHECK_LAUNCH();
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
