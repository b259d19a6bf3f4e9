/* timing_verdict.c - what the checker says about when a call's work ended
 * and about the times it was given (kit_judge_timing, checker.h).
 *
 *  - A call that returned while its work went on where the legacy default
 *    stream does not wait (trace.left: a non-blocking stream, a stream it
 *    destroyed) gets a note: the kit waited for it before reading results,
 *    a caller would not have.  Its values are judged as they are.
 *  - Timed calls that did the same (timed.left) were timed until their work
 *    ended (timing.cu): a note says so; calls whose work the kit could not
 *    follow have no known time, and the run earns no performance credit.
 *  - The plausibility check (plausible.h) on the student's time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/plausible.h"
#include "kit/protocol.h"

static void note_calls_left(kit_check_ctx *ctx)
{
    char *text = kit_blob_text(ctx->out, KIT_KEY_TRACE_LEFT);
    char seen[1024] = "|";
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char name[128], what[256], key[132];
        int idx;
        if (sscanf(line, "%d\t%127[^\t]\t%255[^\n]", &idx, name, what) != 3)
            continue;
        snprintf(key, sizeof key, "|%s|", name);
        if (strstr(seen, key) || strlen(seen) + strlen(key) >= sizeof seen)
            continue;
        strcat(seen, key + 1);
        kit_detail(ctx,
                   "note: %s() returned while %s was still running: the kit waited for all of the call's work before "
                   "reading its results, but a caller reading them right after the call would get unfinished ones - "
                   "wait for that work before returning (cudaStreamSynchronize, cudaEventSynchronize or "
                   "cudaDeviceSynchronize)",
                   name, what);
    }
    free(text);
}

static void judge_timed_left(kit_check_ctx *ctx)
{
    char *text = kit_blob_text(ctx->out, KIT_KEY_TIMED_LEFT);
    char what[256] = "work";
    int calls = 0, total = 0, lost = 0;
    double late = 0;
    if (text && sscanf(text, "%255[^\t]\t%d\t%d\t%lf\t%d", what, &calls, &total, &late, &lost) >= 4) {
        if (calls > 0)
            kit_detail(ctx,
                       "note: %d of %d timed calls returned while %s was still running (up to %.3f ms more): each was "
                       "timed until all its work had finished",
                       calls, total, what, late);
        if (lost > 0)
            kit_fail(ctx,
                     "timing refused: %d timed call%s left work running on more streams than the kit can follow, so "
                     "%s time is not known: no performance credit (wait for your streams before returning)",
                     lost, lost == 1 ? "" : "s", lost == 1 ? "its" : "their");
    }
    free(text);
}

void kit_plausible_read(const kit_blobfile *b, kit_plausible_in *in)
{
    in->ms = kit_blob_f64(b, KIT_KEY_STUDENT_MS);
    in->bytes = kit_blob_f64(b, KIT_KEY_TIMED_BYTES);
    in->flops = kit_blob_f64(b, KIT_KEY_TIMED_FLOPS);
    in->copy_gbs = kit_blob_f64(b, KIT_KEY_DEVICE_COPY_GBS);
    in->dram_gbs = kit_blob_f64(b, KIT_KEY_DEVICE_DRAM_GBS);
    in->peak_gflops = kit_blob_f64(b, KIT_KEY_DEVICE_PEAK_GFLOPS);
}

void kit_judge_timing(kit_check_ctx *ctx)
{
    note_calls_left(ctx);
    uint64_t n = 0;
    if (!kit_blob_get(ctx->out, KIT_KEY_STUDENT_MS, KIT_T_F64, &n))
        return; /* not a timing run */
    judge_timed_left(ctx);
    kit_plausible_in in;
    kit_plausible_read(ctx->out, &in);
    char why[600];
    if (kit_timing_implausible(&in, why, sizeof why))
        kit_fail(ctx, "%s", why);
}
