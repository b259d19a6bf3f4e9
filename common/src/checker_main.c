/* checker_main.c - main() of every lab's checker (kit code only).
 *
 *   check --params P --seed S --nonce N --out FILE [--stdout FILE]
 *         [--require-kernel] [--forbid-libraries]
 *
 * Loads the runner's output file (untrusted), applies the device-execution
 * policy to the kernel trace, then calls the lab's lab_check(), which
 * regenerates the inputs and compares with the CPU reference.  Prints one
 * JSON verdict on stdout and exits 0; exits 2 on a usage/internal error.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/util.h"

#define STDOUT_CAP (16u << 20)

/* ---- verdict helpers used by lab_check ---- */

static void add_detail(kit_check_ctx *ctx, const char *line)
{
    size_t n = strlen(line);
    if (ctx->details_len + n + 2 > ctx->details_cap) {
        size_t cap = (ctx->details_cap + n + 2) * 2;
        char *p = realloc(ctx->details, cap);
        if (!p)
            return;
        ctx->details = p, ctx->details_cap = cap;
    }
    memcpy(ctx->details + ctx->details_len, line, n);
    ctx->details_len += n;
    ctx->details[ctx->details_len++] = '\n';
    ctx->details[ctx->details_len] = 0;
}

void kit_fail(kit_check_ctx *ctx, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (!ctx->failed)
        snprintf(ctx->summary, sizeof ctx->summary, "%.*s", (int)sizeof ctx->summary - 1, line);
    else
        add_detail(ctx, line);
    ctx->failed = 1;
}

void kit_detail(kit_check_ctx *ctx, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    add_detail(ctx, line);
}

const void *kit_expect_array(kit_check_ctx *ctx, const char *name, kit_type t, uint64_t want_count,
                             uint64_t *count)
{
    uint64_t n = 0;
    const void *p = kit_blob_get(ctx->out, name, t, &n);
    if (!p) { /* kit_blob_get returns non-NULL for a present array, even an empty one */
        kit_fail(ctx, "output '%s' missing: %s", name, kit_blob_why(ctx->out));
        return NULL;
    }
    if (want_count > 0 && n != want_count) {
        kit_fail(ctx, "output '%s' has %llu elements, expected %llu", name, (unsigned long long)n,
                 (unsigned long long)want_count);
        return NULL;
    }
    if (count)
        *count = n;
    return p;
}

int kit_check_cmp(kit_check_ctx *ctx, const char *what, const kit_cmp *r)
{
    if (kit_cmp_ok(r))
        return 1;
    char line[768];
    kit_cmp_describe(r, line, sizeof line);
    kit_fail(ctx, "%s: %s", what, line);
    return 0;
}

/* ---- device-execution policy ---- */

/* Kernels that come from libraries rather than from the student's code. */
static const char *library_of(const char *kernel)
{
    static const struct {
        const char *needle, *lib;
    } libs[] = {{"thrust::", "Thrust"}, {"cub::", "CUB"},       {"cublas", "cuBLAS"},   {"cusparse", "cuSPARSE"},
                {"cufft", "cuFFT"},     {"curand", "cuRAND"},   {"cusolver", "cuSOLVER"}, {"cutlass", "CUTLASS"},
                {"cudnn", "cuDNN"},     {"xmma", "cuBLAS"},     {"nvjet", "cuBLAS"},    {"at::native", "PyTorch"}};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (strstr(kernel, libs[i].needle))
            return libs[i].lib;
    return NULL;
}

typedef struct {
    int call;
    char grid[48], block[48];
    double ms;
    char name[512];
} trace_kernel;

static int parse_kernels(const char *text, trace_kernel **out)
{
    int n = 0, cap = 0;
    *out = NULL;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p = nl ? nl + 1 : NULL;
        trace_kernel k;
        memset(&k, 0, sizeof k);
        unsigned long long ns = 0;
        int used = 0;
        if (sscanf(line, "%d\t%47[^\t]\t%47[^\t]\t%llu\t%n", &k.call, k.grid, k.block, &ns, &used) < 4 || !used)
            continue;
        snprintf(k.name, sizeof k.name, "%s", line + used);
        k.ms = ns / 1e6;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            trace_kernel *q = realloc(*out, (size_t)cap * sizeof *q);
            if (!q)
                break;
            *out = q;
        }
        (*out)[n++] = k;
    }
    return n;
}

static void apply_policy(kit_check_ctx *ctx, int require_kernel, int forbid_libraries, cJSON *kernels_json)
{
    char *status = kit_blob_text(ctx->out, "trace.status");
    char *calls = kit_blob_text(ctx->out, "trace.calls");
    char *ktext = kit_blob_text(ctx->out, "trace.kernels");
    trace_kernel *ks = NULL;
    int nk = parse_kernels(ktext, &ks);

    for (int i = 0; i < nk; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "call", ks[i].call);
        cJSON_AddStringToObject(o, "name", ks[i].name);
        cJSON_AddStringToObject(o, "grid", ks[i].grid);
        cJSON_AddStringToObject(o, "block", ks[i].block);
        cJSON_AddNumberToObject(o, "ms", ks[i].ms);
        cJSON_AddItemToArray(kernels_json, o);
    }

    /* Each student call: CUDA errors, own kernels, library kernels. */
    for (const char *p = calls; p && *p;) {
        const char *nl = strchr(p, '\n');
        char line[512];
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p = nl ? nl + 1 : NULL;
        int idx = -1, needs_kernel = 1;
        char name[128] = "", error[256] = "";
        if (sscanf(line, "%d\t%127[^\t]\t%d\t%255[^\n]", &idx, name, &needs_kernel, error) < 3)
            continue;
        if (error[0])
            kit_fail(ctx, "%s() left a CUDA error: %s", name, error);
        if (!status || strcmp(status, "ok") != 0)
            continue;
        int own = 0;
        char libs[256] = "";
        for (int i = 0; i < nk; i++) {
            if (ks[i].call != idx)
                continue;
            const char *lib = library_of(ks[i].name);
            if (!lib)
                own++;
            else if (!strstr(libs, lib))
                snprintf(libs + strlen(libs), sizeof libs - strlen(libs), "%s%s", libs[0] ? ", " : "", lib);
        }
        if (forbid_libraries && libs[0])
            kit_fail(ctx, "%s() ran library kernels (%s): this lab asks for your own kernels, not library calls",
                     name, libs);
        if (require_kernel && needs_kernel && own == 0 && !error[0])
            kit_fail(ctx, "%s() launched no kernel of its own: the result must be computed by your kernel on the GPU",
                     name);
    }
    if (status && strcmp(status, "ok") != 0 && strcmp(status, "off") != 0)
        kit_detail(ctx, "note: device-execution check not possible (%s)", status);
    free(status);
    free(calls);
    free(ktext);
    free(ks);
}

static int usage(void)
{
    fprintf(stderr, "usage: check --params P --seed S --nonce N --out FILE [--stdout FILE] [--require-kernel] "
                    "[--forbid-libraries]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *params_text = "", *out_path = NULL, *stdout_path = NULL;
    unsigned long long seed = 0, nonce = 0;
    int require_kernel = 0, forbid = 0;
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
            require_kernel = 1;
        else if (!strcmp(a, "--forbid-libraries"))
            forbid = 1;
        else
            return usage();
    }
    if (!out_path)
        return usage();

    kit_params params;
    char err[512];
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
    kit_blobfile *blob = kit_blob_load(out_path, nonce, 0, err, sizeof err);
    if (!blob) {
        kit_fail(&ctx, "no usable result file: %s", err);
    } else {
        ctx.out = blob;
        char *rs = kit_blob_text(blob, "runner.status");
        if (!rs)
            kit_fail(&ctx, "the run did not finish (its result file is incomplete)");
        free(rs);
        if (!ctx.failed) {
            apply_policy(&ctx, require_kernel, forbid, kernels);
            if (lab_check(&ctx) != 0 && !ctx.failed)
                kit_fail(&ctx, "wrong result");
        }
    }

    cJSON_AddBoolToObject(verdict, "pass", !ctx.failed);
    cJSON_AddStringToObject(verdict, "summary", ctx.failed ? ctx.summary : (ctx.summary[0] ? ctx.summary : "ok"));
    cJSON *details = cJSON_CreateArray();
    for (char *line = ctx.details ? strtok(ctx.details, "\n") : NULL; line; line = strtok(NULL, "\n"))
        cJSON_AddItemToArray(details, cJSON_CreateString(line));
    cJSON_AddItemToObject(verdict, "details", details);
    cJSON_AddItemToObject(verdict, "kernels", kernels);
    /* Timings and lab metrics of a bench run, for the grader's report. */
    cJSON *metrics = cJSON_CreateObject();
    for (int i = 0; blob && i < kit_blob_count(blob); i++) {
        const char *name = kit_blob_name(blob, i);
        uint64_t cnt = 0;
        const double *v;
        if ((!strcmp(name, "student_ms") || !strcmp(name, "baseline_ms") || !strncmp(name, "metric.", 7)) &&
            (v = kit_blob_get(blob, name, KIT_T_F64, &cnt)) && cnt == 1)
            cJSON_AddNumberToObject(metrics, name, *v);
    }
    cJSON_AddItemToObject(verdict, "metrics", metrics);
    char *json = cJSON_PrintUnformatted(verdict);
    puts(json);
    free(json);
    cJSON_Delete(verdict);
    kit_blob_free(blob);
    free(stext);
    free(ctx.details);
    return 0;
}
