/* watchdog_hold.cu - the driver's teardown of a context inside a student
 * call, and the new context's creation after it, do not count toward the
 * call's limit (watchdog.h).
 *
 * The teardown's calls alone were not enough (H100, GPU suite, 2026-11-27):
 * after a reset at the end of the call, the kit's own wait for the call's
 * work (kit_student_end, still inside the call's time) makes the runtime
 * create the context again, and beside twenty other contexts that took
 * seconds too.  So a context's destruction (CUPTI's resource callback) holds
 * the clock until the next context is created.
 *
 * cudaDeviceReset() (and cudaThreadExit(), its old name) waits for the
 * driver to take the context down; beside many other contexts that took
 * seconds on an H100 while nothing of the student's ran.  The entry and the
 * exit of those calls, and of the driver calls that do the same
 * (cuDevicePrimaryCtxReset, cuCtxDestroy), hold the watchdog's clock.
 * Through CUPTI's callbacks (launches.cu owns the subscription), so under
 * compute-sanitizer (no CUPTI of ours) nothing is held: its limits are the
 * sanitizer's own, far longer ones. */
#include "kit/watchdog.h"
#include "kit_trace.h"

#ifndef KIT_NO_CUPTI
#include <cupti.h>

static int is_teardown(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API)
        return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        return cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2 ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy || cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2;
    return 0;
}

static int context_down; /* a context was destroyed and none created since: held */

static void observe(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data, int launch)
{
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && !context_down) {
            context_down = 1;
            kit_watchdog_hold(1);
        } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && context_down) {
            context_down = 0;
            kit_watchdog_hold(0);
        }
        return;
    }
    if (launch || !is_teardown(domain, cbid))
        return;
    kit_watchdog_hold(((const CUpti_CallbackData *)data)->callbackSite == CUPTI_API_ENTER);
}

void kit_watchdog_follow_teardown(void)
{
    static int on;
    if (on || kit_launch_observe(observe) != 0)
        return;
    on = 1;
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    kit_api_enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy);
    kit_api_enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2);
    kit_api_enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    kit_api_enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
}
#else
void kit_watchdog_follow_teardown(void) {}
#endif
