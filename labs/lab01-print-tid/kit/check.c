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
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_hooks.h"
#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/runner.h" /* KIT_STDOUT_MARK only */

#define EXAMPLES 4  /* examples quoted per kind of mistake */
#define LINE_MAX_LEN 200

/* ---------------------------------------------------------------- lines */

typedef struct {
    int block, thread, tid;
    char text[72]; /* the line as printed (shortened), for messages */
} tid_line;

typedef struct {
    tid_line *lines;
    int n, cap;
    int other;             /* non-empty lines of another form */
    char other_example[72];
} parsed_lines;

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static const char *expect_word(const char *s, const char *word)
{
    s = skip_blanks(s);
    size_t k = strlen(word);
    return strncmp(s, word, k) ? NULL : s + k;
}

/* A decimal integer of at most 9 digits (so it fits an int), optional '-'. */
static const char *expect_int(const char *s, int *v)
{
    if (!s)
        return NULL;
    s = skip_blanks(s);
    int neg = *s == '-';
    s += neg;
    if (!isdigit((unsigned char)*s))
        return NULL;
    long x = 0;
    for (int digits = 0; isdigit((unsigned char)*s); s++) {
        if (++digits > 9)
            return NULL;
        x = x * 10 + (*s - '0');
    }
    *v = (int)(neg ? -x : x);
    return s;
}

/* "block B thread T tid N", blanks around the words optional, nothing else. */
static int parse_tid_line(const char *s, tid_line *out)
{
    s = expect_int(expect_word(s, "block"), &out->block);
    s = s ? expect_int(expect_word(s, "thread"), &out->thread) : NULL;
    s = s ? expect_int(expect_word(s, "tid"), &out->tid) : NULL;
    return s && *skip_blanks(s) == '\0';
}

static void add_line(parsed_lines *p, const tid_line *l)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 256;
        tid_line *q = realloc(p->lines, (size_t)cap * sizeof *q);
        if (!q)
            return;
        p->lines = q, p->cap = cap;
    }
    p->lines[p->n++] = *l;
}

/* Printable copy of a line for a message (student output is untrusted). */
static void quote(char *dst, size_t cap, const char *src, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 4 < cap; i++)
        dst[k++] = isprint((unsigned char)src[i]) ? src[i] : '?';
    if (len > k && k + 4 <= cap)
        memcpy(dst + k, "...", 3), k += 3;
    dst[k] = '\0';
}

static void parse_lines(const char *text, size_t len, parsed_lines *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        const char *s = text + i;
        i += n + 1;
        while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n == 0)
            continue;
        char buf[LINE_MAX_LEN + 1];
        tid_line l;
        memset(&l, 0, sizeof l);
        int ok = 0;
        if (n <= LINE_MAX_LEN && !memchr(s, '\0', n)) {
            memcpy(buf, s, n);
            buf[n] = '\0';
            ok = parse_tid_line(buf, &l);
        }
        if (ok) {
            quote(l.text, sizeof l.text, s, n);
            add_line(p, &l);
        } else if (p->other++ == 0) {
            quote(p->other_example, sizeof p->other_example, s, n);
        }
    }
}

/* Counts one more example and appends ", v" to the list (the first EXAMPLES only). */
static void add_example(char *list, size_t cap, int *count, int v)
{
    if ((*count)++ >= EXAMPLES)
        return;
    size_t k = strlen(list);
    if (k)
        snprintf(list + k, cap - k, ", ");
    k = strlen(list);
    snprintf(list + k, cap - k, "%d", v);
}

static void judge_lines(kit_check_ctx *ctx, const lab01_case *c, const parsed_lines *before)
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
        const tid_line *l = &before->lines[i];
        if (l->block < 0 || l->block >= c->blocks || l->thread < 0 || l->thread >= c->threads) {
            if (n_range++ == 0)
                snprintf(range_ex, sizeof range_ex, "'%s'", l->text);
            continue;
        }
        int want = l->block * c->threads + l->thread;
        if (l->tid != want && n_wrong++ == 0)
            snprintf(wrong_ex, sizeof wrong_ex,
                     "'%s': with %d threads per block, thread %d of block %d has global id %d", l->text,
                     c->threads, l->thread, l->block, want);
        if (l->tid >= 0 && l->tid < total)
            seen[l->tid]++;
    }
    int n_dup = 0, n_missing = 0;
    char dup_ex[96] = "", missing_ex[96] = "";
    for (int t = 0; t < total; t++) {
        if (seen[t] > 1)
            add_example(dup_ex, sizeof dup_ex, &n_dup, t);
        else if (seen[t] == 0)
            add_example(missing_ex, sizeof missing_ex, &n_missing, t);
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
    if (n_dup)
        kit_fail(ctx, "%d tid%s printed more than once: %s%s (every thread must get its own id)", n_dup,
                 n_dup == 1 ? " was" : "s were", dup_ex, n_dup > EXAMPLES ? ", ..." : "");
    if (n_missing)
        kit_fail(ctx, "%d of the %d tids 0..%d were never printed: %s%s", n_missing, total, total - 1, missing_ex,
                 n_missing > EXAMPLES ? ", ..." : "");
}

/* The kernels the trace attributes to the call named `call`: 1 when one of
 * them has `want` threads in all, 0 when none has (their shapes in `seen`),
 * -1 when the trace is not available (the policy already noted why). */
static int launched_threads(const kit_blobfile *out, const char *call, long long want, int *n_kernels, char *seen,
                            size_t cap)
{
    int n = kit_call_launches(out, call, NULL, 0); /* how many, then all of them */
    *n_kernels = n < 0 ? 0 : n;
    seen[0] = '\0';
    if (n < 0)
        return -1;
    kit_launch *ks = calloc((size_t)n + 1, sizeof *ks);
    if (!ks)
        return -1;
    kit_call_launches(out, call, ks, n);
    int found = 0;
    for (int i = 0; i < n; i++) {
        const int *g = ks[i].grid, *b = ks[i].block;
        found |= (long long)g[0] * g[1] * g[2] * b[0] * b[1] * b[2] == want;
        size_t len = strlen(seen);
        if (i < EXAMPLES)
            snprintf(seen + len, cap - len, "%s<<<(%d,%d,%d), (%d,%d,%d)>>>", len ? ", " : "", g[0], g[1], g[2],
                     b[0], b[1], b[2]);
    }
    free(ks);
    return found;
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
    size_t len = ctx->stdout_text ? ctx->stdout_len : 0;
    /* The first call's mark (print_tids runs first); memmem: the text may hold NUL bytes. */
    const char *mark = memmem(text, len, KIT_STDOUT_MARK, strlen(KIT_STDOUT_MARK));
    size_t before_len = mark ? (size_t)(mark - text) : len;
    parsed_lines before, after;
    parse_lines(text, before_len, &before);
    parse_lines(text + before_len, len - before_len, &after);

    if (before.n == 0) {
        if (after.n > 0)
            kit_fail(ctx,
                     "no line was visible when print_tids() returned: %d line%s of the form '%s' appeared only "
                     "later, when the kit waited for the GPU.  A kernel launch returns before the kernel has "
                     "run, and device printf output is shown only at a synchronisation point",
                     after.n, after.n == 1 ? "" : "s", LAB01_LINE_FORMAT);
        else if (before.other > 0)
            kit_fail(ctx, "print_tids() printed %d line%s but none of the form '%s', e.g. '%s'", before.other,
                     before.other == 1 ? "" : "s", LAB01_LINE_FORMAT, before.other_example);
        else
            kit_fail(ctx, "print_tids() printed nothing: expected %d lines '%s', one per thread", total,
                     LAB01_LINE_FORMAT);
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
    int r = launched_threads(ctx->out, "print_tids", total, &n_kernels, shapes, sizeof shapes);
    if (r == 0 && n_kernels > 0) /* no kernel at all: the policy has said so */
        kit_fail(ctx,
                 "print_tids() launched no kernel of %d blocks x %d threads (it launched %s): the lines must be "
                 "printed by the threads of that launch",
                 c->blocks, c->threads, shapes);
    free(before.lines);
    free(after.lines);
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

static const int32_t *int_field(kit_check_ctx *ctx, const char *name)
{
    return kit_expect_array(ctx, name, KIT_T_I32, 1, NULL);
}

static void compare_field(kit_check_ctx *ctx, const char *what, long long got, long long want)
{
    if (got == want)
        return;
    kit_fail(ctx, "query_device: %s is %lld, the CUDA runtime says %lld%s", what, got, want,
             got == -1 ? " (never set: still the kit's fill value)" : "");
}

static void check_query(kit_check_ctx *ctx)
{
    char *name = kit_blob_text(ctx->out, LAB01_OUT_NAME);
    const int32_t *major = int_field(ctx, LAB01_OUT_MAJOR), *minor = int_field(ctx, LAB01_OUT_MINOR);
    const int32_t *sms = int_field(ctx, LAB01_OUT_MULTIPROCESSORS);
    const int32_t *max_threads = int_field(ctx, LAB01_OUT_MAX_THREADS_PER_BLOCK);
    const int64_t *shared = kit_expect_array(ctx, LAB01_OUT_SHARED_MEM_PER_BLOCK, KIT_T_I64, 1, NULL);
    if (!name)
        kit_fail(ctx, "output '" LAB01_OUT_NAME "' missing");
    if (!name || !major || !minor || !sms || !max_threads || !shared) {
        free(name);
        return;
    }
    device_info truth;
    char err[256];
    if (lab01_device_truth(&truth, err, sizeof err) != 0) {
        kit_fail(ctx,
                 "the checker could not ask the CUDA runtime about device 0 (%s): a problem of the machine "
                 "that grades, not of your code",
                 err);
        free(name);
        return;
    }
    if (strcmp(name, truth.name) != 0) {
        char shown[72];
        quote(shown, sizeof shown, name, strlen(name));
        if ((unsigned char)name[0] == 0xFF)
            kit_fail(ctx, "query_device: name was never set, the CUDA runtime says '%s'", truth.name);
        else
            kit_fail(ctx, "query_device: name is '%s', the CUDA runtime says '%s'", shown, truth.name);
    }
    compare_field(ctx, "major (compute capability)", *major, truth.major);
    compare_field(ctx, "minor (compute capability)", *minor, truth.minor);
    compare_field(ctx, "multiprocessors", *sms, truth.multiprocessors);
    compare_field(ctx, "max_threads_per_block", *max_threads, truth.max_threads_per_block);
    compare_field(ctx, "shared_mem_per_block", *shared, (long long)truth.shared_mem_per_block);
    free(name);
}

/* ---------------------------------------------------------- the declaration */

static int parse(const kit_params *p, uint64_t seed, void *c, char *err, size_t errlen)
{
    (void)seed; /* no input data */
    return lab01_parse(p, c, err, errlen);
}

/* The lines once the launch is there; the query whatever the lines were. */
static void judge(kit_check_ctx *ctx, const void *data, const kit_check_got *outs, int ok)
{
    const lab01_case *c = data;
    if (c->do_tids && ok)
        check_tids(ctx, c, outs[0].got);
    if (c->do_query)
        check_query(ctx);
}

/* print_tids' launch, when the case calls it; query_device's fields are
 * fetched by check_query, every missing one named. */
const kit_check KIT_CHECK = {
    sizeof(lab01_case), parse,
    .out = {{LAB01_OUT_LAUNCH, KIT_T_I32, 2, .when = KIT_WHEN(lab01_case, do_tids, 1)}}, .judge = judge};
