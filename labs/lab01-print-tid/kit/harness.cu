/* harness.cu - lab01's declaration, as data (kit/lab_decl.cuh): the
 * student's print_tids(blocks, threads) and query_device(), each where the
 * case's part asks for it, in this order, and what the checker needs of
 * them: the launch asked for, the device's fields.  The printed lines are
 * judged from the runner's stdout, only above kit_student_end()'s mark: what
 * print_tids() made visible before it returned.  lab01 has no benchmark.
 */
#include <stdint.h>
#include <stdio.h>

#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "print_tid.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab01_data d;
    device_info info;
} inputs;

KIT_LAB_DATASET(inputs, lab01) /* generate (the case's parameters) and release (nothing): dataset.c */

KIT_LAB_INVOKE(inputs, tids, print_tids(in->d.blocks, in->d.threads))
KIT_LAB_INVOKE(inputs, query, query_device(&in->info))

static int after_tids(kit_run_ctx *ctx, const lab01_data *c)
{
    int32_t launch[2] = {c->blocks, c->threads};
    kit_out(ctx, LAB01_OUT_LAUNCH, KIT_T_I32, launch, 2);
    if (ctx->show)
        printf("print_tids(%d, %d) returned.  Its %d lines must be above the @@kit line: lines below it\n"
               "were printed only after print_tids() had returned (nobody waited for the kernel).\n\n",
               c->blocks, c->threads, c->blocks * c->threads);
    return 0;
}

/* After each call: print_tids' launch; query_device's fields one by one. */
static int after(kit_run_ctx *ctx, void *s, int k, void *const *)
{
    inputs *in = (inputs *)s;
    if (k == 0 && in->d.do_tids)
        return after_tids(ctx, &in->d);
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

#define F(member) KIT_AT(inputs, member)
static const kit_lab_decl DECL = {
    /* query_device's answer poisoned whole (a field left unset reads -1, its
     * name 0xFF bytes) and read back for `after`; a query launches no kernel */
    .calls = {{"print_tids", tids, KIT_WHEN(inputs, d.do_tids, 1)},
              {"query_device", query, KIT_WHEN(inputs, d.do_query, 1),
               .out = {{NULL, KIT_T_TEXT, F(info), 0, KIT_POISON(0xFF), KIT_DECL_IN_STATE, sizeof(device_info)}},
               .kernel_optional = 1}},
    .every_call = 1,
    .no_summary = 1,
};

const kit_lab KIT_LAB = {
    .tag = "lab01", .state_size = sizeof(inputs), .generate = generate, .release = release, .after = after,
    .decl = &DECL,
};
