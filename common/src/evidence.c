/* evidence.c - was the result computed by the student's own kernels?
 *
 * "A kernel of its own ran" (kit_apply_policy) is not enough: a one-thread
 * kernel next to a host computation passes it.  The rules here hold the
 * trace of each call against the input lab_check declared for it
 * (kit_call_input); a lab's manifest says which rules apply (`evidence`):
 *
 *  host-copy    The host cannot compute on data it does not have: the bytes
 *               that can reach the host inside the call (device-to-host
 *               copies, copies into managed memory, managed memory migrated to
 *               the host, pinned host memory allocated or registered, which
 *               kernels write directly) stay within a share of the
 *               input the call was handed on the device (manifest
 *               host_copy_share) plus 8 bytes per block the student's kernels
 *               launched (one partial result per block, finished on the host)
 *               plus 16 bytes (scalar results).  The inputs, or a large part
 *               of them, do not fit; on tiny inputs (fewer bytes than that
 *               allowance) a host path is not seen.
 *  kernel-time  A kernel cannot read data faster than the GPU's memory: for an
 *               input of at least twice the L2 cache (so most of it comes from
 *               DRAM), the student's own kernels must be busy (the union of
 *               their intervals) at least as long as reading the input once
 *               takes at twice the device's peak bandwidth (recorded by the
 *               runner in trace.device).  Few threads with grid-stride loops,
 *               several launches, streams: all read the input, all pass.
 *
 * What these rules do not prove is in README.md ("What the device-execution
 * check proves").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/protocol.h"

void kit_call_input(kit_check_ctx *ctx, const char *call, double bytes, int on_device)
{
    if (ctx->n_inputs >= (int)(sizeof ctx->inputs / sizeof ctx->inputs[0]))
        return;
    snprintf(ctx->inputs[ctx->n_inputs].call, sizeof ctx->inputs[0].call, "%s", call);
    ctx->inputs[ctx->n_inputs].bytes = bytes;
    ctx->inputs[ctx->n_inputs].on_device = on_device;
    ctx->n_inputs++;
}

int kit_evidence_parse(const char *list, kit_policy *p, char *err, size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    p->host_copy = p->kernel_time = 0;
    for (char *w = strtok(buf, " ,\t"); w; w = strtok(NULL, " ,\t")) {
        if (!strcmp(w, "host-copy"))
            p->host_copy = 1;
        else if (!strcmp(w, "kernel-time"))
            p->kernel_time = 1;
        else if (strcmp(w, "none") != 0) {
            snprintf(err, errlen, "evidence '%s' unknown (allowed: host-copy, kernel-time, none)", w);
            return -1;
        }
    }
    return 0;
}

static void human_bytes(double b, char *out, size_t len)
{
    if (b >= 1e9)
        snprintf(out, len, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(out, len, "%.1f MB", b / 1e6);
    else if (b >= 1e3)
        snprintf(out, len, "%.1f kB", b / 1e3);
    else
        snprintf(out, len, "%.0f bytes", b);
}

/* trace.device: "peak_gbs=<GB/s> l2_bytes=<bytes>"; 0 when unknown. */
static void device_info(const kit_blobfile *out, double *peak_gbs, double *l2_bytes)
{
    char *t = kit_blob_text(out, KIT_KEY_TRACE_DEVICE);
    *peak_gbs = *l2_bytes = 0;
    if (t && sscanf(t, "peak_gbs=%lf l2_bytes=%lf", peak_gbs, l2_bytes) != 2)
        *peak_gbs = *l2_bytes = 0;
    free(t);
}

static int by_start(const void *a, const void *b)
{
    const kit_launch *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Milliseconds in which at least one of the student's own kernels ran
 * (overlapping kernels on several streams count once). */
static double own_busy_ms(kit_launch *ks, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!kit_kernel_library(&ks[i]))
            ks[m++] = ks[i];
    double ms = 0;
    int timed = 1;
    for (int i = 0; i < m; i++)
        if (!ks[i].start && !ks[i].end)
            timed = 0;
    if (!timed) { /* a trace without timestamps: durations */
        for (int i = 0; i < m; i++)
            ms += ks[i].ms;
        return ms;
    }
    qsort(ks, (size_t)m, sizeof *ks, by_start);
    unsigned long long s = 0, e = 0, total = 0;
    for (int i = 0; i < m; i++) {
        if (i == 0 || ks[i].start > e) {
            total += e - s;
            s = ks[i].start, e = ks[i].end;
        } else if (ks[i].end > e)
            e = ks[i].end;
    }
    if (m)
        total += e - s;
    return total / 1e6;
}

/* Blocks launched by the student's own kernels in the call. */
static double own_blocks(const kit_blobfile *out, const char *call)
{
    int n;
    kit_launch *ks = kit_call_launches_all(out, call, &n);
    double blocks = 0;
    for (int i = 0; i < n; i++)
        if (!kit_kernel_library(&ks[i]))
            blocks += (double)ks[i].grid[0] * ks[i].grid[1] * ks[i].grid[2];
    free(ks);
    return blocks;
}

#define SCALAR_BYTES 16     /* a call's scalar results */
#define PER_BLOCK_BYTES 8   /* one partial result per block launched */

static void check_host_copy(kit_check_ctx *ctx, const kit_policy *p, const char *call, double input)
{
    int n = kit_call_copies(ctx->out, call, NULL, 0);
    if (n < 0)
        return;
    kit_copy *cs = calloc((size_t)n + 1, sizeof *cs);
    if (!cs)
        return;
    kit_call_copies(ctx->out, call, cs, n);
    double to_host = 0, pinned = (double)kit_call_pinned_bytes(ctx->out, call);
    int copies = 0;
    for (int i = 0; i < n; i++)
        if (cs[i].kind == KIT_COPY_D2H || (cs[i].kind == KIT_COPY_D2D && cs[i].dst_host))
            to_host += (double)cs[i].bytes, copies++;
    free(cs);
    to_host += pinned;
    double blocks = own_blocks(ctx->out, call);
    double allowed = p->host_copy_share * input + PER_BLOCK_BYTES * blocks + SCALAR_BYTES;
    if (to_host <= allowed)
        return;
    char got[32], in[32], ok[32], pin[128] = "";
    human_bytes(to_host, got, sizeof got);
    human_bytes(input, in, sizeof in);
    human_bytes(allowed, ok, sizeof ok);
    if (pinned > 0) {
        char pb[32];
        human_bytes(pinned, pb, sizeof pb);
        snprintf(pin, sizeof pin, ", %s of it pinned or managed memory the kernels can write and the host can read", pb);
    }
    kit_fail(ctx,
             "%s() copied %s of device data to host memory (%d cop%s%s) while its inputs on the GPU are %s; at most "
             "%s may go to the host (%.0f%% of the inputs, plus one partial result per block your kernels launched): "
             "the result must be computed by your kernels on the GPU, not on the host",
             call, got, copies, copies == 1 ? "y" : "ies", pin, in, ok, 100 * p->host_copy_share);
}

static void check_kernel_time(kit_check_ctx *ctx, const char *call, double input)
{
    double peak_gbs, l2;
    device_info(ctx->out, &peak_gbs, &l2);
    if (peak_gbs <= 0 || l2 <= 0 || input < 2 * l2)
        return; /* small inputs may sit in the L2 cache: no floor that holds */
    int n;
    kit_launch *ks = kit_call_launches_all(ctx->out, call, &n);
    if (!ks)
        return;
    double busy = own_busy_ms(ks, n), floor_ms = input / (2 * peak_gbs * 1e9) * 1e3;
    free(ks);
    if (busy >= floor_ms)
        return;
    char in[32];
    human_bytes(input, in, sizeof in);
    kit_fail(ctx,
             "%s(): your kernels ran %.4f ms in all, but reading its %s of input once takes at least %.4f ms even at "
             "twice this GPU's peak memory bandwidth (%.0f GB/s): your kernels cannot have done the work, the result "
             "was computed elsewhere",
             call, busy, in, floor_ms, peak_gbs);
}

static void check_call(kit_check_ctx *ctx, const kit_policy *p, const char *call, double bytes, int on_device)
{
    if (p->host_copy && on_device)
        check_host_copy(ctx, p, call, bytes);
    if (p->kernel_time)
        check_kernel_time(ctx, call, bytes);
}

void kit_apply_evidence(kit_check_ctx *ctx, const kit_policy *p)
{
    char *status = kit_blob_text(ctx->out, KIT_KEY_TRACE_STATUS);
    int ok = status && !strcmp(status, "ok");
    free(status);
    if (!ok) /* the policy has noted why there is no trace */
        return;
    char *calls = kit_blob_text(ctx->out, KIT_KEY_TRACE_CALLS);
    for (int i = 0; i < ctx->n_inputs; i++) {
        const char *call = ctx->inputs[i].call;
        double bytes = ctx->inputs[i].bytes;
        if (bytes <= 0)
            continue;
        if (strcmp(call, "*") != 0) {
            check_call(ctx, p, call, bytes, ctx->inputs[i].on_device);
            continue;
        }
        /* "*": every call of the run, each name once */
        char seen[1024] = "|";
        for (const char *q = calls; q && *q;) {
            int idx;
            char name[128], key[132];
            if (sscanf(q, "%d\t%127[^\t\n]", &idx, name) == 2) {
                snprintf(key, sizeof key, "|%s|", name);
                if (!strstr(seen, key) && strlen(seen) + strlen(name) + 2 < sizeof seen) {
                    snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s|", name);
                    check_call(ctx, p, name, bytes, ctx->inputs[i].on_device);
                }
            }
            q = strchr(q, '\n');
            q = q ? q + 1 : NULL;
        }
    }
    free(calls);
}
