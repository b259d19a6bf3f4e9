/* runner_out.cu - what a harness writes (kit_out*: the result file, no-ops
 * in show mode) and how it reports its own CUDA errors (KIT_HCHECK): for the
 * runner and for every other program that runs a lab's descriptor (the bench
 * program, bench_main.cu), apart from the runner's main. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kit/runner.h"

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
