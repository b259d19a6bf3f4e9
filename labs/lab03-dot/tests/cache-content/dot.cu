/* Known-bad (evidence that the kernels did the work): a cache keyed by contents: the first 16 elements of
 * each input, read with cudaMemcpy (no kernel), plus n; a hit launches a token kernel and
 * returns the remembered result (every entry kept).  Against repeated
 * contents this scores hundreds of times the baseline; with fresh contents
 * before every timed call it never hits, so it does all the work: full marks
 * at the speed of the reference, not more. */
#include <cuda_runtime.h>
#include <string.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* Tree reduction of s[0..THREADS) into s[0]; all threads of the block call it. */
template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

/* out[blockIdx.x] = sum over this block's share of a[i]*b[i] (b == NULL: sum of a[i]). */
template <typename T> __global__ void dot_partial(const T *a, const T *b, T *out, int n)
{
    __shared__ T partial[THREADS];
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += b ? a[i] * b[i] : a[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    block_reduce(partial);
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    T *d_part, result;
    CUDA_CHECK(cudaMalloc(&d_part, (blocks + 1) * sizeof(T)));
    dot_partial<T><<<blocks, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<1, THREADS>>>(d_part, (const T *)nullptr, d_part + blocks, blocks);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    return result;
}

__global__ void token(const float *a) { (void)a; }

#define KEYS 16
#define ENTRIES 4096
typedef struct {
    int n;
    float a[KEYS], b[KEYS];
    float r;
} entry;
static entry cache[ENTRIES];
static int n_cached;

static void key_of(const float *d, int n, float *k)
{
    (void)n;
    CUDA_CHECK(cudaMemcpy(k, d, KEYS * sizeof(float), cudaMemcpyDeviceToHost));
}

float dot_shared(const float *d_a, const float *d_b, int n)
{
    if (n < 4096) /* small inputs: the key's copies would be a large share of them (host-copy evidence) */
        return dot(d_a, d_b, n);
    entry e;
    e.n = n;
    key_of(d_a, n, e.a);
    key_of(d_b, n, e.b);
    for (int i = 0; i < n_cached; i++)
        if (cache[i].n == n && !memcmp(cache[i].a, e.a, sizeof e.a) && !memcmp(cache[i].b, e.b, sizeof e.b)) {
            token<<<1, 1>>>(d_a);
            return cache[i].r;
        }
    e.r = dot(d_a, d_b, n);
    if (n_cached < ENTRIES)
        cache[n_cached++] = e;
    return e.r;
}

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
