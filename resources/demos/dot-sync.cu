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
#include "demo_common.h"

#define THREADS 256
#define BLOCKS 4096 /* several waves: a block finds an earlier block's partials in its slot */

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

int main(int argc, char **argv)
{
    demo_args args = demo_start(argc, argv, 8);
    int n = args.once ? 1 << 14 : args.n ? (int)args.n : 10000000;
    int blocks = args.once ? 16 : BLOCKS;

    int *a = (int *)demo_alloc(n * sizeof(int)), *b = (int *)demo_alloc(n * sizeof(int));
    int *ref = (int *)demo_alloc(blocks * sizeof(int)), *sums = (int *)demo_alloc(blocks * sizeof(int));
    unsigned long long seed = 303;
    memset(ref, 0, blocks * sizeof(int));
    long long total_ref = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (int)(demo_rand(&seed) % 10);
        b[i] = (int)(demo_rand(&seed) % 10);
        ref[(i / THREADS) % blocks] += a[i] * b[i]; /* the block whose grid-stride loop gets i */
        total_ref += a[i] * b[i];
    }

    int *d_a, *d_b, *d_sums;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_a, a, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, n * sizeof(int), cudaMemcpyHostToDevice));

    for (int run = 0; run < args.runs; run++) {
        CUDA_CHECK(cudaMemset(d_sums, 0, blocks * sizeof(int)));
        if (args.racy)
            dot_racy<<<blocks, THREADS>>>(d_a, d_b, n, d_sums);
        else
            dot_fixed<<<blocks, THREADS>>>(d_a, d_b, n, d_sums);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(sums, d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
        int wrong = 0;
        long long total = 0;
        for (int k = 0; k < blocks; k++) {
            wrong += sums[k] != ref[k];
            total += sums[k];
        }
        if (wrong)
            demo_run(&args, 1, "%5s of %s block sums wrong (total off by %s)", demo_num(wrong),
                     demo_num(blocks), demo_num(total - total_ref));
        else
            demo_run(&args, 0, "all %s block sums right", demo_num(blocks));
    }

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_sums));
    free(a);
    free(b);
    free(ref);
    free(sums);
    return demo_end(&args);
}
