/* checker.h - what a lab's checker provides and may use.
 *
 * A checker is kit code only: common/src/checker_main.c plus the lab's
 * check.c and dataset.c.  The grader runs it after a runner finished:
 *
 *   check --params "..." --seed S --nonce N --out FILE [--stdout FILE]
 *         [--require-kernel] [--forbid-libraries] [--evidence LIST]
 *         [--host-copy-share X]
 *   check --validate --params "..." [--params "..." ...]
 *
 * It reloads the runner's output file (untrusted) and judges it (kit_judge):
 * the device-execution policy on the kernel trace, then the lab's lab_check,
 * which regenerates the inputs from (params, seed), computes the reference
 * with common/ and compares, then the evidence rules.  It prints one JSON
 * verdict on stdout with the KIT_VERDICT_* keys of kit/protocol.h (pass,
 * device_ok, result_ok, summary, details, kernels, metrics) and exits 0; a
 * usage error, a seed, nonce or stdout file it cannot read exit 2.
 * --validate checks case parameters only (lab_params_validate).
 */
#ifndef KIT_CHECKER_H
#define KIT_CHECKER_H
#include <stddef.h>
#include <stdint.h>
#include "kit/blob.h"
#include "kit/compare.h"
#include "kit/params.h"
#include "kit/plausible.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct kit_check_ctx {
    const kit_params *params;
    uint64_t seed;
    const kit_blobfile *out;   /* the runner's outputs */
    const char *stdout_text;   /* the runner's stdout (capped), "" when none */
    size_t stdout_len;
    int failed;                /* set by kit_fail */
    int fail_count;            /* kit_fail calls so far */
    char summary[512];         /* first failure (or a pass note) */
    char *details;             /* further lines, '\n' separated */
    size_t details_len, details_cap;
    struct {                   /* declared by lab_check with kit_call_input */
        char call[64];
        double bytes;
        int on_device;
    } inputs[8];
    int n_inputs;
} kit_check_ctx;

/* ---- the lab's check: common/src/check_driver.c from the lab's KIT_CHECK
 * (kit/check_driver.h), or a check.c's own ---- */
/* Returns 0 when the outputs are right; on a failure calls kit_fail (and
 * optionally kit_detail) and returns 1. */
int lab_check(kit_check_ctx *ctx);

/* ---- provided by common/ ---- */
/* Records a failure; the first one becomes the summary. */
void kit_fail(kit_check_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An extra line under the summary (pass or fail). */
void kit_detail(kit_check_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fetches an output array; on absence/mistype fails the check with the
 * reason and returns NULL.  want_count > 0 also requires that exact count. */
const void *kit_expect_array(kit_check_ctx *ctx, const char *name, kit_type t, uint64_t want_count,
                             uint64_t *count);
/* The device-execution policy on the runner's kernel trace (called by the
 * checker's main before lab_check; kernels_json, a cJSON array, receives the
 * kernels for the report and may be NULL). */
struct cJSON;
void kit_apply_policy(kit_check_ctx *ctx, int require_kernel, int forbid_libraries, struct cJSON *kernels_json);
/* One kernel launch the trace attributes to a student call. */
typedef struct {
    int grid[3], block[3];
    double ms;                     /* device time */
    unsigned long long start, end; /* CUPTI timestamps (ns), 0 when not recorded */
    unsigned stream;               /* CUDA stream id */
    char origin[128];              /* shared object that launched it, "-" = the runner itself */
    char name[512];                /* demangled */
} kit_launch;
/* The kernels of the (last) student call named `call`: stores up to `max`
 * in ks and returns how many there were, or -1 when the trace is not
 * available (the policy has already noted why). */
int kit_call_launches(const kit_blobfile *out, const char *call, kit_launch *ks, int max);
/* All of them, in an array the caller frees (one more element than *n,
 * zeroed): NULL with *n = -1 when the trace is not available (or no memory). */
kit_launch *kit_call_launches_all(const kit_blobfile *out, const char *call, int *n);
/* The threads of one launch: grid x block, every dimension. */
long long kit_launch_threads(const kit_launch *l);

/* One memory copy or memset made during a student call. */
typedef enum { KIT_COPY_H2D, KIT_COPY_D2H, KIT_COPY_D2D, KIT_COPY_H2H, KIT_COPY_P2P, KIT_COPY_MEMSET, KIT_COPY_OTHER } kit_copy_kind;
typedef struct {
    kit_copy_kind kind;
    unsigned long long bytes;
    unsigned long long start, end; /* CUPTI timestamps (ns), same clock as kit_launch */
    unsigned stream;
    int dst_host;                  /* the destination is host memory (pageable, pinned) or managed memory */
} kit_copy;
/* The copies and memsets of the (last) student call named `call`, like
 * kit_call_launches. */
int kit_call_copies(const kit_blobfile *out, const char *call, kit_copy *cs, int max);
/* Bytes of memory both sides reach that the call allocated or registered:
 * pinned host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister), which
 * the device writes directly, and managed memory (cudaMallocManaged), which
 * the host reads after the kernels wrote it.  0 when none or no trace.
 * ("pinned" in the name and in the trace key trace.pinned is historical.) */
unsigned long long kit_call_pinned_bytes(const kit_blobfile *out, const char *call);
/* "H2D", "D2H", "D2D", "H2H", "P2P", "memset", "?" */
const char *kit_copy_kind_name(kit_copy_kind k);

/* Which library a kernel of the trace comes from ("cuBLAS", "Thrust", ...),
 * or NULL for the student's own: by where it comes from - the shared object
 * that launched it (kit_launch.origin), or, for header-only libraries compiled
 * into the student's file, the namespace the kernel function itself is
 * declared in (thrust::, cub::, cutlass::) - never a substring of its name. */
const char *kit_kernel_library(const kit_launch *l);

/* ---- evidence that the student's kernels did the work (manifest `evidence`) ---- */
/* Declared by lab_check for each call it judges: the call `call` ("*": every
 * call of the run) was handed `bytes` of input that its kernels must read, in
 * device memory (on_device = 1) or in host memory (0). */
void kit_call_input(kit_check_ctx *ctx, const char *call, double bytes, int on_device);

typedef struct {
    int require_kernel;   /* a call launches a kernel of its own */
    int forbid_libraries; /* no library kernels */
    int host_copy;        /* evidence: little of the device input reaches host memory inside a call */
    double host_copy_share; /* ... at most this share of the input bytes */
    int kernel_time;      /* evidence: own kernels busy long enough to read a large input once */
} kit_policy;
#define KIT_HOST_COPY_SHARE_DEFAULT 0.125
/* Parses an evidence list ("host-copy kernel-time", "none"; spaces or commas)
 * into p.  Returns 0, or -1 with err naming the bad word and the allowed ones. */
int kit_evidence_parse(const char *list, kit_policy *p, char *err, size_t errlen);
/* The evidence rules on the calls lab_check declared; fails with what was seen. */
void kit_apply_evidence(kit_check_ctx *ctx, const kit_policy *p);

/* The whole verdict, as the checker's main takes it: the device policy, the
 * lab's check of the values, then the evidence rules.  device_ok: the policy
 * and the evidence passed; result_ok: the values are right.  The first
 * device failure stays the summary. */
void kit_judge(kit_check_ctx *ctx, const kit_policy *p, struct cJSON *kernels_json, int *device_ok, int *result_ok);

/* After the values (kit_judge's last step): notes for calls that returned
 * while their work went on (trace.left, timed.left), and in a timing run the
 * refusals - work the timing could not follow, a time that is not possible on
 * this GPU (plausible.h) - which fail the run: no performance credit. */
void kit_judge_timing(kit_check_ctx *ctx);
/* What a bench run recorded of its time and of the device (0 where it did
 * not): the plausibility check's figures, and make bench's (its copy roof). */
void kit_plausible_read(const kit_blobfile *b, kit_plausible_in *in);

/* A printable copy of len bytes of untrusted text (a student's output) for
 * a message: other bytes as '?', "..." where it did not fit in cap. */
void kit_quote(char *dst, size_t cap, const char *src, size_t len);

/* A count of things and the first `max` of them as a list for a message
 * ("1, 5, 9"): kit_example_add counts v, listed while count <= max. */
typedef struct {
    int count;
    char list[96];
} kit_examples;
void kit_example_add(kit_examples *e, int max, long long v);

/* ---- the runner's stdout (check_lines.c) ---- */
/* Its bytes before the kit's mark (KIT_STDOUT_MARK, printed when the first
 * student call returned, before the kit waits for the GPU: what that call
 * made visible), or all of them where there is no mark. */
size_t kit_stdout_before_mark(const kit_check_ctx *ctx);

/* Lines of the form "W1 N1 W2 N2 ..." - the words given, in order, each
 * followed by a whole number (at most 9 digits, '-' allowed); blanks around
 * them optional, nothing else on the line (lab01: "block B thread T tid N").
 * Empty lines (trailing blanks and '\r' aside) are skipped; every other line
 * counts as `other`, the first kept as an example (longer than 200
 * characters or holding a NUL byte: another line too).  text: the line,
 * printable (kit_quote), for messages. */
#define KIT_LINE_MAX_NUMS 4
typedef struct {
    int v[KIT_LINE_MAX_NUMS];
    char text[72];
} kit_line;
typedef struct {
    kit_line *lines;
    int n, cap;
    int other;
    char other_example[72];
} kit_lines;
/* words: space separated, at most KIT_LINE_MAX_NUMS.  kit_lines_free frees l->lines. */
void kit_lines_parse(const char *text, size_t len, const char *words, kit_lines *l);
void kit_lines_free(kit_lines *l);

/* Compares and, when not ok, fails with "<what>: <kit_cmp_describe>". Returns 1 when ok. */
int kit_check_cmp(kit_check_ctx *ctx, const char *what, const kit_cmp *r);

#ifdef __cplusplus
}
#endif
#endif
