/* lab05 stretch exercise - register tiling (handout, "How far from the
 * library?").  Same interface as the reference solution (../conv1d.cu);
 * conv1d_halo_global (exercise 16) is the reference's.
 *
 * conv1d_tiled / conv1d_tiled_int: the reference's tiled kernel reads
 * mask_size words of shared memory for every output; at mask 31 those reads,
 * not DRAM, set its speed.  Here each thread computes OUTPUTS = 16
 * CONSECUTIVE outputs: it copies the 16 + 2 * radius tile values they need
 * from shared memory into registers once, with 16-byte loads, and every
 * value then serves up to 16 products (3 shared-memory words per output
 * instead of mask_size).  Registers are named at compile time, so the
 * radius is a template parameter (one kernel per odd mask size 1..31,
 * chosen at the launch) and every loop over the window is unrolled; each
 * mask value becomes an operand of the multiply-add, read from constant
 * memory.
 *   - A block computes TILE = 256 x 16 = 4096 outputs; its tile holds them
 *     plus HALO = 16 >= radius neighbours on each side (outside [0, n): 0),
 *     loaded with 16-byte loads (all in flight before the barrier).
 *   - Thread t's window starts at tile word 16 t: 8 threads of a 16-byte
 *     shared-memory request would hit the same 4 banks in pairs, so the tile
 *     is stored with 4 unused words after every 16 (word L at L + 4 (L / 16)):
 *     the window loads are free of bank conflicts.
 *   - Blocks whose tile lies inside the array (all but the first and the
 *     last) load and store without bounds tests, 16 bytes at a time; the
 *     edge blocks (and unaligned pointers) take the same path one element at
 *     a time, each access guarded.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "conv1d.h"
#include "kit/cuda_check.cuh"

__constant__ float c_mask_float[CONV_MAX_MASK];
__constant__ int c_mask_int[CONV_MAX_MASK];

template <typename T> __device__ T mask_at(int j);
template <> __device__ float mask_at<float>(int j) { return c_mask_float[j]; }
template <> __device__ int mask_at<int>(int j) { return c_mask_int[j]; }

template <typename T> struct vec4;
template <> struct vec4<float> { typedef float4 type; };
template <> struct vec4<int> { typedef int4 type; };

/* ---- conv1d_tiled, conv1d_tiled_int: register tiling ---- */
#define THREADS 256
#define OUTPUTS 16                          /* consecutive outputs per thread */
#define TILE (THREADS * OUTPUTS)            /* outputs per block */
#define HALO 16                             /* >= CONV_MAX_MASK / 2, a multiple of 4 */
#define TILE_IN (TILE + 2 * HALO)           /* tile words: in[start - HALO, start + TILE + HALO) */
#define GROUPS (TILE_IN / 4)                /* 16-byte groups of the tile */
#define FILL ((GROUPS + THREADS - 1) / THREADS) /* groups each thread loads */
#define PADDED(L) ((L) + 4 * ((L) / 16))    /* where tile word L is stored */

template <typename T> __device__ void set4(T *v, typename vec4<T>::type x)
{
    v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
}

template <typename T> __device__ typename vec4<T>::type make4(const T *v)
{
    typename vec4<T>::type x;
    x.x = v[0], x.y = v[1], x.z = v[2], x.w = v[3];
    return x;
}

/* R: the mask's radius (mask_size = 2 R + 1).  vec: in and out are 16-byte
 * aligned. */
template <typename T, int R>
__global__ void __launch_bounds__(THREADS) conv_registers(const T *in, T *out, int n, bool vec)
{
    typedef typename vec4<T>::type V;
    __shared__ V tile4[PADDED(TILE_IN) / 4]; /* V: 16-byte aligned */
    T *tile = (T *)tile4;
    long start = (long)blockIdx.x * TILE;
    long first = start - HALO; /* the array index of tile word 0 */
    bool inside = vec && first >= 0 && first + TILE_IN <= n; /* the same for the whole block */

    /* Fill: group q = threadIdx.x + f * THREADS holds tile words 4q .. 4q + 3. */
    if (inside) {
        V x[FILL];
#pragma unroll
        for (int f = 0; f < FILL; f++) { /* all loads first: FILL in flight per thread */
            int q = threadIdx.x + f * THREADS;
            if (q < GROUPS)
                x[f] = *(const V *)(in + first + 4 * q);
        }
#pragma unroll
        for (int f = 0; f < FILL; f++) {
            int q = threadIdx.x + f * THREADS;
            if (q < GROUPS)
                *(V *)&tile[PADDED(4 * q)] = x[f];
        }
    } else {
        for (int q = threadIdx.x; q < GROUPS; q += THREADS) {
            T v[4];
            for (int k = 0; k < 4; k++) {
                long g = first + 4 * q + k;
                v[k] = g >= 0 && g < n ? in[g] : T(0);
            }
            *(V *)&tile[PADDED(4 * q)] = make4(v);
        }
    }
    __syncthreads();

    /* Output k of this thread is tile word W0 + k + HALO; its terms are the
     * words W0 + k + HALO - R + j, j = 0 .. 2R.  The window: the 16-byte
     * groups QLO .. QHI after word W0 = 16 t. */
    const int QLO = (HALO - R) / 4, QHI = (HALO + OUTPUTS - 1 + R) / 4;
    const int W = 4 * (QHI - QLO + 1);
    int w0 = OUTPUTS * threadIdx.x;
    T w[W];
#pragma unroll
    for (int q = QLO; q <= QHI; q++)
        set4(&w[4 * (q - QLO)], *(const V *)&tile[PADDED(w0 + 4 * q)]);

    T sum[OUTPUTS];
#pragma unroll
    for (int k = 0; k < OUTPUTS; k++)
        sum[k] = T(0);
#pragma unroll
    for (int j = 0; j <= 2 * R; j++) {
        T m = mask_at<T>(j);
#pragma unroll
        for (int k = 0; k < OUTPUTS; k++)
            sum[k] += m * w[k + HALO - R + j - 4 * QLO];
    }

    long o = start + w0; /* this thread's first output */
    if (inside) { /* o + OUTPUTS <= start + TILE < n */
#pragma unroll
        for (int k = 0; k < OUTPUTS; k += 4)
            *(V *)(out + o + k) = make4(&sum[k]);
    } else {
#pragma unroll
        for (int k = 0; k < OUTPUTS; k++)
            if (o + k < n)
                out[o + k] = sum[k];
    }
}

/* Launches conv_registers<T, R> for radius == R, trying R, R - 1, ..., 0. */
template <typename T, int R> struct by_radius {
    static void launch(const T *in, T *out, int n, int radius, bool vec)
    {
        if (radius != R) {
            by_radius<T, R - 1>::launch(in, out, n, radius, vec);
            return;
        }
        int blocks = (int)(((long)n + TILE - 1) / TILE);
        conv_registers<T, R><<<blocks, THREADS>>>(in, out, n, vec);
        CUDA_CHECK_LAUNCH();
    }
};
template <typename T> struct by_radius<T, -1> {
    static void launch(const T *, T *, int, int, bool) {}
};

template <typename T> static void conv_tiled(const T *d_in, T *d_out, int n, int mask_size)
{
    bool vec = ((uintptr_t)d_in | (uintptr_t)d_out) % 16 == 0;
    by_radius<T, CONV_MAX_MASK / 2>::launch(d_in, d_out, n, mask_size / 2, vec);
}

/* ---- conv1d_halo_global (exercise 16): the reference's ---- */
__global__ void conv_halo_global(const float *in, float *out, int n, int mask_size)
{
    __shared__ float tile[THREADS];
    int radius = mask_size / 2;
    int block_start = blockIdx.x * blockDim.x;
    int i = block_start + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads(); /* every thread reaches it, also those past the end */

    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < mask_size; j++) {
            int t = (int)threadIdx.x + j - radius; /* position in the tile */
            int g = i + j - radius;                /* position in the array */
            float v;
            if (t >= 0 && t < (int)blockDim.x)
                v = tile[t]; /* 0 when g >= n: the tile holds 0 there */
            else if (g >= 0 && g < n)
                v = in[g];   /* halo: from global memory (cached) */
            else
                v = 0.0f;    /* outside the array: the term is left out */
            sum += mask_at<float>(j) * v;
        }
        out[i] = sum;
    }
}

void conv1d_tiled(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_float, h_mask, (size_t)mask_size * sizeof(float)));
    conv_tiled(d_in, d_out, n, mask_size);
}

void conv1d_tiled_int(const int *d_in, int *d_out, int n, const int *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_int, h_mask, (size_t)mask_size * sizeof(int)));
    conv_tiled(d_in, d_out, n, mask_size);
}

void conv1d_halo_global(const float *d_in, float *d_out, int n, const float *h_mask, int mask_size)
{
    if (n <= 0)
        return;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask_float, h_mask, (size_t)mask_size * sizeof(float)));
    conv_halo_global<<<(int)(((long)n + THREADS - 1) / THREADS), THREADS>>>(d_in, d_out, n, mask_size);
    CUDA_CHECK_LAUNCH();
}
