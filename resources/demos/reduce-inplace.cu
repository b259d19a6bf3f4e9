/* reduce-inplace - a multi-pass reduction run in place across blocks: a race
 * that no compute-sanitizer tool reports.
 * (A student report's reduce: the kernel and the host loop that launches
 * it again and again with input = output.)
 *
 * One pass: each block loads 256 values into shared memory, adds them with a
 * tree (a barrier after every step - that part is right), and thread 0 writes
 * the block's sum to data[blockIdx.x].  Passes repeat until one value is left:
 * 10 000 000 -> 39 063 -> 153 -> 1.
 *
 * The racy kernel runs all the passes inside ONE launch, on the same array,
 * with a __syncthreads() between passes.  But __syncthreads() waits for the
 * threads of one block only.  Block 0 starts pass 2 by reading data[0..255],
 * the pass-1 sums of blocks 0..255 - and most of them have not finished pass 1
 * yet.  Blocks far down the grid have not even started: a GPU runs about a
 * thousand blocks of 256 at a time, and this grid has 39 063.  Block 0 adds
 * the old values instead of the sums, and the total comes out wrong.
 *
 * racecheck cannot see this: it watches shared memory only, and every
 * shared-memory access here is properly synchronised.  memcheck sees nothing
 * either: every access is inside the array.  The wrong total is the only
 * evidence.
 *
 * The fixed version is that report's own host loop: one launch per pass,
 * because the end of a kernel is the only point where all blocks are done,
 * and each pass writes into a second buffer.  (The report writes in place;
 * inside one pass block b then overwrites data[b] while block b/256 may not
 * have read it yet - a race too, which almost never shows because block b/256
 * starts long before block b.  The second buffer removes it.)
 *
 * Input: n ones (--n changes n; default 10 000 000), so the right total is n.
 */
// DEMO: multi-pass reduction in place across blocks, one launch
// RACE: global
// WHY: __syncthreads() is a barrier for one block; blocks never wait for each other inside a
// WHY: kernel. Use one launch per pass (the end of a kernel is the only grid-wide barrier) and
// WHY: separate input and output buffers. Tools have limits: racecheck watches shared memory
// WHY: only.
#include "demo_common.h"

#define BLOCK 256

__global__ void reduce_racy(int *data, int n)
{
    __shared__ int part[BLOCK];
    int t = threadIdx.x;
    while (n > 1) { /* one pass per trip, every block, same array */
        int i = blockIdx.x * BLOCK + t;
        part[t] = i < n ? data[i] : 0; /* RACE: in pass 2+ these are other blocks' sums - if written yet */
        __syncthreads();
        for (int s = BLOCK / 2; s > 0; s /= 2) {
            if (t < s)
                part[t] += part[t + s];
            __syncthreads();
        }
        if (t == 0 && (int)blockIdx.x * BLOCK < n)
            data[blockIdx.x] = part[0]; /* RACE: another block may still need the old data[blockIdx.x] */
        n = (n + BLOCK - 1) / BLOCK;
        __syncthreads(); /* waits for THIS block only - not for the blocks whose sums come next */
    }
}

/* The report's pass, with out != in. */
__global__ void reduce_pass(const int *in, int *out, int n)
{
    __shared__ int part[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    part[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}

/* Fixed: one launch per pass, ping-pong between two buffers; returns the buffer holding the sum. */
static int *reduce_fixed(int *d_a, int *d_b, int n)
{
    while (n > 1) {
        int blocks = (n + BLOCK - 1) / BLOCK;
        reduce_pass<<<blocks, BLOCK>>>(d_a, d_b, n); /* the launch boundary is the barrier */
        CUDA_CHECK_LAUNCH();
        int *swap = d_a;
        d_a = d_b;
        d_b = swap;
        n = blocks;
    }
    return d_a;
}

int main(int argc, char **argv)
{
    demo_args a = demo_start(argc, argv, 6);
    int n = a.once ? 1 << 16 : a.n ? (int)a.n : 10000000;

    int *ones = (int *)demo_alloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        ones[i] = 1;
    int *d_data, *d_other;
    CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_other, n * sizeof(int)));

    for (int run = 0; run < a.runs; run++) {
        CUDA_CHECK(cudaMemcpy(d_data, ones, n * sizeof(int), cudaMemcpyHostToDevice)); /* in place: reload */
        int *d_result = d_data;
        if (a.racy) {
            reduce_racy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_data, n);
            CUDA_CHECK_LAUNCH();
        } else
            d_result = reduce_fixed(d_data, d_other, n);
        int sum;
        CUDA_CHECK(cudaMemcpy(&sum, d_result, sizeof sum, cudaMemcpyDeviceToHost));
        if (sum != n)
            demo_run(&a, 1, "sum %10s, should be %s", demo_num(sum), demo_num(n));
        else
            demo_run(&a, 0, "sum %10s, right", demo_num(sum));
    }

    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_other));
    free(ones);
    return demo_end(&a);
}
