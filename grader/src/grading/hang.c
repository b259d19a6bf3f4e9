/* hang.c - a student call's time limit, and a call that did not return
 * (engine_int.h; the runner's side is kit/watchdog.h).  Uses runs.c only.
 *
 * The limit of one call comes from what its case needs on this GPU: the
 * rubric's call_limit (a floor: 2 s by default), or CALL_MARGIN times what
 * the kit's baseline needs for the case, when that is more.  The baseline's
 * time is measured only when a call reaches its limit (most cases need
 * milliseconds; measuring every case would cost every grading time), once
 * per case and grading: if the case needs more than the floor, the call was
 * not hung but cut short, and runs again alone with the larger limit.
 * While the GPU is shared a call is ended only at CALL_GRACE x its limit,
 * and one ended there is not judged yet: it runs again with the GPU alone
 * and the same limit.  Beside fifty student checks and their sanitizer
 * sessions on an H100, a right dot product taking 118 ms a call did not
 * return within 8 s, and was judged hung: a busy server must not cost a
 * slow but correct submission its points.  A real hang costs one limit
 * more, alone.
 *
 * A call judged hung is recorded (g->hung): every later run of the grading
 * passes it to the runner in --skip-calls, so the other cases and tests
 * that call it fail at once with one line pointing here instead of each
 * costing a limit.  The kit also says where it waited: the kernels the call
 * launched (the runner's trace of the call's launches) and, the first time
 * and when the grading built the barrier-checked runner, what the kit's
 * barrier check says on the same case (a __syncthreads() that not every
 * thread reaches: kit/barrier_check.cuh).  The line a spinning kernel's
 * warps stand on is not said: the CUDA driver's user-triggered GPU dump
 * (read with cuda-gdb) named it in a plain program on the H100, but the
 * driver made no dump pipe for a runner whose kernels CUPTI traces, with
 * the sandbox or without. */
#include "grading/engine_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/blob.h"
#include "kit/protocol.h"
#include "kit/util.h"

#define BARRIER_LINES 3    /* the barrier check's findings shown at most */

/* ------------------------------------------------------------- limits */

static const case_baseline *baseline_of(const grading *g, const char *params)
{
    for (int i = 0; i < g->n_baselines; i++)
        if (!strcmp(g->baselines[i].params, params))
            return &g->baselines[i];
    return NULL;
}

double call_limit(const grading *g, const char *params)
{
    double floor = g->e->rub.call_limit_s;
    if (g->next_limit > floor)
        return g->next_limit;
    const case_baseline *b = baseline_of(g, params);
    double need = b && b->ms > 0 ? CALL_MARGIN * b->ms / 1000 : 0;
    return need > floor ? need : floor;
}

double call_grace(const grading *g, int alone)
{
    return alone ? 1 : gpu_lock_others(g->e->gpu_uuid) == 0 ? CALL_GRACE_OWN : CALL_GRACE;
}

double sanitizer_call_limit(const rubric_test *t) { return 0.8 * t->timeout_s; }

double run_limit(const rubric_test *t, double limit, double grace)
{
    return t->timeout_s + grace * limit + KIT_CALL_HOLD_MAX_S;
}

int add_call_args(const grading *g, double limit, double grace, call_args *a, const char **argv, int n)
{
    snprintf(a->limit, sizeof a->limit, "%.3f", limit);
    snprintf(a->grace, sizeof a->grace, "%g", grace);
    argv[n++] = "--call-limit", argv[n++] = a->limit;
    argv[n++] = "--call-grace", argv[n++] = a->grace;
    a->skip[0] = 0;
    for (int i = 0; i < g->n_hung; i++)
        fmt_into(a->skip + strlen(a->skip), sizeof a->skip - strlen(a->skip), "%s%s", i ? "," : "", g->hung[i].call);
    if (a->skip[0])
        argv[n++] = "--skip-calls", argv[n++] = a->skip;
    argv[n] = NULL;
    return n;
}

/* -------------------------------------------------------- the record */

/* A file of dir the submission wrote, read as root: never through a link,
 * a regular file, at most len - 1 bytes. */
static int read_small(const char *dir, const char *name, char *buf, size_t len)
{
    char path[2400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    ssize_t k = read(fd, buf, len - 1);
    close(fd);
    buf[k > 0 ? k : 0] = 0;
    return k > 0 ? 0 : -1;
}

int run_hung(const proc_result *r, const char *dir, kit_hang_record *h)
{
    int ended = r->exited && r->exit_code == KIT_EXIT_HUNG;
    char line[512];
    return ended && read_small(dir, KIT_HANG_FILE, line, sizeof line) == 0 && kit_hang_parse(line, h) == 0;
}

/* ------------------------------------------------------ what it needs */

/* The kit's baseline alone on the case (the runner's `baseline` mode), in
 * ms; -1 when there is none or it failed. */
static double measure_baseline(grading *g, const rubric_test *t, const char *params, uint64_t seed)
{
    const engine *e = g->e;
    const workdirs *w = &g->w;
    if (clean_run_dir(e, w) != 0)
        return -1;
    uint64_t nonce = random_nonce();
    char seed_s[32], nonce_s[32], out[2200];
    snprintf(seed_s, sizeof seed_s, "0x%llx", (unsigned long long)seed);
    snprintf(nonce_s, sizeof nonce_s, "%llu", (unsigned long long)nonce);
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    const char *argv[] = {w->runner, "baseline", "--params", params, "--seed", seed_s, "--nonce", nonce_s,
                          "--out", out, NULL};
    sandboxed sb;
    sandboxed_init(&sb, e, t->timeout_s, w->run, w->run, w->run, w->bin, NULL);
    gpu_share(g);
    proc_result r;
    proc_run(argv, &sb.o, &r);
    double ms = -1;
    if (proc_ok(&r)) {
        char err[256];
        kit_blobfile *b = kit_blob_load(out, nonce, 1 << 20, err, sizeof err);
        uint64_t count = 0;
        const double *v = b ? kit_blob_get(b, KIT_KEY_BASELINE_MS, KIT_T_F64, &count) : NULL;
        if (v && count == 1 && *v > 0)
            ms = *v;
        kit_blob_free(b);
    }
    proc_result_free(&r);
    return ms;
}

static const case_baseline *need_of(grading *g, const rubric_test *t, const char *params, uint64_t seed)
{
    const case_baseline *b = baseline_of(g, params);
    if (b || g->n_baselines >= MAX_BASELINES)
        return b;
    case_baseline *n = &g->baselines[g->n_baselines++];
    snprintf(n->params, sizeof n->params, "%s", params);
    n->ms = measure_baseline(g, t, params, seed);
    return n;
}

/* ------------------------------------------------------ where it waits */

/* The kit's barrier check on the case: the barrier-checked runner, run with
 * the same call limit; its findings (kit barrier check: FILE:LINE: ...) into b. */
static void barrier_check(grading *g, const rubric_test *t, const char *params, uint64_t seed, double limit,
                          strbuf *b)
{
    const engine *e = g->e;
    const workdirs *w = &g->w;
    if (g->barriers <= 0 || clean_run_dir(e, w) != 0)
        return;
    char seed_s[32], nonce_s[32], out[2200];
    snprintf(seed_s, sizeof seed_s, "0x%llx", (unsigned long long)seed);
    snprintf(nonce_s, sizeof nonce_s, "%llu", (unsigned long long)random_nonce());
    snprintf(out, sizeof out, "%s/out.bin", w->run);
    const char *argv[24] = {g->barrier_runner, "run", "--no-trace", "--params", params, "--seed", seed_s,
                            "--nonce", nonce_s, "--out", out};
    call_args ca;
    add_call_args(g, limit, 1, &ca, argv, 11);
    sandboxed sb;
    sandboxed_init(&sb, e, run_limit(t, limit, 1), w->run, w->run, w->run, w->bin, NULL);
    gpu_share(g);
    proc_result r;
    proc_run(argv, &sb.o, &r);
    int shown = 0;
    for (const char *p = sb_str(&r.out); p && *p && shown < BARRIER_LINES; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *at = strstr(p, KIT_BARRIER_PREFIX);
        size_t len = strcspn(p, "\n");
        if (!at || at >= p + len)
            continue;
        at += strlen(KIT_BARRIER_PREFIX);
        strbuf one;
        sb_init(&one);
        sb_add_sanitized(&one, at, (size_t)(p + len - at));
        if (!strstr(sb_str(b), sb_str(&one))) {
            sb_printf(b, "  the kit's barrier check: %s\n", sb_str(&one));
            shown++;
        }
        sb_free(&one);
    }
    proc_result_free(&r);
}

/* ------------------------------------------------------------ verdicts */

static void record_hung(grading *g, const rubric_test *t, const char *call, const char *params)
{
    for (int i = 0; i < g->n_hung; i++)
        if (!strcmp(g->hung[i].call, call))
            return;
    if (g->n_hung >= MAX_HUNG)
        return;
    hung_call *h = &g->hung[g->n_hung++];
    snprintf(h->call, sizeof h->call, "%s", call);
    snprintf(h->test, sizeof h->test, "%s", t->name);
    snprintf(h->params, sizeof h->params, "%s", params);
}

int hang_judge(grading *g, const rubric_test *t, const char *params, uint64_t seed, const kit_hang_record *h,
               int shared, int sanitizer, outcome *c)
{
    const case_baseline *need = need_of(g, t, params, seed);
    double needed = need && need->ms > 0 ? CALL_MARGIN * need->ms / 1000 : 0;
    if (!sanitizer && needed > h->limit_s * 1.01) { /* cut short, not hung: again with what it needs */
        g->next_limit = needed;
        return 0;
    }
    if (!sanitizer && shared) { /* other kernels took turns with it: again, alone, before a verdict */
        g->next_limit = h->limit_s;
        return 0;
    }
    c->pass = 0;
    c->hung = 1;
    c->timed_out = 1; /* an all-or-nothing test has failed: its other runs are not made */
    sb_printf(&c->text, "%s() did not return within %.1f s%s (its limit: %.3g s", h->call, h->seconds,
              sanitizer ? " under compute-sanitizer" : "", h->limit_s);
    if (need && need->ms > 0)
        sb_printf(&c->text, "; the kit's baseline needs %.3g ms for this case", need->ms);
    sb_add(&c->text, "): an endless loop, or a wait that never ends (a __syncthreads() that not every thread "
                     "reaches, a spin on a flag that another block sets)\n");
    if (h->kernel[0])
        sb_printf(&c->text, "  the kernels it launched: %s\n", h->kernel);
    if (!sanitizer && !g->n_hung)
        barrier_check(g, t, params, seed, h->limit_s, &c->text);
    if (!sanitizer) {
        record_hung(g, t, h->call, params);
        sb_printf(&c->text, "  (the other runs that call %s() are not made in this grading)\n", h->call);
    }
    return 1;
}

int skipped_call_of(const proc_result *r, char *call, size_t len)
{
    if (!r->exited || r->exit_code != KIT_EXIT_SKIPPED)
        return 0;
    const char *at = strstr(sb_str(&r->err), KIT_SKIPPED_LINE);
    if (!at)
        return 0;
    at += strlen(KIT_SKIPPED_LINE);
    snprintf(call, len, "%.*s", (int)strcspn(at, "\n"), at);
    return call[0] != 0;
}

void hang_skipped(const grading *g, const char *call, outcome *c)
{
    c->pass = 0;
    c->skipped = 1;
    for (int i = 0; i < g->n_hung; i++)
        if (!strcmp(g->hung[i].call, call)) {
            sb_printf(&c->text, "not run: %s() did not return in test %s (case %s)\n", call, g->hung[i].test,
                      g->hung[i].params);
            return;
        }
    sb_printf(&c->text, "not run: %s() did not return in an earlier run\n", call);
}
