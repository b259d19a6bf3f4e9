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

typedef struct {
    const char *params_text, *out_path, *stdout_path;
    uint64_t seed, nonce;
    int validate_only, n_texts;
    const char *texts[VALIDATE_MAX]; /* every --params, for --validate */
    kit_policy policy;
} check_args;

/* The command line into a.  -1: go on; otherwise the exit status (2). */
static int parse_args(int argc, char **argv, check_args *a)
{
    memset(a, 0, sizeof *a);
    a->params_text = "";
    a->policy.host_copy_share = KIT_HOST_COPY_SHARE_DEFAULT;
    char err[512];
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--params") && v && a->n_texts < VALIDATE_MAX)
            a->params_text = a->texts[a->n_texts++] = v, i++;
        else if (!strcmp(o, "--validate"))
            a->validate_only = 1;
        else if (!strcmp(o, "--seed") && v) {
            if (kit_parse_seed(v, &a->seed, err, sizeof err) != 0) { /* the grader's seeds: 0x..., as reports print them */
                fprintf(stderr, "check: --seed: %s\n", err);
                return 2;
            }
            i++;
        } else if (!strcmp(o, "--nonce") && v) {
            if (parse_nonce(v, &a->nonce) != 0) {
                fprintf(stderr, "check: --nonce '%s': a decimal number from 0 to 2^64-1\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(o, "--out") && v)
            a->out_path = v, i++;
        else if (!strcmp(o, "--stdout") && v)
            a->stdout_path = v, i++;
        else if (!strcmp(o, "--require-kernel"))
            a->policy.require_kernel = 1;
        else if (!strcmp(o, "--forbid-libraries"))
            a->policy.forbid_libraries = 1;
        else if (!strcmp(o, "--evidence") && v) {
            if (kit_evidence_parse(v, &a->policy, err, sizeof err) != 0) {
                fprintf(stderr, "check: %s\n", err);
                return 2;
            }
            i++;
        } else if (!strcmp(o, "--host-copy-share") && v) {
            char *end;
            a->policy.host_copy_share = strtod(v, &end);
            if (*end || !(a->policy.host_copy_share >= 0 && a->policy.host_copy_share <= 1)) {
                fprintf(stderr, "check: --host-copy-share '%s': a number from 0 to 1\n", v);
                return 2;
            }
            i++;
        } else
            return usage();
    }
    return -1;
}

/* The run's captured stdout (--stdout) into ctx; *text to free.  0, or -1 when
 * it cannot be read: judged as no output at all, it could pass or fail a run
 * wrongly. */
static int load_stdout(const char *path, kit_check_ctx *ctx, char **text)
{
    size_t slen = 0;
    *text = path ? kit_read_file(path, STDOUT_CAP, &slen) : NULL;
    if (path && !*text) {
        fprintf(stderr, "check: --stdout %s: %s\n", path,
                errno == EFBIG ? "over " KIT_STR(STDOUT_CAP_MB) " MiB" : strerror(errno));
        return -1;
    }
    ctx->stdout_text = *text ? *text : "";
    ctx->stdout_len = *text ? slen : 0;
    return 0;
}

/* The runner's result file, then the lab's check and the evidence rules; a
 * failure goes into ctx.  Returns the loaded file (NULL when unusable). */
static kit_blobfile *judge_run(const check_args *a, kit_check_ctx *ctx, cJSON *kernels, int *device_ok, int *result_ok)
{
    char err[512];
    kit_blobfile *blob = kit_blob_load(a->out_path, a->nonce, 0, err, sizeof err);
    if (!blob) {
        kit_fail(ctx, "no usable result file: %s", err);
        return NULL;
    }
    ctx->out = blob;
    char *rs = kit_blob_text(blob, KIT_KEY_RUNNER_STATUS);
    if (!rs)
        kit_fail(ctx, "the run did not finish (its result file is incomplete)");
    free(rs);
    if (!ctx->failed)
        kit_judge(ctx, &a->policy, kernels, device_ok, result_ok);
    return blob;
}

/* A bench run's value for the grader's report: its times, how many pairs
 * were timed and whether the timing stopped early, the lab's metrics. */
static int reported(const char *name)
{
    return !strcmp(name, KIT_KEY_STUDENT_MS) || !strcmp(name, KIT_KEY_BASELINE_MS) ||
           !strcmp(name, KIT_KEY_TIMED_PAIRS) || !strcmp(name, KIT_KEY_TIMED_DECIDED) ||
           !strncmp(name, KIT_KEY_METRIC_PREFIX, strlen(KIT_KEY_METRIC_PREFIX));
}

/* Timings and lab metrics of a bench run, for the grader's report. */
static cJSON *blob_metrics(kit_blobfile *blob)
{
    cJSON *metrics = cJSON_CreateObject();
    for (int i = 0; blob && i < kit_blob_count(blob); i++) {
        const char *name = kit_blob_name(blob, i);
        uint64_t cnt = 0;
        const double *v;
        if (reported(name) && (v = kit_blob_get(blob, name, KIT_T_F64, &cnt)) && cnt == 1)
            cJSON_AddNumberToObject(metrics, name, *v);
    }
    return metrics;
}

/* The JSON verdict, one line on stdout (kernels: taken over). */
static void print_verdict(kit_check_ctx *ctx, cJSON *kernels, int device_ok, int result_ok, kit_blobfile *blob)
{
    cJSON *verdict = cJSON_CreateObject();
    cJSON_AddBoolToObject(verdict, KIT_VERDICT_PASS, !ctx->failed);
    /* Right values without the student's own kernels: computed elsewhere. */
    cJSON_AddBoolToObject(verdict, KIT_VERDICT_DEVICE_OK, device_ok);
    cJSON_AddBoolToObject(verdict, KIT_VERDICT_RESULT_OK, result_ok);
    cJSON_AddStringToObject(verdict, KIT_VERDICT_SUMMARY, ctx->failed ? ctx->summary : (ctx->summary[0] ? ctx->summary : "ok"));
    cJSON *details = cJSON_CreateArray();
    for (char *line = ctx->details ? strtok(ctx->details, "\n") : NULL; line; line = strtok(NULL, "\n"))
        cJSON_AddItemToArray(details, cJSON_CreateString(line));
    cJSON_AddItemToObject(verdict, KIT_VERDICT_DETAILS, details);
    cJSON_AddItemToObject(verdict, KIT_VERDICT_KERNELS, kernels);
    cJSON_AddItemToObject(verdict, KIT_VERDICT_METRICS, blob_metrics(blob));
    char *json = cJSON_PrintUnformatted(verdict);
    puts(json);
    free(json);
    cJSON_Delete(verdict);
}

int main(int argc, char **argv)
{
    static check_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.validate_only)
        return validate(a.texts, a.n_texts);
    if (!a.out_path)
        return usage();

    kit_params params;
    char err[512];
    if (kit_params_parse(a.params_text, &params, err, sizeof err) != 0) {
        fprintf(stderr, "check: bad parameters: %s\n", err);
        return 2;
    }
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &params;
    ctx.seed = a.seed;
    char *stext;
    if (load_stdout(a.stdout_path, &ctx, &stext) != 0)
        return 2;

    cJSON *kernels = cJSON_CreateArray();
    int device_ok = 0, result_ok = 0;
    kit_blobfile *blob = judge_run(&a, &ctx, kernels, &device_ok, &result_ok);
    print_verdict(&ctx, kernels, device_ok, result_ok, blob);
    kit_blob_free(blob);
    free(stext);
    free(ctx.details);
    return 0;
}
