/* warp-unroll - the last warp of a reduction unrolled the pre-Volta way.
 * (The final reduction step of older CUDA texts; lab 03.)
 *
 * A block adds its 256 partial sums with a tree in shared memory.  Once 32
 * threads are left, those texts drop the barriers: "one warp runs in
 * lockstep", so thread t just adds s[t + 32], s[t + 16], ..., s[t + 1] to
 * s[t], six statements without a __syncthreads().
 *
 * The racy kernel does exactly that, with a plain (not volatile) shared
 * array.  Nothing tells the compiler that other threads write s[t + 16]
 * between those statements, so it keeps s[t] in a register: it loads
 * s[t + 32], s[t + 16], ... first and stores s[t] once at the end.  Thread 0
 * then adds its neighbours' slots before any of them were updated, and each
 * block sum counts 28 of its 256 elements.  The run is wrong in the same way
 * every time: the compiler's choice, not the timing.  And since Volta the
 * threads of a warp are not in lockstep anyway (independent thread
 * scheduling), so `volatile`, the old fix, is not enough either.
 *
 * The fixed kernel reads into a register, __syncwarp(), writes, __syncwarp()
 * at each step: the warp's own barrier, which also orders its threads'
 * shared-memory accesses.  (Warp shuffles, __shfl_down_sync, avoid shared
 * memory altogether.)
 *
 * Input: 10 000 000 ints in 0..9 (--n changes the count), 4 096 blocks of 256
 * threads; each run compares all 4 096 block sums with the CPU's (the host
 * side is dot-sync's: dot_blocks.h).
 */
// DEMO: last warp of a reduction unrolled without volatile or __syncwarp() (lab 03)
// RACE: shared
// WHY: One warp is not a barrier. The compiler may keep shared values in registers between
// WHY: statements that no barrier separates, and since Volta a warp's threads need not run in
// WHY: lockstep: __syncwarp() between reading and writing each step (or warp shuffles).
#include "dot_blocks.h"

#define THREADS DOT_THREADS

/* Both kernels start alike: each thread's share of a[i]*b[i] into s[t], then
 * the tree with a barrier after every step, down to 64 values in s[0..63]. */
__device__ void sum_down_to_64(const int *a, const int *b, int n, int *s)
{
    int t = threadIdx.x, sum = 0;
    for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
        sum += a[i] * b[i];
    s[t] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 32; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
}

__global__ void reduce_racy(const int *a, const int *b, int n, int *block_sums)
{
    __shared__ int s[THREADS];
    sum_down_to_64(a, b, n, s);
    int t = threadIdx.x;
    if (t < 32) { /* RACE: "one warp, no barrier needed" - neither volatile nor __syncwarp() */
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0)
        block_sums[blockIdx.x] = s[0];
}

__global__ void reduce_fixed(const int *a, const int *b, int n, int *block_sums)
{
    __shared__ int s[THREADS];
    sum_down_to_64(a, b, n, s);
    int t = threadIdx.x;
    if (t < 32) {
        for (int stride = 32; stride > 0; stride /= 2) {
            int v = s[t] + s[t + stride]; /* read ... */
            __syncwarp();                 /* ... every thread of the warp has read */
            s[t] = v;                     /* ... then write */
            __syncwarp();                 /* ... every thread has written before the next read */
        }
    }
    if (t == 0)
        block_sums[blockIdx.x] = s[0];
}

int main(int argc, char **argv) { return dot_blocks_main(argc, argv, 6, 404, reduce_racy, reduce_fixed); }
