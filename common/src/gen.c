/* gen.c - input generators (see kit/gen.h).  Every random draw goes through
 * kit_rng in a fixed order, so (seed, parameters) fixes the data everywhere. */
#include "kit/gen.h"
#include "kit/util.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1D arrays --------------------------------------------------------------- */
/* Long arrays are generated in pieces on kit_threads() threads, each piece
 * from its own copy of the stream advanced to the piece's first element
 * (kit_rng_advance): exactly the values of one sequential pass, so a seed
 * gives the same data on any machine and any number of threads.  Only
 * generators that take one draw per element can be cut this way. */
#define PIECES_FROM ((size_t)1 << 18)

static int pieces(size_t n)
{
    return n < PIECES_FROM ? 1 : kit_threads();
}

/* One element of kit_rng_range(r, lo, hi) for hi > lo, one draw, when that
 * draw needs no rejection test (Lemire's: the low half of the product at
 * least the range, the common case by far); else 0, and the caller generates
 * the array in one pass instead. */
static int range_one_draw(kit_rng *r, int32_t lo, uint64_t range, int32_t *out)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 p = (unsigned __int128)kit_rng_u64(r) * range;
    if ((uint64_t)p < range)
        return 0;
    *out = (int32_t)((uint64_t)(int64_t)lo + (uint64_t)(p >> 64));
    return 1;
#else
    (void)r, (void)lo, (void)range, (void)out;
    return 0;
#endif
}

/* Ints in [lo, hi] drawn in pieces on threads, piece k starting draws * a
 * draws on (draws: 1 uniform; 2 skewed, a unit draw that decides whether
 * the element is hot, then its cold value).  1, or 0 when a draw needed
 * Lemire's rejection test (a chance of range / 2^64 per element): the
 * caller then makes the array in one sequential pass instead, of the same
 * definition, from the unchanged r. */
static int ints_in_pieces(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi, int draws, double p_hot,
                          int32_t hot)
{
    int np = hi > lo ? pieces(n) : 1, cut = 1;
    if (np == 1)
        return 0;
    uint64_t range = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
#pragma omp parallel for num_threads(np) schedule(static, 1) reduction(&& : cut)
    for (int k = 0; k < np; k++) {
        size_t a, b;
        kit_piece(n, np, k, &a, &b);
        kit_rng my = *r;
        kit_rng_advance(&my, (uint64_t)draws * a);
        for (size_t i = a; i < b && cut; i++) {
            int is_hot = draws == 2 && kit_rng_unit(&my) < p_hot;
            cut = range_one_draw(&my, lo, range, &out[i]);
            out[i] = is_hot ? hot : out[i];
        }
    }
    if (cut)
        kit_rng_advance(r, (uint64_t)draws * n);
    return cut;
}

void kit_gen_uniform_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi)
{
    if (ints_in_pieces(r, out, n, lo, hi, 1, 0, 0))
        return;
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)kit_rng_range(r, lo, hi);
}

/* Each element takes two draws, hot or not (ints_in_pieces), so long arrays
 * are cut into pieces like uniform ones. */
void kit_gen_skewed_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi, double p_hot,
                        int32_t hot)
{
    if (ints_in_pieces(r, out, n, lo, hi, 2, p_hot, hot))
        return;
    for (size_t i = 0; i < n; i++) {
        int is_hot = kit_rng_unit(r) < p_hot;
        int32_t cold = (int32_t)kit_rng_range(r, lo, hi);
        out[i] = is_hot ? hot : cold;
    }
}

void kit_gen_uniform_f32(kit_rng *r, float *out, size_t n, float lo, float hi)
{
    int np = pieces(n);
    if (np == 1) {
        kit_rng_fill_f32(r, out, n, lo, hi);
        return;
    }
#pragma omp parallel for num_threads(np) schedule(static, 1)
    for (int k = 0; k < np; k++) {
        size_t a, b;
        kit_piece(n, np, k, &a, &b);
        kit_rng my = *r;
        kit_rng_advance(&my, a);
        kit_rng_fill_f32(&my, out + a, b - a, lo, hi); /* one draw each */
    }
    kit_rng_advance(r, n);
}

int kit_gen_float_dist(const char *dist, float *lo, char *err, size_t errlen)
{
    if (!strcmp(dist, "uniform"))
        *lo = -1.0f;
    else if (!strcmp(dist, "positive"))
        *lo = 0.0f;
    else {
        snprintf(err, errlen, "dist must be uniform or positive (got '%s')", dist);
        return -1;
    }
    return 0;
}

static int cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* LSD radix sort of values in [lo, hi], on their offsets from lo in digits
 * of RADIX_BITS: as many passes as the range needs (three for the merge
 * lab's ties, four for the full range; wider digits scatter slower).  Each pass on pieces(n) threads: each
 * counts its own slice, and the counts taken digit by digit, slice by slice
 * place every element where one sequential pass would (stable), so the
 * sorted array is the same on any number of threads - as it must be: the
 * runner and the checker sort the same draws on different machines.
 * Returns -1 when the scratch buffers cannot be allocated (the caller falls
 * back to qsort). */
#define RADIX_BITS 8
#define RADIX (1 << RADIX_BITS)
static int radix_sort_i32(int32_t *a, size_t n, int32_t lo, int32_t hi)
{
    int np = pieces(n), passes = 0;
    for (uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo); span; span >>= RADIX_BITS)
        passes++;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    size_t(*at)[RADIX] = malloc((size_t)np * sizeof *at); /* at[k][digit]: where slice k puts the next one */
    if (!tmp || !at) {
        free(tmp);
        free(at);
        return -1;
    }
#pragma omp parallel num_threads(np)
    {
        int nt = omp_get_num_threads(), k = omp_get_thread_num(); /* nt: np, or fewer where OpenMP gave fewer */
        size_t from, to;
        kit_piece(n, nt, k, &from, &to);
        uint32_t *src = (uint32_t *)a, *dst = tmp;
        for (size_t i = from; i < to; i++)
            src[i] -= (uint32_t)lo; /* the offset from lo: unsigned order == signed order */
        for (int pass = 0, shift = 0; pass < passes; pass++, shift += RADIX_BITS) {
            memset(at[k], 0, sizeof at[k]);
            for (size_t i = from; i < to; i++)
                at[k][(src[i] >> shift) & (RADIX - 1)]++;
#pragma omp barrier
#pragma omp single
            {
                size_t next = 0;
                for (int d = 0; d < RADIX; d++)
                    for (int j = 0; j < nt; j++) {
                        size_t c = at[j][d];
                        at[j][d] = next;
                        next += c;
                    }
            }
            for (size_t i = from; i < to; i++)
                dst[at[k][(src[i] >> shift) & (RADIX - 1)]++] = src[i];
#pragma omp barrier
            uint32_t *t = src;
            src = dst;
            dst = t;
        }
        for (size_t i = from; i < to; i++) /* into a, after an odd number of passes */
            a[i] = (int32_t)(src[i] + (uint32_t)lo);
    }
    free(tmp);
    free(at);
    return 0;
}

void kit_gen_sorted_i32(kit_rng *r, int32_t *out, size_t n, int32_t lo, int32_t hi)
{
    kit_gen_uniform_i32(r, out, n, lo, hi);
    if (radix_sort_i32(out, n, lo, hi) != 0)
        qsort(out, n, sizeof *out, cmp_i32);
}

/* ---- CSR ------------------------------------------------------------------------ */
void kit_csr_free(kit_csr *m)
{
    if (!m)
        return;
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* Allocates the arrays of an empty rows x cols matrix with room for nnz entries. */
static int csr_alloc(kit_csr *m, int rows, int cols, int64_t nnz)
{
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || nnz < 0 || nnz > INT_MAX)
        return -1;
    m->rows = rows;
    m->cols = cols;
    m->nnz = nnz;
    m->row_ptr = calloc((size_t)rows + 1, sizeof *m->row_ptr);
    m->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->val);
    if (!m->row_ptr || !m->col || !m->val) {
        kit_csr_free(m);
        return -1;
    }
    return 0;
}

/* The structure checks, on plain arrays so that callers' const data can be
 * checked before anything is copied. */
static int validate_arrays(int rows, int cols, int64_t nnz, const int *row_ptr, const int *col,
                           const float *val, char *err, size_t errlen)
{
    if (rows < 0 || cols < 0) {
        kit_set_err(err, errlen, "negative size %d x %d", rows, cols);
        return -1;
    }
    if (!row_ptr) {
        kit_set_err(err, errlen, "row_ptr is missing");
        return -1;
    }
    if (row_ptr[0] != 0) {
        kit_set_err(err, errlen, "row_ptr[0] is %d, must be 0", row_ptr[0]);
        return -1;
    }
    for (int i = 0; i < rows; i++)
        if (row_ptr[i + 1] < row_ptr[i]) {
            kit_set_err(err, errlen, "row_ptr is not monotone: row_ptr[%d] = %d > row_ptr[%d] = %d", i,
                    row_ptr[i], i + 1, row_ptr[i + 1]);
            return -1;
        }
    if (row_ptr[rows] != nnz) {
        kit_set_err(err, errlen, "row_ptr[%d] = %d but nnz = %lld", rows, row_ptr[rows], (long long)nnz);
        return -1;
    }
    if (nnz > 0 && (!col || !val)) {
        kit_set_err(err, errlen, "col or val is missing");
        return -1;
    }
    for (int i = 0; i < rows; i++)
        for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
            int c = col[k];
            if (c < 0 || c >= cols) {
                kit_set_err(err, errlen, "row %d: column %d out of range [0, %d)", i, c, cols);
                return -1;
            }
            if (k > row_ptr[i] && c <= col[k - 1]) {
                kit_set_err(err, errlen, "row %d: columns not strictly increasing (%d after %d)", i, c,
                        col[k - 1]);
                return -1;
            }
        }
    return 0;
}

int kit_csr_validate(const kit_csr *m, char *err, size_t errlen)
{
    return validate_arrays(m->rows, m->cols, m->nnz, m->row_ptr, m->col, m->val, err, errlen);
}

int kit_csr_from_arrays(kit_csr *m, int rows, int cols, const int *row_ptr, const int *col,
                        const float *val, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || !row_ptr) {
        kit_set_err(err, errlen, rows < 0 || cols < 0 ? "negative size" : "row_ptr is missing");
        return -1;
    }
    int64_t nnz = row_ptr[rows];
    if (validate_arrays(rows, cols, nnz, row_ptr, col, val, err, errlen) != 0)
        return -1;
    if (csr_alloc(m, rows, cols, nnz) != 0) {
        kit_set_err(err, errlen, "out of memory");
        return -1;
    }
    memcpy(m->row_ptr, row_ptr, ((size_t)rows + 1) * sizeof *row_ptr);
    if (nnz) {
        memcpy(m->col, col, (size_t)nnz * sizeof *col);
        memcpy(m->val, val, (size_t)nnz * sizeof *val);
    }
    return 0;
}

/* k distinct values of [0, n), ascending, into out (Floyd's sampling: k draws
 * whatever n is).  `mark` is a zeroed bitmap of n bits, returned zeroed.
 * Where the bitmap's bytes are few against k (lab08's 500 of 3*10^4 columns
 * per row: a qsort each was most of a 15M-nonzero matrix's second), the
 * picks are read back from it in order; the values are the same either way. */
static void sample_sorted(kit_rng *r, int n, int k, int *out, unsigned char *mark)
{
    int c = 0;
    for (int j = n - k; j < n; j++) {
        int t = (int)kit_rng_range(r, 0, j);
        int pick = (mark[t >> 3] >> (t & 7)) & 1 ? j : t;
        mark[pick >> 3] |= (unsigned char)(1u << (pick & 7));
        out[c++] = pick;
    }
    if (k > 32 && n / 8 <= 16 * k) {
        c = 0;
        for (int byte = 0; byte <= (n - 1) >> 3; byte++)
            for (unsigned bits = mark[byte]; bits; bits &= bits - 1)
                out[c++] = byte * 8 + __builtin_ctz(bits);
        memset(mark, 0, (size_t)((n + 7) >> 3));
        return;
    }
    for (int i = 0; i < k; i++)
        mark[out[i] >> 3] &= (unsigned char)~(1u << (out[i] & 7));
    if (k > 32) {
        qsort(out, (size_t)k, sizeof *out, cmp_i32);
        return;
    }
    for (int i = 1; i < k; i++) { /* short rows: insertion sort */
        int v = out[i], p = i;
        for (; p > 0 && out[p - 1] > v; p--)
            out[p] = out[p - 1];
        out[p] = v;
    }
}

/* Fills columns and values of m, whose row_ptr is already set. */
static int fill_rows(kit_rng *r, kit_csr *m)
{
    unsigned char *mark = calloc((size_t)m->cols / 8 + 1, 1);
    if (!mark)
        return -1;
    for (int i = 0; i < m->rows; i++) {
        int b = m->row_ptr[i], len = m->row_ptr[i + 1] - b;
        sample_sorted(r, m->cols, len, m->col + b, mark);
        for (int k = 0; k < len; k++)
            m->val[b + k] = kit_rng_f32(r, -1.0f, 1.0f);
    }
    free(mark);
    return 0;
}

int kit_gen_csr_fixed(kit_rng *r, kit_csr *m, int rows, int cols, int per_row)
{
    if (rows < 0 || cols < 0 || per_row < 0) {
        memset(m, 0, sizeof *m);
        return -1;
    }
    if (per_row > cols)
        per_row = cols;
    if (csr_alloc(m, rows, cols, (int64_t)rows * per_row) != 0)
        return -1;
    for (int i = 0; i < rows; i++)
        m->row_ptr[i + 1] = m->row_ptr[i] + per_row;
    if (fill_rows(r, m) != 0) {
        kit_csr_free(m);
        return -1;
    }
    return 0;
}

int kit_gen_csr_powerlaw(kit_rng *r, kit_csr *m, int rows, int cols, int max_per_row, double alpha,
                         double empty_frac)
{
    memset(m, 0, sizeof *m);
    if (rows < 0 || cols < 0 || max_per_row < 0 || !(alpha > 0) || !(empty_frac >= 0 && empty_frac <= 1))
        return -1;
    int *len = calloc((size_t)rows + 1, sizeof *len);
    unsigned char *empty = calloc((size_t)rows / 8 + 1, 1);
    int *chosen = malloc(((size_t)rows + 1) * sizeof *chosen);
    int rc = -1;
    if (!len || !empty || !chosen)
        goto out;
    /* Exactly round(empty_frac * rows) rows are forced empty, chosen at random. */
    int n_empty = (int)floor(empty_frac * rows + 0.5);
    if (n_empty > rows)
        n_empty = rows;
    sample_sorted(r, rows, n_empty, chosen, empty);
    for (int k = 0; k < n_empty; k++)
        empty[chosen[k] >> 3] |= (unsigned char)(1u << (chosen[k] & 7));
    int64_t nnz = 0;
    for (int i = 0; i < rows; i++) {
        double u = kit_rng_unit(r); /* drawn for every row: the stream does not depend on empty rows */
        int l = (int)floor(max_per_row * pow(u, alpha));
        if (l > cols)
            l = cols;
        len[i] = (empty[i >> 3] >> (i & 7)) & 1 ? 0 : l;
        nnz += len[i];
    }
    if (csr_alloc(m, rows, cols, nnz) != 0)
        goto out;
    for (int i = 0; i < rows; i++)
        m->row_ptr[i + 1] = m->row_ptr[i] + len[i];
    if (fill_rows(r, m) != 0) {
        kit_csr_free(m);
        goto out;
    }
    rc = 0;
out:
    free(len);
    free(empty);
    free(chosen);
    return rc;
}

/* ---- dense matrices ------------------------------------------------------------ */
/* +-(lo + width * unit).  Two draws in separate statements: C leaves the
 * evaluation order of operands unspecified, and the stream must not depend
 * on the compiler. */
static double signed_between(kit_rng *r, double lo, double width)
{
    double sign = kit_rng_u64(r) >> 63 ? -1.0 : 1.0;
    double mag = lo + width * kit_rng_unit(r);
    return sign * mag;
}

void kit_gen_diag_dominant(kit_rng *r, double *a, int n)
{
    size_t N = (size_t)n;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            a[i * N + j] = i == j ? 0.0 : 2.0 * kit_rng_unit(r) - 1.0;
    for (size_t i = 0; i < N; i++) {
        double row = 0, col = 0;
        for (size_t k = 0; k < N; k++) {
            row += fabs(a[i * N + k]);
            col += fabs(a[k * N + i]);
        }
        a[i * N + i] = signed_between(r, (row > col ? row : col) + 1.0, 1.0);
    }
}

void kit_gen_poisson2d(double *a, int g)
{
    size_t n = (size_t)g * (size_t)g;
    memset(a, 0, n * n * sizeof *a);
    for (int y = 0; y < g; y++)
        for (int x = 0; x < g; x++) {
            size_t i = (size_t)y * (size_t)g + (size_t)x;
            a[i * n + i] = 4.0;
            if (x > 0)
                a[i * n + i - 1] = -1.0;
            if (x + 1 < g)
                a[i * n + i + 1] = -1.0;
            if (y > 0)
                a[i * n + i - (size_t)g] = -1.0;
            if (y + 1 < g)
                a[i * n + i + (size_t)g] = -1.0;
        }
}

/* c = L * U (n x n, row-major), summing k = 0..min(i,j) in order, so that a
 * row whose l_ii was set to minus the partial sum gets an exact zero. */
/* c = L U.  Row by row on kit_threads() threads; within a row the terms of
 * each c_ij are added in k order from 0, as the formula reads (the loops
 * run k before j only to read U by rows). */
static void lu_product(const double *L, const double *U, double *c, int n)
{
    size_t N = (size_t)n;
#pragma omp parallel for num_threads(n >= 64 ? kit_threads() : 1) schedule(dynamic, 8)
    for (size_t i = 0; i < N; i++) {
        double *ci = c + i * N;
        memset(ci, 0, N * sizeof *ci);
        for (size_t k = 0; k <= i; k++) {
            double lik = L[i * N + k];
            const double *uk = U + k * N;
            for (size_t j = k; j < N; j++) /* the terms k <= min(i, j) */
                ci[j] += lik * uk[j];
        }
    }
}

void kit_gen_zero_diag_regular(kit_rng *r, double *a, int n, int zero_every, double *l, double *u)
{
    size_t N = (size_t)n;
    double *L = l ? l : malloc(N * N * sizeof *L);
    double *U = u ? u : malloc(N * N * sizeof *U);
    if (!L || !U) {
        fprintf(stderr, "kit_gen_zero_diag_regular: out of memory (n = %d)\n", n);
        exit(2);
    }
    memset(L, 0, N * N * sizeof *L);
    memset(U, 0, N * N * sizeof *U);
    /* Off-diagonals of size 1/sqrt(n) keep both factors well conditioned
     * (a random triangular matrix with O(1) entries is exponentially ill
     * conditioned); pivots |l_ii| in [0.5, 2] keep every leading minor regular. */
    double scale = n > 0 ? 1.0 / sqrt((double)n) : 1.0;
    for (size_t i = 0; i < N; i++) {
        for (size_t k = 0; k < i; k++)
            L[i * N + k] = (kit_rng_unit(r) - 0.5) * scale;
        L[i * N + i] = signed_between(r, 0.5, 1.5);
        U[i * N + i] = 1.0;
        for (size_t j = i + 1; j < N; j++)
            U[i * N + j] = (kit_rng_unit(r) - 0.5) * scale;
    }
    /* Row i gets a_ii = sum_{k<i} l_ik u_ki + l_ii = 0: choose the partial sum
     * to be -l_ii by setting one product l_{i,i-1} u_{i-1,i} (u of size ~1, so
     * l stays O(1)).  Column i of U and row i of L change only for that row. */
    for (int i = zero_every > 0 ? zero_every : n; i < n; i += zero_every) {
        size_t I = (size_t)i;
        double partial = 0;
        for (size_t k = 0; k + 1 < I; k++)
            partial += L[I * N + k] * U[k * N + I];
        double uu = signed_between(r, 0.75, 0.5); /* |u| in [0.75, 1.25) */
        U[(I - 1) * N + I] = uu;
        L[I * N + I - 1] = (-L[I * N + I] - partial) / uu;
        /* make the summed product exact: l_ii is minus the sum as it will be computed */
        double s = 0;
        for (size_t k = 0; k < I; k++)
            s += L[I * N + k] * U[k * N + I];
        L[I * N + I] = -s;
    }
    lu_product(L, U, a, n);
    for (int i = zero_every > 0 ? zero_every : n; i < n; i += zero_every)
        a[(size_t)i * N + (size_t)i] = 0.0; /* exact by construction; make it explicit */
    if (!l)
        free(L);
    if (!u)
        free(U);
}

void kit_gen_singular_minor(kit_rng *r, double *a, int n, int k)
{
    size_t N = (size_t)n;
    kit_gen_diag_dominant(r, a, n);
    if (k < 2 || k > n)
        return;
    /* Row k-1 restricted to the first k columns becomes row k-2's: the
     * leading k x k minor has two equal rows; rows 0..k-2 are untouched, so
     * the smaller leading minors stay regular and Crout fails exactly at k-1. */
    size_t src = (size_t)(k - 2) * N, dst = (size_t)(k - 1) * N;
    memcpy(a + dst, a + src, (size_t)k * sizeof *a);
}
