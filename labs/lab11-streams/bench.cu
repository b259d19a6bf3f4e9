/* lab11 bench (make bench; kit/bench.cuh): no library does this
 * job, so the peer is its roof, as one more implementation of transfer.h
 * run through the lab's own descriptor like the student's code: the pinned
 * copies alone, host to device and device to host at once on two streams,
 * no kernel - no overlapped version can beat it (its output is not the
 * job's, and not checked: KIT_BENCH.roof); and the cases. */
#include <stdlib.h>

#include "kit/bench.cuh"
#include "transfer.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

/* Its output is not checked; a CUDA error it meets stays the runtime's
 * last error, which the driver reads after the call, as after a student's:
 * the row fails, said. */
void process_streams(const uint32_t *h_in, uint32_t *h_out, int n, int, int, int)
{
    static cudaStream_t s[2];       /* made in the first call, the untimed one */
    static uint32_t *d_in, *d_out; /* sized in a case's first call */
    static int for_n = -1;
    size_t bytes = (size_t)n * sizeof(uint32_t);
    if (!s[0]) {
        cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking);
        cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking);
    }
    if (n != for_n) {
        cudaFree(d_in), cudaFree(d_out);
        cudaMalloc(&d_in, bytes), cudaMalloc(&d_out, bytes);
        for_n = n;
    }
    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s[0]);
    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s[1]);
    cudaStreamSynchronize(s[0]);
    cudaStreamSynchronize(s[1]);
}

/* the cases are Part 2's: the harness names these, nothing calls them */
uint32_t *pinned_alloc(size_t) { abort(); }
void pinned_free(uint32_t *) { abort(); }
void round_trip(const uint32_t *, uint32_t *, uint32_t *, size_t) { abort(); }

const kit_bench KIT_BENCH = {"process_streams (x library: fraction of the copy roof)",
                             "copy roof (pinned H2D || D2H, no kernel)", "", NULL, "baseline (kit_process_serial)",
                             {"part=2 n=2^25 chunks=16 streams=4 rounds=8",
                              "part=2 n=2^25 chunks=16 streams=4 rounds=64" /* the rubric's */},
                             .roof = 1};
