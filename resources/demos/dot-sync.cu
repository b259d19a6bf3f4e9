/* dot-sync - a block reduction that forgets the barrier after storing partials.
 * (Lab 03, dot product: the starter's missing __syncthreads().)
 *
 * Each thread adds up a[i]*b[i] over its share of the arrays and stores that
 * partial sum in shared memory; then the block adds its 256 partials with a
 * tree: in each step, thread t < s adds partial[t + s] to partial[t].
 *
 * The racy kernel has no __syncthreads() between storing the partials and the
 * first step of the tree.  Thread 0 reads partial[128] right after storing
 * its own partial - but thread 128 belongs to another warp, which may not have
 * finished its share yet.  Thread 0 then adds whatever that slot held before
 * (left over from an earlier block) and the block's sum is wrong.  The
 * barriers inside the tree are all there; only the first one is missing.
 * Lab 03's starter has the same hole before its thread-0 loop.
 *
 * The fixed kernel is the same with that one barrier put back.
 *
 * Input: 10 000 000 ints in 0..9 (--n changes the count), 4 096 blocks of 256
 * threads; each run compares all 4 096 block sums with the CPU's.
 */
// DEMO: reduction without __syncthreads() after the partials (lab 03)
// RACE: shared
// WHY: A thread reads other threads' partials before anything guarantees they were written.
// WHY: Shared memory is shared, but only a barrier orders one warp's store before another
// WHY: warp's load: __syncthreads() after storing the partials.
#include "dot_blocks.h"

#define THREADS DOT_THREADS

__global__ void dot_racy(const int *a, const int *b, int n, int *block_sums)
{
    __shared__ int partial[THREADS];
    int t = threadIdx.x, sum = 0;
    for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
        sum += a[i] * b[i];
    partial[t] = sum;
    /* MISSING: __syncthreads();  -- the next line reads other warps' partials */
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (t < s)
            partial[t] += partial[t + s]; /* RACE (first step): partial[t + s] may not be stored yet */
        __syncthreads();
    }
    if (t == 0)
        block_sums[blockIdx.x] = partial[0];
}

__global__ void dot_fixed(const int *a, const int *b, int n, int *block_sums)
{
    __shared__ int partial[THREADS];
    int t = threadIdx.x, sum = 0;
    for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
        sum += a[i] * b[i];
    partial[t] = sum;
    __syncthreads(); /* every partial is stored before anyone reads one */
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0)
        block_sums[blockIdx.x] = partial[0];
}

int main(int argc, char **argv) { return dot_blocks_main(argc, argv, 8, 303, dot_racy, dot_fixed); }
