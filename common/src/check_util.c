/* check_util.c - what a lab's checker uses besides its own code: verdict
 * helpers (kit_fail, kit_detail, ...) and the device-execution policy.  Kept
 * apart from checker_main.c so the labs' checker unit tests can link it. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/checker.h"
#include "kit/protocol.h"
#include "kit/util.h"

/* ---- verdict helpers used by lab_check ---- */

static void add_detail(kit_check_ctx *ctx, const char *line)
{
    size_t n = strlen(line);
    if (ctx->details_len + n + 2 > ctx->details_cap) {
        size_t cap = (ctx->details_cap + n + 2) * 2;
        char *p = realloc(ctx->details, cap);
        if (!p)
            return;
        ctx->details = p, ctx->details_cap = cap;
    }
    memcpy(ctx->details + ctx->details_len, line, n);
    ctx->details_len += n;
    ctx->details[ctx->details_len++] = '\n';
    ctx->details[ctx->details_len] = 0;
}

void kit_fail(kit_check_ctx *ctx, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ctx->fail_count++;
    if (!ctx->failed)
        snprintf(ctx->summary, sizeof ctx->summary, "%.*s", (int)sizeof ctx->summary - 1, line);
    else
        add_detail(ctx, line);
    ctx->failed = 1;
}

void kit_detail(kit_check_ctx *ctx, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    add_detail(ctx, line);
}

const void *kit_expect_array(kit_check_ctx *ctx, const char *name, kit_type t, uint64_t want_count,
                             uint64_t *count)
{
    uint64_t n = 0;
    const void *p = kit_blob_get(ctx->out, name, t, &n);
    if (!p) { /* kit_blob_get returns non-NULL for a present array, even an empty one */
        kit_fail(ctx, "output '%s' missing: %s", name, kit_blob_why(ctx->out));
        return NULL;
    }
    if (want_count > 0 && n != want_count) {
        kit_fail(ctx, "output '%s' has %llu elements, expected %llu", name, (unsigned long long)n,
                 (unsigned long long)want_count);
        return NULL;
    }
    if (count)
        *count = n;
    return p;
}

void kit_quote(char *dst, size_t cap, const char *src, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 4 < cap; i++)
        dst[k++] = isprint((unsigned char)src[i]) ? src[i] : '?';
    if (len > k && k + 4 <= cap)
        memcpy(dst + k, "...", 3), k += 3;
    dst[k] = '\0';
}

void kit_example_add(kit_examples *e, int max, long long v)
{
    if (e->count++ >= max)
        return;
    size_t k = strlen(e->list);
    snprintf(e->list + k, sizeof e->list - k, "%s%lld", k ? ", " : "", v);
}

int kit_check_cmp(kit_check_ctx *ctx, const char *what, const kit_cmp *r)
{
    if (kit_cmp_ok(r))
        return 1;
    char line[768];
    kit_cmp_describe(r, line, sizeof line);
    kit_fail(ctx, "%s: %s", what, line);
    return 0;
}

/* ---- device-execution policy ---- */

/* ---- where a kernel comes from ---- */

/* A shared object that launched a kernel: the library's name. */
static const char *library_of_origin(const char *origin)
{
    static const struct {
        const char *prefix, *lib;
    } sos[] = {{"libcublas", "cuBLAS"},   {"libcusparse", "cuSPARSE"}, {"libcufft", "cuFFT"}, {"libcurand", "cuRAND"},
               {"libcusolver", "cuSOLVER"}, {"libcudnn", "cuDNN"},     {"libnpp", "NPP"},     {"libtorch", "PyTorch"}};
    if (!origin || !*origin || !strcmp(origin, "-"))
        return NULL;
    for (size_t i = 0; i < sizeof sos / sizeof sos[0]; i++)
        if (!strncmp(origin, sos[i].prefix, strlen(sos[i].prefix)))
            return sos[i].lib;
    return origin; /* another shared object: not the student's file either */
}

/* Header-only libraries compile into the student's own file: their kernels
 * are told by the namespace the kernel function is declared in (the first
 * component of its qualified name, after the demangler's "void "), so a
 * kernel named spmv_cusparse_like, or one templated on thrust::plus, is the
 * student's. */
static const char *library_of_namespace(const char *name)
{
    static const struct {
        const char *ns, *lib;
    } nss[] = {{"thrust", "Thrust"},     {"cub", "CUB"},           {"cutlass", "CUTLASS"}, {"cute", "CUTLASS"},
               {"cublas", "cuBLAS"},     {"cublasLt", "cuBLAS"},   {"cusparse", "cuSPARSE"}, {"cufft", "cuFFT"},
               {"curand", "cuRAND"},     {"cusolver", "cuSOLVER"}, {"cudnn", "cuDNN"},     {"at", "PyTorch"}};
    if (!strncmp(name, "void ", 5))
        name += 5;
    size_t len = strcspn(name, ":<( ");
    if (strncmp(name + len, "::", 2) != 0)
        return NULL; /* declared in the global namespace */
    for (size_t i = 0; i < sizeof nss / sizeof nss[0]; i++)
        if (strlen(nss[i].ns) == len && !strncmp(name, nss[i].ns, len))
            return nss[i].lib;
    return NULL;
}

static const char *library_of(const char *origin, const char *name)
{
    const char *lib = library_of_origin(origin);
    return lib ? lib : library_of_namespace(name);
}

const char *kit_kernel_library(const kit_launch *l) { return library_of(l->origin, l->name); }

typedef struct {
    int call;
    char grid[48], block[48];
    double ms;
    unsigned long long start, end; /* CUPTI ns; 0 in the short format */
    unsigned stream;
    char origin[128]; /* shared object that launched it, "-" = the runner */
    char name[512];
} trace_kernel;

/* The next line of a '\n'-separated text into line[cap]; NULL at the end. */
static const char *next_line(const char *p, char *line, size_t cap)
{
    if (!p || !*p)
        return NULL;
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len >= cap)
        len = cap - 1;
    memcpy(line, p, len);
    line[len] = 0;
    return nl ? nl + 1 : p + strlen(p);
}

/* trace.kernels lines: "call\tgrid\tblock\tns\tstart\tend\tstream\torigin\tname",
 * or the short "call\tgrid\tblock\tns\tname" (hand-written unit-test traces:
 * a kernel's name never starts with a digit). */
static int parse_kernels(const char *text, trace_kernel **out)
{
    int n = 0, cap = 0;
    *out = NULL;
    char line[1024];
    for (const char *p = text; (p = next_line(p, line, sizeof line));) {
        trace_kernel k;
        memset(&k, 0, sizeof k);
        unsigned long long ns = 0;
        int used = 0, more = 0;
        if (sscanf(line, "%d\t%47[^\t]\t%47[^\t]\t%llu\t%n", &k.call, k.grid, k.block, &ns, &used) < 4 || !used)
            continue;
        if (sscanf(line + used, "%llu\t%llu\t%u\t%127[^\t]\t%n", &k.start, &k.end, &k.stream, k.origin, &more) == 4 &&
            more)
            used += more;
        else
            k.start = k.end = k.stream = 0;
        if (!k.origin[0] || !more)
            snprintf(k.origin, sizeof k.origin, "-");
        snprintf(k.name, sizeof k.name, "%s", line + used);
        k.ms = ns / 1e6;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            trace_kernel *q = realloc(*out, (size_t)cap * sizeof *q);
            if (!q)
                break;
            *out = q;
        }
        (*out)[n++] = k;
    }
    return n;
}

/* The index of the last student call named `name` in trace.calls, or -1. */
static int call_index(const char *calls, const char *name)
{
    int idx = -1;
    for (const char *p = calls; p && *p;) {
        int i;
        char n[128];
        if (sscanf(p, "%d\t%127[^\t\n]", &i, n) == 2 && !strcmp(n, name))
            idx = i;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return idx;
}

/* The text of the trace's `blob` and the index of the last call named `call`
 * (-1 when none), or NULL when the trace is not usable (not "ok"). */
static char *call_records(const kit_blobfile *out, const char *call, const char *blob, int *idx)
{
    char *status = kit_blob_text(out, KIT_KEY_TRACE_STATUS);
    char *text = NULL;
    if (status && !strcmp(status, "ok")) {
        char *calls = kit_blob_text(out, KIT_KEY_TRACE_CALLS);
        *idx = call_index(calls, call);
        free(calls);
        text = kit_blob_text(out, blob);
        if (!text) /* e.g. a runner from before copies were traced */
            text = strdup("");
    }
    free(status);
    return text;
}

int kit_call_launches(const kit_blobfile *out, const char *call, kit_launch *ks, int max)
{
    int idx, n = 0;
    char *ktext = call_records(out, call, KIT_KEY_TRACE_KERNELS, &idx);
    if (!ktext)
        return -1;
    trace_kernel *all = NULL;
    int nk = parse_kernels(ktext, &all);
    for (int i = 0; i < nk; i++) {
        kit_launch l;
        memset(&l, 0, sizeof l);
        if (all[i].call != idx || sscanf(all[i].grid, "%d,%d,%d", &l.grid[0], &l.grid[1], &l.grid[2]) != 3 ||
            sscanf(all[i].block, "%d,%d,%d", &l.block[0], &l.block[1], &l.block[2]) != 3)
            continue;
        l.ms = all[i].ms;
        l.start = all[i].start, l.end = all[i].end, l.stream = all[i].stream;
        snprintf(l.origin, sizeof l.origin, "%s", all[i].origin);
        snprintf(l.name, sizeof l.name, "%s", all[i].name);
        if (n < max)
            ks[n] = l;
        n++;
    }
    free(all);
    free(ktext);
    return n;
}

kit_launch *kit_call_launches_all(const kit_blobfile *out, const char *call, int *n)
{
    *n = kit_call_launches(out, call, NULL, 0); /* how many, then all of them */
    kit_launch *ks = *n < 0 ? NULL : calloc((size_t)*n + 1, sizeof *ks);
    if (!ks)
        *n = -1;
    else
        kit_call_launches(out, call, ks, *n);
    return ks;
}

long long kit_launch_threads(const kit_launch *l)
{
    return (long long)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
}

unsigned long long kit_call_pinned_bytes(const kit_blobfile *out, const char *call)
{
    int idx;
    unsigned long long total = 0;
    char *text = call_records(out, call, KIT_KEY_TRACE_PINNED, &idx), line[128];
    for (const char *p = text; (p = next_line(p, line, sizeof line));) {
        int ci;
        unsigned long long b;
        if (sscanf(line, "%d\t%llu", &ci, &b) == 2 && ci == idx)
            total += b;
    }
    free(text);
    return total;
}

static const char *const copy_kind_names[] = {"H2D", "D2H", "D2D", "H2H", "P2P", "memset", "?"};

const char *kit_copy_kind_name(kit_copy_kind k)
{
    return k >= 0 && k <= KIT_COPY_OTHER ? copy_kind_names[k] : "?";
}

int kit_call_copies(const kit_blobfile *out, const char *call, kit_copy *cs, int max)
{
    int idx, n = 0;
    char *ctext = call_records(out, call, KIT_KEY_TRACE_COPIES, &idx);
    if (!ctext)
        return -1;
    char line[256];
    for (const char *p = ctext; (p = next_line(p, line, sizeof line));) {
        kit_copy c;
        char kind[16], dst[16] = "";
        int ci;
        memset(&c, 0, sizeof c);
        if (sscanf(line, "%d\t%15[^\t]\t%llu\t%llu\t%llu\t%u\t%15[^\t\n]", &ci, kind, &c.bytes, &c.start, &c.end,
                   &c.stream, dst) < 6 ||
            ci != idx)
            continue;
        c.dst_host = !strcmp(dst, "pageable") || !strcmp(dst, "pinned") || !strncmp(dst, "managed", 7);
        c.kind = KIT_COPY_OTHER;
        for (int k = 0; k < KIT_COPY_OTHER; k++)
            if (!strcmp(kind, copy_kind_names[k]))
                c.kind = (kit_copy_kind)k;
        if (n < max)
            cs[n] = c;
        n++;
    }
    free(ctext);
    return n;
}

void kit_apply_policy(kit_check_ctx *ctx, int require_kernel, int forbid_libraries, cJSON *kernels_json)
{
    char *status = kit_blob_text(ctx->out, KIT_KEY_TRACE_STATUS);
    char *calls = kit_blob_text(ctx->out, KIT_KEY_TRACE_CALLS);
    char *ktext = kit_blob_text(ctx->out, KIT_KEY_TRACE_KERNELS);
    trace_kernel *ks = NULL;
    int nk = parse_kernels(ktext, &ks);

    for (int i = 0; kernels_json && i < nk; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "call", ks[i].call);
        cJSON_AddStringToObject(o, "name", ks[i].name);
        cJSON_AddStringToObject(o, "grid", ks[i].grid);
        cJSON_AddStringToObject(o, "block", ks[i].block);
        cJSON_AddNumberToObject(o, "ms", ks[i].ms);
        cJSON_AddItemToArray(kernels_json, o);
    }

    /* Each student call: CUDA errors, own kernels, library kernels. */
    char line[512];
    for (const char *p = calls; (p = next_line(p, line, sizeof line));) {
        int idx = -1, needs_kernel = 1;
        char name[128] = "", error[256] = "";
        if (sscanf(line, "%d\t%127[^\t]\t%d\t%255[^\n]", &idx, name, &needs_kernel, error) < 3)
            continue;
        if (error[0])
            kit_fail(ctx, "%s() left a CUDA error: %s", name, error);
        if (!status || strcmp(status, "ok") != 0)
            continue;
        int own = 0;
        char libs[256] = "";
        for (int i = 0; i < nk; i++) {
            if (ks[i].call != idx)
                continue;
            const char *lib = library_of(ks[i].origin, ks[i].name);
            if (!lib)
                own++;
            else if (!strstr(libs, lib))
                snprintf(libs + strlen(libs), sizeof libs - strlen(libs), "%s%s", libs[0] ? ", " : "", lib);
        }
        if (forbid_libraries && libs[0])
            kit_fail(ctx, "%s() ran library kernels (%s): this lab asks for your own kernels, not library calls",
                     name, libs);
        if (require_kernel && needs_kernel && own == 0 && !error[0])
            kit_fail(ctx, "%s() launched no kernel of its own: the result must be computed by your kernel on the GPU",
                     name);
    }
    if (status && !strncmp(status, "ok (", 4)) /* records of the calls overflowed: a way around the check */
        kit_fail(ctx, "the student calls made more kernel launches or copies than the trace keeps %s: the "
                      "device-execution check cannot vouch for the result", status + 3);
    else if (status && strcmp(status, "ok") != 0 && strcmp(status, "off") != 0)
        kit_detail(ctx, "note: device-execution check not possible (%s)", status);
    free(status);
    free(calls);
    free(ktext);
    free(ks);
}

