/* check_launch_lines.c - the lines a call printed, one per thread of its
 * one-dimensional launch (kit_check.lines, kit/check_driver.h): lab01's
 * print_tids.  The lines come from the runner's stdout, before the kit's
 * mark (kit_stdout_before_mark: what the call made visible before it
 * returned), of the declared form (kit_lines_parse: block, thread, id).
 * The runner's record of the launch it asked for, where declared, first.
 * Each mistake a student can make is said in the declaration's nouns: ids
 * wrong for their block and thread, blocks or threads outside the launch,
 * ids printed twice or never, no line in time, no kernel of that launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_launch_lines.h"

#define EXAMPLES 4 /* examples quoted per kind of mistake */

enum { BLOCK, THREAD, ID }; /* a line's numbers, in the words' order */

/* The declaration's nouns and the launch's shape. */
typedef struct {
    const char *call, *format;
    char id[32]; /* the third word: "tid" */
    int blocks, threads;
} launch_lines;

/* Lines in range but with a wrong id, and lines out of range: counted, the
 * first of each quoted; every id in range counted in seen. */
static void tally(kit_check_ctx *ctx, const launch_lines *ll, const kit_lines *before, int *seen)
{
    int n_range = 0, n_wrong = 0, total = ll->blocks * ll->threads;
    char range_ex[160] = "", wrong_ex[200] = "";
    for (int i = 0; i < before->n; i++) {
        const kit_line *l = &before->lines[i];
        int block = l->v[BLOCK], thread = l->v[THREAD], id = l->v[ID];
        if (block < 0 || block >= ll->blocks || thread < 0 || thread >= ll->threads) {
            if (n_range++ == 0)
                snprintf(range_ex, sizeof range_ex, "'%s'", l->text);
            continue;
        }
        int want = block * ll->threads + thread;
        if (id != want && n_wrong++ == 0)
            snprintf(wrong_ex, sizeof wrong_ex,
                     "'%s': with %d threads per block, thread %d of block %d has global id %d", l->text,
                     ll->threads, thread, block, want);
        if (id >= 0 && id < total)
            seen[id]++;
    }
    if (n_wrong)
        kit_fail(ctx, "%d of the %d lines have a %s that does not match their block and thread, e.g. %s", n_wrong,
                 before->n, ll->id, wrong_ex);
    if (n_range)
        kit_fail(ctx,
                 "%d line%s a block or thread outside the launch of %d blocks x %d threads, e.g. %s "
                 "(blocks 0..%d, threads 0..%d)",
                 n_range, n_range == 1 ? " names" : "s name", ll->blocks, ll->threads, range_ex, ll->blocks - 1,
                 ll->threads - 1);
}

/* Every id of the launch exactly once. */
static void judge_lines(kit_check_ctx *ctx, const launch_lines *ll, const kit_lines *before)
{
    int total = ll->blocks * ll->threads;
    int *seen = calloc((size_t)total, sizeof *seen);
    if (!seen) {
        kit_fail(ctx, "checker: out of memory");
        return;
    }
    tally(ctx, ll, before, seen);
    kit_examples dup = {0, ""}, missing = {0, ""};
    for (int t = 0; t < total; t++) {
        if (seen[t] > 1)
            kit_example_add(&dup, EXAMPLES, t);
        else if (seen[t] == 0)
            kit_example_add(&missing, EXAMPLES, t);
    }
    free(seen);
    if (dup.count)
        kit_fail(ctx, "%d %s%s printed more than once: %s%s (every thread must get its own id)", dup.count, ll->id,
                 dup.count == 1 ? " was" : "s were", dup.list, dup.count > EXAMPLES ? ", ..." : "");
    if (missing.count)
        kit_fail(ctx, "%d of the %d %ss 0..%d were never printed: %s%s", missing.count, total, ll->id, total - 1,
                 missing.list, missing.count > EXAMPLES ? ", ..." : "");
}

/* No line of the form before the mark: why. */
static void no_lines(kit_check_ctx *ctx, const launch_lines *ll, const kit_lines *before, const kit_lines *after)
{
    if (after->n > 0)
        kit_fail(ctx,
                 "no line was visible when %s() returned: %d line%s of the form '%s' appeared only "
                 "later, when the kit waited for the GPU.  A kernel launch returns before the kernel has "
                 "run, and device printf output is shown only at a synchronisation point",
                 ll->call, after->n, after->n == 1 ? "" : "s", ll->format);
    else if (before->other > 0)
        kit_fail(ctx, "%s() printed %d line%s but none of the form '%s', e.g. '%s'", ll->call, before->other,
                 before->other == 1 ? "" : "s", ll->format, before->other_example);
    else
        kit_fail(ctx, "%s() printed nothing: expected %d lines '%s', one per thread", ll->call,
                 ll->blocks * ll->threads, ll->format);
}

/* The lines judged, then what else explains a failure. */
static void judge_stdout(kit_check_ctx *ctx, const launch_lines *ll, const char *words)
{
    const char *text = ctx->stdout_text ? ctx->stdout_text : "";
    size_t len = ctx->stdout_text ? ctx->stdout_len : 0, before_len = kit_stdout_before_mark(ctx);
    kit_lines before, after;
    kit_lines_parse(text, before_len, words, &before);
    kit_lines_parse(text + before_len, len - before_len, words, &after);
    if (before.n == 0) {
        no_lines(ctx, ll, &before, &after);
    } else {
        int total = ll->blocks * ll->threads;
        judge_lines(ctx, ll, &before);
        if (ctx->failed && before.n != total)
            kit_detail(ctx, "%d lines of the form '%s' were printed, %d expected (%d blocks x %d threads)", before.n,
                       ll->format, total, ll->blocks, ll->threads);
        if (ctx->failed && after.n > 0)
            kit_detail(ctx, "%d more line%s appeared only after %s() had returned", after.n, after.n == 1 ? "" : "s",
                       ll->call);
        if (ctx->failed && before.other > 0)
            kit_detail(ctx, "%d other line%s ignored, e.g. '%s'", before.other, before.other == 1 ? " was" : "s were",
                       before.other_example);
    }
    kit_lines_free(&before);
    kit_lines_free(&after);
}

/* The trace: some kernel of the call has blocks * threads threads in all
 * (their shapes quoted when none has).  No trace, no kernel at all: the
 * device-execution policy has said why. */
static void judge_launch(kit_check_ctx *ctx, const launch_lines *ll)
{
    int n;
    kit_launch *ks = kit_call_launches_all(ctx->out, ll->call, &n);
    int found = 0;
    char shapes[320] = "";
    for (int i = 0; i < n; i++) {
        const int *g = ks[i].grid, *b = ks[i].block;
        size_t len = strlen(shapes);
        found |= kit_launch_threads(&ks[i]) == (long long)ll->blocks * ll->threads;
        if (i < EXAMPLES)
            snprintf(shapes + len, sizeof shapes - len, "%s<<<(%d,%d,%d), (%d,%d,%d)>>>", len ? ", " : "", g[0],
                     g[1], g[2], b[0], b[1], b[2]);
    }
    free(ks);
    if (n > 0 && !found)
        kit_fail(ctx,
                 "%s() launched no kernel of %d blocks x %d threads (it launched %s): the lines must be "
                 "printed by the threads of that launch",
                 ll->call, ll->blocks, ll->threads, shapes);
}

/* The launch the runner recorded (lines.launch) is the case's: 1 when it is. */
static int launch_recorded(kit_check_ctx *ctx, const char *name, const launch_lines *ll)
{
    const int32_t *launch = kit_expect_array(ctx, name, KIT_T_I32, 2, NULL);
    if (launch && (launch[0] != ll->blocks || launch[1] != ll->threads))
        kit_fail(ctx, "the run used blocks=%d threads=%d, the case asks for %d x %d", launch[0], launch[1], ll->blocks,
                 ll->threads);
    return launch && !ctx->failed;
}

void kit_check_launch_lines(kit_check_ctx *ctx, const kit_check *lab, const void *data)
{
    launch_lines ll = {lab->lines.call, lab->lines.format, "", kit_field_int(data, lab->lines.blocks_of),
                       kit_field_int(data, lab->lines.threads_of)};
    if (lab->lines.launch && !launch_recorded(ctx, lab->lines.launch, &ll))
        return;
    const char *id = lab->lines.words;
    for (int k = 0; k < ID && id; k++) { /* the third word */
        id = strchr(id, ' ');
        id = id ? id + 1 : NULL;
    }
    snprintf(ll.id, sizeof ll.id, "%.*s", id ? (int)strcspn(id, " ") : 0, id ? id : "");
    judge_stdout(ctx, &ll, lab->lines.words);
    judge_launch(ctx, &ll);
}
