/* lab_check_test.h - unit-testing a lab's checker on the CPU.
 *
 * A lab's test_check.c plays the runner: it writes an output file the way a
 * runner would (the right answer computed on the CPU, or a deliberately
 * wrong one), then runs the checker's code path on it (the device-execution
 * policy, then lab_check) and asserts the verdict and its message.
 *
 *   kit_writer *w = lct_open();
 *   kit_writer_put(w, "result", KIT_T_F32, &r, 1);
 *   lct_trace(w, "0\tdot_shared\t1\t\n", "0\t4,1,1\t256,1,1\t1000\tdot_kernel(...)\n");
 *   ck_assert_int_eq(lct_check(w, "n=257 type=float", seed, why), 0);
 */
#ifndef KIT_LAB_CHECK_TEST_H
#define KIT_LAB_CHECK_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/blob.h"
#include "kit/protocol.h"
#include "kit/checker.h"

#define LCT_NONCE 0x1234abcdULL

static char lct_path[64];

static inline kit_writer *lct_open(void)
{
    snprintf(lct_path, sizeof lct_path, "/tmp/kit-lct-%d.bin", (int)getpid());
    return kit_writer_open(lct_path, LCT_NONCE);
}

/* A successful traced call: calls = "index\tname\tkernel_required\terror\n" lines,
 * kernels = "call\tgx,gy,gz\tbx,by,bz\tns\tname\n" lines (the short form; the runner
 * writes "call\tgrid\tblock\tns\tstart\tend\tstream\torigin\tname").  Copies, when a
 * test needs them: kit_writer_put_text(w, "trace.copies", "call\tD2H\tbytes\tstart\tend\tstream\n"). */
static inline void lct_trace(kit_writer *w, const char *calls, const char *kernels)
{
    kit_writer_put_text(w, "trace.status", "ok");
    kit_writer_put_text(w, "trace.calls", calls);
    kit_writer_put_text(w, "trace.kernels", kernels);
}

/* KIT_LCT_LOG=FILE appends every verdict the tests produce (parameters,
 * seed, pass, device_ok, result_ok, summary, details) to FILE: the logs of
 * two versions of a checker, diffed, show whether a change of its code
 * changed any verdict or message the tests reach (the assertions only look
 * for words). */
static inline void lct_log(const char *params, uint64_t seed, const kit_check_ctx *ctx, int device_ok, int result_ok)
{
    const char *path = getenv("KIT_LCT_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "== %s seed=%#llx failed=%d device_ok=%d result_ok=%d\nsummary: %s\n%s", params,
            (unsigned long long)seed, ctx->failed, device_ok, result_ok, ctx->summary, ctx->details ? ctx->details : "");
    fclose(f);
}

/* A verdict as a test reads it: text gets ctx's summary and, after a
 * newline, its details (freed here); returns whether it failed. */
static inline int lct_said(kit_check_ctx *ctx, char *text, size_t len)
{
    snprintf(text, len, "%s\n%s", ctx->summary, ctx->details ? ctx->details : "");
    free(ctx->details);
    ctx->details = NULL;
    return ctx->failed;
}

/* Closes the file and runs the checker's path on it (kit_judge: the device
 * policy p, lab_check, the evidence rules), with `out_text` as the runner's
 * stdout.  Returns 1 when the check failed, 0 when it passed, -1 on a broken
 * test setup.  text gets the summary (and, with details, the detail lines
 * after a newline). */
static inline int lct_run_policy(kit_writer *w, const char *params, uint64_t seed, const char *out_text,
                                 size_t out_len, const kit_policy *p, int details, char *text, size_t len)
{
    kit_writer_put_text(w, "runner.status", "ok");
    if (kit_writer_close(w) != 0)
        return -1;
    char err[256];
    kit_params kp;
    if (kit_params_parse(params, &kp, err, sizeof err) != 0)
        return -1;
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    if (!b)
        return -1;
    kit_check_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.params = &kp;
    ctx.seed = seed;
    ctx.out = b;
    ctx.stdout_text = out_text;
    ctx.stdout_len = out_len;
    int device_ok, result_ok;
    kit_judge(&ctx, p, NULL, &device_ok, &result_ok);
    lct_log(params, seed, &ctx, device_ok, result_ok);
    if (details)
        snprintf(text, len, "%s\n%s", ctx.summary, ctx.details ? ctx.details : "");
    else
        snprintf(text, len, "%s", ctx.failed ? ctx.summary : "");
    free(ctx.details);
    kit_blob_free(b);
    unlink(lct_path);
    return ctx.failed;
}

/* The labs' policy: every evidence rule on, the default host-copy share. */
static inline kit_policy lct_policy(int require_kernel, int forbid_libraries)
{
    kit_policy p = {require_kernel, forbid_libraries, 1, KIT_HOST_COPY_SHARE_DEFAULT, 1};
    return p;
}

static inline int lct_run(kit_writer *w, const char *params, uint64_t seed, const char *out_text, size_t out_len,
                          int require_kernel, int forbid_libraries, int details, char *text, size_t len)
{
    kit_policy p = lct_policy(require_kernel, forbid_libraries);
    return lct_run_policy(w, params, seed, out_text, out_len, &p, details, text, len);
}

/* One timed call's record, as the timed-call driver (fresh.cuh) writes it (protocol.h):
 * `count` elements of 4 bytes at `val`, at indices idx (NULL: the whole output). */
static inline void lct_timed(kit_writer *w, const int32_t *call, const int64_t *shift, const double *scale, int n,
                             const int64_t *idx, const void *val, uint64_t count)
{
    kit_writer_put(w, KIT_KEY_TIMED_CALL, KIT_T_I32, call, (uint64_t)n);
    kit_writer_put(w, KIT_KEY_TIMED_SHIFT, KIT_T_I64, shift, (uint64_t)n);
    kit_writer_put(w, KIT_KEY_TIMED_SCALE, KIT_T_F64, scale, (uint64_t)n);
    if (idx)
        kit_writer_put(w, KIT_KEY_TIMED_INDEX, KIT_T_I64, idx, count);
    kit_writer_put(w, KIT_KEY_TIMED_VALUE, KIT_T_U32, val, count);
}

/* The file closed and loaded as a checker reads it (for a test of one of
 * the checker's parts on its own, without lab_check); NULL on a broken setup. */
static inline kit_blobfile *lct_load(kit_writer *w)
{
    char err[256];
    kit_writer_put_text(w, "runner.status", "ok");
    if (kit_writer_close(w) != 0)
        return NULL;
    kit_blobfile *b = kit_blob_load(lct_path, LCT_NONCE, 0, err, sizeof err);
    unlink(lct_path);
    return b;
}

/* The summary only, no stdout. */
static inline int lct_check_policy(kit_writer *w, const char *params, uint64_t seed, int require_kernel,
                                   int forbid_libraries, char *why, size_t len)
{
    return lct_run(w, params, seed, "", 0, require_kernel, forbid_libraries, 0, why, len);
}

static inline int lct_check(kit_writer *w, const char *params, uint64_t seed, char *why, size_t len)
{
    return lct_check_policy(w, params, seed, 1, 1, why, len);
}

#endif
