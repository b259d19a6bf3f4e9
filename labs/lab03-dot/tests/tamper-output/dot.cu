/* lab03 - known-bad test submission: replaces its result file.
 * Correct solution, plus two tampers with out.bin, which the runner opens
 * before the student's code runs: every call moves the file away (the
 * runner goes on writing into it) and puts a FIFO in its place (float cases;
 * a checker that opened it would wait for ever) or a symbolic link to
 * /etc/shadow (int cases; the checker runs as the grader's user); and an exit
 * handler (registered before main) does the same after the runner wrote the
 * file.  The call's tamper reaches the grader's case server, which runs many
 * cases in one process (the exit handler runs only after its last case); the
 * exit handler reaches single runs and sanitizer sessions.  The grader must
 * refuse both, in every test. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

static int int_case(void)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return 0;
    size_t len = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    for (size_t i = 0; i < len; i++)
        if (args[i] == '\0')
            args[i] = ' ';
    args[len] = '\0';
    return strstr(args, "type=int") != NULL;
}

static void replace_result(void)
{
    if (rename("out.bin", "out.real") != 0)
        return;
    if (int_case())
        symlink("/etc/shadow", "out.bin");
    else
        mkfifo("out.bin", 0644);
}

__attribute__((constructor)) static void arm(void) { atexit(replace_result); }

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
    replace_result();
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
