/* pending.cu - which work a student call left running when it returned.
 *
 * The kit's timing and its correctness runs both used to stop at events
 * recorded on the legacy default stream.  The legacy stream waits for every
 * blocking stream, but not for a stream created with cudaStreamNonBlocking:
 * a kernel launched there by a call that returns without waiting was neither
 * timed (a naive matmul "221x faster") nor waited for by a caller reading the
 * result with cudaMemcpy.  cudaDeviceSynchronize waits for all of it, but
 * gives no device time.  So the kit follows every stream the program creates
 * (CUPTI's resource callbacks see each one, whichever API or library made
 * it), plus the per-thread default stream, and right after a student call
 * returns asks each whether it still has work (cudaStreamQuery); on each that
 * has, it records an event, whose completion is when that stream's work -
 * kernels, copies, graphs, host functions - really ended.  A stream the call
 * destroys while its work is still queued is followed the same way: its
 * event is recorded when cudaStreamDestroy is entered.
 *
 * Which of them the legacy stream did not wait for is decided on the device:
 * its work ended after an event recorded on the legacy stream when the call
 * returned (kit_pending_late_ms), so a blocking stream, ordered before that
 * event, never counts, and neither does a stream whose kind the kit does not
 * know - only what it measured.
 *
 * The kernel named in messages is the last one launched on that stream
 * (from the launch callbacks, by symbol name).  Without CUPTI (or under
 * compute-sanitizer, which leaves none to the kit) nothing is followed: the
 * runs still wait for the whole device before reading results.
 */
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit_trace.h"

#ifndef KIT_NO_CUPTI
#include <cupti.h>

#define MAX_FOLLOWED 512 /* streams alive at once */
#define POOL 64          /* events: pending streams of one call, destroyed ones included */

typedef struct {
    cudaStream_t s;
    char kernel[160]; /* the last launch on it: "kernel <mangled name>", "a CUDA graph", ... */
} followed_stream;

static struct {
    int on;
    followed_stream f[MAX_FOLLOWED];
    int n;
    cudaEvent_t pool[POOL];
    int pool_made;
    unsigned char busy[POOL];
    volatile int in_call;   /* between kit_pending_begin and _end */
    kit_pending_set doomed; /* streams destroyed in the call with work queued */
} P;
/* Callbacks come from any thread; recursive: CUDA calls made under it may call back. */
static pthread_mutex_t mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static followed_stream *find(cudaStream_t s)
{
    for (int i = 0; i < P.n; i++)
        if (P.f[i].s == s)
            return &P.f[i];
    return NULL;
}

static int take_event(void)
{
    if (!P.pool_made) {
        for (int i = 0; i < POOL; i++)
            if (cudaEventCreate(&P.pool[i]) != cudaSuccess)
                return -1;
        P.pool_made = 1;
    }
    for (int i = 0; i < POOL; i++)
        if (!P.busy[i]) {
            P.busy[i] = 1;
            return i;
        }
    return -1;
}

static void give_event(cudaEvent_t e)
{
    for (int i = 0; i < POOL; i++)
        if (P.pool[i] == e)
            P.busy[i] = 0;
}

/* "kernel _Z10add_kernelPKfS0_Pfii" -> "kernel add_kernel" */
static void readable(const char *noted, char *out, size_t len)
{
    const char *sym = !strncmp(noted, "kernel ", 7) ? noted + 7 : NULL;
    if (!sym) {
        snprintf(out, len, "%s", noted[0] ? noted : "work");
        return;
    }
    int status = 0;
    char *d = abi::__cxa_demangle(sym, NULL, NULL, &status);
    char name[256];
    snprintf(name, sizeof name, "%s", d && status == 0 ? d : sym);
    free(d);
    char *paren = strchr(name, '('); /* "void dot_partial<float>(float const*, ...)" -> "dot_partial<float>" */
    if (paren)
        *paren = 0;
    char *space = strrchr(name, ' ');
    snprintf(out, len, "kernel %.120s", space ? space + 1 : name);
}

static const char *stream_kind(cudaStream_t s)
{
    unsigned flags = 0;
    if (s == cudaStreamPerThread)
        return "the per-thread default stream (cudaStreamPerThread)";
    if (cudaStreamGetFlags(s, &flags) == cudaSuccess && (flags & cudaStreamNonBlocking))
        return "a non-blocking stream (cudaStreamNonBlocking)";
    cudaGetLastError();
    return "a stream of its own";
}

/* p's entry i in words (after every event is queued: the events first, so
 * that none is recorded late). */
static void describe(kit_pending_set *p, int i, const followed_stream *fs, const char *how)
{
    char last[160];
    readable(fs->kernel, last, sizeof last);
    snprintf(p->what[i], sizeof p->what[0], "%.100s on %s%s", last, stream_kind(fs->s), how);
}

/* Queues an event behind s's work into p: 1, 0 when s has no work left, -1
 * when no event was free (p->lost).  Under mu. */
static int mark(kit_pending_set *p, const followed_stream *fs)
{
    cudaError_t q = cudaStreamQuery(fs->s);
    if (q != cudaErrorNotReady) {
        if (q != cudaSuccess)
            cudaGetLastError(); /* an invalid handle; a kernel's error is sticky and reported by the run */
        return 0;
    }
    int k = p->n < KIT_PENDING_MAX ? take_event() : -1;
    if (k < 0 || cudaEventRecord(P.pool[k], fs->s) != cudaSuccess) {
        if (k >= 0)
            P.busy[k] = 0;
        cudaGetLastError();
        p->lost++;
        return -1;
    }
    p->done[p->n++] = P.pool[k];
    return 1;
}

/* Notes the last launch on s (followed streams only); a copy of the mangled
 * name: demangling waits until a message needs it (mark), not in every launch. */
static void name_launch(cudaStream_t s, const char *what, const char *symbol)
{
    pthread_mutex_lock(&mu);
    followed_stream *fs = find(s);
    if (fs)
        snprintf(fs->kernel, sizeof fs->kernel, "%s%s", what, symbol ? symbol : "");
    pthread_mutex_unlock(&mu);
}

/* The stream a launch entry point was given (ptsz: 0 is the per-thread one). */
typedef struct { /* __cudaLaunchKernel (crt/device_functions.h): not in the generated params */
    cudaKernel_t kernel;
    dim3 gridDim, blockDim;
    void **args;
    size_t sharedMem;
    cudaStream_t stream;
} launch_v13000_params;

/* A launch through the runtime API (cbid, its parameters p): its stream in
 * *s (left as it was when it has none), whether the entry point was a
 * per-thread one (*ptsz) and what it launched (*what); 0: no launch. */
static int runtime_launch(CUpti_CallbackId cbid, const void *p, cudaStream_t *s, int *ptsz, const char **what)
{
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000;
        *s = ((const cudaLaunchKernel_v7000_params *)p)->stream;
        break;
#if CUPTI_API_VERSION >= 130000
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000;
        *s = ((const launch_v13000_params *)p)->stream;
        break;
#endif
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060: {
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060;
        const cudaLaunchConfig_t *c = ((const cudaLaunchKernelExC_v11060_params *)p)->config;
        if (c)
            *s = c->stream;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000;
        *s = ((const cudaLaunchCooperativeKernel_v9000_params *)p)->stream;
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000;
        *s = ((const cudaGraphLaunch_v10000_params *)p)->stream, *what = "a CUDA graph";
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000:
        *ptsz = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000;
        *s = ((const cudaLaunchHostFunc_v10000_params *)p)->stream, *what = "a host function (cudaLaunchHostFunc)";
        break;
    default:
        return 0;
    }
    return 1;
}

/* The same for a launch through the driver API. */
static int driver_launch(CUpti_CallbackId cbid, const void *p, cudaStream_t *s, int *ptsz, const char **what)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        *ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz;
        *s = (cudaStream_t)((const cuLaunchKernel_params *)p)->hStream;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
        *ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
        const CUlaunchConfig *c = ((const cuLaunchKernelEx_params *)p)->config;
        if (c)
            *s = (cudaStream_t)c->hStream;
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        *ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
        *s = (cudaStream_t)((const cuLaunchCooperativeKernel_params *)p)->hStream;
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc:
        *ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz;
        *s = (cudaStream_t)((const cuLaunchHostFunc_params *)p)->hStream, *what = "a host function (cudaLaunchHostFunc)";
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
        *ptsz = cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
        *s = (cudaStream_t)((const cuGraphLaunch_params *)p)->hStream, *what = "a CUDA graph";
        break;
    default:
        return 0;
    }
    return 1;
}

static void on_launch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    const void *p = d->functionParams;
    cudaStream_t s = (cudaStream_t)-1;
    int ptsz = 0;
    const char *what = "kernel ";
    if (!p)
        return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API ? !runtime_launch(cbid, p, &s, &ptsz, &what)
                                              : !driver_launch(cbid, p, &s, &ptsz, &what))
        return;
    if (ptsz && s == 0)
        s = cudaStreamPerThread;
    if (s == (cudaStream_t)-1 || s == 0)
        return;
    /* graphs and host functions have no kernel name of their own */
    name_launch(s, what, what[0] == 'k' ? d->symbolName : "");
}

/* cudaStreamDestroy returns at once and the stream's queued work still runs:
 * follow it until the call returns (the runtime's entry point, entered before
 * anything is destroyed, may call the runtime). */
static void on_destroy(cudaStream_t s)
{
    if (!P.in_call || s == 0 || cudaPeekAtLastError() != cudaSuccess)
        return;
    pthread_mutex_lock(&mu);
    followed_stream *fs = find(s);
    if (fs && mark(&P.doomed, fs) > 0)
        describe(&P.doomed, P.doomed.n - 1, fs, ", destroyed with its work still queued");
    pthread_mutex_unlock(&mu);
    if (cudaPeekAtLastError() == cudaErrorNotReady)
        cudaGetLastError();
}

static void forget(cudaStream_t s)
{
    pthread_mutex_lock(&mu);
    followed_stream *fs = find(s);
    if (fs)
        *fs = P.f[--P.n];
    pthread_mutex_unlock(&mu);
}

static void follow(cudaStream_t s)
{
    pthread_mutex_lock(&mu);
    followed_stream *fs = find(s);
    if (!fs && P.n < MAX_FOLLOWED)
        fs = &P.f[P.n++];
    if (fs) {
        fs->s = s;
        fs->kernel[0] = 0;
    }
    pthread_mutex_unlock(&mu);
}

static void observe(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data, int launch)
{
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        const CUpti_ResourceData *r = (const CUpti_ResourceData *)data;
        if (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED)
            follow((cudaStream_t)r->resourceHandle.stream);
        else if (cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING)
            forget((cudaStream_t)r->resourceHandle.stream);
        return;
    }
    const CUpti_CallbackData *d = (const CUpti_CallbackData *)data;
    if (d->callbackSite != CUPTI_API_ENTER)
        return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020 ||
                                                  cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050)) {
        if (d->functionParams)
            on_destroy(((const cudaStreamDestroy_v5050_params *)d->functionParams)->stream);
        return;
    }
    on_launch(domain, cbid, d); /* the launches, the host functions enabled below; others it ignores */
    (void)launch;
}

void kit_pending_init(void)
{
    if (P.on || kit_launch_observe(observe) != 0)
        return;
    if (kit_api_enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_STREAM_CREATED) != 0 ||
        kit_api_enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING) != 0)
        return;
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020);
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050);
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000);
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc_ptsz);
    follow(cudaStreamPerThread);
    P.on = 1;
}

void kit_pending_begin(void)
{
    kit_pending_release(&P.doomed); /* a call whose end was never marked */
    memset(&P.doomed, 0, sizeof P.doomed);
    P.in_call = 1;
}

void kit_pending_end(kit_pending_set *p)
{
    P.in_call = 0;
    *p = P.doomed; /* the destroyed streams' events first */
    memset(&P.doomed, 0, sizeof P.doomed);
    /* A CUDA error the call left behind is the run's to report: asking the
     * streams could replace it by cudaErrorNotReady. */
    if (!P.on || cudaPeekAtLastError() != cudaSuccess)
        return;
    pthread_mutex_lock(&mu);
    int first = p->n, of[KIT_PENDING_MAX];
    for (int i = 0; i < P.n; i++)
        if (mark(p, &P.f[i]) > 0)
            of[p->n - 1] = i;
    for (int i = first; i < p->n; i++)
        describe(p, i, &P.f[of[i]], "");
    pthread_mutex_unlock(&mu);
    if (cudaPeekAtLastError() == cudaErrorNotReady)
        cudaGetLastError();
}

void kit_pending_release(kit_pending_set *p)
{
    pthread_mutex_lock(&mu);
    for (int i = 0; i < p->n; i++)
        give_event(p->done[i]);
    pthread_mutex_unlock(&mu);
    p->n = 0;
}
#else
void kit_pending_init(void) {}
void kit_pending_begin(void) {}
void kit_pending_end(kit_pending_set *p) { memset(p, 0, sizeof *p); }
void kit_pending_release(kit_pending_set *p) { p->n = 0; }
#endif

double kit_pending_late_ms(const kit_pending_set *p, cudaEvent_t ref, int *which)
{
    double late = 0;
    *which = -1;
    for (int i = 0; i < p->n; i++) {
        float ms = 0;
        if (cudaEventSynchronize(p->done[i]) != cudaSuccess || cudaEventElapsedTime(&ms, ref, p->done[i]) != cudaSuccess)
            return -1;
        if (ms > late)
            late = ms, *which = i;
    }
    return late;
}
