/* lab10 stretch exercise - register-blocked matrix multiply (handout, "How far
 * from the library?").  Same interface as the reference solution
 * (../matmul.cu); the tile walk along k is the same, what changes is how much
 * each thread does with a tile:
 *
 *   - a block of 16 x 16 threads computes a 128 x 128 tile of C, each thread
 *     an 8 x 8 block of it, kept in 64 registers (register blocking): per step
 *     along k it reads 8 values of A and 8 of B from shared memory for 64
 *     multiply-adds, where the reference reads 2 for 1;
 *   - a thread's 8 rows are two groups of 4 (rows 4 ty .. 4 ty + 3 and 64
 *     more), its 8 columns likewise: each group is one 16-byte shared-memory
 *     read, and the 16 threads of a half-warp read 64 consecutive words of a
 *     row of Bs (no bank conflicts), a warp's reads of As are broadcasts;
 *   - the tile of A is stored transposed (As[p][i]), so that a thread's 4
 *     rows of A at step p are consecutive too;
 *   - global loads are 16 bytes (float4) wherever they are proven aligned and
 *     inside the matrix (the row length a multiple of 4 and the array 16-byte
 *     aligned), one float at a time otherwise, elements outside the matrix
 *     loaded as 0;
 *   - two shared buffers: the next tile is loaded from global memory into
 *     registers while the current one is multiplied, then stored into the
 *     other buffer - one barrier per tile instead of two.
 * Every thread takes part in every load and barrier; only the stores to C
 * are guarded.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "matmul.h"

#define BM 128           /* rows of C per block */
#define BN 128           /* columns of C per block */
#define BK 16            /* the step along k */
#define THREADS 256      /* 16 x 16 */
#define AS_STRIDE (BM + 4) /* padding: fewer bank conflicts storing A transposed; rows stay 16-byte aligned */
#define MAX_GRID_Y 65535

/* A's tile, BM x BK: thread t loads 4 consecutive elements of row t / 4 and
 * of row t / 4 + 64, columns 4 (t % 4) .. + 3. */
__device__ __forceinline__ void load_a(const float *A, int m, int k, bool vec, int row0, int p0, int t, float r[2][4])
{
    int p = p0 + (t & 3) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int row = row0 + (t >> 2) + 64 * h;
        const float *src = A + (size_t)row * k + p;
        if (vec && row < m && p + 3 < k) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = row < m && p + q < k ? src[q] : 0.0f;
        }
    }
}

/* B's tile, BK x BN: thread t loads columns 4 (t % 32) .. + 3 of rows t / 32
 * and t / 32 + 8. */
__device__ __forceinline__ void load_b(const float *B, int k, int n, bool vec, int p0, int col0, int t, float r[2][4])
{
    int col = col0 + (t & 31) * 4;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int p = p0 + (t >> 5) + 8 * h;
        const float *src = B + (size_t)p * n + col;
        if (vec && p < k && col + 3 < n) {
            float4 v = *(const float4 *)src;
            r[h][0] = v.x, r[h][1] = v.y, r[h][2] = v.z, r[h][3] = v.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; q++)
                r[h][q] = p < k && col + q < n ? src[q] : 0.0f;
        }
    }
}

__device__ __forceinline__ void store_tiles(float (*as)[AS_STRIDE], float (*bs)[BN], int t, const float ra[2][4],
                                            const float rb[2][4])
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
#pragma unroll
        for (int q = 0; q < 4; q++)
            as[(t & 3) * 4 + q][(t >> 2) + 64 * h] = ra[h][q]; /* transposed */
        *(float4 *)&bs[(t >> 5) + 8 * h][(t & 31) * 4] = make_float4(rb[h][0], rb[h][1], rb[h][2], rb[h][3]);
    }
}

/* a_vec, b_vec, c_vec: 16-byte accesses of A's, B's, C's rows are aligned
 * (host-checked).  row_base: the first row tile of this launch (grids of more
 * than MAX_GRID_Y row tiles are split into several launches). */
__global__ void __launch_bounds__(THREADS, 2)
    matmul_regtile_kernel(const float *A, const float *B, float *C, int m, int n, int k, int row_base, bool a_vec,
                          bool b_vec, bool c_vec)
{
    __shared__ __align__(16) float As[2][BK][AS_STRIDE];
    __shared__ __align__(16) float Bs[2][BK][BN];
    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    int row0 = (row_base + blockIdx.y) * BM, col0 = blockIdx.x * BN;
    int tiles = (k + BK - 1) / BK; /* the same in every thread: the branches on it are uniform */

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            acc[i][j] = 0.0f;

    float ra[2][4], rb[2][4];
    if (tiles > 0) {
        load_a(A, m, k, a_vec, row0, 0, t, ra);
        load_b(B, k, n, b_vec, 0, col0, t, rb);
        store_tiles(As[0], Bs[0], t, ra, rb);
    }
    __syncthreads(); /* tile 0 stored before anyone reads it */

    for (int tile = 0; tile < tiles; tile++) {
        int cur = tile & 1;
        if (tile + 1 < tiles) { /* the next tile's loads are in flight during the multiply */
            load_a(A, m, k, a_vec, row0, (tile + 1) * BK, t, ra);
            load_b(B, k, n, b_vec, (tile + 1) * BK, col0, t, rb);
        }
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float a[8], b[8];
            float4 v;
            v = *(const float4 *)&As[cur][p][ty * 4];
            a[0] = v.x, a[1] = v.y, a[2] = v.z, a[3] = v.w;
            v = *(const float4 *)&As[cur][p][64 + ty * 4];
            a[4] = v.x, a[5] = v.y, a[6] = v.z, a[7] = v.w;
            v = *(const float4 *)&Bs[cur][p][tx * 4];
            b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
            v = *(const float4 *)&Bs[cur][p][64 + tx * 4];
            b[4] = v.x, b[5] = v.y, b[6] = v.z, b[7] = v.w;
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++)
                    acc[i][j] += a[i] * b[j];
        }
        /* The other buffer was last read in the previous iteration, before
         * the barrier that ended it. */
        if (tile + 1 < tiles)
            store_tiles(As[cur ^ 1], Bs[cur ^ 1], t, ra, rb);
        __syncthreads(); /* stored before the next iteration reads it; read before the one after overwrites this one */
    }

#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (row >= m)
            continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = col0 + 64 * h + tx * 4;
            float *dst = C + (size_t)row * n + col;
            const float *v = &acc[i][4 * h];
            if (c_vec && col + 3 < n) {
                *(float4 *)dst = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (col + q < n)
                        dst[q] = v[q];
            }
        }
    }
}

/* Rows of length len starting at p are 16-byte aligned. */
static bool rows_aligned(const void *p, int len) { return (uintptr_t)p % 16 == 0 && len % 4 == 0; }

void matmul_tiled(const float *d_a, const float *d_b, float *d_c, int m, int n, int k)
{
    if (m <= 0 || n <= 0)
        return;
    bool a_vec = rows_aligned(d_a, k), b_vec = rows_aligned(d_b, n), c_vec = rows_aligned(d_c, n);
    int row_tiles = (m + BM - 1) / BM, col_tiles = (n + BN - 1) / BN;
    for (int base = 0; base < row_tiles; base += MAX_GRID_Y) {
        int rows = row_tiles - base < MAX_GRID_Y ? row_tiles - base : MAX_GRID_Y;
        matmul_regtile_kernel<<<dim3(col_tiles, rows), THREADS>>>(d_a, d_b, d_c, m, n, k, base, a_vec, b_vec, c_vec);
        CUDA_CHECK_LAUNCH();
    }
}
