/* lab03 - known-bad test submission: fills the disk and the memory file systems.
 * Correct solution, plus a twist in the run of the float n = 1 case (static
 * constructor): 256 MiB files in /tmp and in /dev/shm (memory, in the
 * sandbox) until a write fails; one huge file in its run folder (on disk)
 * with SIGXFSZ ignored; then 256 MiB files there until it is killed.  It
 * stops by itself after 3 GiB in each place and says "no limit" (so even a
 * broken sandbox cannot fill the machine). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

static char block[1 << 20];

/* Writes up to max_mib MiB to path; returns how many were written. */
static long fill(const char *path, long max_mib)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 0;
    }
    long mib = 0;
    for (; mib < max_mib; mib++)
        if (write(fd, block, sizeof block) < 0) { /* a short write is followed by a failing one */
            fprintf(stderr, "writing %s: %s after %ld MiB\n", path, strerror(errno), mib);
            break;
        }
    close(fd);
    return mib;
}

/* 256 MiB files in dir until a write fails or max_mib are written. */
static void fill_folder(const char *dir, long max_mib)
{
    long total = 0;
    for (int k = 0; total < max_mib; k++) {
        char name[256];
        snprintf(name, sizeof name, "%s/chunk%03d", dir, k);
        long got = fill(name, 256);
        total += got;
        if (got < 256)
            return;
    }
    fprintf(stderr, "wrote %ld MiB in %s: no limit\n", total, dir);
}

__attribute__((constructor)) static void fill_disks_in_first_case(void)
{
    if (!in_first_case())
        return;
    memset(block, 'x', sizeof block);
    fill_folder("/tmp", 3072);
    fill_folder("/dev/shm", 3072);
    signal(SIGXFSZ, SIG_IGN); /* past the file size limit: EFBIG instead of the signal */
    if (fill("huge", 3072) == 3072)
        fprintf(stderr, "wrote a 3 GiB file: no limit\n");
    fill_folder(".", 3072);
    exit(1);
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
