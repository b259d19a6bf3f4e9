/* lab11 known-bad: every chunk n / chunks words long - the n % chunks words
 * at the end are never processed when chunks does not divide n. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "transfer.h"

#define THREADS 256
#define MAX_STREAMS 32

uint32_t *pinned_alloc(size_t words)
{
    uint32_t *h = NULL;
    if (cudaMallocHost(&h, words * sizeof(uint32_t)) != cudaSuccess)
        return NULL;
    return h;
}

void pinned_free(uint32_t *h) { CUDA_CHECK(cudaFreeHost(h)); }

void round_trip(const uint32_t *h_src, uint32_t *d_buf, uint32_t *h_dst, size_t words)
{
    CUDA_CHECK(cudaMemcpy(d_buf, h_src, words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(h_dst, d_buf, words * sizeof(uint32_t), cudaMemcpyDeviceToHost));
}

__global__ void mix_kernel(const uint32_t *in, uint32_t *out, int n, int rounds)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = lab11_mix(in[i], rounds);
}

void process_streams(const uint32_t *h_in, uint32_t *h_out, int n, int rounds, int chunks, int streams)
{
    if (n <= 0)
        return;
    if (streams > MAX_STREAMS)
        streams = MAX_STREAMS;
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *d_in, *d_out;
    cudaStream_t s[MAX_STREAMS];
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    for (int k = 0; k < streams; k++)
        CUDA_CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    int base = n / chunks, first = 0;
    for (int c = 0; c < chunks; c++) {
        int len = base;
        if (len == 0)
            continue;
        cudaStream_t st = s[c % streams];
        size_t off = (size_t)first, cb = (size_t)len * sizeof(uint32_t);
        CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, cb, cudaMemcpyHostToDevice, st));
        int blocks = (len + THREADS - 1) / THREADS;
        mix_kernel<<<blocks, THREADS, 0, st>>>(d_in + off, d_out + off, len, rounds);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpyAsync(h_out + off, d_out + off, cb, cudaMemcpyDeviceToHost, st));
        first += len;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < streams; k++)
        CUDA_CHECK(cudaStreamDestroy(s[k]));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
}
