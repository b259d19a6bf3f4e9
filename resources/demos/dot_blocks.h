/* dot_blocks.h - the host side of the demos whose kernels compute the block
 * sums of a dot product (dot-sync, warp-unroll): the input, the CPU's block
 * sums, the runs and their lines.  Each demo's .cu keeps what a TA reads
 * aloud: its racy kernel and its fixed kernel.
 *
 * Input: 10 000 000 ints in 0..9 for a and b (--n changes the count; --once:
 * 16 384 of them in 16 blocks), DOT_BLOCKS blocks of DOT_THREADS threads that
 * grid-stride over the arrays; each run compares every block sum with the
 * CPU's and prints how many are wrong.
 */
#ifndef DOT_BLOCKS_H
#define DOT_BLOCKS_H

#include "demo_common.h"

#define DOT_THREADS 256
#define DOT_BLOCKS 4096 /* several waves: a block finds an earlier block's values in its shared memory */

/* A kernel of these demos: block_sums[b] = the sum of a[i]*b[i] over block b's share. */
typedef void (*dot_blocks_kernel)(const int *a, const int *b, int n, int *block_sums);

/* The demo's main: parses the command line (demo_start), runs `racy` or
 * `fixed`; returns the exit status (demo_end). */
static inline int dot_blocks_main(int argc, char **argv, int default_runs, unsigned long long seed,
                                  dot_blocks_kernel racy, dot_blocks_kernel fixed)
{
    demo_args args = demo_start(argc, argv, default_runs);
    int n = args.once ? 1 << 14 : args.n ? (int)args.n : 10000000;
    int blocks = args.once ? 16 : DOT_BLOCKS;

    int *a = (int *)demo_alloc(n * sizeof(int)), *b = (int *)demo_alloc(n * sizeof(int));
    int *ref = (int *)demo_alloc(blocks * sizeof(int)), *sums = (int *)demo_alloc(blocks * sizeof(int));
    memset(ref, 0, blocks * sizeof(int));
    long long total_ref = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (int)(demo_rand(&seed) % 10);
        b[i] = (int)(demo_rand(&seed) % 10);
        ref[(i / DOT_THREADS) % blocks] += a[i] * b[i]; /* the block whose grid-stride loop gets i */
        total_ref += a[i] * b[i];
    }

    int *d_a, *d_b, *d_sums;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_a, a, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, n * sizeof(int), cudaMemcpyHostToDevice));

    dot_blocks_kernel kernel = args.racy ? racy : fixed;
    for (int run = 0; run < args.runs; run++) {
        CUDA_CHECK(cudaMemset(d_sums, 0, blocks * sizeof(int)));
        kernel<<<blocks, DOT_THREADS>>>(d_a, d_b, n, d_sums);
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

#endif
