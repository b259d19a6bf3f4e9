/* transfer.h - lab11: the functions the kit's harness calls.  Do not change
 * this file: the grader uses its own copy.
 *
 * Part 1: pageable and
 * pinned host memory.  Part 2: copies and a kernel
 * overlapped on several streams.  All sizes count 32-bit words.
 */
#ifndef LAB11_TRANSFER_H
#define LAB11_TRANSFER_H
#include <stddef.h>
#include <stdint.h>

/* ---- Part 1 ---- */
/* `words` 32-bit words of page-locked (pinned) host memory; NULL on failure. */
uint32_t *pinned_alloc(size_t words);
void pinned_free(uint32_t *h);
/* A round trip (exercise 11): copy `words` words from host memory h_src to
 * device memory d_buf, then from d_buf back to host memory h_dst.  The
 * harness calls it with pageable (malloc) buffers and with buffers from your
 * pinned_alloc; on return h_dst must hold the data. */
void round_trip(const uint32_t *h_src, uint32_t *d_buf, uint32_t *h_dst, size_t words);

/* ---- Part 2 ---- */
/* The work of every element: `rounds` rounds of an integer mixing function
 * (exact: the checker computes the same on the CPU).  Call it in your kernel. */
#if defined(__CUDACC__)
#define LAB11_HD __host__ __device__
#else
#define LAB11_HD
#endif
static inline LAB11_HD uint32_t lab11_mix(uint32_t x, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        x ^= x >> 16;
        x *= 0x7feb352dU;
        x ^= x >> 15;
        x *= 0x846ca68bU;
        x ^= x >> 16;
    }
    return x;
}

/* h_out[i] = lab11_mix(h_in[i], rounds) for 0 <= i < n, computed on the GPU.
 * h_in and h_out are PINNED host arrays (the harness allocated them with
 * cudaMallocHost).  Split the n elements into `chunks` chunks (n need not be
 * a multiple of chunks; chunks may exceed n) and give each chunk its copy in,
 * its kernel and its copy out on one of `streams` CUDA streams, so that one
 * chunk's copies overlap another chunk's kernel.  Allocate the device
 * buffers and streams inside and release them before returning; on return
 * h_out holds every result.  n >= 0, 1 <= chunks <= 1024, 1 <= streams <= 32. */
void process_streams(const uint32_t *h_in, uint32_t *h_out, int n, int rounds, int chunks, int streams);

#endif
