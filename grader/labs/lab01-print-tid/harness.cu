/* harness.cu - lab01 harness: calls the student's print_tids(blocks, threads)
 * and query_device(), and records what the checker needs.
 *
 * The printed lines themselves are judged from the runner's stdout: the
 * checker counts only what came before kit_student_end()'s mark, i.e. what
 * print_tids() made visible before it returned.  lab01 has no benchmark.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dataset.h"
#include "kit/runner.h"
#include "print_tid.h"

static int run_tids(kit_run_ctx *ctx, const lab01_case *c)
{
    kit_student_begin(ctx, "print_tids");
    print_tids(c->blocks, c->threads);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    int32_t launch[2] = {c->blocks, c->threads};
    kit_out(ctx, "launch", KIT_T_I32, launch, 2);
    if (ctx->show)
        printf("print_tids(%d, %d) returned.  Its %d lines must be above the @@kit line: lines below it\n"
               "were printed only after print_tids() had returned (nobody waited for the kernel).\n\n",
               c->blocks, c->threads, c->blocks * c->threads);
    return 0;
}

static int run_query(kit_run_ctx *ctx)
{
    device_info info;
    /* Poison: a field the student leaves unset reads -1 (name: 0xFF bytes). */
    memset(&info, 0xFF, sizeof info);
    ctx->kernel_optional = 1; /* a query launches no kernel */
    kit_student_begin(ctx, "query_device");
    query_device(&info);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    info.name[sizeof info.name - 1] = '\0';
    int64_t shared = (int64_t)info.shared_mem_per_block; /* SIZE_MAX (unset) reads -1 */
    kit_out_text(ctx, "device.name", info.name);
    kit_out(ctx, "device.major", KIT_T_I32, &info.major, 1);
    kit_out(ctx, "device.minor", KIT_T_I32, &info.minor, 1);
    kit_out(ctx, "device.multiprocessors", KIT_T_I32, &info.multiprocessors, 1);
    kit_out(ctx, "device.max_threads_per_block", KIT_T_I32, &info.max_threads_per_block, 1);
    kit_out(ctx, "device.shared_mem_per_block", KIT_T_I64, &shared, 1);
    if (ctx->show)
        printf("query_device():\n  name                   %s\n  compute capability     %d.%d\n"
               "  multiprocessors        %d\n  max threads per block  %d\n"
               "  shared memory / block  %lld bytes\n",
               (unsigned char)info.name[0] == 0xFF ? "(not set)" : info.name, info.major, info.minor,
               info.multiprocessors, info.max_threads_per_block, (long long)shared);
    return 0;
}

int lab_run(kit_run_ctx *ctx)
{
    lab01_case c;
    char err[256];
    if (lab01_parse(ctx->params, &c, err, sizeof err) != 0) {
        fprintf(stderr, "lab01: %s\n", err);
        return -1;
    }
    int rc = 0;
    if (c.do_tids)
        rc = run_tids(ctx, &c);
    if (rc == 0 && c.do_query)
        rc = run_query(ctx);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    (void)ctx;
    fprintf(stderr, "lab01: there is nothing to time in this lab\n");
    return -1;
}
