/* runner_main.cu - main() of every runner (student code + lab harness).
 *
 *   runner run   --params P --seed S --nonce N --out FILE [--no-trace]
 *   runner bench --params P --seed S --nonce N --out FILE [--warmup W] [--reps K] [--no-trace]
 *   runner show  [--params P] [--seed S] [words...]
 *
 * The runner only computes and records; the grader's checker judges.  Exit
 * statuses: KIT_EXIT_* (kit/protocol.h).  Output is written only after the
 * student's code returned, so a run that crashes leaves no result file.
 */
#include <cuda_runtime.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/runner.h"
#include "kit_trace.h"

static int usage(void)
{
    fprintf(stderr, "usage: runner run|bench|show [--params \"k=v ...\"] [--seed S] [--nonce N] [--out FILE]\n"
                    "                             [--warmup W] [--reps K] [--no-trace] [k=v ...]\n");
    return KIT_EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *s == 0 || *end)
        return -1;
    *v = x;
    return 0;
}

void kit_out(kit_run_ctx *ctx, const char *name, kit_type t, const void *data, uint64_t count)
{
    if (ctx->out && kit_writer_put(ctx->out, name, t, data, count) != 0)
        fprintf(stderr, "runner: could not write '%s' to the output file\n", name);
}

void kit_out_f64(kit_run_ctx *ctx, const char *name, double v) { kit_out(ctx, name, KIT_T_F64, &v, 1); }

void kit_out_text(kit_run_ctx *ctx, const char *name, const char *text)
{
    if (ctx->out)
        kit_writer_put_text(ctx->out, name, text);
}

void kit_harness_error(cudaError_t e, const char *what, const char *file, int line)
{
    fflush(stdout);
    fprintf(stderr, "%s:%d: CUDA error in the kit's harness (%s): %s (%s)\n", file, line, what,
            cudaGetErrorString(e), cudaGetErrorName(e));
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *mode = argv[1];
    int bench = !strcmp(mode, "bench"), show = !strcmp(mode, "show");
    if (!bench && !show && strcmp(mode, "run"))
        return usage();

    char words[1024] = "";
    const char *out_path = NULL;
    uint64_t seed = 1, nonce = 0;
    int warmup = 3, reps = 15, trace = 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--params") && v) {
            snprintf(words + strlen(words), sizeof words - strlen(words), " %s", v), i++;
        } else if (!strcmp(a, "--seed") && v) {
            if (parse_u64(v, &seed))
                return usage();
            i++;
        } else if (!strcmp(a, "--nonce") && v) {
            if (parse_u64(v, &nonce))
                return usage();
            i++;
        } else if (!strcmp(a, "--out") && v) {
            out_path = v, i++;
        } else if (!strcmp(a, "--warmup") && v) {
            warmup = atoi(v), i++;
        } else if (!strcmp(a, "--reps") && v) {
            reps = atoi(v), i++;
        } else if (!strcmp(a, "--no-trace")) {
            trace = 0;
        } else if (strchr(a, '=') && a[0] != '-') {
            snprintf(words + strlen(words), sizeof words - strlen(words), " %s", a);
        } else {
            fprintf(stderr, "runner: unknown argument '%s'\n", a);
            return usage();
        }
    }
    if (!show && !out_path)
        return usage();

    kit_params params;
    char err[200];
    if (kit_params_parse(words, &params, err, sizeof err) != 0) {
        fprintf(stderr, "runner: bad parameters: %s\n", err);
        return KIT_EXIT_USAGE;
    }

    /* The trace must be set up before the first CUDA call creates a context. */
    kit_trace_init(trace && !show);

    kit_run_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &params;
    ctx.seed = seed;
    ctx.warmup = warmup < 0 ? 0 : warmup;
    ctx.reps = reps < 1 ? 1 : reps;
    ctx.show = show;
    if (show)
        printf("seed %#" PRIx64 ", parameters:%s\n", seed, words[0] ? words : " (defaults)");

    /* Created before the student's code runs but filled only by kit_out_*
     * after each call returns; the checker rejects a file whose nonce is not
     * this run's (a stale or forged file). */
    if (!show) {
        ctx.out = kit_writer_open(out_path, nonce);
        if (!ctx.out) {
            fprintf(stderr, "runner: cannot create %s: %s\n", out_path, strerror(errno));
            return KIT_EXIT_HARNESS;
        }
    }
    int rc = bench ? lab_bench(&ctx) : lab_run(&ctx);
    kit_trace_finish(ctx.out);
    if (ctx.out) {
        kit_writer_put_text(ctx.out, KIT_KEY_RUNNER_STATUS, rc == 0 ? "ok" : "error");
        if (kit_writer_close(ctx.out) != 0) {
            fprintf(stderr, "runner: writing %s failed (disk full or file size limit?)\n", out_path);
            return KIT_EXIT_HARNESS;
        }
    }
    if (rc != 0 && kit_time_refused())
        return KIT_EXIT_TIMED_NO_KERNEL;
    return rc == 0 ? KIT_EXIT_OK : (rc == KIT_RC_STUDENT_CUDA ? KIT_EXIT_STUDENT_CUDA : KIT_EXIT_HARNESS);
}
