/* harness.cu - lab09 harness: copies the matrix to the GPU (float or double),
 * calls the student's lu_crout / lu_crout_double / lu_crout_blocked, records
 * the status ("status", i32) and the factored matrix ("a", f32 or f64, n*n).
 * In bench mode it times lu_crout_blocked against the kit's per-step
 * version; every timed call first copies its A into place (the baseline
 * from a pristine device copy, the student's function from a fresh one).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/fresh.cuh"
#include "kit/runner.h"
#include "lu.h"

typedef struct {
    lab09_data d;
    size_t bytes; /* of the n x n matrix */
    void *host;   /* A in the type */
    void *d_a;    /* factored in place */
    void *d_orig; /* bench: A, to restore d_a before every timed call */
} inputs;

static int setup(kit_run_ctx *ctx, inputs *in)
{
    char err[256];
    if (lab09_generate(ctx->params, ctx->seed, &in->d, err, sizeof err) != 0) {
        fprintf(stderr, "lab09: %s\n", err);
        return -1;
    }
    size_t nn = (size_t)in->d.n * (size_t)in->d.n;
    size_t elem = in->d.is_double ? sizeof(double) : sizeof(float);
    in->bytes = nn * elem;
    in->host = malloc(in->bytes ? in->bytes : 1);
    if (!in->host) {
        fprintf(stderr, "lab09: out of host memory\n");
        return -1;
    }
    for (size_t t = 0; t < nn; t++) {
        if (in->d.is_double)
            ((double *)in->host)[t] = in->d.a[t];
        else
            ((float *)in->host)[t] = (float)in->d.a[t]; /* exact: the dataset already rounded it */
    }
    KIT_HCHECK(cudaMalloc(&in->d_a, in->bytes ? in->bytes : 1));
    KIT_HCHECK(cudaMemcpy(in->d_a, in->host, in->bytes, cudaMemcpyHostToDevice));
    return 0;
}

static void teardown(inputs *in)
{
    cudaFree(in->d_a);
    cudaFree(in->d_orig);
    free(in->host);
    lab09_free(&in->d);
}

static const char *call_name(const inputs *in)
{
    return in->d.blocked ? "lu_crout_blocked" : in->d.is_double ? "lu_crout_double" : "lu_crout";
}

static int student_lu(inputs *in)
{
    if (in->d.blocked)
        return lu_crout_blocked((float *)in->d_a, in->d.n);
    if (in->d.is_double)
        return lu_crout_double((double *)in->d_a, in->d.n);
    return lu_crout((float *)in->d_a, in->d.n);
}

static double entry(const inputs *in, const void *m, int i, int j)
{
    size_t t = (size_t)i * (size_t)in->d.n + (size_t)j;
    return in->d.is_double ? ((const double *)m)[t] : (double)((const float *)m)[t];
}

/* ||A - L U||_F / ||A||_F of the result, on the host in double (show mode, n <= 1100). */
static double backward_error(const inputs *in, const void *out)
{
    int n = in->d.n;
    double r2 = 0, a2 = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int kmax = i < j ? i : j;
            double s = 0;
            for (int k = 0; k <= kmax; k++) /* l_ik u_kj, u_jj = 1 */
                s += entry(in, out, i, k) * (k == j ? 1.0 : entry(in, out, k, j));
            double a = in->d.a[(size_t)i * n + j];
            r2 += (a - s) * (a - s);
            a2 += a * a;
        }
    return a2 > 0 ? sqrt(r2 / a2) : sqrt(r2);
}

static void show_result(const inputs *in, int status, const void *out)
{
    int n = in->d.n, c = n < 4 ? n : 4;
    printf("%s(n=%d) returned %d%s\n", call_name(in), n, status,
           status == LU_OK ? " (LU_OK)" : status > 0 ? " (a zero pivot)" : "");
    if (status > 0 && status <= n)
        printf("  the pivot of column %d counts as zero\n", status - 1);
    printf("top-left %d x %d of the result (L on and below the diagonal, U above):\n", c, c);
    for (int i = 0; i < c; i++) {
        printf("  ");
        for (int j = 0; j < c; j++)
            printf(" %12.6g", entry(in, out, i, j));
        printf("\n");
    }
    if (status == LU_OK && n <= 1100)
        printf("||A - LU||_F / ||A||_F = %.3g  (unit roundoff of %s: %.3g)\n", backward_error(in, out),
               in->d.is_double ? "double" : "float", in->d.u);
}

/* One traced call; records the status and the factored matrix. */
static int call_student(kit_run_ctx *ctx, inputs *in)
{
    ctx->kernel_optional = in->d.n == 0;
    kit_student_begin(ctx, call_name(in));
    int status = student_lu(in);
    if (kit_student_end(ctx) != 0)
        return KIT_RC_STUDENT_CUDA;
    void *out = malloc(in->bytes ? in->bytes : 1);
    if (!out) {
        fprintf(stderr, "lab09: out of host memory\n");
        return -1;
    }
    cudaError_t e = cudaMemcpy(out, in->d_a, in->bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
        free(out);
    KIT_HCHECK(e);
    int32_t st = status;
    size_t nn = (size_t)in->d.n * (size_t)in->d.n;
    kit_out(ctx, "status", KIT_T_I32, &st, 1);
    kit_out(ctx, "a", in->d.is_double ? KIT_T_F64 : KIT_T_F32, out, nn);
    if (ctx->show)
        show_result(in, status, out);
    free(out);
    return 0;
}

static void restore(inputs *in)
{
    /* timed with the call: both sides pay the same copy */
    cudaMemcpy(in->d_a, in->d_orig, in->bytes, cudaMemcpyDeviceToDevice);
}

static void time_baseline(void *arg)
{
    inputs *in = (inputs *)arg;
    restore(in);
    kit_lu_step((float *)in->d_a, in->d.n);
}

static int prepare_timing(inputs *in)
{
    KIT_HCHECK(cudaMalloc(&in->d_orig, in->bytes ? in->bytes : 1));
    KIT_HCHECK(cudaMemcpy(in->d_orig, in->host, in->bytes, cudaMemcpyHostToDevice));
    return 0;
}

/* The timed calls (fresh.cuh): before each, a fresh A - scale * (A with rows
 * and columns rotated by shift), dataset.h - is made in a buffer of its own;
 * the timed call copies it into the matrix it factors in place (as the
 * baseline copies the pristine A: both sides pay the same copy), so a
 * factorization remembered from an earlier call is wrong.  Whole rows and
 * columns of the factored matrix of a few calls are recorded for the checker. */
static void timed_lu(const kit_timed_calls *tc)
{
    inputs *in = (inputs *)tc->lab;
    cudaMemcpy(tc->out, tc->in[0].work, in->bytes, cudaMemcpyDeviceToDevice);
    float *a = (float *)tc->out;
    if (in->d.blocked)
        lu_crout_blocked(a, in->d.n);
    else
        lu_crout(a, in->d.n);
}

/* LAB09_TIMED_LINES random rows, then as many columns, whole. */
static void pick_lines(const kit_timed_calls *tc, kit_rng *r, int m, int64_t *idx)
{
    int64_t n = tc->side;
    (void)m;
    for (int l = 0; l < 2 * LAB09_TIMED_LINES; l++) {
        int64_t line = kit_rng_range(r, 0, n - 1);
        for (int64_t t = 0; t < n; t++)
            *idx++ = l < LAB09_TIMED_LINES ? line * n + t : t * n + line;
    }
}

static int time_lu(kit_run_ctx *ctx, inputs *in, int warmup, int reps, kit_timing *ts, kit_timing *tb)
{
    int n = in->d.n;
    kit_timed_calls tc = {};
    tc.name = call_name(in), tc.call = timed_lu, tc.lab = in;
    tc.how = KIT_FRESH_ROTATE_SQUARE, tc.side = n, tc.shift_hi = LAB09_TIMED_ROTATES(in->d.cls) ? n - 1 : 0;
    tc.in[0].orig = in->d_orig, tc.in[0].count = (int64_t)n * n, tc.n_in = 1;
    tc.out_count = (int64_t)n * n, tc.poison = 0xFF;
    tc.sample = 2 * LAB09_TIMED_LINES * n, tc.pick = pick_lines;
    return kit_timed_calls_time(&tc, ctx, time_baseline, in, warmup, reps, ts, tb);
}

int lab_run(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0)
        rc = call_student(ctx, &in);
    /* show mode, float: the time against the per-step baseline */
    kit_timing ts, tb;
    if (rc == 0 && ctx->show && !in.d.is_double && in.d.n > 0 && prepare_timing(&in) == 0 &&
        time_lu(ctx, &in, 1, 3, &ts, &tb) == 0)
        printf("time: %s %.3f ms, the kit's per-step version %.3f ms (medians of 3): speedup %.2fx\n", call_name(&in),
               ts.median_ms, tb.median_ms, tb.median_ms / ts.median_ms);
    teardown(&in);
    return rc;
}

int lab_bench(kit_run_ctx *ctx)
{
    inputs in = {};
    int rc = setup(ctx, &in);
    if (rc == 0 && (in.d.is_double || in.d.n == 0 || in.d.cls == LAB09_SINGULAR)) {
        fprintf(stderr, "lab09: the benchmark times float factorizations that complete (type=float, n > 0, matrix=dd, "
                        "poisson or zerodiag)\n");
        rc = -1;
    }
    if (rc == 0)
        rc = prepare_timing(&in);
    if (rc == 0)
        rc = call_student(ctx, &in); /* the result of this call is checked */
    kit_timing ts, tb;
    if (rc == 0 && time_lu(ctx, &in, ctx->warmup, ctx->reps, &ts, &tb) != 0)
        rc = -1;
    if (rc == 0) {
        double n = in.d.n, flops = 2.0 * n * n * n / 3.0;
        kit_out_f64(ctx, KIT_KEY_STUDENT_MS, ts.median_ms);
        kit_out_f64(ctx, KIT_KEY_BASELINE_MS, tb.median_ms);
        kit_out_f64(ctx, "metric.GFLOP/s (2n^3/3 flops)", flops / 1e9 / (ts.median_ms / 1e3));
        kit_out_f64(ctx, "metric.the per-step baseline, GFLOP/s", flops / 1e9 / (tb.median_ms / 1e3));
    }
    teardown(&in);
    return rc;
}
