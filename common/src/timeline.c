/* timeline.c - a student call's timeline from its CUPTI records (see
 * kit/timeline.h): busy times as unions of intervals, their intersection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/timeline.h"
#include "kit/util.h"

typedef struct {
    unsigned long long s, e;
} span;

static int by_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Sorts and merges the intervals in place; returns how many remain. */
static int merge_spans(span *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_start);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m && v[i].s <= v[m - 1].e) {
            if (v[i].e > v[m - 1].e)
                v[m - 1].e = v[i].e;
        } else
            v[m++] = v[i];
    }
    return m;
}

static unsigned long long total(const span *v, int n)
{
    unsigned long long t = 0;
    for (int i = 0; i < n; i++)
        t += v[i].e - v[i].s;
    return t;
}

/* |A ∩ B| of two merged, sorted interval lists. */
static unsigned long long intersect(const span *a, int na, const span *b, int nb)
{
    unsigned long long t = 0;
    for (int i = 0, j = 0; i < na && j < nb;) {
        unsigned long long s = a[i].s > b[j].s ? a[i].s : b[j].s, e = a[i].e < b[j].e ? a[i].e : b[j].e;
        if (e > s)
            t += e - s;
        if (a[i].e < b[j].e)
            i++;
        else
            j++;
    }
    return t;
}

/* The kernels' intervals into K and their streams into t. */
static int kernel_spans(const kit_launch *ks, int nk, span *K, kit_timeline *t)
{
    unsigned seen[64];
    int mk = 0;
    for (int i = 0; i < nk && i < KIT_TIMELINE_MAX; i++) {
        if (!ks[i].end)
            continue;
        K[mk++] = (span){ks[i].start, ks[i].end};
        int known = 0;
        for (int s = 0; s < t->streams && s < 64; s++)
            known |= seen[s] == ks[i].stream;
        if (!known && t->streams < 64)
            seen[t->streams++] = ks[i].stream;
    }
    return mk;
}

/* The host<->device copies' intervals into C, their counts, bytes and time into t. */
static int copy_spans(const kit_copy *cs, int nc, span *C, kit_timeline *t)
{
    int mc = 0;
    for (int i = 0; i < nc && i < KIT_TIMELINE_MAX; i++)
        if (cs[i].kind == KIT_COPY_H2D || cs[i].kind == KIT_COPY_D2H) {
            int k = cs[i].kind == KIT_COPY_D2H;
            C[mc++] = (span){cs[i].start, cs[i].end};
            t->h2d += !k, t->d2h += k;
            t->bytes[k] += cs[i].bytes, t->ns[k] += cs[i].end - cs[i].start;
        }
    return mc;
}

int kit_call_timeline(const kit_blobfile *out, const char *call, kit_timeline *t)
{
    kit_launch *ks = kit_xmalloc(KIT_TIMELINE_MAX * sizeof *ks, "the timeline");
    kit_copy *cs = kit_xmalloc(KIT_TIMELINE_MAX * sizeof *cs, "the timeline");
    span *K = kit_xmalloc(KIT_TIMELINE_MAX * sizeof *K, "the timeline");
    span *C = kit_xmalloc(KIT_TIMELINE_MAX * sizeof *C, "the timeline");
    int nk = kit_call_launches(out, call, ks, KIT_TIMELINE_MAX), nc = kit_call_copies(out, call, cs, KIT_TIMELINE_MAX);
    memset(t, 0, sizeof *t);
    if (nk >= 0 && nc >= 0) {
        t->launches = nk;
        int mk = t->timed_launches = kernel_spans(ks, nk, K, t), mc = copy_spans(cs, nc, C, t);
        mk = merge_spans(K, mk), mc = merge_spans(C, mc);
        t->kernel_ms = total(K, mk) / 1e6, t->copy_ms = total(C, mc) / 1e6, t->both_ms = intersect(K, mk, C, mc) / 1e6;
    }
    free(ks), free(cs), free(K), free(C);
    return nk < 0 || nc < 0 ? -1 : 0;
}

void kit_check_overlap(kit_check_ctx *ctx, const char *call, double min_fraction)
{
    kit_timeline t;
    if (kit_call_timeline(ctx->out, call, &t) != 0) {
        kit_fail(ctx, "the overlap of copies and kernels cannot be measured: the CUPTI trace of this run is not "
                      "available");
        return;
    }
    if (!t.timed_launches || !(t.h2d + t.d2h)) {
        kit_fail(ctx, "no overlap to measure: the call ran %d kernel(s) and %d host<->device copies; the data must "
                      "be copied in and out (cudaMemcpyAsync) around your kernels",
                 t.timed_launches, t.h2d + t.d2h);
        return;
    }
    double frac = t.both_ms / (t.kernel_ms < t.copy_ms ? t.kernel_ms : t.copy_ms);
    char line[400];
    snprintf(line, sizeof line, "timeline: copies busy %.3f ms (%d in, %d out), kernels busy %.3f ms (%d launches on "
             "%d stream%s), both at once %.3f ms: %.0f%% of the shorter",
             t.copy_ms, t.h2d, t.d2h, t.kernel_ms, t.launches, t.streams, t.streams == 1 ? "" : "s", t.both_ms,
             100 * frac);
    if (frac < min_fraction) {
        kit_fail(ctx, "copies and kernels overlap for only %.0f%% of the shorter of the two, %.0f%% needed: issue "
                      "each chunk's copies and kernel on its own stream, asynchronously, and synchronise once at "
                      "the end",
                 100 * frac, 100 * min_fraction);
        kit_detail(ctx, "%s", line);
    } else {
        kit_detail(ctx, "note: %s (needed %.0f%%)", line, 100 * min_fraction);
    }
}

void kit_check_copies(kit_check_ctx *ctx, const char *call, const unsigned long long want[2], const char *what,
                      const char *too_few, const char *note)
{
    kit_timeline t;
    if (kit_call_timeline(ctx->out, call, &t) != 0)
        return;
    if (t.bytes[0] < want[0] || t.bytes[1] < want[1])
        kit_fail(ctx, too_few, what, t.bytes[0], t.bytes[1], want[0], want[1]);
    else
        kit_detail(ctx, note, what, t.ns[0] ? t.bytes[0] / (double)t.ns[0] : 0.0,
                   t.ns[1] ? t.bytes[1] / (double)t.ns[1] : 0.0);
}
