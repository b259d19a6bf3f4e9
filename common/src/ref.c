/* ref.c - CPU references for every lab (see kit/ref.h).
 *
 * Float inputs are combined in double: a product of two floats is exact in
 * double, and sums are compensated (Neumaier), so the reference error is far
 * below any bound the student's float result is held to.
 *
 * Large references run on kit_threads() threads (OpenMP), one parallel
 * loop each (never one per step of a sequential recurrence: Crout stays on
 * one thread).  Each output element is computed by one thread in the
 * sequential order, so results are the same bits on any number of threads;
 * only a dot product's total is summed per piece and then over the pieces
 * (compensated both times). */
#include "kit/ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit/compare.h"
#include "kit/rng.h"
#include "kit/util.h"

/* Threads for a loop of n elements of about `work` operations each. */
#define PAR_THREADS(n, work) ((double)(n) * (work) >= 1e5 ? kit_threads() : 1)

/* Neumaier's compensated sum: s + c is the running total. */
typedef struct {
    double s, c;
} csum;

static void csum_add(csum *a, double x)
{
    double t = a->s + x;
    if (fabs(a->s) >= fabs(x))
        a->c += (a->s - t) + x;
    else
        a->c += (x - t) + a->s;
    a->s = t;
}

static double csum_get(const csum *a)
{
    return a->s + a->c;
}

void kit_ref_vadd_f32(const float *a, const float *b, double *c, size_t n)
{
#pragma omp parallel for num_threads(PAR_THREADS(n, 1)) schedule(static)
    for (size_t i = 0; i < n; i++)
        c[i] = (double)a[i] + (double)b[i];
}

#define DOT_PIECES 64 /* fixed: the same pieces, so the same total, on any number of threads */

double kit_ref_dot_f32(const float *a, const float *b, size_t n, double *sum_abs)
{
    csum part[DOT_PIECES], part_abs[DOT_PIECES];
#pragma omp parallel for num_threads(PAR_THREADS(n, 4)) schedule(static)
    for (int k = 0; k < DOT_PIECES; k++) {
        csum s = {0, 0}, s_abs = {0, 0};
        size_t lo, hi;
        kit_piece(n, DOT_PIECES, k, &lo, &hi);
        for (size_t i = lo; i < hi; i++) {
            double p = (double)a[i] * (double)b[i];
            csum_add(&s, p);
            csum_add(&s_abs, fabs(p));
        }
        part[k] = s, part_abs[k] = s_abs;
    }
    csum s = {0, 0}, s_abs = {0, 0};
    for (int k = 0; k < DOT_PIECES; k++) {
        csum_add(&s, part[k].s), csum_add(&s, part[k].c);
        csum_add(&s_abs, part_abs[k].s), csum_add(&s_abs, part_abs[k].c);
    }
    if (sum_abs)
        *sum_abs = csum_get(&s_abs);
    return csum_get(&s);
}

int64_t kit_ref_dot_i32(const int32_t *a, const int32_t *b, size_t n)
{
    /* Unsigned accumulation: wraps like the GPU's int64 would instead of
     * being undefined behaviour on absurd inputs. */
    uint64_t s = 0;
#pragma omp parallel for num_threads(PAR_THREADS(n, 1)) schedule(static) reduction(+ : s)
    for (size_t i = 0; i < n; i++)
        s += (uint64_t)((int64_t)a[i] * (int64_t)b[i]);
    return (int64_t)s;
}

size_t kit_ref_histogram(const int32_t *in, size_t n, int bins, uint64_t *counts)
{
    size_t outside = 0;
    if (bins > 0)
        memset(counts, 0, (size_t)bins * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        if (in[i] >= 0 && in[i] < bins)
            counts[in[i]]++;
        else
            outside++;
    }
    return outside;
}

/* Input index of mask tap j for output i, or -1 when it falls outside [0, n). */
static long long conv_index(size_t i, int j, int m, size_t n)
{
    long long k = (long long)i + j - m / 2;
    return k >= 0 && (unsigned long long)k < n ? k : -1;
}

void kit_ref_conv1d_f32(const float *in, size_t n, const float *mask, int m, double *out, double *out_abs)
{
#pragma omp parallel for num_threads(PAR_THREADS(n, 4 * m)) schedule(static)
    for (size_t i = 0; i < n; i++) {
        csum s = {0, 0}, s_abs = {0, 0};
        for (int j = 0; j < m; j++) {
            long long k = conv_index(i, j, m, n);
            if (k < 0)
                continue; /* boundary terms are ignored, not clamped */
            double p = (double)mask[j] * (double)in[k];
            csum_add(&s, p);
            csum_add(&s_abs, fabs(p));
        }
        out[i] = csum_get(&s);
        if (out_abs)
            out_abs[i] = csum_get(&s_abs);
    }
}

void kit_ref_conv1d_i32(const int32_t *in, size_t n, const int32_t *mask, int m, int64_t *out)
{
#pragma omp parallel for num_threads(PAR_THREADS(n, m)) schedule(static)
    for (size_t i = 0; i < n; i++) {
        int64_t s = 0;
        for (int j = 0; j < m; j++) {
            long long k = conv_index(i, j, m, n);
            if (k >= 0)
                s += (int64_t)mask[j] * in[k];
        }
        out[i] = s;
    }
}

/* Scans in DOT_PIECES fixed pieces: each piece's totals (on threads), the
 * pieces' offsets in order, then each piece from its offset (on threads).
 * The same pieces on any number of threads, so the same bits; compensated
 * throughout, so within a few units of the last place of the exact sums. */
void kit_ref_scan_f32(const float *in, size_t n, double *out, double *out_abs)
{
    csum tot[DOT_PIECES], tot_abs[DOT_PIECES];
    int t = PAR_THREADS(n, 8);
#pragma omp parallel for num_threads(t) schedule(static)
    for (int k = 0; k < DOT_PIECES; k++) {
        csum s = {0, 0}, s_abs = {0, 0};
        size_t lo, hi;
        kit_piece(n, DOT_PIECES, k, &lo, &hi);
        for (size_t i = lo; i < hi; i++) {
            csum_add(&s, in[i]);
            csum_add(&s_abs, fabs((double)in[i]));
        }
        tot[k] = s, tot_abs[k] = s_abs;
    }
    csum off[DOT_PIECES], off_abs[DOT_PIECES], run = {0, 0}, run_abs = {0, 0};
    for (int k = 0; k < DOT_PIECES; k++) {
        off[k] = run, off_abs[k] = run_abs;
        csum_add(&run, tot[k].s), csum_add(&run, tot[k].c);
        csum_add(&run_abs, tot_abs[k].s), csum_add(&run_abs, tot_abs[k].c);
    }
#pragma omp parallel for num_threads(t) schedule(static)
    for (int k = 0; k < DOT_PIECES; k++) {
        csum s = off[k], s_abs = off_abs[k];
        size_t lo, hi;
        kit_piece(n, DOT_PIECES, k, &lo, &hi);
        for (size_t i = lo; i < hi; i++) {
            csum_add(&s, in[i]);
            csum_add(&s_abs, fabs((double)in[i]));
            out[i] = csum_get(&s);
            if (out_abs)
                out_abs[i] = csum_get(&s_abs);
        }
    }
}

void kit_ref_scan_i32(const int32_t *in, size_t n, int64_t *out)
{
    int64_t tot[DOT_PIECES], off[DOT_PIECES], run = 0;
    int t = PAR_THREADS(n, 1);
#pragma omp parallel for num_threads(t) schedule(static)
    for (int k = 0; k < DOT_PIECES; k++) {
        int64_t s = 0;
        size_t lo, hi;
        kit_piece(n, DOT_PIECES, k, &lo, &hi);
        for (size_t i = lo; i < hi; i++)
            s += in[i];
        tot[k] = s;
    }
    for (int k = 0; k < DOT_PIECES; k++)
        off[k] = run, run += tot[k];
#pragma omp parallel for num_threads(t) schedule(static)
    for (int k = 0; k < DOT_PIECES; k++) {
        int64_t s = off[k];
        size_t lo, hi;
        kit_piece(n, DOT_PIECES, k, &lo, &hi);
        for (size_t i = lo; i < hi; i++)
            out[i] = s += in[i];
    }
}

size_t kit_scan_first_wrong_f32(const float *in, const float *out, size_t n, size_t block)
{
    double s = 0, s_abs = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = block ? i % block : i; /* element i is the (k+1)-th of its block */
        if (k == 0)
            s = 0, s_abs = 0;
        s += in[i];
        s_abs += fabs((double)in[i]);
        if (!(fabs((double)out[i] - s) <= kit_sum_bound((double)k + 1, s_abs, KIT_U_F32)))
            return i;
    }
    return n;
}

size_t kit_scan_first_wrong_i32(const int32_t *in, const int32_t *out, size_t n, size_t block)
{
    int64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (block ? i % block == 0 : i == 0)
            s = 0;
        s += in[i];
        if (out[i] != s)
            return i;
    }
    return n;
}

void kit_ref_merge_i32(const int32_t *a, size_t m, const int32_t *b, size_t n, int32_t *c, uint32_t *src)
{
    size_t i = 0, j = 0, k = 0;
    while (i < m || j < n) {
        /* "<=": on ties a's element comes first (stability) */
        int take_a = j >= n || (i < m && a[i] <= b[j]);
        if (take_a) {
            if (src)
                src[k] = (uint32_t)i;
            c[k++] = a[i++];
        } else {
            if (src)
                src[k] = (uint32_t)(m + j);
            c[k++] = b[j++];
        }
    }
}

void kit_ref_spmv_csr(const kit_csr *A, const float *x, double *y, double *y_abs)
{
    int64_t nnz = A->rows > 0 ? A->row_ptr[A->rows] : 0;
#pragma omp parallel for num_threads(PAR_THREADS(nnz, 4)) schedule(dynamic, 256)
    for (int i = 0; i < A->rows; i++) {
        csum s = {0, 0}, s_abs = {0, 0};
        for (int k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            double p = (double)A->val[k] * (double)x[A->col[k]];
            csum_add(&s, p);
            csum_add(&s_abs, fabs(p));
        }
        y[i] = csum_get(&s);
        if (y_abs)
            y_abs[i] = csum_get(&s_abs);
    }
}

/* max(|a_jj|, max_k |a_jk|, max_k |a_kj|): the scale a pivot is judged against. */
static double pivot_scale(const double *a, size_t n, size_t j)
{
    double s = 0;
    for (size_t k = 0; k < n; k++) {
        if (fabs(a[j * n + k]) > s)
            s = fabs(a[j * n + k]);
        if (fabs(a[k * n + j]) > s)
            s = fabs(a[k * n + j]);
    }
    return s;
}

/* Column j of L, rows j .. N-1: l_ij = a_ij - sum_{k<j} l_ik ucol[k]. */
static void crout_column_l(const double *a, size_t N, size_t j, const double *ucol, double *l)
{
    size_t i = j;
    for (; i + 4 <= N; i += 4) { /* four rows' sums side by side, each in k order */
        const double *l0 = l + i * N, *l1 = l0 + N, *l2 = l1 + N, *l3 = l2 + N;
        double s0 = a[i * N + j], s1 = a[(i + 1) * N + j], s2 = a[(i + 2) * N + j], s3 = a[(i + 3) * N + j];
        for (size_t k = 0; k < j; k++) {
            double c = ucol[k];
            s0 -= l0[k] * c, s1 -= l1[k] * c, s2 -= l2[k] * c, s3 -= l3[k] * c;
        }
        l[i * N + j] = s0, l[(i + 1) * N + j] = s1, l[(i + 2) * N + j] = s2, l[(i + 3) * N + j] = s3;
    }
    for (; i < N; i++) {
        double s = a[i * N + j];
        for (size_t k = 0; k < j; k++)
            s -= l[i * N + k] * ucol[k];
        l[i * N + j] = s;
    }
}

/* Row j of U before its division by the pivot: urow[k] -= sum_{m<j} l_jm u_mk, k > j. */
static void crout_row_u(size_t N, size_t j, const double *l, double *u)
{
    double *urow = u + j * N;
    size_t m = 0;
    for (; m + 4 <= j; m += 4) { /* four rows of U a pass, subtracted in m order */
        double l0 = l[j * N + m], l1 = l[j * N + m + 1], l2 = l[j * N + m + 2], l3 = l[j * N + m + 3];
        const double *u0 = u + m * N, *u1 = u0 + N, *u2 = u1 + N, *u3 = u2 + N;
#pragma omp simd
        for (size_t k = j + 1; k < N; k++) {
            double t = urow[k];
            t -= l0 * u0[k];
            t -= l1 * u1[k];
            t -= l2 * u2[k];
            t -= l3 * u3[k];
            urow[k] = t;
        }
    }
    for (; m < j; m++) {
        double ljm = l[j * N + m];
        const double *um = u + m * N;
#pragma omp simd
        for (size_t k = j + 1; k < N; k++)
            urow[k] -= ljm * um[k];
    }
}

int kit_ref_crout(const double *a, int n, double *l, double *u, double pivot_rel_tol, int *fail_col)
{
    size_t N = n > 0 ? (size_t)n : 0;
    if (pivot_rel_tol <= 0)
        pivot_rel_tol = (double)n * KIT_U_F64 * 16.0;
    memset(l, 0, N * N * sizeof *l);
    memset(u, 0, N * N * sizeof *u);
    if (fail_col)
        *fail_col = -1;
    /* Column j of U gathered contiguously; the loops below subtract the
     * terms in the textbook order (k ascending), only the memory access
     * pattern differs from the formulas.
     * On one thread: each column depends on the one before, so threads
     * would meet twice per column.  With six lab09 checkers of 16 threads
     * each beside the gradings' runners on a 16-core GPU server, those 2n
     * meetings took 30-50 s a case (tests/run-gpu stalled).  The one thread
     * is kept busy instead: four rows of L summed side by side (each sum
     * waited on its previous subtraction) and four rows of U subtracted a
     * pass, each entry's terms still in k order - the same bits, about 0.25
     * s at n = 1024 on a developer's machine instead of 0.45 s. */
    double *ucol = kit_xmalloc(N * sizeof *ucol, "the Crout reference");
    int rc = KIT_LU_OK;
    for (size_t j = 0; j < N; j++) {
        /* column j of L: l_ij = a_ij - sum_{k<j} l_ik u_kj, i >= j */
        for (size_t k = 0; k < j; k++)
            ucol[k] = u[k * N + j];
        crout_column_l(a, N, j, ucol, l);
        double pivot = l[j * N + j];
        /* relative test: "== 0" would accept a pivot that is pure rounding noise */
        if (!(fabs(pivot) > pivot_rel_tol * pivot_scale(a, N, j))) {
            if (fail_col)
                *fail_col = (int)j;
            rc = KIT_LU_SINGULAR; /* later entries stay 0: no division by the bad pivot */
            break;
        }
        /* row j of U: u_jk = (a_jk - sum_{m<j} l_jm u_mk) / l_jj, k > j */
        double *urow = u + j * N;
        urow[j] = 1.0;
        for (size_t k = j + 1; k < N; k++)
            urow[k] = a[j * N + k];
        crout_row_u(N, j, l, u);
        for (size_t k = j + 1; k < N; k++)
            urow[k] /= pivot;
    }
    free(ucol);
    return rc;
}
