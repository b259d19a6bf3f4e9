/* launches.cu - counts kernel launches (see kit_launch_count in timing.cuh).
 *
 * The timing loop refuses a timed call of the student's function that
 * launched no kernel (a remembered result, a host computation).  The kernel
 * trace's activity records are paused while timing (they slow every launch),
 * so launches are counted with CUPTI's callback API instead: one callback on
 * entry to every driver launch entry point (cuLaunchKernel, cuLaunchKernelEx,
 * cuLaunchCooperativeKernel, cuGraphLaunch, ...; the runtime's <<<>>> goes
 * through them), which costs far less than an activity record.  The entry
 * points are found by name, so a new one in a later CUDA counts too.
 *
 * CUPTI allows one callback subscriber per process: this file owns it, and
 * the kernel trace (where a kernel comes from) and the pending-work tracker
 * (pending.cu: which streams a call left running) observe launches through
 * kit_launch_observe instead of subscribing themselves.
 */
#include <stdio.h>
#include <string.h>

#include "kit/timing.cuh"
#include "kit_trace.h"

#ifndef KIT_NO_CUPTI
#include <cupti.h>

static volatile long launches;
static int state; /* 0 not tried, 1 counting, -1 unavailable */
#define MAX_OBSERVERS 4
static kit_launch_observer observers[MAX_OBSERVERS]; /* the kernel trace, the pending-work tracker */
static int n_observers;
static CUpti_SubscriberHandle subscriber;
/* Which callbacks are launches (others may be enabled for the observer). */
#define MAX_CBID ((int)CUPTI_DRIVER_TRACE_CBID_SIZE > (int)CUPTI_RUNTIME_TRACE_CBID_SIZE \
                      ? (int)CUPTI_DRIVER_TRACE_CBID_SIZE                               \
                      : (int)CUPTI_RUNTIME_TRACE_CBID_SIZE)
static unsigned char is_launch[2][MAX_CBID];

static int domain_index(CUpti_CallbackDomain domain) { return domain == CUPTI_CB_DOMAIN_RUNTIME_API; }

static void CUPTIAPI on_launch(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    (void)userdata;
    int launch = 0;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API || domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        const CUpti_CallbackData *d = (const CUpti_CallbackData *)data;
        launch = cbid < sizeof is_launch[0] && is_launch[domain_index(domain)][cbid];
        if (launch && d->callbackSite == CUPTI_API_ENTER)
            __atomic_add_fetch(&launches, 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < n_observers; i++)
        observers[i](domain, cbid, data, launch);
}

/* Enables the callbacks of every "<prefix>Launch..." and "<prefix>GraphLaunch..."
 * entry point of a domain except the host-function launch (a host callback is
 * no kernel).  The runtime's entry points are counted too, in case a runtime
 * launch does not pass through a driver entry point with a callback. */
static int enable_launches(CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain, int size, const char *prefix)
{
    char launch[32], graph[32], host[32];
    snprintf(launch, sizeof launch, "%sLaunch", prefix);
    snprintf(graph, sizeof graph, "%sGraphLaunch", prefix);
    snprintf(host, sizeof host, "%sLaunchHostFunc", prefix);
    int enabled = 0;
    for (int id = 0; id < size; id++) {
        const char *name = NULL;
        if (cuptiGetCallbackName(domain, (uint32_t)id, &name) != CUPTI_SUCCESS || !name)
            continue;
        if ((!strncmp(name, launch, strlen(launch)) || !strncmp(name, graph, strlen(graph))) &&
            strncmp(name, host, strlen(host)) != 0 && (size_t)id < sizeof is_launch[0] &&
            cuptiEnableCallback(1, sub, domain, (CUpti_CallbackId)id) == CUPTI_SUCCESS) {
            is_launch[domain_index(domain)][id] = 1;
            enabled++;
        }
    }
    return enabled;
}

static void start_counting(void)
{
    CUpti_SubscriberHandle sub;
    state = -1;
    if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_launch, NULL) != CUPTI_SUCCESS)
        return;
    subscriber = sub;
    int enabled = enable_launches(sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, "cu") +
                  enable_launches(sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, "cuda");
    state = enabled ? 1 : -1;
}

long kit_launch_count(void)
{
    if (state == 0)
        start_counting();
    return state > 0 ? __atomic_load_n(&launches, __ATOMIC_RELAXED) : -1;
}

int kit_launch_observe(kit_launch_observer fn)
{
    if (state == 0)
        start_counting();
    if (state <= 0 || n_observers >= MAX_OBSERVERS)
        return -1;
    observers[n_observers++] = fn;
    return 0;
}

int kit_api_enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    if (state == 0)
        start_counting();
    return state > 0 && cuptiEnableCallback(1, subscriber, domain, cbid) == CUPTI_SUCCESS ? 0 : -1;
}
#else
long kit_launch_count(void) { return -1; }
int kit_launch_observe(kit_launch_observer fn)
{
    (void)fn;
    return -1;
}
#endif
