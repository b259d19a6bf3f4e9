/* checker_main.c - main() of every lab's checker (kit code only).
 *
 *   check --params P --seed S --nonce N --out FILE [--stdout FILE]
 *         [--require-kernel] [--forbid-libraries]
 *         [--evidence "host-copy kernel-time"] [--host-copy-share 0.125]
 *
 *   check --validate --params P [--params P ...]
 *
 * checks case parameters with the lab's own rules (lab_params_validate)
 * without generating data: one line "INDEX<TAB>reason" per bad one (INDEX
 * counts the --params from 0), exit 0 when all are valid, 1 when not.
 *
 * Otherwise: loads the runner's output file (untrusted), applies the device-execution
 * policy to the kernel trace, then calls the lab's lab_check(), which
 * regenerates the inputs and compares with the CPU reference, then the
 * evidence rules (kit_judge).  Prints one
 * JSON verdict on stdout and exits 0; exits 2 on a usage/internal error.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/protocol.h"
#include "kit/rng.h"
#include "kit/util.h"

#define STDOUT_CAP_MB 16
#define STDOUT_CAP ((size_t)STDOUT_CAP_MB << 20)
#define KIT_STR_(x) #x
#define KIT_STR(x) KIT_STR_(x)

#define VALIDATE_MAX 512

static int validate(const char *const *texts, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        kit_params params;
        char err[512];
        if (kit_params_parse(texts[i], &params, err, sizeof err) != 0 ||
            lab_params_validate(&params, err, sizeof err) != 0) {
            err[strcspn(err, "\n")] = 0;
            printf("%d\t%s\n", i, err);
            bad++;
        }
    }
    return bad ? 1 : 0;
}

/* The nonce as the grader writes it: decimal digits only (cases.c, serve.c). */
static int parse_nonce(const char *s, uint64_t *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: check --params P --seed S --nonce N --out FILE [--stdout FILE] [--require-kernel] "
                    "[--forbid-libraries] [--evidence LIST] [--host-copy-share X]\n"
                    "       check --validate --params P [--params P ...]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *params_text = "", *out_path = NULL, *stdout_path = NULL;
    uint64_t seed = 0, nonce = 0;
    int validate_only = 0, n_texts = 0;
    static const char *texts[VALIDATE_MAX];
    kit_policy policy = {0};
    policy.host_copy_share = KIT_HOST_COPY_SHARE_DEFAULT;
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--params") && v && n_texts < VALIDATE_MAX)
            params_text = texts[n_texts++] = v, i++;
        else if (!strcmp(a, "--validate"))
            validate_only = 1;
        else if (!strcmp(a, "--seed") && v) {
            if (kit_parse_seed(v, &seed, err, sizeof err) != 0) { /* the grader's seeds: 0x..., as reports print them */
                fprintf(stderr, "check: --seed: %s\n", err);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--nonce") && v) {
            if (parse_nonce(v, &nonce) != 0) {
                fprintf(stderr, "check: --nonce '%s': a decimal number from 0 to 2^64-1\n", v);
                return 2;
            }
            i++;
        }
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
    if (validate_only)
        return validate(texts, n_texts);
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
    if (stdout_path && !stext) { /* judged as no output at all, it could pass or fail a run wrongly */
        fprintf(stderr, "check: --stdout %s: %s\n", stdout_path,
                errno == EFBIG ? "over " KIT_STR(STDOUT_CAP_MB) " MiB" : strerror(errno));
        return 2;
    }
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
