/* lab11 - host-device transfers: pinned memory, then streams.
 *
 * Read labs/lab11-streams/handout.md first.  Check your work with:   make lab11
 *
 * Part 1 measures what page-locked host memory buys; Part 2 hides copies
 * behind a kernel with several streams.  This starter compiles and computes
 * the right Part 2 results - one big copy, one kernel, one copy back, all in
 * a row - but its pinned memory is not pinned and its round trip only goes
 * one way.  The TODOs say what to do.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "kit/cuda_check.cuh"
#include "transfer.h"

/* ---- Part 1 ---------------------------------------------------------------- */
uint32_t *pinned_alloc(size_t words)
{
    /* TODO 1: this is ordinary pageable memory (program 6's "unpinned"
     * array).  Allocate page-locked host memory instead, and free it with
     * the matching call in pinned_free. */
    return (uint32_t *)malloc(words * sizeof(uint32_t));
}

void pinned_free(uint32_t *h) { free(h); }

void round_trip(const uint32_t *h_src, uint32_t *d_buf, uint32_t *h_dst, size_t words)
{
    CUDA_CHECK(cudaMemcpy(d_buf, h_src, words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    /* TODO 2 (exercise 11): program 6 only measures the copy to the device.
     * Bring the data back into h_dst, so that a round trip is timed. */
    (void)h_dst;
}

/* ---- Part 2 ---------------------------------------------------------------- */
#define THREADS 256

__global__ void mix_kernel(const uint32_t *in, uint32_t *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lab11_mix(in[i], rounds);
}

void process_streams(const uint32_t *h_in, uint32_t *h_out, int n, int rounds, int chunks, int streams)
{
    /* TODO 3: everything here happens in a row on the default stream: the
     * whole copy in, then the kernel, then the whole copy out, and the GPU's
     * copy engines sit idle while the kernel runs.  Split the work into
     * `chunks` chunks, create `streams` streams (cudaStreamCreate), and issue
     * each chunk's cudaMemcpyAsync in, kernel and cudaMemcpyAsync out on one
     * stream (chunk c on stream c % streams).  Wait for all of them before
     * returning, then destroy the streams.  Mind the last chunk when n is not
     * a multiple of chunks. */
    (void)chunks, (void)streams;
    if (n <= 0)
        return;
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    mix_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, n, rounds);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
}
