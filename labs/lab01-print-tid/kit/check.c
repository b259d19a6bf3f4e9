/* check.c - lab01 checker: the lines print_tids() printed, and the device query.
 *
 * Lines.  Only the runner's stdout before the kit's mark counts (the mark is
 * printed when print_tids() returns, before the kit synchronises): a kernel
 * nobody waited for prints after it.  Lines of the form
 * "block B thread T tid N" are collected in any order; every other line is
 * ignored.  Each tid 0 ... B*T-1 must appear exactly once, on a line whose
 * block and thread are in range and give that tid (N = B_idx * T + T_idx).
 * The kernel trace must show a launch of blocks * threads threads inside the
 * call, so lines printed by the host do not count.
 *
 * Device query.  Every field is compared with what cudaGetDeviceProperties
 * says for device 0 in the checker's own process.
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_hooks.h"
#include "dataset.h"
#include "kit/check_driver.h"

#define EXAMPLES 4  /* examples quoted per kind of mistake */

/* ---------------------------------------------------------------- lines */

/* The lines of the form LAB01_LINE_FORMAT: v = {block, thread, tid}. */
#define WORDS "block thread tid"
enum { BLOCK, THREAD, TID };

static void judge_lines(kit_check_ctx *ctx, const lab01_case *c, const kit_lines *before)
{
    int total = c->blocks * c->threads;
    int *seen = calloc((size_t)total, sizeof *seen);
    if (!seen) {
        kit_fail(ctx, "checker: out of memory");
        return;
    }
    int n_range = 0, n_wrong = 0;
    char range_ex[160] = "", wrong_ex[200] = "";
    for (int i = 0; i < before->n; i++) {
        const kit_line *l = &before->lines[i];
        int block = l->v[BLOCK], thread = l->v[THREAD], tid = l->v[TID];
        if (block < 0 || block >= c->blocks || thread < 0 || thread >= c->threads) {
            if (n_range++ == 0)
                snprintf(range_ex, sizeof range_ex, "'%s'", l->text);
            continue;
        }
        int want = block * c->threads + thread;
        if (tid != want && n_wrong++ == 0)
            snprintf(wrong_ex, sizeof wrong_ex,
                     "'%s': with %d threads per block, thread %d of block %d has global id %d", l->text,
                     c->threads, thread, block, want);
        if (tid >= 0 && tid < total)
            seen[tid]++;
    }
    kit_examples dup = {0, ""}, missing = {0, ""};
    for (int t = 0; t < total; t++) {
        if (seen[t] > 1)
            kit_example_add(&dup, EXAMPLES, t);
        else if (seen[t] == 0)
            kit_example_add(&missing, EXAMPLES, t);
    }
    free(seen);

    if (n_wrong)
        kit_fail(ctx, "%d of the %d lines have a tid that does not match their block and thread, e.g. %s", n_wrong,
                 before->n, wrong_ex);
    if (n_range)
        kit_fail(ctx,
                 "%d line%s a block or thread outside the launch of %d blocks x %d threads, e.g. %s "
                 "(blocks 0..%d, threads 0..%d)",
                 n_range, n_range == 1 ? " names" : "s name", c->blocks, c->threads, range_ex, c->blocks - 1, c->threads - 1);
    if (dup.count)
        kit_fail(ctx, "%d tid%s printed more than once: %s%s (every thread must get its own id)", dup.count,
                 dup.count == 1 ? " was" : "s were", dup.list, dup.count > EXAMPLES ? ", ..." : "");
    if (missing.count)
        kit_fail(ctx, "%d of the %d tids 0..%d were never printed: %s%s", missing.count, total, total - 1,
                 missing.list, missing.count > EXAMPLES ? ", ..." : "");
}

/* The kernels the trace attributes to print_tids: 1 when one of them has
 * `want` threads in all, 0 when none has (their shapes in `seen`), -1 when
 * the trace is not available (the policy already noted why). */
static int launched_threads(const kit_blobfile *out, long long want, int *n_kernels, char *seen, size_t cap)
{
    kit_launch *ks = kit_call_launches_all(out, "print_tids", n_kernels);
    int found = 0;
    seen[0] = '\0';
    for (int i = 0; i < *n_kernels; i++) {
        const int *g = ks[i].grid, *b = ks[i].block;
        found |= kit_launch_threads(&ks[i]) == want;
        size_t len = strlen(seen);
        if (i < EXAMPLES)
            snprintf(seen + len, cap - len, "%s<<<(%d,%d,%d), (%d,%d,%d)>>>", len ? ", " : "", g[0], g[1], g[2],
                     b[0], b[1], b[2]);
    }
    free(ks);
    return *n_kernels < 0 ? -1 : found;
}

/* No line of the form before the mark: why. */
static void no_lines(kit_check_ctx *ctx, const lab01_case *c, const kit_lines *before, const kit_lines *after)
{
    if (after->n > 0)
        kit_fail(ctx,
                 "no line was visible when print_tids() returned: %d line%s of the form '%s' appeared only "
                 "later, when the kit waited for the GPU.  A kernel launch returns before the kernel has "
                 "run, and device printf output is shown only at a synchronisation point",
                 after->n, after->n == 1 ? "" : "s", LAB01_LINE_FORMAT);
    else if (before->other > 0)
        kit_fail(ctx, "print_tids() printed %d line%s but none of the form '%s', e.g. '%s'", before->other,
                 before->other == 1 ? "" : "s", LAB01_LINE_FORMAT, before->other_example);
    else
        kit_fail(ctx, "print_tids() printed nothing: expected %d lines '%s', one per thread", c->blocks * c->threads,
                 LAB01_LINE_FORMAT);
}

static void check_tids(kit_check_ctx *ctx, const lab01_case *c, const int32_t *launch)
{
    if (launch[0] != c->blocks || launch[1] != c->threads) {
        kit_fail(ctx, "the run used blocks=%d threads=%d, the case asks for %d x %d", launch[0], launch[1], c->blocks,
                 c->threads);
        return;
    }
    int total = c->blocks * c->threads;
    const char *text = ctx->stdout_text ? ctx->stdout_text : "";
    size_t len = ctx->stdout_text ? ctx->stdout_len : 0, before_len = kit_stdout_before_mark(ctx);
    kit_lines before, after;
    kit_lines_parse(text, before_len, WORDS, &before);
    kit_lines_parse(text + before_len, len - before_len, WORDS, &after);

    if (before.n == 0) {
        no_lines(ctx, c, &before, &after);
    } else {
        judge_lines(ctx, c, &before);
        if (ctx->failed && before.n != total)
            kit_detail(ctx, "%d lines of the form '%s' were printed, %d expected (%d blocks x %d threads)", before.n,
                       LAB01_LINE_FORMAT, total, c->blocks, c->threads);
        if (ctx->failed && after.n > 0)
            kit_detail(ctx, "%d more line%s appeared only after print_tids() had returned", after.n,
                       after.n == 1 ? "" : "s");
        if (ctx->failed && before.other > 0)
            kit_detail(ctx, "%d other line%s ignored, e.g. '%s'", before.other, before.other == 1 ? " was" : "s were",
                       before.other_example);
    }

    int n_kernels;
    char shapes[320];
    int r = launched_threads(ctx->out, total, &n_kernels, shapes, sizeof shapes);
    if (r == 0 && n_kernels > 0) /* no kernel at all: the policy has said so */
        kit_fail(ctx,
                 "print_tids() launched no kernel of %d blocks x %d threads (it launched %s): the lines must be "
                 "printed by the threads of that launch",
                 c->blocks, c->threads, shapes);
    kit_lines_free(&before);
    kit_lines_free(&after);
}

/* ---------------------------------------------------------- device query */

static int runtime_truth(device_info *t, char *err, size_t errlen)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        return -1;
    }
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", p.name);
    t->major = p.major;
    t->minor = p.minor;
    t->multiprocessors = p.multiProcessorCount;
    t->max_threads_per_block = p.maxThreadsPerBlock;
    t->shared_mem_per_block = p.sharedMemPerBlock;
    return 0;
}

lab01_truth_fn lab01_device_truth = runtime_truth;

static int truth(void *ref, char *err, size_t errlen) { return lab01_device_truth(ref, err, errlen); }

/* ---------------------------------------------------------- the declaration */

static int parse(const kit_params *p, uint64_t seed, void *c, char *err, size_t errlen)
{
    (void)seed; /* no input data */
    return lab01_parse(p, c, err, errlen);
}

/* The lines once the launch is there. */
static void judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab01_case *c = data;
    if (c->do_tids && ok)
        check_tids(ctx, c, outs[0].got);
}

/* print_tids' launch, when the case calls it; then, whatever the lines
 * were, query_device's fields against the CUDA runtime's answer for device
 * 0 in the checker's own process (shared memory: a size_t, recorded as i64). */
#define FIELD(name, type, what, member) {name, type, what, offsetof(device_info, member)}
const kit_check KIT_CHECK = {
    sizeof(lab01_case), parse,
    .out = {{LAB01_OUT_LAUNCH, KIT_T_I32, 2, .when = KIT_WHEN(lab01_case, do_tids, 1)}}, .judge = judge,
    .fields = {"query_device", "the CUDA runtime", truth, sizeof(device_info),
               "the checker could not ask the CUDA runtime about device 0 (%s): a problem of the machine that "
               "grades, not of your code",
               {FIELD(LAB01_OUT_NAME, KIT_T_TEXT, "name", name),
                FIELD(LAB01_OUT_MAJOR, KIT_T_I32, "major (compute capability)", major),
                FIELD(LAB01_OUT_MINOR, KIT_T_I32, "minor (compute capability)", minor),
                FIELD(LAB01_OUT_MULTIPROCESSORS, KIT_T_I32, "multiprocessors", multiprocessors),
                FIELD(LAB01_OUT_MAX_THREADS_PER_BLOCK, KIT_T_I32, "max_threads_per_block", max_threads_per_block),
                FIELD(LAB01_OUT_SHARED_MEM_PER_BLOCK, KIT_T_I64, "shared_mem_per_block", shared_mem_per_block)},
               KIT_WHEN(lab01_case, do_query, 1)}};
