/* run_case.cu - one case of a runner mode into a result file: what `runner
 * run|bench|baseline` and each case of `runner serve` do (runner_main.cu),
 * and each row of make bench (bench_main.cu: bench mode on one
 * implementation's descriptor).  kit/lab.cuh declares them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kit/lab.cuh"
#include "kit_trace.h"

int kit_run_ctx_init(kit_run_ctx *ctx, kit_params *params, const char *words, uint64_t seed, int warmup, int reps)
{
    char err[200];
    if (kit_params_parse(words, params, err, sizeof err) != 0) {
        fprintf(stderr, "runner: bad parameters: %s\n", err);
        return -1;
    }
    memset(ctx, 0, sizeof *ctx);
    ctx->params = params;
    ctx->seed = seed;
    ctx->warmup = warmup < 0 ? 0 : warmup;
    ctx->reps = reps < 1 ? 1 : reps;
    return 0;
}

int kit_run_exit_status(int rc)
{
    if (rc != 0 && kit_time_refused())
        return KIT_EXIT_TIMED_NO_KERNEL;
    switch (rc) {
    case 0:
        return KIT_EXIT_OK;
    case KIT_RC_STUDENT_CUDA:
        return KIT_EXIT_STUDENT_CUDA;
    case KIT_RC_OVERRAN:
        return KIT_EXIT_OVERRAN;
    case KIT_RC_SKIPPED:
        return KIT_EXIT_SKIPPED;
    default:
        return KIT_EXIT_HARNESS;
    }
}

int kit_run_case(const kit_lab *lab, kit_run_mode mode, const char *words, uint64_t seed, uint64_t nonce,
                 const char *out_path, int warmup, int reps, const kit_decided *decided)
{
    kit_params params;
    kit_run_ctx ctx;
    if (kit_run_ctx_init(&ctx, &params, words, seed, warmup, reps) != 0)
        return KIT_EXIT_USAGE;
    if (mode == KIT_MODE_BENCH && decided)
        ctx.decided = *decided;
    /* Created before the student's code runs but filled only by kit_out_*
     * after each call returns; the checker rejects a file whose nonce is not
     * this run's (a stale or forged file). */
    ctx.out = kit_writer_open(out_path, nonce);
    if (!ctx.out) {
        fprintf(stderr, "runner: cannot create %s: %s\n", out_path, strerror(errno));
        return KIT_EXIT_HARNESS;
    }
    int rc = mode == KIT_MODE_BENCH      ? kit_lab_bench(&ctx, lab)
             : mode == KIT_MODE_BASELINE ? kit_lab_baseline(&ctx, lab)
                                         : kit_lab_run(&ctx, lab);
    kit_trace_finish(ctx.out);
    kit_trace_reset(); /* the next case's records are its own */
    kit_writer_put_text(ctx.out, KIT_KEY_RUNNER_STATUS, rc == 0 ? KIT_RUNNER_OK : KIT_RUNNER_ERROR);
    if (kit_writer_close(ctx.out) != 0) {
        fprintf(stderr, "runner: writing %s failed (disk full or file size limit?)\n", out_path);
        return KIT_EXIT_HARNESS;
    }
    return kit_run_exit_status(rc);
}
