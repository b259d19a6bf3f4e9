/* test_gen.c - input generators: reproducibility, golden values, documented
 * distributions, CSR structure, and the dense matrices of the LU lab. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "kit/gen.h"
#include "kit/ref.h"

/* Long arrays are generated in pieces on several threads: the values, and
 * where the stream stands afterwards, are those of one pass on one thread
 * (a seed must give the same data on a 2-core laptop and a 16-core server). */
static void gen_both(int threads, size_t n, float *f, int32_t *v, int32_t *sk, uint64_t *next)
{
    char t[8];
    snprintf(t, sizeof t, "%d", threads);
    setenv("KIT_THREADS", t, 1);
    kit_rng r;
    kit_rng_seed(&r, 0xabcdef12ULL, 1);
    kit_gen_uniform_f32(&r, f, n, -1.0f, 1.0f);
    kit_gen_uniform_i32(&r, v, n, -3, 3);
    kit_gen_skewed_i32(&r, sk, n, 0, 4095, 0.9, 17);
    *next = kit_rng_u64(&r);
    unsetenv("KIT_THREADS");
}

START_TEST(pieces_on_threads_equal_one_pass)
{
    const size_t sizes[] = {1, 1000, (1u << 18) - 1, 1u << 18, (1u << 20) + 7};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        float *f1 = malloc(n * sizeof *f1), *f7 = malloc(n * sizeof *f7);
        int32_t *v1 = malloc(n * sizeof *v1), *v7 = malloc(n * sizeof *v7);
        int32_t *s1 = malloc(n * sizeof *s1), *s7 = malloc(n * sizeof *s7);
        ck_assert(f1 && f7 && v1 && v7 && s1 && s7);
        uint64_t next1, next7;
        gen_both(1, n, f1, v1, s1, &next1);
        gen_both(7, n, f7, v7, s7, &next7);
        ck_assert_msg(!memcmp(f1, f7, n * sizeof *f1), "floats differ at n=%zu", n);
        ck_assert_msg(!memcmp(v1, v7, n * sizeof *v1), "ints differ at n=%zu", n);
        ck_assert_msg(!memcmp(s1, s7, n * sizeof *s1), "skewed ints differ at n=%zu", n);
        ck_assert_uint_eq(next1, next7);
        free(f1), free(f7), free(v1), free(v7), free(s1), free(s7);
    }
}
END_TEST

/* ---- golden values (seed 42, stream 0): a platform difference shows here ---- */
START_TEST(golden_seed_42)
{
    kit_rng r;
    int32_t v[8];
    kit_rng_seed(&r, 42, 0);
    kit_gen_uniform_i32(&r, v, 8, -1000, 1000);
    static const int32_t want_u[8] = {-210, -533, 123, -664, -435, -102, -754, -607};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(v[i], want_u[i]);

    kit_rng_seed(&r, 42, 0);
    kit_gen_skewed_i32(&r, v, 8, 0, 255, 0.5, 7);
    static const int32_t want_s[8] = {7, 43, 7, 7, 201, 7, 237, 7}; /* two draws an element */
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(v[i], want_s[i]);

    float f[4];
    kit_rng_seed(&r, 42, 0);
    kit_gen_uniform_f32(&r, f, 4, 0.0f, 10.0f);
    static const float want_f[4] = {3.94919682f, 2.33611155f, 5.61391068f, 1.68029785f};
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(f[i], want_f[i]);

    kit_csr m;
    kit_rng_seed(&r, 42, 0);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 3, 10, 3), 0);
    static const int want_col[9] = {2, 3, 5, 0, 1, 5, 2, 6, 8};
    for (int i = 0; i < 9; i++)
        ck_assert_int_eq(m.col[i], want_col[i]);
    kit_csr_free(&m);

    kit_rng_seed(&r, 42, 0);
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, 12, 100, 50, 2.0, 0.25), 0);
    static const int want_rp[13] = {0, 1, 4, 4, 4, 5, 19, 19, 19, 20, 49, 92, 94};
    for (int i = 0; i <= 12; i++)
        ck_assert_int_eq(m.row_ptr[i], want_rp[i]);
    kit_csr_free(&m);

    double a[9];
    kit_rng_seed(&r, 42, 0);
    kit_gen_diag_dominant(&r, a, 3);
    static const double want_a[9] = {1.9395307228233543,  -0.21016061090647198, -0.53277764412369399,
                                     0.12278211814935336, -2.5740872659714129,  -0.66394036289931568,
                                     -0.4344336578116641, -0.10241572150417877, 2.3948172882936793};
    for (int i = 0; i < 9; i++)
        ck_assert_double_eq(a[i], want_a[i]);
}
END_TEST

START_TEST(same_seed_same_data_streams_differ)
{
    enum { N = 1000 };
    int32_t a[N], b[N], c[N];
    kit_rng r;
    kit_rng_seed(&r, 7, 0);
    kit_gen_uniform_i32(&r, a, N, 0, 1 << 30);
    kit_rng_seed(&r, 7, 0);
    kit_gen_uniform_i32(&r, b, N, 0, 1 << 30);
    kit_rng_seed(&r, 7, 1);
    kit_gen_uniform_i32(&r, c, N, 0, 1 << 30);
    ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
    int same = 0;
    for (int i = 0; i < N; i++)
        same += a[i] == c[i];
    ck_assert_int_lt(same, 3);

    kit_csr m1, m2;
    kit_rng_seed(&r, 7, 0);
    kit_gen_csr_powerlaw(&r, &m1, 200, 300, 40, 2.0, 0.1);
    kit_rng_seed(&r, 7, 0);
    kit_gen_csr_powerlaw(&r, &m2, 200, 300, 40, 2.0, 0.1);
    ck_assert_int_eq(m1.nnz, m2.nnz);
    ck_assert_int_eq(memcmp(m1.row_ptr, m2.row_ptr, 201 * sizeof(int)), 0);
    ck_assert_int_eq(memcmp(m1.col, m2.col, (size_t)m1.nnz * sizeof(int)), 0);
    ck_assert_int_eq(memcmp(m1.val, m2.val, (size_t)m1.nnz * sizeof(float)), 0);
    kit_csr_free(&m1);
    kit_csr_free(&m2);
}
END_TEST

/* ---- documented distributions ------------------------------------------------ */
START_TEST(uniform_covers_range)
{
    enum { N = 100000 };
    int32_t *v = malloc(N * sizeof *v);
    kit_rng r;
    kit_rng_seed(&r, 11, 0);
    kit_gen_uniform_i32(&r, v, N, -3, 6);
    int count[10] = {0};
    for (int i = 0; i < N; i++) {
        ck_assert(v[i] >= -3 && v[i] <= 6);
        count[v[i] + 3]++;
    }
    for (int b = 0; b < 10; b++) /* 10000 expected, sd ~95 */
        ck_assert_msg(count[b] > 9400 && count[b] < 10600, "value %d: %d", b - 3, count[b]);
    float *f = malloc(N * sizeof *f);
    kit_gen_uniform_f32(&r, f, N, -2.0f, 2.0f);
    float lo = 2, hi = -2;
    for (int i = 0; i < N; i++) {
        ck_assert(f[i] >= -2.0f && f[i] < 2.0f);
        lo = fminf(lo, f[i]);
        hi = fmaxf(hi, f[i]);
    }
    ck_assert(lo < -1.99f && hi > 1.99f);
    free(v);
    free(f);
}
END_TEST

START_TEST(skewed_hot_fraction)
{
    enum { N = 100000 };
    int32_t *v = malloc(N * sizeof *v);
    kit_rng r;
    kit_rng_seed(&r, 12, 0);
    kit_gen_skewed_i32(&r, v, N, 0, 255, 0.9, 7);
    int hot = 0;
    for (int i = 0; i < N; i++) {
        ck_assert(v[i] >= 0 && v[i] <= 255);
        hot += v[i] == 7;
    }
    /* 0.9 + 0.1/256 expected; sd ~ 0.001: a loose 0.01 tolerance */
    double frac = hot / (double)N;
    ck_assert_msg(fabs(frac - (0.9 + 0.1 / 256)) < 0.01, "hot fraction %.4f", frac);
    /* "equal": p = 1 makes every value hot */
    kit_gen_skewed_i32(&r, v, 1000, 0, 255, 1.0, 3);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(v[i], 3);
    free(v);
}
END_TEST

static int cmp_int(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Sorted = the uniform data of the same seed, sorted (checks the radix sort
 * against qsort, negative values and the full int32 range included). */
START_TEST(sorted_is_sorted_uniform)
{
    enum { N = 50000 };
    static int32_t s[N], u[N];
    const int32_t ranges[3][2] = {{0, 9}, {-1000, 1000}, {INT32_MIN, INT32_MAX}};
    for (int k = 0; k < 3; k++) {
        kit_rng r;
        kit_rng_seed(&r, 13, (uint64_t)k);
        kit_gen_sorted_i32(&r, s, N, ranges[k][0], ranges[k][1]);
        kit_rng_seed(&r, 13, (uint64_t)k);
        kit_gen_uniform_i32(&r, u, N, ranges[k][0], ranges[k][1]);
        qsort(u, N, sizeof *u, cmp_int);
        ck_assert_int_eq(memcmp(s, u, sizeof s), 0);
        int distinct = 1;
        for (int i = 1; i < N; i++) {
            ck_assert(s[i - 1] <= s[i]);
            distinct += s[i] != s[i - 1];
        }
        if (k == 0) /* a small range: ten long runs of duplicates */
            ck_assert_int_eq(distinct, 10);
    }
}
END_TEST

/* Long arrays are sorted on several threads: the same array as qsort's, on
 * one thread or seven, sizes around the cut into pieces, values of a small
 * range (long runs of one value across the slices), a middle one and the
 * full range (an odd and an even number of passes). */
START_TEST(sorted_on_threads_equal_qsort)
{
    const size_t sizes[] = {(1u << 18) - 1, 1u << 18, (1u << 20) + 7};
    const int32_t ranges[3][2] = {{-3, 3}, {0, 65536}, {INT32_MIN, INT32_MAX}}; /* 1, 3 (span 2^16) and 4 passes */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int g = 0; g < 3; g++)
            for (int threads = 1; threads <= 7; threads += 6) {
                size_t n = sizes[k];
                int32_t *s = malloc(n * sizeof *s), *u = malloc(n * sizeof *u);
                ck_assert(s && u);
                char t[8];
                snprintf(t, sizeof t, "%d", threads);
                setenv("KIT_THREADS", t, 1);
                kit_rng r;
                kit_rng_seed(&r, 29, (uint64_t)k);
                kit_gen_sorted_i32(&r, s, n, ranges[g][0], ranges[g][1]);
                unsetenv("KIT_THREADS");
                kit_rng_seed(&r, 29, (uint64_t)k);
                kit_gen_uniform_i32(&r, u, n, ranges[g][0], ranges[g][1]);
                qsort(u, n, sizeof *u, cmp_int);
                ck_assert_msg(!memcmp(s, u, n * sizeof *s), "n=%zu range %d threads %d: not qsort's order", n, g,
                              threads);
                free(s), free(u);
            }
}
END_TEST

/* ---- CSR ---------------------------------------------------------------------- */
static void assert_valid(const kit_csr *m)
{
    char err[160] = "";
    ck_assert_msg(kit_csr_validate(m, err, sizeof err) == 0, "invalid CSR: %s", err);
}

/* The CSR generators' output for a seed never changes with how the rows are
 * sorted inside (a qsort, or a walk of the row's bitmap where that is
 * cheaper): FNV-1a of row_ptr, col and val, the values this kit has always
 * made.  Dense rows (300 of 200 in 3000 columns), long sparse rows (50 of 40
 * in 10^5 columns: sorted) and a power law with 5% of 20000 rows empty. */
static uint64_t csr_hash(const kit_csr *m)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *parts[3] = {(const unsigned char *)m->row_ptr, (const unsigned char *)m->col,
                                     (const unsigned char *)m->val};
    size_t lens[3] = {((size_t)m->rows + 1) * sizeof *m->row_ptr, (size_t)m->nnz * sizeof *m->col,
                      (size_t)m->nnz * sizeof *m->val};
    for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < lens[p]; i++)
            h = (h ^ parts[p][i]) * 1099511628211ULL;
    return h;
}

START_TEST(csr_golden)
{
    kit_rng r;
    kit_csr m;
    uint64_t got[3];
    kit_rng_seed(&r, 0x1ab08, 0);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 300, 3000, 200), 0);
    got[0] = csr_hash(&m);
    kit_csr_free(&m);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 50, 100000, 40), 0);
    got[1] = csr_hash(&m);
    kit_csr_free(&m);
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, 20000, 500, 60, 2.0, 0.05), 0);
    got[2] = csr_hash(&m);
    kit_csr_free(&m);
    const uint64_t want[3] = {0x89729ee6407aea59ULL, 0x480fda3feef87e61ULL, 0x903ad311a5559b83ULL};
    for (int i = 0; i < 3; i++)
        ck_assert_msg(got[i] == want[i], "matrix %d: 0x%016llx, not 0x%016llx", i, (unsigned long long)got[i],
                      (unsigned long long)want[i]);
}
END_TEST

START_TEST(csr_fixed_rows)
{
    kit_rng r;
    kit_csr m;
    kit_rng_seed(&r, 21, 0);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 500, 1000, 17), 0);
    assert_valid(&m);
    ck_assert_int_eq(m.nnz, 500 * 17);
    for (int i = 0; i < 500; i++)
        ck_assert_int_eq(m.row_ptr[i + 1] - m.row_ptr[i], 17);
    for (int64_t k = 0; k < m.nnz; k++)
        ck_assert(m.val[k] >= -1.0f && m.val[k] < 1.0f);
    kit_csr_free(&m);
    /* more per row than columns: capped, every column once */
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 4, 6, 50), 0);
    assert_valid(&m);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 6; k++)
            ck_assert_int_eq(m.col[m.row_ptr[i] + k], k);
    kit_csr_free(&m);
    /* long rows (qsort path), zero per row, and sizes that do not fit int nnz */
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 3, 100000, 5000), 0);
    assert_valid(&m);
    kit_csr_free(&m);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 10, 10, 0), 0);
    assert_valid(&m);
    ck_assert_int_eq(m.nnz, 0);
    kit_csr_free(&m);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, 100000, 30000, 30000), -1);
    ck_assert_int_eq(kit_gen_csr_fixed(&r, &m, -1, 5, 1), -1);
}
END_TEST

START_TEST(csr_powerlaw_shape)
{
    kit_rng r;
    kit_csr m;
    kit_rng_seed(&r, 22, 0);
    const int rows = 20000, max_len = 500;
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, rows, 4000, max_len, 3.0, 0.2), 0);
    assert_valid(&m);
    int empty = 0, longest = 0, shorter_than_10pct = 0;
    for (int i = 0; i < rows; i++) {
        int len = m.row_ptr[i + 1] - m.row_ptr[i];
        ck_assert_int_lt(len, max_len); /* floor(max * u^alpha), u < 1 */
        empty += len == 0;
        longest = len > longest ? len : longest;
        shorter_than_10pct += len < max_len / 10;
    }
    /* exactly 4000 forced; of the other 16000, those with 500 u^3 < 1, i.e.
     * u < 500^(-1/3) = 0.126: about 2016 more (sd ~ 42) */
    double want_empty = rows / 5 + (rows - rows / 5) * pow(1.0 / max_len, 1.0 / 3.0);
    ck_assert_msg(fabs(empty - want_empty) < 300, "%d empty rows, expected about %.0f", empty, want_empty);
    ck_assert_int_gt(longest, max_len * 9 / 10); /* a few very long rows ... */
    ck_assert_int_gt(shorter_than_10pct, rows / 2); /* ... many short ones (expected 57%) */
    kit_csr_free(&m);
    /* every row empty; bad parameters */
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, 50, 50, 10, 1.0, 1.0), 0);
    ck_assert_int_eq(m.nnz, 0);
    kit_csr_free(&m);
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, 50, 50, 10, 1.0, 1.5), -1);
    ck_assert_int_eq(kit_gen_csr_powerlaw(&r, &m, 50, 50, 10, -1.0, 0.0), -1);
}
END_TEST

START_TEST(csr_from_arrays_validates)
{
    static const int rp[5] = {0, 2, 5, 5, 7}, col[7] = {0, 3, 1, 2, 3, 0, 2};
    static const float val[7] = {2, 1, 4, 7, 5, 3, 2};
    kit_csr m;
    char err[160];
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp, col, val, err, sizeof err), 0);
    ck_assert_int_eq(m.nnz, 7);
    ck_assert_int_eq(m.row_ptr[3], 5);
    ck_assert_float_eq(m.val[3], 7.0f);
    assert_valid(&m);
    kit_csr_free(&m);
    ck_assert_ptr_null(m.row_ptr); /* free clears */

    static const int rp_bad[5] = {0, 2, 1, 5, 7};
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp_bad, col, val, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not monotone"), "%s", err);
    static const int col_range[7] = {0, 4, 1, 2, 3, 0, 2};
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp, col_range, val, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "row 0: column 4 out of range"), "%s", err);
    static const int col_unsorted[7] = {0, 3, 2, 1, 3, 0, 2};
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp, col_unsorted, val, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "row 1: columns not strictly increasing"), "%s", err);
    static const int col_dup[7] = {0, 3, 1, 1, 3, 0, 2};
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp, col_dup, val, err, sizeof err), -1);
    static const int rp_start[5] = {1, 2, 5, 5, 7};
    ck_assert_int_eq(kit_csr_from_arrays(&m, 4, 4, rp_start, col, val, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "row_ptr[0]"), "%s", err);
}
END_TEST

/* ---- dense matrices ---------------------------------------------------------------- */
START_TEST(diag_dominant_really_is)
{
    enum { N = 60 };
    static double a[N * N];
    kit_rng r;
    kit_rng_seed(&r, 31, 0);
    kit_gen_diag_dominant(&r, a, N);
    for (int i = 0; i < N; i++) {
        double row = 0, col = 0;
        for (int k = 0; k < N; k++) {
            if (k == i)
                continue;
            ck_assert(a[i * N + k] >= -1.0 && a[i * N + k] < 1.0);
            row += fabs(a[i * N + k]);
            col += fabs(a[k * N + i]);
        }
        ck_assert(fabs(a[i * N + i]) > row + 1.0 && fabs(a[i * N + i]) > col + 1.0);
        ck_assert(fabs(a[i * N + i]) < fmax(row, col) + 2.0);
    }
    static double l[N * N], u[N * N];
    int fail;
    ck_assert_int_eq(kit_ref_crout(a, N, l, u, 0, &fail), KIT_LU_OK);
}
END_TEST

START_TEST(poisson2d_stencil)
{
    enum { G = 4, NN = G * G };
    double a[NN * NN];
    kit_gen_poisson2d(a, G);
    for (int i = 0; i < NN; i++) {
        int yi = i / G, xi = i % G;
        for (int j = 0; j < NN; j++) {
            int yj = j / G, xj = j % G;
            int adjacent = abs(yi - yj) + abs(xi - xj) == 1;
            double want = i == j ? 4.0 : adjacent ? -1.0 : 0.0;
            ck_assert_msg(a[i * NN + j] == want, "a[%d][%d] = %g", i, j, a[i * NN + j]);
            ck_assert_double_eq(a[i * NN + j], a[j * NN + i]); /* symmetric */
        }
    }
    /* row sums: corner 4-2, edge 4-3, interior 0 */
    double corner = 0, interior = 0;
    for (int j = 0; j < NN; j++) {
        corner += a[0 * NN + j];
        interior += a[(1 * G + 1) * NN + j];
    }
    ck_assert_double_eq(corner, 2.0);
    ck_assert_double_eq(interior, 0.0);
}
END_TEST

static double max_abs_diff(const double *x, const double *y, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(x[i] - y[i]));
    return m;
}

/* Zero diagonal where promised, Crout still succeeds and recovers the factors. */
static void check_zero_diag(int n, int every, uint64_t seed)
{
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc(nn * sizeof *a), *L = malloc(nn * sizeof *L), *U = malloc(nn * sizeof *U);
    double *l = malloc(nn * sizeof *l), *u = malloc(nn * sizeof *u);
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    kit_gen_zero_diag_regular(&r, a, n, every, L, U);
    int zeros = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && i % every == 0) {
            ck_assert_msg(a[(size_t)i * n + i] == 0.0, "a[%d][%d] = %g", i, i, a[(size_t)i * n + i]);
            zeros++;
        }
        double lii = fabs(L[(size_t)i * n + i]);
        ck_assert(lii >= 0.5 && lii <= 2.0);
        ck_assert_double_eq(U[(size_t)i * n + i], 1.0);
        for (int j = i + 1; j < n; j++) {
            ck_assert_double_eq(L[(size_t)i * n + j], 0.0);
            ck_assert_double_eq(U[(size_t)j * n + i], 0.0);
        }
    }
    ck_assert_int_eq(zeros, (n - 1) / every);
    int fail = -2;
    ck_assert_int_eq(kit_ref_crout(a, n, l, u, 0, &fail), KIT_LU_OK);
    double dl = max_abs_diff(l, L, (int)nn), du = max_abs_diff(u, U, (int)nn);
    ck_assert_msg(dl < 1e-10 && du < 1e-10, "n=%d every=%d: factors off by %g / %g", n, every, dl, du);
    /* same seed without factor output: same matrix */
    double *a2 = malloc(nn * sizeof *a2);
    kit_rng_seed(&r, seed, 0);
    kit_gen_zero_diag_regular(&r, a2, n, every, NULL, NULL);
    ck_assert_int_eq(memcmp(a, a2, nn * sizeof *a), 0);
    free(a);
    free(a2);
    free(L);
    free(U);
    free(l);
    free(u);
}

START_TEST(zero_diag_regular)
{
    check_zero_diag(10, 3, 41);
    check_zero_diag(64, 2, 42);
    check_zero_diag(300, 2, 43);
    check_zero_diag(257, 5, 44);
}
END_TEST

START_TEST(singular_minor_fails_at_k_minus_1)
{
    enum { N = 12 };
    double a[N * N], l[N * N], u[N * N];
    for (int k = 2; k <= N; k++) {
        kit_rng r;
        kit_rng_seed(&r, 50, (uint64_t)k);
        kit_gen_singular_minor(&r, a, N, k);
        int fail = -1;
        ck_assert_int_eq(kit_ref_crout(a, N, l, u, 0, &fail), KIT_LU_SINGULAR);
        ck_assert_msg(fail == k - 1, "k = %d: failed at column %d", k, fail);
        for (int i = 0; i < N * N; i++)
            ck_assert(isfinite(l[i]) && isfinite(u[i]));
        /* outside the minor, row k-1 is still the diagonally dominant one */
        for (int j = k; j < N; j++)
            ck_assert(a[(k - 1) * N + j] >= -1.0 && a[(k - 1) * N + j] < 1.0);
    }
}
END_TEST

START_TEST(float_dist_names)
{
    float lo = 7;
    char err[128];
    ck_assert_int_eq(kit_gen_float_dist("uniform", &lo, err, sizeof err), 0);
    ck_assert(lo == -1.0f);
    ck_assert_int_eq(kit_gen_float_dist("positive", &lo, err, sizeof err), 0);
    ck_assert(lo == 0.0f);
    ck_assert_int_eq(kit_gen_float_dist("normal", &lo, err, sizeof err), -1);
    ck_assert_str_eq(err, "dist must be uniform or positive (got 'normal')");
}
END_TEST

static Suite *gen_suite(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, golden_seed_42);
    tcase_add_test(tc, pieces_on_threads_equal_one_pass);
    tcase_add_test(tc, same_seed_same_data_streams_differ);
    tcase_add_test(tc, uniform_covers_range);
    tcase_add_test(tc, skewed_hot_fraction);
    tcase_add_test(tc, sorted_is_sorted_uniform);
    tcase_add_test(tc, sorted_on_threads_equal_qsort);
    tcase_add_test(tc, csr_fixed_rows);
    tcase_add_test(tc, csr_powerlaw_shape);
    tcase_add_test(tc, csr_from_arrays_validates);
    tcase_add_test(tc, diag_dominant_really_is);
    tcase_add_test(tc, poisson2d_stencil);
    tcase_add_test(tc, zero_diag_regular);
    tcase_add_test(tc, singular_minor_fails_at_k_minus_1);
    tcase_add_test(tc, float_dist_names);
    tcase_add_test(tc, csr_golden);
    suite_add_tcase(s, tc);
    return s;
}

KIT_CHECK_MAIN(gen_suite)
