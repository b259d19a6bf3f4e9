/* lab11 known-good (work on non-blocking streams, waited for): non-blocking streams kept between calls,
 * events to wait with.  Part 1: cudaHostAlloc; the round trip is two
 * cudaMemcpyAsync on a cudaStreamNonBlocking stream and a
 * cudaStreamSynchronize.  Part 2: chunk c on stream c % streams (all
 * cudaStreamNonBlocking, created once, never destroyed; device buffers kept
 * and grown), an event recorded on each stream after its last chunk, and the
 * host waits on those events - no cudaDeviceSynchronize.  Every call waits for
 * all its work before it returns: full marks, and no note about work left
 * running. */
#include <cuda_runtime.h>

#include "kit/cuda_check.cuh"
#include "transfer.h"

#define THREADS 256
#define MAX_STREAMS 32

static cudaStream_t s[MAX_STREAMS];
static cudaEvent_t done[MAX_STREAMS];
static int made;

static void make_streams(int want)
{
    for (; made < want; made++) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&s[made], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&done[made], cudaEventDisableTiming));
    }
}

uint32_t *pinned_alloc(size_t words)
{
    uint32_t *h = NULL;
    if (cudaHostAlloc((void **)&h, words * sizeof(uint32_t), cudaHostAllocDefault) != cudaSuccess)
        return NULL;
    return h;
}

void pinned_free(uint32_t *h) { CUDA_CHECK(cudaFreeHost(h)); }

void round_trip(const uint32_t *h_src, uint32_t *d_buf, uint32_t *h_dst, size_t words)
{
    make_streams(1);
    CUDA_CHECK(cudaMemcpyAsync(d_buf, h_src, words * sizeof(uint32_t), cudaMemcpyHostToDevice, s[0]));
    CUDA_CHECK(cudaMemcpyAsync(h_dst, d_buf, words * sizeof(uint32_t), cudaMemcpyDeviceToHost, s[0]));
    CUDA_CHECK(cudaStreamSynchronize(s[0]));
}

__global__ void mix_kernel(const uint32_t *in, uint32_t *out, int n, int rounds)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = lab11_mix(in[i], rounds);
}

static uint32_t *d_in, *d_out;
static size_t have_bytes;

void process_streams(const uint32_t *h_in, uint32_t *h_out, int n, int rounds, int chunks, int streams)
{
    if (n <= 0)
        return;
    if (streams > MAX_STREAMS)
        streams = MAX_STREAMS;
    make_streams(streams);
    size_t bytes = (size_t)n * sizeof(uint32_t);
    if (bytes > have_bytes) {
        CUDA_CHECK(cudaFree(d_in));
        CUDA_CHECK(cudaFree(d_out));
        CUDA_CHECK(cudaMalloc(&d_in, bytes));
        CUDA_CHECK(cudaMalloc(&d_out, bytes));
        have_bytes = bytes;
    }
    int base = n / chunks, extra = n % chunks, first = 0;
    for (int c = 0; c < chunks; c++) {
        int len = base + (c < extra);
        if (len == 0)
            continue;
        cudaStream_t st = s[c % streams];
        size_t off = (size_t)first, cb = (size_t)len * sizeof(uint32_t);
        CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, cb, cudaMemcpyHostToDevice, st));
        mix_kernel<<<(len + THREADS - 1) / THREADS, THREADS, 0, st>>>(d_in + off, d_out + off, len, rounds);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpyAsync(h_out + off, d_out + off, cb, cudaMemcpyDeviceToHost, st));
        first += len;
    }
    /* every stream's last chunk done: one event per stream, waited for on the host */
    for (int k = 0; k < streams; k++)
        CUDA_CHECK(cudaEventRecord(done[k], s[k]));
    for (int k = 0; k < streams; k++)
        CUDA_CHECK(cudaEventSynchronize(done[k]));
}
