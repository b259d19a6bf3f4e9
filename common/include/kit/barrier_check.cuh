/* barrier_check.cuh - the kit's barrier check: every __syncthreads() of a
 * student's file counts the threads that reach it.
 *
 * The grader builds the runner of the synccheck test a second time with
 *     nvcc -include kit/barrier_check.cuh -maxrregcount=64 ...
 * (the student's files only: the kit's own code is precompiled; the register
 * cap keeps the check's extra registers from stopping a 1024-thread block
 * from launching), so that
 * each `__syncthreads()` of the student's file becomes the statement below:
 * the same barrier, plus two checks.  Why the kit needs them: on compute
 * capability 7.0 and later a barrier completes once every thread of the
 * block that has not exited has arrived.  A reduction written
 *     for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) { ...; __syncthreads(); } }
 * then gives the right values: the threads that skip the `if` run to the
 * end and exit, and compute-sanitizer's synccheck, which checks the barrier
 * as the hardware runs it, reports nothing.  It is still undefined
 * behaviour (CUDA C++ Programming Guide, __syncthreads(): allowed in
 * conditional code only if the condition evaluates identically across the
 * entire thread block); it hangs or breaks elsewhere.
 *
 *  1. Arrivals: `__syncthreads_count(1)` is the barrier, and it counts the
 *     threads that reached it.  Fewer than the block has: a barrier inside a
 *     condition not every thread takes (or threads that returned before it).
 *  2. Call sites: each thread writes its call site's line into a shared slot
 *     before the barrier and reads it back after; a second barrier
 *     (`__syncthreads_or`) tells every thread whether anyone read another
 *     line: threads of one block completed one barrier from different
 *     `__syncthreads()` calls (an if/else with a barrier in each branch).
 *
 * A finding is printed once per call site and kind by the device's printf,
 * one line the grader parses (format: KIT_BARRIER_PREFIX in kit/protocol.h):
 *     kit barrier check: dot.cu:23: barrier reached by 128 of 256 threads of block (0,0,0): ...
 * A barrier every thread reaches is never reported: an `if` before it
 * (`if (...) { ... } __syncthreads();`), whole blocks that return early (a
 * block that never reaches a barrier counts nothing), a branch every thread
 * of the block takes alike.  Cooperative groups' block.sync() is not a
 * `__syncthreads()` of the file and is not checked.
 *
 * The statement is a macro so that its barriers keep the student's file and
 * line in the line table: synccheck's own findings (threads of one warp at
 * different barriers) still name the student's line.
 */
#ifndef KIT_BARRIER_CHECK_CUH
#define KIT_BARRIER_CHECK_CUH

#include <cuda_runtime.h> /* declares __syncthreads() before the macro replaces its calls */
#include <stdio.h>

#include "protocol.h" /* KIT_BARRIER_PREFIX: the line's format */

/* The shared slot of check 2 (one per block of every kernel that uses it). */
static __device__ __forceinline__ volatile unsigned *kit_barrier_slot(void)
{
    __shared__ unsigned site;
    return &site;
}

/* (line, kind) pairs already reported by this process: one line each. */
static __device__ unsigned kit_barrier_reported[64];

/* 1 the first time (line, kind) is reported in this process, else 0. */
static __device__ __noinline__ int kit_barrier_first(unsigned line, unsigned kind)
{
    unsigned key = line * 2u + kind + 1u; /* never 0: 0 marks a free entry */
    for (int i = 0; i < 64; i++) {
        unsigned old = ((volatile unsigned *)kit_barrier_reported)[i];
        if (old == 0)
            old = atomicCAS(&kit_barrier_reported[i], 0u, key);
        if (old == 0)
            return 1;
        if (old == key)
            return 0;
    }
    return 0; /* 64 sites reported already: enough */
}

/* What the two checks found at the barrier on `line` of `file`: `arrived`
 * threads counted, `seen` the line read back from the slot, `mixed` nonzero
 * when some thread of the block read back another line than its own. */
static __device__ __noinline__ void kit_barrier_verdict(const char *file, unsigned line, int arrived,
                                                        unsigned seen, int mixed)
{
    int threads = (int)(blockDim.x * blockDim.y * blockDim.z);
    const char *base = file;
    for (const char *p = file; *p; p++)
        if (*p == '/')
            base = p + 1;
    if (arrived != threads && kit_barrier_first(line, 0))
        printf(KIT_BARRIER_PREFIX "%s:%u: barrier reached by %d of %d threads of block (%u,%u,%u): a "
                                  "__syncthreads() inside a condition not every thread of the block takes\n",
               base, line, arrived, threads, blockIdx.x, blockIdx.y, blockIdx.z);
    /* only a thread that read another line knows both lines */
    if (mixed && seen != line && kit_barrier_first(line, 1))
        printf(KIT_BARRIER_PREFIX "%s:%u: block (%u,%u,%u) passed this barrier and the one of line %u together: "
                                  "a __syncthreads() in each branch of a condition; every thread of the block "
                                  "must reach the same __syncthreads()\n",
               base, line, blockIdx.x, blockIdx.y, blockIdx.z, seen);
}

#define __syncthreads()                                                                                        \
    ({                                                                                                         \
        *kit_barrier_slot() = __LINE__;                                                                        \
        int kit_arrived_ = __syncthreads_count(1);                                                             \
        unsigned kit_seen_ = *kit_barrier_slot();                                                              \
        int kit_mixed_ = __syncthreads_or(kit_seen_ != (unsigned)__LINE__);                                    \
        if (kit_arrived_ != (int)(blockDim.x * blockDim.y * blockDim.z) || kit_mixed_)                         \
            kit_barrier_verdict(__FILE__, __LINE__, kit_arrived_, kit_seen_, kit_mixed_);                      \
    })

#endif
