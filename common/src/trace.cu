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
 * Where a kernel comes from: a CUPTI callback on every launch API made
 * during a call walks the stack of the launching thread; a frame in a shared
 * object other than the runner itself and the CUDA/C runtime (libcublas.so,
 * a dlopen'ed library) makes that object the kernel's origin, matched to the
 * kernel record by correlation id.  The checker names library kernels by it
 * (and, for header-only libraries compiled into the student's file, by the
 * kernel's namespace), never by a substring of the kernel's name.
 *
 * Without CUPTI (KIT_NO_CUPTI) or when it cannot be initialised (e.g. under
 * compute-sanitizer, which injects its own tool), the trace says
 * "unavailable: <reason>" and the checker reports that instead of failing.
 */
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
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
/* Records of the student calls only (the harness's and the timing loop's are
 * not kept); a call that overflows these fails the check (trace.status). */
#define MAX_KERNELS 16384
#define MAX_COPIES 16384

#define MAX_ORIGINS 1024

typedef struct {
    char name[256];
    int grid[3], block[3];
    unsigned long long start, end;
    unsigned stream;
    uint32_t correlation;
} kernel_rec;

typedef struct {
    uint32_t correlation; /* of the launch API call */
    char object[64];      /* the shared object that made it */
} origin_rec;

typedef struct {
    const char *kind; /* "H2D" "D2H" "D2D" "H2H" "P2P" "memset" "?" */
    const char *dst;  /* where the bytes went: "pageable" "pinned" "device" "array" "managed" ... */
    unsigned long long bytes, start, end;
    unsigned stream;
} copy_rec;

typedef struct {
    char name[64];
    unsigned long long t0, t1;
    char error[160]; /* CUDA error left behind by the call, "" when none */
    char left[200];  /* work it left running on a stream the legacy default stream does not wait for, "" when none */
    int kernel_optional;
    unsigned long long pinned_bytes; /* pinned host or managed memory allocated/registered in the call */
} call_rec;

static struct {
    int enabled;       /* tracing requested */
    int active;        /* CUPTI initialised */
    char status[200];  /* "ok", "off", "unavailable: ..." */
    kernel_rec kernels[MAX_KERNELS];
    int n_kernels;
    copy_rec copies[MAX_COPIES];
    int n_copies;
    origin_rec origins[MAX_ORIGINS]; /* launches from outside the runner only */
    int n_origins;
    long dropped, dropped_copies;
    call_rec calls[MAX_CALLS];
    int n_calls;
    volatile int in_call; /* read on CUPTI's thread (in_a_call) */
    /* the kernels the current call launched, each once (CUPTI's symbol names), the first few */
    const char *volatile launched[4];
    volatile int n_launched;
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

/* CUpti_ActivityMemoryKind: a D2D copy into managed memory reaches the host too. */
static const char *memory_kind(uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
        return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
        return "managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return "device-static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return "managed-static";
    default:
        return "?";
    }
}

/* A record that started inside a student call (a finished one, or the one
 * running: records are delivered on CUPTI's thread, at the latest when the
 * trace is flushed). */
static int in_a_call(unsigned long long start)
{
    for (int i = 0; i < T.n_calls && i < MAX_CALLS; i++)
        if (start >= T.calls[i].t0 && start <= T.calls[i].t1)
            return 1;
    return T.in_call && T.n_calls < MAX_CALLS && start >= T.calls[T.n_calls].t0;
}

static void add_copy(const char *kind, const char *dst, unsigned long long bytes, unsigned long long start,
                     unsigned long long end, unsigned stream)
{
    if (!in_a_call(start))
        return;
    if (T.n_copies >= MAX_COPIES) {
        T.dropped_copies++;
        return;
    }
    copy_rec *c = &T.copies[T.n_copies++];
    c->kind = kind, c->dst = dst, c->bytes = bytes, c->start = start, c->end = end, c->stream = stream;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    while (buf && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const kit_memcpy_rec *m = (const kit_memcpy_rec *)rec;
            add_copy(copy_kind(m->copyKind), memory_kind(m->dstKind), m->bytes, m->start, m->end, m->streamId);
            continue;
        }
        if (rec->kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) {
            const CUpti_ActivityUnifiedMemoryCounter3 *u = (const CUpti_ActivityUnifiedMemoryCounter3 *)rec;
            if (u->counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH)
                add_copy("D2H", "managed", u->value, u->start, u->end, u->streamId);
            continue;
        }
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const kit_memset_rec *m = (const kit_memset_rec *)rec;
            add_copy("memset", memory_kind((uint8_t)m->memoryKind), m->bytes, m->start, m->end, m->streamId);
            continue;
        }
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const kit_kernel_rec *k = (const kit_kernel_rec *)rec;
        if (!in_a_call(k->start))
            continue; /* the harness's, the baseline's, the timing loop's */
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
        o->correlation = k->correlationId;
    }
    free(buf);
}

/* Objects whose frames sit between any launch and CUPTI: not a library of
 * the student's. */
static int runtime_object(const char *base)
{
    static const char *const sys[] = {"libcuda.so", "libcupti.so", "libcudart.so", "libc.so", "libstdc++.so",
                                      "libgcc_s.so", "libpthread.so", "libdl.so", "libm.so", "ld-linux",
                                      "linux-vdso", "libnvidia-"};
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        if (!strncmp(base, sys[i], strlen(sys[i])))
            return 1;
    return 0;
}

/* The shared object (other than the runner and the CUDA/C runtime) on the
 * launching thread's stack, or NULL when the launch came from the runner. */
static const char *foreign_caller(void)
{
    static Dl_info self;
    static int have_self;
    if (!have_self)
        have_self = dladdr((void *)&kit_trace_init, &self) != 0;
    void *frames[64];
    int n = backtrace(frames, 64);
    for (int i = 0; i < n; i++) {
        Dl_info d;
        if (!dladdr(frames[i], &d) || !d.dli_fname || (have_self && d.dli_fbase == self.dli_fbase))
            continue;
        const char *base = strrchr(d.dli_fname, '/');
        base = base ? base + 1 : d.dli_fname;
        if (*base && !runtime_object(base))
            return base;
    }
    return NULL;
}

/* Pinned host memory allocated or registered inside a call: the device can
 * write into it directly (zero-copy), so it is a way to the host like a copy.
 * Managed memory allocated inside a call is one too: the host reads it after
 * the kernels wrote it, and the pages that migrate on that read are not
 * always reported (CUPTI's unified-memory counters were silent on the H200
 * machines we grade on), so its size counts as soon as it is allocated. */
static size_t host_memory_bytes(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *params)
{
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || !params)
        return 0;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020:
        return ((const cudaMallocHost_v3020_params *)params)->size;
    case CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020:
        return ((const cudaHostAlloc_v3020_params *)params)->size;
    case CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000:
        return ((const cudaHostRegister_v4000_params *)params)->size;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000:
        return ((const cudaMallocManaged_v6000_params *)params)->size;
    default:
        return 0;
    }
}

static void CUPTIAPI on_api(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    (void)user;
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
    if (!T.in_call || cb->callbackSite != CUPTI_API_ENTER)
        return;
    if (cb->symbolName) { /* a kernel launch: what may run on if the call never returns (watchdog.h) */
        int k = 0;
        while (k < T.n_launched && T.launched[k] != cb->symbolName)
            k++;
        if (k == T.n_launched && k < (int)(sizeof T.launched / sizeof T.launched[0]))
            T.launched[k] = cb->symbolName, T.n_launched = k + 1;
    }
    size_t pinned = host_memory_bytes(domain, cbid, cb->functionParams);
    if (pinned) {
        if (T.n_calls < MAX_CALLS)
            T.calls[T.n_calls].pinned_bytes += pinned;
        return;
    }
    if (T.n_origins >= MAX_ORIGINS)
        return;
    const char *so = foreign_caller();
    if (!so)
        return;
    origin_rec *o = &T.origins[T.n_origins++];
    o->correlation = cb->correlationId;
    snprintf(o->object, sizeof o->object, "%s", so);
}

static void observe_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data, int launch)
{
    /* The launches and the host-memory allocations enabled below; not the
     * callbacks other observers enabled (pending.cu's streams). */
    if (launch || (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
                   host_memory_bytes(domain, cbid, ((const CUpti_CallbackData *)data)->functionParams)))
        on_api(NULL, domain, cbid, data);
}

/* Launch callbacks for the origins (without them every kernel reads as the
 * runner's; header-only libraries are still told by their namespace), and
 * pinned host allocations.  The subscription is launches.cu's (it counts
 * launches for the timing loop): CUPTI allows one per process. */
static void subscribe_api(void)
{
    static const CUpti_CallbackId runtime[] = {CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020,
                                               CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020,
                                               CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000,
                                               CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000};
    if (kit_launch_observe(observe_api) != 0)
        return;
    for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++)
        kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, runtime[i]);
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
    subscribe_api();
    /* Managed memory the host touches migrates device-to-host page by page:
     * those bytes reach the host like a copy (kept as D2H copies into
     * "managed").  Optional: without it, managed memory goes unseen. */
    CUpti_ActivityUnifiedMemoryCounterConfig um = {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE,
                                                   CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, 0, 1};
    if (cuptiActivityConfigureUnifiedMemoryCounter(&um, 1) == CUPTI_SUCCESS)
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
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
    c->left[0] = 0;
    c->pinned_bytes = 0;
    c->kernel_optional = ctx->kernel_optional;
    ctx->kernel_optional = 0;
    c->t0 = now_ts();
    T.n_launched = 0;
    T.in_call = 1;
    kit_pending_begin();
}

const char *kit_trace_call_kernels(void)
{
#ifndef KIT_NO_CUPTI
    static char names[400];
    names[0] = 0;
    for (int k = 0; k < T.n_launched; k++) {
        char one[256];
        demangle_into(T.launched[k], one, sizeof one);
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "", one);
    }
    return names[0] ? names : NULL;
#else
    return NULL;
#endif
}

/* What the call left running that the legacy default stream would not have
 * waited for (pending.cu), into what; waits for the whole device.  Returns
 * cudaDeviceSynchronize's result. */
static cudaError_t wait_for_the_call(char *what, size_t len)
{
    static cudaEvent_t ret;
    static int have;
    what[0] = 0;
    if (!have && cudaEventCreate(&ret) == cudaSuccess)
        have = 1;
    int marked = have && cudaEventRecord(ret, 0) == cudaSuccess;
    kit_pending_set p;
    kit_pending_end(&p);
    /* every stream, every kind of work: the results are read after this */
    cudaError_t e = cudaDeviceSynchronize();
    int which = -1;
    if (e == cudaSuccess && marked && kit_pending_late_ms(&p, ret, &which) > 0)
        snprintf(what, len, "%s", p.what[which]);
    kit_pending_release(&p);
    return e;
}

int kit_student_end(kit_run_ctx *ctx)
{
    (void)ctx;
    /* Mark the end of the call in stdout before synchronising: device
     * printf output the student did not wait for comes after the mark. */
    fflush(stdout);
    printf("\n%s\n", KIT_STDOUT_MARK);
    fflush(stdout);
    char left[200];
    /* The call's own launch error first: what the kit asks next must not
     * replace it (and whatever the kit's asking leaves behind is cleared). */
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = wait_for_the_call(left, sizeof left);
    cudaGetLastError();
    if (e == cudaSuccess)
        e = launch;
    const char *name = T.in_call && T.n_calls < MAX_CALLS ? T.calls[T.n_calls].name : "the call";
    if (left[0]) /* the checker words it for the report (trace.left) */
        fprintf(stderr, "note: %s() returned while %s was still running; the kit waited for it before reading the "
                        "results\n", name, left);
    if (!T.in_call || T.n_calls >= MAX_CALLS)
        return e == cudaSuccess ? 0 : -1;
    call_rec *c = &T.calls[T.n_calls++];
    c->t1 = now_ts();
    T.in_call = 0;
    snprintf(c->left, sizeof c->left, "%s", left);
    if (e != cudaSuccess) {
        snprintf(c->error, sizeof c->error, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        fprintf(stderr, "CUDA error after %s() returned: %s\n", c->name, c->error);
        return -1;
    }
    return 0;
}

/* The shared object that launched a kernel, "-" for the runner itself. */
static const char *origin_of(uint32_t correlation)
{
    for (int i = 0; i < T.n_origins; i++)
        if (T.origins[i].correlation == correlation)
            return T.origins[i].object;
    return "-";
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

/* The trace's status: how CUPTI ran, and what records it dropped. */
static void put_status(kit_writer *out)
{
    char status[sizeof T.status + 96];
    snprintf(status, sizeof status, "%s", T.status);
    if (T.dropped)
        snprintf(status + strlen(status), sizeof status - strlen(status), " (%ld kernel records dropped)", T.dropped);
    if (T.dropped_copies)
        snprintf(status + strlen(status), sizeof status - strlen(status), " (%ld copy records dropped)",
                 T.dropped_copies);
    kit_writer_put_text(out, KIT_KEY_TRACE_STATUS, status);
}

/* The calls, the pinned host memory they hold and the work they left
 * running: a table each. */
static void put_calls(kit_writer *out)
{
    /* calls: "index<TAB>name<TAB>kernel required (1/0)<TAB>error" */
    size_t cap = 256 + (size_t)T.n_calls * 256, len = 0;
    char *calls = (char *)malloc(cap);
    calls[0] = 0;
    for (int i = 0; i < T.n_calls; i++)
        len += snprintf(calls + len, cap - len, "%d\t%s\t%d\t%s\n", i, T.calls[i].name, !T.calls[i].kernel_optional,
                        T.calls[i].error);
    kit_writer_put_text(out, KIT_KEY_TRACE_CALLS, calls);
    free(calls);

    /* pinned host memory of the calls: "call<TAB>bytes" */
    char *pinned = (char *)malloc(64 + (size_t)T.n_calls * 48);
    len = 0;
    pinned[0] = 0;
    for (int i = 0; i < T.n_calls; i++)
        if (T.calls[i].pinned_bytes)
            len += sprintf(pinned + len, "%d\t%llu\n", i, T.calls[i].pinned_bytes);
    kit_writer_put_text(out, KIT_KEY_TRACE_PINNED, pinned);
    free(pinned);

    /* work the calls left running that the legacy default stream does not
     * wait for: "call<TAB>name<TAB>what" */
    char *left = (char *)malloc(64 + (size_t)T.n_calls * 300);
    len = 0;
    left[0] = 0;
    for (int i = 0; i < T.n_calls; i++)
        if (T.calls[i].left[0])
            len += sprintf(left + len, "%d\t%s\t%s\n", i, T.calls[i].name, T.calls[i].left);
    kit_writer_put_text(out, KIT_KEY_TRACE_LEFT, left);
    free(left);
}

/* The kernels of the calls, a line each:
 * "call<TAB>gx,gy,gz<TAB>bx,by,bz<TAB>ns<TAB>start<TAB>end<TAB>stream<TAB>origin<TAB>name"
 * (start/end: CUPTI timestamps in ns; origin: the shared object that
 * launched it, "-" for the runner itself) */
static void put_kernels(kit_writer *out)
{
    size_t cap = 256 + (size_t)T.n_kernels * 420, len = 0;
    char *ks = (char *)malloc(cap);
    ks[0] = 0;
    for (int k = 0; k < T.n_kernels; k++) {
        const kernel_rec *r = &T.kernels[k];
        int call = call_of(r->start);
        if (call < 0)
            continue; /* the harness's or the baseline's own kernels */
        len += snprintf(ks + len, cap - len, "%d\t%d,%d,%d\t%d,%d,%d\t%llu\t%llu\t%llu\t%u\t%s\t%s\n", call,
                        r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->end - r->start,
                        r->start, r->end, r->stream, origin_of(r->correlation), r->name);
    }
    kit_writer_put_text(out, KIT_KEY_TRACE_KERNELS, ks);
    free(ks);
}

/* The copies and memsets of the calls, a line each:
 * "call<TAB>kind<TAB>bytes<TAB>start<TAB>end<TAB>stream<TAB>dst", kind one of
 * H2D D2H D2D H2H P2P memset, dst the destination's memory kind */
static void put_copies(kit_writer *out)
{
    size_t cap = 256 + (size_t)T.n_copies * 96, len = 0;
    char *cs = (char *)malloc(cap);
    cs[0] = 0;
    for (int k = 0; k < T.n_copies; k++) {
        const copy_rec *r = &T.copies[k];
        int call = call_of(r->start);
        if (call < 0)
            continue; /* the harness's inputs and outputs */
        len += snprintf(cs + len, cap - len, "%d\t%s\t%llu\t%llu\t%llu\t%u\t%s\n", call, r->kind, r->bytes, r->start,
                        r->end, r->stream, r->dst);
    }
    kit_writer_put_text(out, KIT_KEY_TRACE_COPIES, cs);
    free(cs);
}

/* What the kernel-time evidence needs: the device's peak memory bandwidth
 * (DDR: two transfers per clock) and its L2 cache size. */
static void put_device(kit_writer *out)
{
    int dev = 0, l2 = 0;
    double peak_gbs = 0, peak_gflops = 0;
    char info[96] = "";
    kit_device_limits(&peak_gbs, &peak_gflops);
    if (peak_gbs > 0 && cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) == cudaSuccess)
        snprintf(info, sizeof info, "peak_gbs=%.1f l2_bytes=%d", peak_gbs, l2);
    cudaGetLastError();
    kit_writer_put_text(out, KIT_KEY_TRACE_DEVICE, info);
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
    put_status(out);
    put_calls(out);
    put_kernels(out);
    put_copies(out);
    put_device(out);
}

/* The next case of a runner that serves many (runner_main.cu): forget the
 * records of the last one, which kit_trace_finish has flushed and written. */
void kit_trace_reset(void)
{
    T.n_kernels = T.n_copies = T.n_origins = T.n_calls = 0;
    T.dropped = T.dropped_copies = 0;
    T.in_call = 0;
}

/* The timing loop pauses the activity records while it times (timing.cuh):
 * no student call is traced meanwhile. */
void kit_trace_records(int on)
{
#ifndef KIT_NO_CUPTI
    if (!T.active)
        return;
    static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                               CUPTI_ACTIVITY_KIND_MEMSET};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (on)
            cuptiActivityEnable(kinds[i]);
        else
            cuptiActivityDisable(kinds[i]);
    }
#else
    (void)on;
#endif
}
