/* descriptor.cu - main() of a lab's bench from its descriptor (bench.cuh,
 * "From the lab's descriptor"): each implementation's shared object brings
 * its KIT_LAB, the library's also the cases (KIT_BENCH); every row is made,
 * checked and timed through the lab driver.  BENCH_LAB: the lab's name
 * (mk/bench.mk compiles this file once per lab). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.cuh"
#include "kit/check_driver.h"
#include "kit/lab_decl.cuh"

#define BENCH_SEED 0xbe9c4ULL /* the same inputs every run */
#define BENCH_NONCE 1

/* One implementation, with its case held open; a row of KIT_BENCH.more is
 * one more, on the case's parameters and its own after them. */
typedef struct {
    int who;
    const char *name; /* after "student" ... in its row; the library's whole row */
    const char *more; /* the row's own parameters, or NULL */
    const kit_lab *lab;
    kit_params params;
    kit_run_ctx ctx;
    kit_lab_case *lc;
    kit_lab_call call;
    /* the checker's case of these parameters, shared by the rows that have
     * them: its inputs and references made once per case (run_case) */
    kit_check_case **check;
} impl;

#define BENCH_IMPLS (4 * (1 + KIT_BENCH_MAX_MORE))

static void impl_call(void *p)
{
    impl *m = (impl *)p;
    m->call.invoke(kit_lab_case_state(m->lc));
}

static void impl_prepare(void *p)
{
    impl *m = (impl *)p;
    if (kit_lab_case_prepare(m->lc, &m->call) != 0)
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
 * reference, computed at the first row of the case that has its
 * parameters): NULL when right, else the checker's summary. */
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
    if (!*m->check && !(*m->check = kit_check_case_open(&KIT_CHECK, &m->params, BENCH_SEED, err, sizeof err)))
        kit_fail(&cc, "bad test parameters: %s", err);
    const char *wrong = !*m->check || kit_check_case_run(&cc, *m->check) ? strdup(cc.summary) : NULL;
    free(cc.details);
    kit_blob_free(b);
    return wrong;
}

/* A case's parameters, and a row's own after them. */
static int params_of(const char *params, const char *more, kit_params *p, char *err, size_t len)
{
    char text[512];
    snprintf(text, sizeof text, "%s %s", params, more ? more : "");
    return kit_params_parse(text, p, err, len);
}

/* Sets up implementation m on the case's parameters; exits after saying why it cannot. */
static void impl_open(impl *m, const char *params)
{
    char err[256];
    memset(&m->ctx, 0, sizeof m->ctx);
    m->ctx.params = &m->params, m->ctx.seed = BENCH_SEED, m->ctx.reps = 1;
    if (params_of(params, m->more, &m->params, err, sizeof err) != 0) {
        fprintf(stderr, "bench %s: case \"%s\": %s\n", BENCH_LAB, params, err);
        exit(1);
    }
    if (!(m->lc = kit_lab_case_open(&m->ctx, m->lab)) || kit_lab_case_call(&m->ctx, m->lc, &m->call) != 0)
        exit(1);
}

/* Metric i of the descriptor (its table's, then its hooks'): its label and
 * its units per second (its value at 1 s; NaN: not this case's); NULL when
 * there is none or it is the baseline's. */
static const char *metric(const kit_lab *lab, const void *state, int i, double *units)
{
    if (i < KIT_LAB_MAX_METRICS) {
        const kit_decl_metric *m = lab->decl ? &lab->decl->metrics[i] : NULL;
        if (!m || !m->label || m->baseline)
            return NULL;
        *units = kit_decl_metric_value(m, state, 1e3);
        return m->label;
    }
    i -= KIT_LAB_MAX_METRICS;
    if (!lab->metrics[i].label || lab->metrics[i].baseline)
        return NULL;
    *units = lab->metrics[i].value(state, 1e3);
    return lab->metrics[i].label;
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

/* The rate column from the descriptor's metrics of the call (not the
 * baseline's, and this case's): the first in GB/s (a memory-bound
 * operation: the copy roof row moves the same bytes), else in GFLOP/s.
 * The copy roof's bytes where no metric counts them but the roof is
 * wanted: a rate in neither unit, or no library peer to compare with. */
static void case_rate(const kit_bench *b, const kit_lab *lab, void *state, bench_case *c)
{
    for (int flops = 0; flops < 2 && !c->bytes && !c->flops; flops++)
        for (int i = 0; i < 2 * KIT_LAB_MAX_METRICS; i++) {
            double units = NAN;
            const char *label = metric(lab, state, i, &units);
            if (!label || isnan(units) || !strstr(label, flops ? "GFLOP/s" : "GB/s"))
                continue;
            *(flops ? &c->flops : &c->bytes) = units * 1e9;
            break;
        }
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

/* Case number `index`: the library peer's (where it takes the case), the
 * student's, the reference's and the stretch exercise's rows (those
 * loaded), each followed by its more rows, then the baseline's. */
static void run_case(const kit_bench *b, int index, impl *im, int n)
{
    const char *params = b->cases[index], *skip = NULL;
    bench_row rows[BENCH_IMPLS + 1];
    int k = 0;
    impl *first = NULL;
    kit_check_case *checks[BENCH_IMPLS] = {}; /* one per row parameters: [i] those of im[i] and the rows after it */
    kit_params p;
    char err[256];
    if (b->new_case && kit_params_parse(params, &p, err, sizeof err) == 0)
        skip = b->new_case(&p);
    for (int i = 0; i < n; i++) {
        impl *m = &im[i];
        if (!m->lab || (m->who == BENCH_LIBRARY && (!m->name || skip)))
            continue;
        impl_open(m, params);
        first = first ? first : m;
        m->check = &checks[i];
        for (int j = 0; j < i; j++)
            if (im[j].lc && (im[j].more == m->more || (im[j].more && m->more && !strcmp(im[j].more, m->more))))
                m->check = im[j].check;
        if (m->who == BENCH_LIBRARY)
            rows[k++] = bench_make(m->name, impl_call, m, b->roof ? NULL : impl_check, !m->more, impl_prepare);
        else
            k += bench_add(&rows[k], m->who, m->name, (void *)m->lab, impl_call, m, impl_check, impl_prepare);
    }
    if (!first) /* no implementation loaded (said above) */
        return;
    if (first->lab->baseline && (!b->baseline_cases || index < b->baseline_cases))
        rows[k++] = bench_make(b->baseline, baseline_call, first, NULL, 0);
    bench_case c = {"", 0, 0};
    case_title(b, params, skip, &c);
    if (!b->roof)
        case_rate(b, first->lab, kit_lab_case_state(first->lc), &c);
    bench_case_run(&c, rows, k);
    for (int i = 0; i < n; i++)
        if (b->stretch_note && im[i].lc && im[i].who == BENCH_STRETCH && !im[i].more) {
            impl_prepare(&im[i]);
            b->stretch_note(&im[i].params, &im[i].call);
        }
    for (int i = 0; i < n; i++) {
        if (im[i].lc)
            kit_lab_case_close(&im[i].ctx, im[i].lc), im[i].lc = NULL;
        kit_check_case_close(checks[i]);
    }
}

/* Every case, with each more row's parameters, is one the lab takes (its
 * own rules, no data made): else one line and status 1, GPU or not (the
 * --symbols check in CI sees it). */
static void cases_valid(const kit_bench *b)
{
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++)
        for (int j = -1; j < KIT_BENCH_MAX_MORE; j++) {
            const char *more = j < 0 ? NULL : b->more[j].params;
            kit_params p;
            char err[256];
            if (j >= 0 && !more)
                continue;
            if (params_of(b->cases[i], more, &p, err, sizeof err) != 0 || lab_params_validate(&p, err, sizeof err) != 0) {
                printf("bench %s: its case \"%s%s%s\" is not one the lab takes: %s\n", BENCH_LAB, b->cases[i],
                       more ? " " : "", more ? more : "", err);
                exit(1);
            }
        }
}

/* The implementations in the table's order, each followed by its more rows. */
static int impls(const kit_bench *b, impl *im)
{
    const int order[] = {BENCH_LIBRARY, BENCH_STUDENT, BENCH_REFERENCE, BENCH_STRETCH};
    int n = 0;
    memset(im, 0, BENCH_IMPLS * sizeof *im);
    for (int who : order) {
        const kit_lab *lab = (const kit_lab *)bench_fn(who, "KIT_LAB");
        const char *name = !b ? NULL : who == BENCH_LIBRARY ? b->library : who == BENCH_STRETCH ? b->stretch : b->calls;
        im[n].who = who, im[n].name = name, im[n++].lab = lab;
        for (int j = 0; j < KIT_BENCH_MAX_MORE; j++)
            if (b && b->more[j].params && b->more[j].who == who)
                im[n].who = who, im[n].name = b->more[j].name, im[n].more = b->more[j].params, im[n++].lab = lab;
    }
    return n;
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, BENCH_LAB);
    impl im[BENCH_IMPLS];
    const kit_bench *b = (const kit_bench *)bench_fn(BENCH_LIBRARY, "KIT_BENCH");
    int n = impls(b, im);
    if (b)
        cases_valid(b);
    bench_gpu(); /* --symbols ends here */
    if (!b || !im[0].lab) {
        fprintf(stderr, "bench %s: the library peer did not load (above): nothing measured\n", BENCH_LAB);
        return 1;
    }
    for (int i = 0; i < KIT_BENCH_MAX_CASES && b->cases[i]; i++)
        run_case(b, i, im, n);
    return bench_finish();
}
