/* harness.cu - lab01's declaration (kit/lab.cuh): the student's
 * print_tids(blocks, threads) and query_device(), and what the checker needs
 * of them.
 *
 * The printed lines themselves are judged from the runner's stdout: the
 * checker counts only what came before kit_student_end()'s mark, i.e. what
 * print_tids() made visible before it returned.  lab01 has no benchmark.
 */
#include <stdint.h>
#include <stdio.h>

#include "dataset.h"
#include "kit/lab.cuh"
#include "print_tid.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab01_case c;
    device_info info;
    int calls[2], n_calls; /* which calls this case makes, in order */
} inputs;

enum { TIDS, QUERY };

static int generate(const kit_params *p, uint64_t, void *s, char *err, size_t len)
{
    inputs *in = (inputs *)s;
    if (lab01_parse(p, &in->c, err, len) != 0)
        return -1;
    if (in->c.do_tids)
        in->calls[in->n_calls++] = TIDS;
    if (in->c.do_query)
        in->calls[in->n_calls++] = QUERY;
    return 0;
}

static void tids(void *s) { print_tids(((inputs *)s)->c.blocks, ((inputs *)s)->c.threads); }
static void query(void *s) { query_device(&((inputs *)s)->info); }

static int call(kit_run_ctx *, void *s, int k, kit_lab_call *c)
{
    inputs *in = (inputs *)s;
    if (k >= in->n_calls)
        return 0;
    if (in->calls[k] == TIDS) {
        *c = kit_lab_call{"print_tids", 0, tids, {}, 0};
        return 1;
    }
    /* Poison: a field the student leaves unset reads -1 (name: 0xFF bytes);
     * a query launches no kernel.  The fields are recorded one by one (after). */
    *c = kit_lab_call{"query_device", 1, query, {}, 1};
    c->out[0] = kit_lab_out{NULL, KIT_T_TEXT, &in->info, 1, sizeof in->info, 0, 0, KIT_POISON(0xFF)};
    return 1;
}

static int after_tids(kit_run_ctx *ctx, const lab01_case *c)
{
    int32_t launch[2] = {c->blocks, c->threads};
    kit_out(ctx, LAB01_OUT_LAUNCH, KIT_T_I32, launch, 2);
    if (ctx->show)
        printf("print_tids(%d, %d) returned.  Its %d lines must be above the @@kit line: lines below it\n"
               "were printed only after print_tids() had returned (nobody waited for the kernel).\n\n",
               c->blocks, c->threads, c->blocks * c->threads);
    return 0;
}

static int after(kit_run_ctx *ctx, void *s, int k, void *const *)
{
    inputs *in = (inputs *)s;
    if (in->calls[k] == TIDS)
        return after_tids(ctx, &in->c);
    device_info *info = &in->info;
    info->name[sizeof info->name - 1] = '\0';
    int64_t shared = (int64_t)info->shared_mem_per_block; /* SIZE_MAX (unset) reads -1 */
    kit_out_text(ctx, LAB01_OUT_NAME, info->name);
    kit_out(ctx, LAB01_OUT_MAJOR, KIT_T_I32, &info->major, 1);
    kit_out(ctx, LAB01_OUT_MINOR, KIT_T_I32, &info->minor, 1);
    kit_out(ctx, LAB01_OUT_MULTIPROCESSORS, KIT_T_I32, &info->multiprocessors, 1);
    kit_out(ctx, LAB01_OUT_MAX_THREADS_PER_BLOCK, KIT_T_I32, &info->max_threads_per_block, 1);
    kit_out(ctx, LAB01_OUT_SHARED_MEM_PER_BLOCK, KIT_T_I64, &shared, 1);
    if (ctx->show)
        printf("query_device():\n  name                   %s\n  compute capability     %d.%d\n"
               "  multiprocessors        %d\n  max threads per block  %d\n"
               "  shared memory / block  %lld bytes\n",
               (unsigned char)info->name[0] == 0xFF ? "(not set)" : info->name, info->major, info->minor,
               info->multiprocessors, info->max_threads_per_block, (long long)shared);
    return 0;
}

const kit_lab KIT_LAB = {
    .tag = "lab01", .state_size = sizeof(inputs), .generate = generate, .call = call, .after = after,
};
