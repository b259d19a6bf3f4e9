/* test_check.c - lab12's checker on the CPU: the right u passes (every
 * element compared, and sampled above 2^28 products); an element never
 * written (the NaN poison), a wrong one, an all-zero u (the starter) and the
 * products of a mirrored B (i and j swapped: right only for a symmetric B)
 * fail, naming the element; a timed call's u left from an earlier call fails. */
#include <math.h>

#include "check_main.h"
#include "dataset.h"
#include "lab_check_test.h"

static const char *CALL = "0\ttoeplitz_matvec\t1\t\n";
static const char *KERNEL = "0\t3,5,1\t128,1,1\t150000\ttoeplitz_matvec_shared(const float *, const float *, float *, int, int)\n";

/* u at (ix, iy) in double, for p'[J] = scale * p[(J + shift) % n]; mirror:
 * B(ix - jx + nx - 1, iy - jy + ny - 1) instead (the offsets swapped). */
static double u_at(const lab12_data *d, int ix, int iy, int64_t shift, double scale, int mirror)
{
    double s = 0;
    size_t ldb = LAB12_LDB(d->nx);
    for (int jy = 0; jy < d->ny; jy++)
        for (int jx = 0; jx < d->nx; jx++) {
            int kx = jx - ix + d->nx - 1, ky = jy - iy + d->ny - 1;
            if (mirror)
                kx = 2 * d->nx - 2 - kx, ky = 2 * d->ny - 2 - ky;
            size_t J = (size_t)jy * d->nx + jx;
            float pj = shift ? (float)(scale * d->p[(J + (size_t)shift) % d->n]) : d->p[J];
            s += (double)d->b[ky * ldb + kx] * (double)pj;
        }
    return s;
}

static void data(const char *params, uint64_t seed, lab12_data *d)
{
    kit_params p;
    char err[128];
    ck_assert_int_eq(kit_params_parse(params, &p, err, sizeof err), 0);
    ck_assert_int_eq(lab12_generate(&p, seed, d, err, sizeof err), 0);
}

enum { RIGHT, ZERO, MIRROR };

/* The case's u (right, all zero, or mirrored). */
static float *u_of(const lab12_data *d, int kind)
{
    float *u = malloc(d->n * sizeof *u);
    for (int i = 0; i < d->n; i++)
        u[i] = kind == ZERO ? 0.0f : (float)u_at(d, (int)(i % d->nx), (int)(i / d->nx), 0, 1, kind == MIRROR);
    return u;
}

/* u as a runner's output file, with u[broken] = `value` when broken >= 0. */
static kit_writer *written(const lab12_data *d, const float *u0, long broken, float value)
{
    float *u = malloc(d->n * sizeof *u);
    memcpy(u, u0, d->n * sizeof *u);
    if (broken >= 0)
        u[broken] = value;
    kit_writer *w = lct_open();
    kit_writer_put(w, "u", KIT_T_F32, u, (uint64_t)d->n);
    lct_trace(w, CALL, KERNEL);
    free(u);
    return w;
}

static kit_writer *output(const char *params, uint64_t seed, int kind, long broken, float value)
{
    lab12_data d;
    data(params, seed, &d);
    float *u = u_of(&d, kind);
    kit_writer *w = written(&d, u, broken, value);
    free(u);
    lab12_free(&d);
    return w;
}

/* The summary and the detail lines. */
static int check_details(kit_writer *w, const char *params, uint64_t seed, char *why, size_t len)
{
    return lct_run(w, params, seed, "", 0, 1, 1, 1, why, len);
}

START_TEST(right_output_passes)
{
    char why[1024];
    static const char *cases[] = {"nx=1 ny=1", "nx=1 ny=7", "nx=300 ny=1", "nx=129 ny=3", "nx=33 ny=5 dist=positive"};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        ck_assert_msg(lct_check(output(cases[c], 7, RIGHT, -1, 0), cases[c], 7, why, sizeof why) == 0, "%s: %s",
                      cases[c], why);
}
END_TEST

START_TEST(unwritten_and_wrong_elements_fail)
{
    char why[1024];
    ck_assert_int_eq(check_details(output("nx=129 ny=3", 7, RIGHT, 200, NAN), "nx=129 ny=3", 7, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "u[200] (grid point ix=71, iy=1)") && strstr(why, "NaN: no thread wrote it"), "%s", why);
    ck_assert_int_eq(lct_check(output("nx=129 ny=3", 7, RIGHT, 386, 1e-3f), "nx=129 ny=3", 7, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "1 of 387 elements differ; first wrong u[386]"), "%s", why);
    ck_assert_int_eq(lct_check(output("nx=1000 ny=2", 8, RIGHT, -1, 0), "nx=1000 ny=2", 9, why, sizeof why), 1);
}
END_TEST

/* The starter: every u is 0 */
START_TEST(zero_output_fails_with_hint)
{
    char why[1024];
    ck_assert_int_eq(check_details(output("nx=40 ny=3", 7, ZERO, -1, 0), "nx=40 ny=3", 7, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "120 of 120 elements differ") && strstr(why, "without adding any product"), "%s", why);
}
END_TEST

/* kx = ix - jx (the offsets swapped): right for the physical, symmetric B,
 * wrong for the lab's random one. */
START_TEST(mirrored_b_fails)
{
    char why[1024];
    ck_assert_int_eq(lct_check(output("nx=20 ny=4", 7, MIRROR, -1, 0), "nx=20 ny=4", 7, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "elements differ; first wrong u[0]"), "%s", why);
}
END_TEST

/* Above 2^28 products (130 x 130: 16900 points) the checker samples: the
 * right u passes, a NaN anywhere fails, a wrong value in the first grid row
 * (always sampled) fails. */
START_TEST(sampled_check)
{
    char why[1024];
    const char *params = "nx=130 ny=130";
    lab12_data d;
    data(params, 3, &d);
    float *u = u_of(&d, RIGHT);
    ck_assert_msg(lct_check(written(&d, u, -1, 0), params, 3, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(lct_check(written(&d, u, 9001, NAN), params, 3, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "u[9001] (grid point ix=31, iy=69) is NaN"), "%s", why);
    ck_assert_int_eq(lct_check(written(&d, u, 77, 5.0f), params, 3, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "compared elements differ; first wrong u[77]"), "%s", why);
    free(u);
    lab12_free(&d);
}
END_TEST

/* A benchmark's outputs: the checked u, then one timed call on a fresh p
 * (rotated by 5, scaled by 2), sampled; `stale` makes the samples the
 * checked call's u (left from an earlier call). */
START_TEST(timed_calls_are_checked)
{
    char why[1024];
    const char *params = "nx=50 ny=7";
    lab12_data d;
    data(params, 11, &d);
    int64_t shift = 5, idx[LAB12_TIMED_SAMPLE];
    double scale = 2;
    float val[LAB12_TIMED_SAMPLE];
    int32_t call = 9;
    for (int stale = 0; stale < 2; stale++) {
        float *u = malloc(d.n * sizeof *u);
        for (int i = 0; i < d.n; i++)
            u[i] = (float)u_at(&d, (int)(i % d.nx), (int)(i / d.nx), 0, 1, 0);
        for (int j = 0; j < LAB12_TIMED_SAMPLE; j++) {
            idx[j] = (int64_t)((j * 7919LL) % (int64_t)d.n);
            val[j] = stale ? u[idx[j]] : (float)u_at(&d, (int)(idx[j] % d.nx), (int)(idx[j] / d.nx), shift, scale, 0);
        }
        kit_writer *w = lct_open();
        kit_writer_put(w, "u", KIT_T_F32, u, (uint64_t)d.n);
        lct_timed(w, &call, &shift, &scale, 1, idx, val, LAB12_TIMED_SAMPLE);
        lct_trace(w, CALL, KERNEL);
        int rc = lct_run(w, params, 11, "", 0, 1, 1, 1, why, sizeof why);
        if (!stale)
            ck_assert_msg(rc == 0, "%s", why);
        else {
            ck_assert_int_eq(rc, 1);
            ck_assert_msg(strstr(why, "timed call 9 of toeplitz_matvec"), "%s", why);
        }
        free(u);
    }
    lab12_free(&d);
}
END_TEST

START_TEST(bad_parameters_refused)
{
    kit_params p;
    char err[256];
    static const char *bad[] = {"nx=0", "ny=5", "nx=5 ny=0", "nx=20000", "nx=1024 ny=1024", "nx=4 dist=normal", "n=5"};
    for (size_t c = 0; c < sizeof bad / sizeof *bad; c++) {
        ck_assert_int_eq(kit_params_parse(bad[c], &p, err, sizeof err), 0);
        ck_assert_msg(lab_params_validate(&p, err, sizeof err) != 0, "%s accepted", bad[c]);
    }
    ck_assert_int_eq(kit_params_parse("nx=4", &p, err, sizeof err), 0);
    lab12_data d;
    ck_assert_int_eq(lab12_generate(&p, 1, &d, err, sizeof err), 0);
    ck_assert(d.ny == 4 && d.n == 16 && d.b_count == 7 * 8 && d.b[7] == 0.0f && d.b[6 * 8 + 7] == 0.0f && d.b[6] != 0.0f);
    lab12_free(&d);
}
END_TEST

static Suite *check_suite(void)
{
    Suite *s = suite_create("lab12 check");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, right_output_passes);
    tcase_add_test(tc, unwritten_and_wrong_elements_fail);
    tcase_add_test(tc, zero_output_fails_with_hint);
    tcase_add_test(tc, mirrored_b_fails);
    tcase_add_test(tc, sampled_check);
    tcase_add_test(tc, timed_calls_are_checked);
    tcase_add_test(tc, bad_parameters_refused);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(check_suite)
