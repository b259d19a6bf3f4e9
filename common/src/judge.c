/* judge.c - the order in which a checker judges a run (kit_judge): the
 * device policy, the lab's check of the values, then the evidence rules,
 * which need the inputs lab_check declared, then the timing's notes and
 * refusals (timing_verdict.c).  Used by checker_main.c and by
 * the labs' checker unit tests (lab_check_test.h); a file of its own because
 * it calls lab_check, which only checkers define. */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "kit/checker.h"

void kit_judge(kit_check_ctx *ctx, const kit_policy *p, cJSON *kernels_json, int *device_ok, int *result_ok)
{
    kit_apply_policy(ctx, p->require_kernel, p->forbid_libraries, kernels_json);
    *device_ok = !ctx->failed;
    /* Judge the values on their own: a lab's check may return ctx->failed,
     * which the policy may already have set. */
    char device_summary[sizeof ctx->summary];
    snprintf(device_summary, sizeof device_summary, "%s", ctx->summary);
    ctx->failed = 0;
    int before = ctx->fail_count;
    if (lab_check(ctx) != 0 && ctx->fail_count == before)
        kit_fail(ctx, "wrong result");
    *result_ok = ctx->fail_count == before;
    char result_summary[sizeof ctx->summary];
    snprintf(result_summary, sizeof result_summary, "%s", *result_ok ? "" : ctx->summary);
    /* The evidence rules need the inputs lab_check declared. */
    if (*device_ok) {
        ctx->failed = 0;
        before = ctx->fail_count;
        kit_apply_evidence(ctx, p);
        if (ctx->fail_count != before) {
            *device_ok = 0;
            snprintf(device_summary, sizeof device_summary, "%s", ctx->summary);
        }
    }
    if (!*device_ok) { /* the device failure stays first */
        if (!*result_ok)
            kit_detail(ctx, "%s", result_summary);
        snprintf(ctx->summary, sizeof ctx->summary, "%s", device_summary);
    } else if (!*result_ok)
        snprintf(ctx->summary, sizeof ctx->summary, "%s", result_summary);
    ctx->failed = !*device_ok || !*result_ok;
    /* When the work ended, and whether the times are possible: after the
     * summaries above, so a refused time never hides a wrong value. */
    kit_judge_timing(ctx);
}
