/* checker_main.c - main() of every lab's checker (kit code only).
 *
 *   check --params P --seed S --nonce N --out FILE [--stdout FILE]
 *         [--require-kernel] [--forbid-libraries]
 *         [--evidence "host-copy kernel-time"] [--host-copy-share 0.125]
 *
 * Loads the runner's output file (untrusted), applies the device-execution
 * policy to the kernel trace, then calls the lab's lab_check(), which
 * regenerates the inputs and compares with the CPU reference, then the
 * evidence rules (kit_judge).  Prints one
 * JSON verdict on stdout and exits 0; exits 2 on a usage/internal error.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/protocol.h"
#include "kit/util.h"

#define STDOUT_CAP (16u << 20)

static int usage(void)
{
    fprintf(stderr, "usage: check --params P --seed S --nonce N --out FILE [--stdout FILE] [--require-kernel] "
                    "[--forbid-libraries] [--evidence LIST] [--host-copy-share X]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *params_text = "", *out_path = NULL, *stdout_path = NULL;
    unsigned long long seed = 0, nonce = 0;
    kit_policy policy = {0};
    policy.host_copy_share = KIT_HOST_COPY_SHARE_DEFAULT;
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--params") && v)
            params_text = v, i++;
        else if (!strcmp(a, "--seed") && v)
            seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--nonce") && v)
            nonce = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--out") && v)
            out_path = v, i++;
        else if (!strcmp(a, "--stdout") && v)
            stdout_path = v, i++;
        else if (!strcmp(a, "--require-kernel"))
            policy.require_kernel = 1;
        else if (!strcmp(a, "--forbid-libraries"))
            policy.forbid_libraries = 1;
        else if (!strcmp(a, "--evidence") && v) {
            if (kit_evidence_parse(v, &policy, err, sizeof err) != 0) {
                fprintf(stderr, "check: %s\n", err);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--host-copy-share") && v) {
            char *end;
            policy.host_copy_share = strtod(v, &end);
            if (*end || !(policy.host_copy_share >= 0 && policy.host_copy_share <= 1)) {
                fprintf(stderr, "check: --host-copy-share '%s': a number from 0 to 1\n", v);
                return 2;
            }
            i++;
        } else
            return usage();
    }
    if (!out_path)
        return usage();

    kit_params params;
    if (kit_params_parse(params_text, &params, err, sizeof err) != 0) {
        fprintf(stderr, "check: bad parameters: %s\n", err);
        return 2;
    }

    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &params;
    ctx.seed = seed;
    size_t slen = 0;
    char *stext = stdout_path ? kit_read_file(stdout_path, STDOUT_CAP, &slen) : NULL;
    ctx.stdout_text = stext ? stext : "";
    ctx.stdout_len = stext ? slen : 0;

    cJSON *verdict = cJSON_CreateObject(), *kernels = cJSON_CreateArray();
    int device_ok = 0, result_ok = 0;
    kit_blobfile *blob = kit_blob_load(out_path, nonce, 0, err, sizeof err);
    if (!blob) {
        kit_fail(&ctx, "no usable result file: %s", err);
    } else {
        ctx.out = blob;
        char *rs = kit_blob_text(blob, KIT_KEY_RUNNER_STATUS);
        if (!rs)
            kit_fail(&ctx, "the run did not finish (its result file is incomplete)");
        free(rs);
        if (!ctx.failed)
            kit_judge(&ctx, &policy, kernels, &device_ok, &result_ok);
    }

    cJSON_AddBoolToObject(verdict, KIT_VERDICT_PASS, !ctx.failed);
    /* Right values without the student's own kernels: computed elsewhere. */
    cJSON_AddBoolToObject(verdict, KIT_VERDICT_DEVICE_OK, device_ok);
    cJSON_AddBoolToObject(verdict, KIT_VERDICT_RESULT_OK, result_ok);
    cJSON_AddStringToObject(verdict, KIT_VERDICT_SUMMARY, ctx.failed ? ctx.summary : (ctx.summary[0] ? ctx.summary : "ok"));
    cJSON *details = cJSON_CreateArray();
    for (char *line = ctx.details ? strtok(ctx.details, "\n") : NULL; line; line = strtok(NULL, "\n"))
        cJSON_AddItemToArray(details, cJSON_CreateString(line));
    cJSON_AddItemToObject(verdict, KIT_VERDICT_DETAILS, details);
    cJSON_AddItemToObject(verdict, KIT_VERDICT_KERNELS, kernels);
    /* Timings and lab metrics of a bench run, for the grader's report. */
    cJSON *metrics = cJSON_CreateObject();
    for (int i = 0; blob && i < kit_blob_count(blob); i++) {
        const char *name = kit_blob_name(blob, i);
        uint64_t cnt = 0;
        const double *v;
        if ((!strcmp(name, KIT_KEY_STUDENT_MS) || !strcmp(name, KIT_KEY_BASELINE_MS) || !strncmp(name, KIT_KEY_METRIC_PREFIX, strlen(KIT_KEY_METRIC_PREFIX))) &&
            (v = kit_blob_get(blob, name, KIT_T_F64, &cnt)) && cnt == 1)
            cJSON_AddNumberToObject(metrics, name, *v);
    }
    cJSON_AddItemToObject(verdict, KIT_VERDICT_METRICS, metrics);
    char *json = cJSON_PrintUnformatted(verdict);
    puts(json);
    free(json);
    cJSON_Delete(verdict);
    kit_blob_free(blob);
    free(stext);
    free(ctx.details);
    return 0;
}
