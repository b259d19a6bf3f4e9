/* trace.cu - which kernels, memory copies and memsets ran during a student
 * call, when, and on which stream.
 *
 * The device-execution check needs evidence that the student's function ran
 * its own kernels on the GPU (not the CPU, not a library).  CUPTI's activity
 * API delivers one record per kernel (name, grid, block, start/end on the
 * GPU, in CUPTI's timestamp domain, stream) and per memcpy/memset (kind,
 * bytes, start/end, stream).  kit_student_begin/end take CUPTI timestamps
 * around the call; every record that started inside that window belongs to
 * the call (the harness launches and copies nothing meanwhile).  Copies show
 * e.g. input-sized data brought back to the host inside the call; start/end
 * and streams show copy/kernel overlap.
 *
 * Without CUPTI (KIT_NO_CUPTI) or when it cannot be initialised (e.g. under
 * compute-sanitizer, which injects its own tool), the trace says
 * "unavailable: <reason>" and the checker reports that instead of failing.
 */
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/runner.h"
#include "kit_trace.h"

#ifndef KIT_NO_CUPTI
#include <cupti.h>
#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 kit_kernel_rec;
typedef CUpti_ActivityMemcpy6 kit_memcpy_rec;
#else
typedef CUpti_ActivityKernel9 kit_kernel_rec;
typedef CUpti_ActivityMemcpy5 kit_memcpy_rec;
#endif
typedef CUpti_ActivityMemset4 kit_memset_rec;
#endif

#define MAX_CALLS 64
#define MAX_KERNELS 4096
#define MAX_COPIES 4096

typedef struct {
    char name[256];
    int grid[3], block[3];
    unsigned long long start, end;
    unsigned stream;
} kernel_rec;

typedef struct {
    const char *kind; /* "H2D" "D2H" "D2D" "H2H" "P2P" "memset" "?" */
    unsigned long long bytes, start, end;
    unsigned stream;
} copy_rec;

typedef struct {
    char name[64];
    unsigned long long t0, t1;
    char error[160]; /* CUDA error left behind by the call, "" when none */
    int kernel_optional;
} call_rec;

static struct {
    int enabled;       /* tracing requested */
    int active;        /* CUPTI initialised */
    char status[200];  /* "ok", "off", "unavailable: ..." */
    kernel_rec kernels[MAX_KERNELS];
    int n_kernels;
    copy_rec copies[MAX_COPIES];
    int n_copies;
    long dropped, dropped_copies;
    call_rec calls[MAX_CALLS];
    int n_calls;
    int in_call;
} T;

#ifndef KIT_NO_CUPTI
static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
    *size = 1 << 20;
    *buf = (uint8_t *)aligned_alloc(8, *size);
    *max_records = 0;
}

static void demangle_into(const char *mangled, char *out, size_t len)
{
    int status = 0;
    char *d = abi::__cxa_demangle(mangled, NULL, NULL, &status);
    snprintf(out, len, "%s", d && status == 0 ? d : mangled);
    free(d);
}

/* Arrays count as device memory: the kit's kinds are about where the bytes live. */
static const char *copy_kind(uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return "H2D";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return "D2H";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return "D2D";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "H2H";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "P2P";
    default:
        return "?";
    }
}

static void add_copy(const char *kind, unsigned long long bytes, unsigned long long start, unsigned long long end,
                     unsigned stream)
{
    if (T.n_copies >= MAX_COPIES) {
        T.dropped_copies++;
        return;
    }
    copy_rec *c = &T.copies[T.n_copies++];
    c->kind = kind, c->bytes = bytes, c->start = start, c->end = end, c->stream = stream;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    while (buf && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const kit_memcpy_rec *m = (const kit_memcpy_rec *)rec;
            add_copy(copy_kind(m->copyKind), m->bytes, m->start, m->end, m->streamId);
            continue;
        }
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const kit_memset_rec *m = (const kit_memset_rec *)rec;
            add_copy("memset", m->bytes, m->start, m->end, m->streamId);
            continue;
        }
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const kit_kernel_rec *k = (const kit_kernel_rec *)rec;
        if (T.n_kernels >= MAX_KERNELS) {
            T.dropped++;
            continue;
        }
        kernel_rec *o = &T.kernels[T.n_kernels++];
        demangle_into(k->name ? k->name : "?", o->name, sizeof o->name);
        o->grid[0] = k->gridX, o->grid[1] = k->gridY, o->grid[2] = k->gridZ;
        o->block[0] = k->blockX, o->block[1] = k->blockY, o->block[2] = k->blockZ;
        o->start = k->start, o->end = k->end;
        o->stream = k->streamId;
    }
    free(buf);
}

static unsigned long long now_ts(void)
{
    uint64_t t = 0;
    if (T.active)
        cuptiGetTimestamp(&t);
    return t;
}
#else
static unsigned long long now_ts(void) { return 0; }
#endif

void kit_trace_init(int enable)
{
    T.enabled = enable;
    snprintf(T.status, sizeof T.status, "off");
    if (!enable)
        return;
#ifdef KIT_NO_CUPTI
    snprintf(T.status, sizeof T.status, "unavailable: runner built without CUPTI");
#else
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r == CUPTI_SUCCESS)
        r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r == CUPTI_SUCCESS)
        r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (r == CUPTI_SUCCESS)
        r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    if (r != CUPTI_SUCCESS) {
        const char *s = "?";
        cuptiGetResultString(r, &s);
        snprintf(T.status, sizeof T.status, "unavailable: CUPTI: %s", s);
        return;
    }
    T.active = 1;
    snprintf(T.status, sizeof T.status, "ok");
#endif
}

void kit_student_begin(kit_run_ctx *ctx, const char *call)
{
    /* Work queued by the harness before the call is not the student's. */
    cudaDeviceSynchronize();
    if (T.n_calls >= MAX_CALLS)
        return;
    call_rec *c = &T.calls[T.n_calls];
    snprintf(c->name, sizeof c->name, "%s", call);
    c->error[0] = 0;
    c->kernel_optional = ctx->kernel_optional;
    ctx->kernel_optional = 0;
    c->t0 = now_ts();
    T.in_call = 1;
}

int kit_student_end(kit_run_ctx *ctx)
{
    (void)ctx;
    /* Mark the end of the call in stdout before synchronising: device
     * printf output the student did not wait for comes after the mark. */
    fflush(stdout);
    printf("\n%s\n", KIT_STDOUT_MARK);
    fflush(stdout);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (!T.in_call || T.n_calls >= MAX_CALLS)
        return e == cudaSuccess ? 0 : -1;
    call_rec *c = &T.calls[T.n_calls++];
    c->t1 = now_ts();
    T.in_call = 0;
    if (e != cudaSuccess) {
        snprintf(c->error, sizeof c->error, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        fprintf(stderr, "CUDA error after %s() returned: %s\n", c->name, c->error);
        return -1;
    }
    return 0;
}

/* The student call whose window holds timestamp t, or -1. */
static int call_of(unsigned long long t)
{
    int call = -1;
    for (int i = 0; i < T.n_calls; i++)
        if (t >= T.calls[i].t0 && t <= T.calls[i].t1)
            call = i;
    return call;
}

void kit_trace_finish(kit_writer *out)
{
#ifndef KIT_NO_CUPTI
    if (T.active) {
        cudaDeviceSynchronize();
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    }
#endif
    if (!out)
        return;
    if (T.dropped)
        snprintf(T.status + strlen(T.status), sizeof T.status - strlen(T.status), " (%ld kernel records dropped)",
                 T.dropped);
    if (T.dropped_copies)
        snprintf(T.status + strlen(T.status), sizeof T.status - strlen(T.status), " (%ld copy records dropped)",
                 T.dropped_copies);
    kit_writer_put_text(out, "trace.status", T.status);

    /* calls: "index<TAB>name<TAB>kernel required (1/0)<TAB>error" */
    size_t cap = 256 + (size_t)T.n_calls * 256, len = 0;
    char *calls = (char *)malloc(cap);
    calls[0] = 0;
    for (int i = 0; i < T.n_calls; i++)
        len += snprintf(calls + len, cap - len, "%d\t%s\t%d\t%s\n", i, T.calls[i].name, !T.calls[i].kernel_optional,
                        T.calls[i].error);
    kit_writer_put_text(out, "trace.calls", calls);
    free(calls);

    /* kernels of the calls:
     * "call<TAB>gx,gy,gz<TAB>bx,by,bz<TAB>ns<TAB>start<TAB>end<TAB>stream<TAB>origin<TAB>name"
     * (start/end: CUPTI timestamps in ns; origin: the shared object that
     * launched it, "-" for the runner itself) */
    cap = 256 + (size_t)T.n_kernels * 420, len = 0;
    char *ks = (char *)malloc(cap);
    ks[0] = 0;
    for (int k = 0; k < T.n_kernels; k++) {
        const kernel_rec *r = &T.kernels[k];
        int call = call_of(r->start);
        if (call < 0)
            continue; /* the harness's or the baseline's own kernels */
        len += snprintf(ks + len, cap - len, "%d\t%d,%d,%d\t%d,%d,%d\t%llu\t%llu\t%llu\t%u\t-\t%s\n", call, r->grid[0],
                        r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->end - r->start, r->start,
                        r->end, r->stream, r->name);
    }
    kit_writer_put_text(out, "trace.kernels", ks);
    free(ks);

    /* copies and memsets of the calls:
     * "call<TAB>kind<TAB>bytes<TAB>start<TAB>end<TAB>stream", kind one of
     * H2D D2H D2D H2H P2P memset */
    cap = 256 + (size_t)T.n_copies * 96, len = 0;
    char *cs = (char *)malloc(cap);
    cs[0] = 0;
    for (int k = 0; k < T.n_copies; k++) {
        const copy_rec *r = &T.copies[k];
        int call = call_of(r->start);
        if (call < 0)
            continue; /* the harness's inputs and outputs */
        len += snprintf(cs + len, cap - len, "%d\t%s\t%llu\t%llu\t%llu\t%u\n", call, r->kind, r->bytes, r->start,
                        r->end, r->stream);
    }
    kit_writer_put_text(out, "trace.copies", cs);
    free(cs);
}
