/* histogram - counting with bins[v]++ loses counts; atomicAdd does not.
 * (The classic shared-memory histogram; lab 04.)
 *
 * Each block counts its share of the values into its own 256 bins in shared
 * memory, then adds its bins to the global histogram.  The racy kernel counts
 * with an ordinary ++, which the GPU does in three steps:
 *
 *     read bins[v]   ->   add 1   ->   write bins[v] back
 *
 * When two threads do this to the same bin at the same time, both read the
 * same old count and both write old + 1: one of the two increments is lost.
 * The more threads hit the same bin at once, the more is lost, so skewed data
 * (90% of the values in one bin) loses far more than uniform data.
 *
 * The fixed kernel uses atomicAdd, which does read-add-write as one step.
 *
 * Input: 10 000 000 values in 0..255 (--n changes the count); the runs
 * alternate between uniform and skewed data, the same data every run.
 */
// DEMO: shared-memory histogram with bins[v]++ instead of atomicAdd (lab 04)
// RACE: shared
// WHY: bins[v]++ is read, add one, write back: two threads that read the same count both write
// WHY: count+1, and one increment is lost. atomicAdd does the read-modify-write as one
// WHY: indivisible step.
#include "demo_common.h"

#define BINS 256
#define THREADS 256 /* one bin per thread for clearing and flushing */
#define BLOCKS 1024
#define HOT_BIN 7   /* skewed data: 90% of the values are 7 */
static_assert(THREADS == BINS, "each thread clears and flushes one bin");

__global__ void histo_racy(const unsigned char *values, int n, unsigned int *histo)
{
    __shared__ unsigned int bins[BINS];
    bins[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        bins[values[i]]++; /* RACE: read, add 1, write back - another thread may do the same meanwhile */
    __syncthreads();
    atomicAdd(&histo[threadIdx.x], bins[threadIdx.x]); /* this block's counts into the total */
}

__global__ void histo_fixed(const unsigned char *values, int n, unsigned int *histo)
{
    __shared__ unsigned int bins[BINS];
    bins[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[values[i]], 1u); /* read, add 1, write back as ONE step */
    __syncthreads();
    atomicAdd(&histo[threadIdx.x], bins[threadIdx.x]);
}

/* n values in 0..255: uniform, or 90% HOT_BIN and the rest uniform */
static void make_values(unsigned char *v, int n, int skewed, unsigned *ref)
{
    unsigned long long seed = skewed ? 77 : 76;
    memset(ref, 0, BINS * sizeof(unsigned));
    for (int i = 0; i < n; i++) {
        unsigned r = demo_rand(&seed);
        v[i] = (unsigned char)(skewed && r % 10 != 0 ? HOT_BIN : (r >> 8) % BINS);
        ref[v[i]]++;
    }
}

int main(int argc, char **argv)
{
    demo_args a = demo_start(argc, argv, 6);
    int n = a.once ? 1 << 15 : a.n ? (int)a.n : 10000000;
    int blocks = a.once ? 8 : BLOCKS;

    unsigned char *values = (unsigned char *)demo_alloc(n);
    unsigned ref[2][BINS], histo[BINS];
    unsigned char *d_uniform, *d_skewed;
    unsigned int *d_histo;
    CUDA_CHECK(cudaMalloc(&d_uniform, n));
    CUDA_CHECK(cudaMalloc(&d_skewed, n));
    CUDA_CHECK(cudaMalloc(&d_histo, BINS * sizeof(unsigned)));
    make_values(values, n, 0, ref[0]);
    CUDA_CHECK(cudaMemcpy(d_uniform, values, n, cudaMemcpyHostToDevice));
    make_values(values, n, 1, ref[1]);
    CUDA_CHECK(cudaMemcpy(d_skewed, values, n, cudaMemcpyHostToDevice));

    /* first half of the runs on uniform data, second half on skewed (--once: skewed) */
    int uniform_runs = a.once ? 0 : a.runs / 2;
    for (int run = 0; run < a.runs; run++) {
        int skewed = run >= uniform_runs;
        if (run == 0 && !skewed)
            demo_note(&a, "uniform data (values spread over all %d bins):", BINS);
        if (run == uniform_runs)
            demo_note(&a, "skewed data (90%% of the values in bin %d):", HOT_BIN);
        CUDA_CHECK(cudaMemset(d_histo, 0, BINS * sizeof(unsigned)));
        if (a.racy)
            histo_racy<<<blocks, THREADS>>>(skewed ? d_skewed : d_uniform, n, d_histo);
        else
            histo_fixed<<<blocks, THREADS>>>(skewed ? d_skewed : d_uniform, n, d_histo);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(histo, d_histo, sizeof histo, cudaMemcpyDeviceToHost));
        long long counted = 0;
        int bad_bins = 0;
        for (int b = 0; b < BINS; b++) {
            counted += histo[b];
            bad_bins += histo[b] != ref[skewed][b];
        }
        if (bad_bins)
            demo_run(&a, 1, "lost %10s of %s increments", demo_num(n - counted), demo_num(n));
        else
            demo_run(&a, 0, "all %s increments counted", demo_num(n));
    }

    CUDA_CHECK(cudaFree(d_uniform));
    CUDA_CHECK(cudaFree(d_skewed));
    CUDA_CHECK(cudaFree(d_histo));
    free(values);
    return demo_end(&a);
}
