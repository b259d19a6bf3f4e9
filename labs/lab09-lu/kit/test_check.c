/* test_check.c - lab09's checker on the CPU.  Float Crout factorizations
 * computed here in the per-step order and in the blocked order pass; the
 * starter's off-by-one sum, an exact "== 0" pivot test, Doolittle's
 * convention, NaN output and wrong statuses fail with a message that names
 * them; above n = 1100 the probing check catches one wrong entry. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "dataset.h"
#include "kit/ref.h"
#include "lab_check_test.h"
#include "lu.h"

static const char *CALL_STEP = "0\tlu_crout\t1\t\n";
static const char *CALL_BLOCKED = "0\tlu_crout_blocked\t1\t\n";
static const char *CALL_DOUBLE = "0\tlu_crout_double\t1\t\n";
static const char *KERNEL = "0\t4,2,1\t256,1,1\t30000\tvoid crout_step_kernel<float>(float *, int, int, const float *, "
                            "const float *, int *)\n";

typedef enum { RIGHT, SUM_TOO_FAR, EXACT_ZERO_TEST, DOOLITTLE } variant;

static void generate(const char *params, uint64_t seed, lab09_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_msg(lab09_generate(&p, seed, d, err, sizeof err) == 0, "%s", err);
}

static float pivot_tol(const lab09_data *d, int j)
{
    size_t N = (size_t)d->n;
    double s = 0;
    for (size_t k = 0; k < N; k++)
        s = fmax(s, fmax(fabs(d->a[(size_t)j * N + k]), fabs(d->a[k * N + (size_t)j])));
    return (float)(LU_PIVOT_RTOL(d->n, LU_U_FLOAT) * s);
}

/* Crout in float, in the per-step order of the lab (sums k = 0, 1, ...). */
static int crout_float(const lab09_data *d, float *a, variant v)
{
    int n = d->n;
    size_t N = (size_t)n;
    for (size_t t = 0; t < N * N; t++)
        a[t] = (float)d->a[t];
    float *ucol = malloc((N ? N : 1) * sizeof *ucol);
    int status = LU_OK;
    for (int j = 0; j < n && status == LU_OK; j++) {
        int terms = v == SUM_TOO_FAR ? j + 1 : j; /* the starter's k <= j reads a_ij a_jj last */
        for (int k = 0; k < terms; k++)
            ucol[k] = a[(size_t)k * N + j];
        for (int i = j; i < n; i++) {
            float s = a[(size_t)i * N + j];
            for (int k = 0; k < terms; k++)
                s = fmaf(-a[(size_t)i * N + k], ucol[k], s); /* as the GPU contracts it */
            a[(size_t)i * N + j] = s;
        }
        float pivot = a[(size_t)j * N + j];
        int zero = v == EXACT_ZERO_TEST ? pivot == 0.0f : !(fabsf(pivot) > pivot_tol(d, j));
        if (zero) {
            status = j + 1;
            break;
        }
        for (int k = j + 1; k < n; k++) {
            float s = a[(size_t)j * N + k];
            for (int m = 0; m < terms; m++)
                s = fmaf(-a[(size_t)j * N + m], a[(size_t)m * N + k], s);
            a[(size_t)j * N + k] = s / pivot;
        }
    }
    if (v == DOOLITTLE && status == LU_OK) /* A = (L D^-1)(D U): unit L, pivots on U's diagonal */
        for (int i = 0; i < n; i++) {
            float dii = a[(size_t)i * N + i];
            for (int k = i + 1; k < n; k++)
                a[(size_t)i * N + k] *= dii;
            for (int r = i + 1; r < n; r++)
                a[(size_t)r * N + i] /= dii;
            a[(size_t)i * N + i] = 1.0f;
        }
    free(ucol);
    return status;
}

/* Right-looking blocked LU in float with panels of 32 (the order of the
 * reference solution's Part 2): another summation order that must pass. */
static int blocked_float(const lab09_data *d, float *a)
{
    int n = d->n;
    size_t N = (size_t)n;
    for (size_t t = 0; t < N * N; t++)
        a[t] = (float)d->a[t];
    for (int J = 0; J < n; J += 32) {
        int b = n - J < 32 ? n - J : 32;
        for (int j = J; j < J + b; j++) { /* diagonal block, right-looking */
            float p = a[(size_t)j * N + j];
            if (!(fabsf(p) > pivot_tol(d, j)))
                return j + 1;
            for (int k = j + 1; k < J + b; k++)
                a[(size_t)j * N + k] /= p;
            for (int r = j + 1; r < J + b; r++)
                for (int k = j + 1; k < J + b; k++)
                    a[(size_t)r * N + k] -= a[(size_t)r * N + j] * a[(size_t)j * N + k];
        }
        for (int i = J + b; i < n; i++) /* L21 = A21 U11^-1 */
            for (int c = J; c < J + b; c++)
                for (int q = J; q < c; q++)
                    a[(size_t)i * N + c] -= a[(size_t)i * N + q] * a[(size_t)q * N + c];
        for (int k = J + b; k < n; k++) /* U12 = L11^-1 A12 */
            for (int r = J; r < J + b; r++) {
                float s = a[(size_t)r * N + k];
                for (int q = J; q < r; q++)
                    s -= a[(size_t)r * N + q] * a[(size_t)q * N + k];
                a[(size_t)r * N + k] = s / a[(size_t)r * N + r];
            }
        for (int i = J + b; i < n; i++) /* A22 -= L21 U12, a sum per entry */
            for (int k = J + b; k < n; k++) {
                float acc = 0;
                for (int q = J; q < J + b; q++)
                    acc += a[(size_t)i * N + q] * a[(size_t)q * N + k];
                a[(size_t)i * N + k] -= acc;
            }
    }
    return LU_OK;
}

/* The verdict on (status, a) with the summary and the detail lines in text. */
static int verdict(const char *params, uint64_t seed, const char *call, int status, const void *a, int is_double,
                   size_t count, char *text, size_t len)
{
    kit_writer *w = lct_open();
    int32_t st = status;
    kit_writer_put(w, "status", KIT_T_I32, &st, 1);
    kit_writer_put(w, "a", is_double ? KIT_T_F64 : KIT_T_F32, a, count);
    lct_trace(w, call, KERNEL);
    return lct_run(w, params, seed, "", 0, 1, 1, 1, text, len);
}

/* A benchmark's outputs: the checked call's factors, then the record of 2
 * timed calls (calls 7 and 30), each on a fresh A (rows and columns rotated
 * by shift, scaled; dataset.h), with LAB09_TIMED_LINES rows and as many
 * columns of its factors.  stale >= 0: that call's factors are those of the
 * call before (a remembered factorization); raw: call 30 left A unfactored. */
static int timed_verdict(const char *params, uint64_t seed, int stale, int raw, char *text, size_t len)
{
    lab09_data d;
    generate(params, seed, &d);
    size_t N = (size_t)d.n, nn = N * N;
    double *orig = d.a, *fresh = malloc(nn * sizeof *fresh);
    float *checked = malloc(nn * sizeof *checked), *f[2];
    ck_assert_int_eq(blocked_float(&d, checked), LU_OK);
    int32_t call[2] = {7, 30};
    int64_t shift[2] = {5, (int64_t)N - 1};
    double scale[2] = {0.25, -8};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                fresh[i * N + j] = scale[k] * orig[((i + shift[k]) % N) * N + (j + shift[k]) % N];
        d.a = fresh;
        f[k] = malloc(nn * sizeof *f[k]);
        if (raw && k == 1)
            for (size_t t = 0; t < nn; t++)
                f[k][t] = (float)fresh[t];
        else
            ck_assert_int_eq(blocked_float(&d, f[k]), LU_OK);
        d.a = orig;
    }
    if (stale == 1)
        memcpy(f[1], f[0], nn * sizeof *f[1]);
    size_t per = 2 * LAB09_TIMED_LINES * N;
    int64_t *idx = malloc(2 * per * sizeof *idx);
    float *val = malloc(2 * per * sizeof *val);
    for (int k = 0; k < 2; k++)
        for (int l = 0; l < 2 * LAB09_TIMED_LINES; l++) {
            size_t line = (size_t)(3 * l + k) % N; /* rows 0, 3, 6, 9 and columns 12, ... for call 7 */
            for (size_t t = 0; t < N; t++) {
                size_t at = (size_t)k * per + (size_t)l * N + t;
                idx[at] = (int64_t)(l < LAB09_TIMED_LINES ? line * N + t : t * N + line);
                val[at] = f[k][idx[at]];
            }
        }
    kit_writer *w = lct_open();
    int32_t st = LU_OK;
    kit_writer_put(w, "status", KIT_T_I32, &st, 1);
    kit_writer_put(w, "a", KIT_T_F32, checked, nn);
    lct_timed(w, call, shift, scale, 2, idx, val, 2 * per);
    lct_trace(w, CALL_BLOCKED, KERNEL);
    int rc = lct_run(w, params, seed, "", 0, 1, 1, 0, text, len);
    free(fresh), free(checked), free(f[0]), free(f[1]), free(idx), free(val);
    lab09_free(&d);
    return rc;
}

START_TEST(timed_calls_are_checked)
{
    char text[1024];
    const char *params = "impl=blocked matrix=dd n=40";
    ck_assert_msg(timed_verdict(params, 3, -1, 0, text, sizeof text) == 0, "%s", text);
    ck_assert_int_eq(timed_verdict(params, 3, 1, 0, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 30 of lu_crout_blocked (fresh A each call)") && strstr(text, "remembered"),
                  "%s", text);
    ck_assert_int_eq(timed_verdict(params, 3, -1, 1, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "timed call 30 of lu_crout_blocked"), "%s", text);
    /* the Poisson class rotates too */
    ck_assert_msg(timed_verdict("impl=blocked matrix=poisson n=49", 4, -1, 0, text, sizeof text) == 0, "%s", text);
}
END_TEST

/* Factors `params` on the CPU (per-step or blocked order, with variant v)
 * and returns the checker's verdict. */
static int run(const char *params, uint64_t seed, int blocked, variant v, char *text, size_t len)
{
    lab09_data d;
    generate(params, seed, &d);
    size_t nn = (size_t)d.n * (size_t)d.n;
    float *a = malloc((nn ? nn : 1) * sizeof *a);
    int status = blocked ? blocked_float(&d, a) : crout_float(&d, a, v);
    int r = verdict(params, seed, blocked ? CALL_BLOCKED : CALL_STEP, status, a, 0, nn, text, len);
    free(a);
    lab09_free(&d);
    return r;
}

START_TEST(right_factors_pass)
{
    char text[2048];
    const char *cases[] = {"n=1", "n=31", "n=256", "matrix=poisson n=256", "matrix=zerodiag n=100 every=3",
                           "matrix=zerodiag n=64 every=2", "n=0"};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        ck_assert_msg(run(cases[t], 3, 0, RIGHT, text, sizeof text) == 0, "%s: %s", cases[t], text);
        ck_assert_ptr_nonnull(strstr(text, "note: ||A - LU||_F"));
    }
}
END_TEST

START_TEST(blocked_order_passes)
{
    char text[2048];
    const char *cases[] = {"impl=blocked n=300", "impl=blocked matrix=poisson n=256",
                           "impl=blocked matrix=zerodiag n=200 every=3", "impl=blocked n=33"};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++)
        ck_assert_msg(run(cases[t], 5, 1, RIGHT, text, sizeof text) == 0, "%s: %s", cases[t], text);
}
END_TEST

START_TEST(double_factors_pass)
{
    char text[2048];
    const char *params = "type=double matrix=zerodiag n=97 every=4";
    lab09_data d;
    generate(params, 7, &d);
    size_t N = (size_t)d.n;
    double *l = malloc(N * N * sizeof *l), *u = malloc(N * N * sizeof *u), *a = malloc(N * N * sizeof *a);
    ck_assert_int_eq(kit_ref_crout(d.a, d.n, l, u, LU_PIVOT_RTOL(d.n, LU_U_DOUBLE), NULL), KIT_LU_OK);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            a[i * N + j] = j <= i ? l[i * N + j] : u[i * N + j];
    ck_assert_msg(verdict(params, 7, CALL_DOUBLE, 0, a, 1, N * N, text, sizeof text) == 0, "%s", text);
    /* float data where double is expected */
    ck_assert_int_eq(verdict(params, 7, CALL_DOUBLE, 0, a, 0, N * N, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "f32"));
    free(l), free(u), free(a);
    lab09_free(&d);
}
END_TEST

/* The starter's bug: the sum runs k <= j. */
START_TEST(sum_one_term_too_far_fails)
{
    char text[2048];
    ck_assert_int_eq(run("n=33", 9, 0, SUM_TOO_FAR, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "first wrong step is j = 0"));
    ck_assert_ptr_nonnull(strstr(text, "column 0 of L"));
    /* with a singular minor the column-0 check catches it too */
    ck_assert_int_eq(run("matrix=singular n=31 k=2", 9, 0, SUM_TOO_FAR, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "L[1][0]") || strstr(text, "returned"), "%s", text);
}
END_TEST

START_TEST(singular_minor_is_reported)
{
    char text[2048];
    /* the right behaviour: status k, finite, the steps before it right */
    ck_assert_msg(run("matrix=singular n=64 k=20", 11, 0, RIGHT, text, sizeof text) == 0, "%s", text);
    ck_assert_msg(run("impl=blocked matrix=singular n=100 k=40", 11, 1, RIGHT, text, sizeof text) == 0, "%s", text);
    /* "l_jj == 0" lets the rounding noise through: no status, and the
     * division by a pivot of size 1e-7 or so wrecks everything after it */
    ck_assert_int_eq(run("matrix=singular n=64 k=20", 11, 0, EXACT_ZERO_TEST, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "returned LU_OK") || strstr(text, "expected status 20"), "%s", text);
}
END_TEST

START_TEST(wrong_status_and_nan_fail)
{
    char text[2048];
    const char *params = "n=40";
    lab09_data d;
    generate(params, 13, &d);
    size_t nn = (size_t)d.n * (size_t)d.n;
    float *a = malloc(nn * sizeof *a);
    ck_assert_int_eq(crout_float(&d, a, RIGHT), LU_OK);
    ck_assert_int_eq(verdict(params, 13, CALL_STEP, 7, a, 0, nn, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "every leading minor of this matrix is regular"));
    a[5 * 40 + 30] = NAN;
    ck_assert_int_eq(verdict(params, 13, CALL_STEP, 0, a, 0, nn, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "U[5][30] (row 5 of U) is NaN"));
    a[5 * 40 + 30] = INFINITY;
    ck_assert_int_eq(verdict(params, 13, CALL_STEP, 0, a, 0, nn, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "infinite"));
    free(a);
    lab09_free(&d);
    /* a NaN after a reported zero pivot still fails */
    params = "matrix=singular n=50 k=10";
    generate(params, 13, &d);
    nn = (size_t)d.n * (size_t)d.n;
    a = malloc(nn * sizeof *a);
    ck_assert_int_eq(crout_float(&d, a, RIGHT), 10);
    a[nn - 1] = NAN;
    ck_assert_int_eq(verdict(params, 13, CALL_STEP, 10, a, 0, nn, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "NaN"));
    free(a);
    lab09_free(&d);
}
END_TEST

START_TEST(doolittle_is_named)
{
    char text[2048];
    ck_assert_int_eq(run("n=20", 15, 0, DOOLITTLE, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "Doolittle"));
}
END_TEST

/* n > 1100: no reference, random probes of A - LU. */
START_TEST(probing_catches_one_wrong_entry)
{
    char text[2048];
    const char *params = "impl=blocked n=1101";
    lab09_data d;
    generate(params, 17, &d);
    size_t nn = (size_t)d.n * (size_t)d.n;
    float *a = malloc(nn * sizeof *a);
    ck_assert_int_eq(blocked_float(&d, a), LU_OK);
    ck_assert_msg(verdict(params, 17, CALL_BLOCKED, 0, a, 0, nn, text, sizeof text) == 0, "%s", text);
    a[900 * 1101 + 700] = -a[900 * 1101 + 700]; /* one entry of L with the wrong sign */
    ck_assert_int_eq(verdict(params, 17, CALL_BLOCKED, 0, a, 0, nn, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "A x and L (U x) differ in row 900"), "%s", text);
    free(a);
    lab09_free(&d);
}
END_TEST

START_TEST(length_and_policy)
{
    char text[2048], why[512];
    const char *params = "n=31";
    lab09_data d;
    generate(params, 19, &d);
    size_t nn = (size_t)d.n * (size_t)d.n;
    float *a = malloc(nn * sizeof *a);
    crout_float(&d, a, RIGHT);
    ck_assert_int_eq(verdict(params, 19, CALL_STEP, 0, a, 0, nn - 1, text, sizeof text), 1);
    ck_assert_ptr_nonnull(strstr(text, "expected n*n"));
    int32_t st = 0;
    kit_writer *w = lct_open(); /* factored on the host */
    kit_writer_put(w, "status", KIT_T_I32, &st, 1);
    kit_writer_put(w, "a", KIT_T_F32, a, nn);
    lct_trace(w, CALL_STEP, "");
    ck_assert_int_eq(lct_check(w, params, 19, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "no kernel of its own"));
    w = lct_open(); /* factored by cuSOLVER */
    kit_writer_put(w, "status", KIT_T_I32, &st, 1);
    kit_writer_put(w, "a", KIT_T_F32, a, nn);
    lct_trace(w, CALL_STEP, "0\t1,1,1\t256,1,1\t9000\tvoid cusolver::getrf_kernel<float>()\n");
    ck_assert_int_eq(lct_check(w, params, 19, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "cuSOLVER"));
    w = lct_open(); /* the status is missing */
    kit_writer_put(w, "a", KIT_T_F32, a, nn);
    lct_trace(w, CALL_STEP, KERNEL);
    ck_assert_int_eq(lct_check(w, params, 19, why, sizeof why), 1);
    ck_assert_ptr_nonnull(strstr(why, "status"));
    free(a);
    lab09_free(&d);
    /* n = 0: nothing to do, no kernel needed */
    w = lct_open();
    kit_writer_put(w, "status", KIT_T_I32, &st, 1);
    kit_writer_put(w, "a", KIT_T_F32, &st, 0);
    lct_trace(w, "0\tlu_crout\t0\t\n", "");
    ck_assert_msg(lct_check(w, "n=0", 1, why, sizeof why) == 0, "%s", why);
}
END_TEST

static Suite *lab09_suite(void)
{
    Suite *s = suite_create("lab09-check");
    TCase *tc = tcase_create("verdicts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, right_factors_pass);
    tcase_add_test(tc, blocked_order_passes);
    tcase_add_test(tc, double_factors_pass);
    tcase_add_test(tc, sum_one_term_too_far_fails);
    tcase_add_test(tc, singular_minor_is_reported);
    tcase_add_test(tc, wrong_status_and_nan_fail);
    tcase_add_test(tc, doolittle_is_named);
    tcase_add_test(tc, probing_catches_one_wrong_entry);
    tcase_add_test(tc, length_and_policy);
    tcase_add_test(tc, timed_calls_are_checked);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(lab09_suite)
