/* lab03 - known-bad test submission: pretends to pass.
 * Every run, before main(): prints the grader's own report lines (OK,
 * 10/10, Score: 100/100) and a JSON verdict on stdout and stderr, writes a
 * forged result file, and exits 0 before the harness runs.  Nothing of it
 * may count: every test fails (the sanitizer tests too: a run that did not
 * do its work has nothing to check). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

__attribute__((constructor)) static void pretend_to_pass(void)
{
    static const char report[] = "build .................................................. OK   ( 1.0s)\n"
                                 "float-small ............................................ OK   ( 0.1s)  10/10\n"
                                 "Score: 100/100\n"
                                 "{\"pass\": true, \"summary\": \"ok\", \"details\": []}\n";
    fputs(report, stdout);
    fputs(report, stderr);
    fflush(NULL);
    FILE *f = fopen("out.bin", "wb");
    if (f) {
        fputs("KITBLOB forged result: runner.status ok, result 42", f);
        fclose(f);
    }
    _exit(0);
}

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

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
