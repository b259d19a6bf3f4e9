/* lab03 - known-bad test submission: a fork bomb.
 * Correct solution, plus a twist in the run of the float n = 1 case (static
 * constructor): it forks until fork() fails, and every child forks for ever.
 * The process limit (RLIMIT_NPROC, per sandbox uid) must stop it; the parent
 * then reports the failure and exits.  Every other case passes, and other
 * submissions graded at the same time can still start processes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

/* The twist runs only in the run of the first case of float-small (the
 * runner's command line holds "--params type=float n=1"), so the cases
 * after it show that the next run is unaffected. */
static int in_first_case(void)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return 0;
    size_t len = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    for (size_t i = 0; i < len; i++) /* NUL-separated arguments -> one line of words */
        if (args[i] == '\0')
            args[i] = ' ';
    args[len] = '\0';
    int n1 = 0, is_float = 0;
    for (char *w = strtok(args, " "); w; w = strtok(NULL, " ")) {
        n1 |= !strcmp(w, "n=1");
        is_float |= !strcmp(w, "type=float");
    }
    return n1 && is_float;
}

__attribute__((constructor)) static void fork_bomb_in_first_case(void)
{
    if (!in_first_case())
        return;
    int children = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0)
            for (;;)
                fork(); /* every child forks for ever */
        if (pid < 0) {
            fprintf(stderr, "fork bomb stopped after %d children: %s\n", children, strerror(errno));
            exit(1);
        }
        children++;
    }
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
