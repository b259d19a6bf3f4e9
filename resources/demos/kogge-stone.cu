/* kogge-stone - an in-place Kogge-Stone scan races; a double buffer does not.
 * (The classic in-place Kogge-Stone block scan; lab 06, Part 1.)
 *
 * One block of N threads computes the inclusive prefix sum of N ints in
 * shared memory; the demo scans COPIES such arrays at once (one block each,
 * as a batched scan would), which packs several blocks on every SM and gives
 * the race more chances to show.  In the step with distance `stride` (1, 2, 4, ... N/2)
 * thread i adds the value `stride` places to its left.  After log2(N) steps
 * slot i holds in[0] + in[1] + ... + in[i].
 *
 * The racy kernel updates the array in place.  The __syncthreads() at the end
 * of each step keeps one step apart from the next - but inside a step thread i
 * READS s[i - stride] while thread i - stride WRITES that very slot.  If the
 * writer gets there first, thread i picks up a value that already has this
 * step's addition in it, and some elements are counted twice.  Which warp
 * gets there first changes from run to run, and so does the answer.
 *
 * The 32 threads of one warp read before they write, so N = 32 (the size
 * the classic program starts with) looks right; try:  build/demos/kogge-stone racy --n 32
 *
 * The fixed kernel reads one buffer and writes the other, then swaps them.
 */
// DEMO: in-place Kogge-Stone scan (lab 06)
// RACE: shared
// WHY: The barrier between steps is not enough: inside one step thread i reads s[i-stride]
// WHY: while thread i-stride overwrites it. Read into a register, __syncthreads(), then write -
// WHY: or write into a second buffer, as the fixed kernel does.
#include "demo_common.h"

#define MAX_N 1024 /* one thread per element, one block per array */
#define COPIES 4096 /* arrays scanned at once */

__global__ void scan_racy(const int *in, int *out, int n)
{
    __shared__ int s[MAX_N];
    int i = threadIdx.x;
    in += (size_t)blockIdx.x * n, out += (size_t)blockIdx.x * n; /* this block's array */
    s[i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        if (i >= stride)
            s[i] += s[i - stride]; /* RACE: thread i-stride may already have rewritten s[i-stride] */
        __syncthreads();           /* keeps the steps apart, not the read from the write */
    }
    out[i] = s[i];
}

__global__ void scan_fixed(const int *in, int *out, int n)
{
    __shared__ int buf[2][MAX_N]; /* each step reads one buffer and writes the other */
    int i = threadIdx.x, from = 0;
    in += (size_t)blockIdx.x * n, out += (size_t)blockIdx.x * n;
    buf[from][i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        int to = 1 - from;
        buf[to][i] = i >= stride ? buf[from][i] + buf[from][i - stride] : buf[from][i];
        __syncthreads(); /* the new buffer is complete before anyone reads it */
        from = to;
    }
    out[i] = buf[from][i];
}

int main(int argc, char **argv)
{
    demo_args a = demo_start(argc, argv, 10);
    int n = a.n ? (int)a.n : MAX_N; /* --once: 1024 threads is already small */
    if (n > MAX_N) {
        fprintf(stderr, "%s: --n is at most %d (one block)\n", a.prog, MAX_N);
        return 2;
    }

    /* COPIES arrays of n at once (one for compute-sanitizer: --once) */
    int copies = a.once ? 1 : COPIES;
    size_t total = (size_t)copies * n;

    /* the input: small random numbers, the same every run; the CPU's answer */
    int *in = (int *)demo_alloc(total * sizeof(int)), *ref = (int *)demo_alloc(total * sizeof(int));
    int *out = (int *)demo_alloc(total * sizeof(int));
    unsigned long long seed = 2024;
    for (size_t i = 0; i < total; i++) {
        in[i] = (int)(demo_rand(&seed) % 10);
        ref[i] = (i % n ? ref[i - 1] : 0) + in[i];
    }

    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, total * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, total * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in, total * sizeof(int), cudaMemcpyHostToDevice));
    if (copies > 1)
        demo_note(&a, "%s arrays of %s ints, one block each", demo_num(copies), demo_num(n));

    for (int run = 0; run < a.runs; run++) {
        CUDA_CHECK(cudaMemset(d_out, 0, total * sizeof(int)));
        if (a.racy)
            scan_racy<<<copies, n>>>(d_in, d_out, n);
        else
            scan_fixed<<<copies, n>>>(d_in, d_out, n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(out, d_out, total * sizeof(int), cudaMemcpyDeviceToHost));
        long wrong = 0;
        int bad_arrays = 0;
        for (int c = 0; c < copies; c++) {
            long w = 0;
            for (int i = 0; i < n; i++)
                w += out[(size_t)c * n + i] != ref[(size_t)c * n + i];
            wrong += w, bad_arrays += w > 0;
        }
        if (wrong)
            demo_run(&a, 1, "%s of %s outputs wrong (in %s of %s arrays)", demo_num(wrong), demo_num((long)total),
                     demo_num(bad_arrays), demo_num(copies));
        else
            demo_run(&a, 0, "all %s outputs right", demo_num((long)total));
    }

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(in);
    free(ref);
    free(out);
    return demo_end(&a);
}
