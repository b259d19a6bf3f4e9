/* descriptor.cu - main() of a lab's bench from its descriptor (bench.cuh,
 * "From the lab's descriptor"): each implementation's shared object brings
 * its KIT_LAB, the library's also the cases (KIT_BENCH); every row is made,
 * checked and timed through the lab driver.  BENCH_LAB: the lab's name
 * (mk/bench.mk compiles this file once per lab). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.cuh"
#include "kit/check_driver.h"
#include "kit/lab_decl.cuh"

#define BENCH_SEED 0xbe9c4ULL /* the same inputs every run */
#define BENCH_NONCE 1

/* One implementation, with its case held open. */
typedef struct {
    int who;
    int also; /* the reference's further row (KIT_BENCH.also) */
    const kit_lab *lab;
    kit_params params;
    kit_run_ctx ctx;
    kit_lab_case *lc;
    kit_lab_call call;
} impl;

static void impl_call(void *p)
{
    impl *m = (impl *)p;
    m->call.invoke(kit_lab_case_state(m->lc));
}

static void impl_poison(void *p)
{
    if (kit_lab_poison(&((impl *)p)->call) != 0)
        exit(1);
}

static void baseline_call(void *p)
{
    if (kit_lab_case_baseline(((impl *)p)->lc) != 0) {
        fprintf(stderr, "bench %s: the baseline failed\n", BENCH_LAB);
        exit(1);
    }
}

/* The outputs of the call just made, through the lab's checker (the CPU
 * reference): NULL when right, else the checker's summary. */
static const char *impl_check(void *p)
{
    impl *m = (impl *)p;
    char path[] = "/tmp/kit-bench-XXXXXX", err[256] = "";
    int fd = mkstemp(path);
    if (fd < 0 || close(fd) != 0 || !(m->ctx.out = kit_writer_open(path, BENCH_NONCE))) {
        fprintf(stderr, "bench %s: cannot write %s\n", BENCH_LAB, path);
        exit(1);
    }
    int rc = kit_lab_case_record(&m->ctx, m->lc, &m->call);
    rc |= kit_writer_close(m->ctx.out);
    m->ctx.out = NULL;
    kit_blobfile *b = rc == 0 ? kit_blob_load(path, BENCH_NONCE, 0, err, sizeof err) : NULL;
    unlink(path);
    if (!b) {
        fprintf(stderr, "bench %s: the outputs could not be recorded %s\n", BENCH_LAB, err);
        exit(1);
    }
    kit_check_ctx cc;
    memset(&cc, 0, sizeof cc);
    cc.params = &m->params, cc.seed = BENCH_SEED, cc.out = b, cc.stdout_text = "";
    const char *wrong = kit_check_run(&cc, &KIT_CHECK) ? strdup(cc.summary) : NULL;
    free(cc.details);
    kit_blob_free(b);
    return wrong;
}

/* Sets up implementation m on the case's parameters; exits after saying why it cannot. */
static void impl_open(impl *m, const char *params)
{
    char err[256];
    memset(&m->ctx, 0, sizeof m->ctx);
    m->ctx.params = &m->params, m->ctx.seed = BENCH_SEED, m->ctx.reps = 1;
    if (kit_params_parse(params, &m->params, err, sizeof err) != 0) {
        fprintf(stderr, "bench %s: case \"%s\": %s\n", BENCH_LAB, params, err);
        exit(1);
    }
    if (!(m->lc = kit_lab_case_open(&m->ctx, m->lab)) || kit_lab_case_call(&m->ctx, m->lc, &m->call) != 0)
        exit(1);
}

/* The least bytes one timed call of the lab moves, where its table declares
 * the timed calls; else 0. */
static double timed_bytes(const kit_lab *lab, void *state)
{
    kit_timed_calls tc;
    kit_lab_swap sw;
    memset(&tc, 0, sizeof tc), memset(&sw, 0, sizeof sw);
    return lab->decl && kit_decl_timed_calls(lab->decl, state, &tc, &sw) == 0 ? kit_timed_calls_bytes(&tc) : 0;
}

/* The rate column from the first metric of the student's call: GFLOP/s or
 * GB/s by its label, its units per second the metric's value at 1 s.  The
 * copy roof's bytes where that metric counts none but the roof is wanted:
 * a rate in neither unit, or no library peer to compare with (bench.cuh). */
static void case_rate(const kit_bench *b, const kit_lab *lab, void *state, bench_case *c)
{
    const char *label = NULL;
    double units = 0;
    for (int i = 0; !label && lab->decl && i < KIT_LAB_MAX_METRICS && lab->decl->metrics[i].label; i++)
        if (!lab->decl->metrics[i].baseline)
            label = lab->decl->metrics[i].label, units = kit_decl_metric_value(&lab->decl->metrics[i], state, 1e3);
    for (int i = 0; !label && i < KIT_LAB_MAX_METRICS && lab->metrics[i].label; i++)
        if (!lab->metrics[i].baseline)
            label = lab->metrics[i].label, units = lab->metrics[i].value(state, 1e3);
    if (label && strstr(label, "GFLOP/s"))
        c->flops = units * 1e9;
    else if (label && strstr(label, "GB/s"))
        c->bytes = units * 1e9;
    if (c->bytes == 0 && (c->flops == 0 || !b->library))
        c->bytes = timed_bytes(lab, state);
}

/* The case's title: its parameters, and why the library has no row. */
static void case_title(const kit_bench *b, const char *params, const char *skip, bench_case *c)
{
    const char *why = skip ? skip : b->library ? NULL : "no library peer: x copy is the yardstick";
    int len = snprintf(c->title, sizeof c->title, "%s, %s", b->what, params);
    if (why && len > 0 && (size_t)len < sizeof c->title)
        snprintf(c->title + len, sizeof c->title - len, "; %s", why);
}

/* Why the library peer sits the case out (KIT_BENCH.new_case), or NULL. */
static const char *library_skips(const kit_bench *b, const char *params)
{
    kit_params p;
    char err[256];
    return b->new_case && kit_params_parse(params, &p, err, sizeof err) == 0 ? b->new_case(&p) : NULL;
}

/* A case's parameters with the further row's over them. */
static const char *also_params(const kit_bench *b, const char *params, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s", params, b->also.params ? b->also.params : "");
    return buf;
}

/* One case: the library peer (where it takes the case), the student's, the
 * reference's (and its further row) and the stretch exercise's rows (those
 * loaded), then the baseline's. */
static void run_case(const kit_bench *b, const char *params, impl *im, int n)
{
    bench_row rows[6];
    int k = 0;
    impl *first = NULL;
    const char *skip = library_skips(b, params);
    char over[512];
    for (int i = 0; i < n; i++) {
        if (!im[i].lab || (im[i].who == BENCH_LIBRARY && (!b->library || skip)))
            continue;
        impl_open(&im[i], im[i].also ? also_params(b, params, over, sizeof over) : params);
        first = first ? first : &im[i];
        const char *what = im[i].also ? b->also.what : im[i].who == BENCH_STRETCH ? b->stretch : b->calls;
        if (im[i].who == BENCH_LIBRARY)
            rows[k++] = bench_make(b->library, impl_call, &im[i], impl_check, 1, impl_poison);
        else
            k += bench_add(&rows[k], im[i].who, what, (void *)im[i].lab, impl_call, &im[i], impl_check, impl_poison);
    }
    if (!first) /* no implementation loaded (said above) */
        return;
    if (first->lab->baseline)
        rows[k++] = bench_make(b->baseline, baseline_call, first, NULL, 0);
    bench_case c = {"", 0, 0};
    case_title(b, params, skip, &c);
    case_rate(b, first->lab, kit_lab_case_state(first->lc), &c);
    bench_case_run(&c, rows, k);
    for (int i = 0; i < n; i++)
        if (im[i].lc)
            kit_lab_case_close(&im[i].ctx, im[i].lc), im[i].lc = NULL;
}

/* Every case, and with the further row's parameters, is one the lab takes
 * (its own rules, no data made): else one line and status 1, GPU or not
 * (the --symbols check in CI sees it). */
static void case_valid(const char *params)
{
    kit_params p;
    char err[256];
    if (kit_params_parse(params, &p, err, sizeof err) != 0 || lab_params_validate(&p, err, sizeof err) != 0) {
        printf("bench %s: its case \"%s\" is not one the lab takes: %s\n", BENCH_LAB, params, err);
        exit(1);
    }
}

static void cases_valid(const kit_bench *b)
{
    char over[512];
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++) {
        case_valid(b->cases[i]);
        if (b->also.what)
            case_valid(also_params(b, b->cases[i], over, sizeof over));
    }
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, BENCH_LAB);
    const int order[] = {BENCH_LIBRARY, BENCH_STUDENT, BENCH_REFERENCE, BENCH_REFERENCE, BENCH_STRETCH};
    impl im[5];
    int n = 0;
    memset(im, 0, sizeof im);
    const kit_bench *b = (const kit_bench *)bench_fn(BENCH_LIBRARY, "KIT_BENCH");
    for (int i = 0; i < 5; i++) {
        if (i == 3 && !(b && b->also.what)) /* the reference's further row: where KIT_BENCH asks for it */
            continue;
        im[n].who = order[i], im[n].also = i == 3;
        im[n].lab = (const kit_lab *)bench_fn(order[i], "KIT_LAB");
        n++;
    }
    if (b)
        cases_valid(b);
    bench_gpu(); /* --symbols ends here */
    if (!b || !im[0].lab) {
        fprintf(stderr, "bench %s: the library peer did not load (above): nothing measured\n", BENCH_LAB);
        return 1;
    }
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++)
        run_case(b, b->cases[i], im, n);
    return bench_finish();
}
