/* dataset.c - lab08 input generation (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/rng.h"

/* ---- the named matrices of resources/matrices/ ---------------------------------- */
#define NAMED_SEED 0x1ab08u /* fixed: the files must never change */

const char *const lab08_named_list[] = {"example-4x4", "poisson2d-32", "powerlaw-2k", NULL};

/* The classic 4 x 4 CSR example: row 2 is empty. */
static int example_4x4(kit_csr *A, char *err, size_t errlen)
{
    static const int row_ptr[] = {0, 2, 5, 5, 7};
    static const int col[] = {0, 3, 1, 2, 3, 0, 2};
    static const float val[] = {2, 1, 4, 7, 5, 3, 2};
    return kit_csr_from_arrays(A, 4, 4, row_ptr, col, val, err, errlen);
}

/* The 5-point Laplacian on a g x g grid: 4 on the diagonal, -1 for each grid
 * neighbour (rows of 3 to 5 nonzeros, columns ascending). */
static int poisson2d(kit_csr *A, int g, char *err, size_t errlen)
{
    int n = g * g;
    int *row_ptr = malloc(((size_t)n + 1) * sizeof *row_ptr);
    int *col = malloc((size_t)n * 5 * sizeof *col);
    float *val = malloc((size_t)n * 5 * sizeof *val);
    int rc = -1;
    if (!row_ptr || !col || !val) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    int k = 0;
    row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        int x = i % g, y = i / g;
        /* neighbours in ascending column order: up, left, self, right, down */
        const int cand[5] = {y > 0 ? i - g : -1, x > 0 ? i - 1 : -1, i, x + 1 < g ? i + 1 : -1, y + 1 < g ? i + g : -1};
        for (int t = 0; t < 5; t++)
            if (cand[t] >= 0) {
                col[k] = cand[t];
                val[k++] = cand[t] == i ? 4.0f : -1.0f;
            }
        row_ptr[i + 1] = k;
    }
    rc = kit_csr_from_arrays(A, n, n, row_ptr, col, val, err, errlen);
out:
    free(row_ptr);
    free(col);
    free(val);
    return rc;
}

int lab08_named_matrix(const char *name, kit_csr *A, const char **what, char *err, size_t errlen)
{
    const char *dummy;
    if (!what)
        what = &dummy;
    memset(A, 0, sizeof *A);
    if (!strcmp(name, "example-4x4")) {
        *what = "the classic 4 x 4 CSR example (row 2 is empty)";
        return example_4x4(A, err, errlen);
    }
    if (!strcmp(name, "poisson2d-32")) {
        *what = "5-point 2D Laplacian on a 32 x 32 grid (1024 rows, 3 to 5 nonzeros per row)";
        return poisson2d(A, 32, err, errlen);
    }
    if (!strcmp(name, "powerlaw-2k")) {
        *what = "kit_gen_csr_powerlaw(seed 0x1ab08 stream 0, rows 2000, cols 2000, max_per_row 200, "
                "alpha 4, empty 0.05): 686 rows longer than 32, 608 empty rows, the longest 199";
        kit_rng r;
        kit_rng_seed(&r, NAMED_SEED, 0);
        if (kit_gen_csr_powerlaw(&r, A, 2000, 2000, 200, 4.0, 0.05) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        return 0;
    }
    snprintf(err, errlen, "no matrix '%s' (known: example-4x4, poisson2d-32, powerlaw-2k)", name);
    return -1;
}

/* ---- test matrices -------------------------------------------------------------------- */
static int dim_param(const kit_params *p, const char *key, long long def, long long lo, int *out, char *err,
                     size_t errlen)
{
    int ok = 1;
    long long v = kit_params_ll(p, key, def, &ok);
    if (!ok || v < lo || v > LAB08_MAX_DIM) {
        snprintf(err, errlen, "%s must be given, %lld <= %s <= 2^24 (got '%s')", key, lo, key,
                 kit_params_get(p, key, ""));
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* The matrix's parameters, checked without building it. */
static int check_matrix(const kit_params *p, char *err, size_t errlen)
{
    if (kit_params_only(p, "matrix rows cols per_row max_per_row alpha empty", err, errlen) != 0)
        return -1;
    const char *kind = kit_params_get(p, "matrix", "fixed");
    if (!strcmp(kind, "example"))
        return 0;
    if (!strncmp(kind, "mtx:", 4)) {
        for (const char *const *name = lab08_named_list; *name; name++)
            if (!strcmp(*name, kind + 4))
                return 0;
        snprintf(err, errlen, "no matrix '%s' (known: example-4x4, poisson2d-32, powerlaw-2k)", kind + 4);
        return -1;
    }
    int fixed = !strcmp(kind, "fixed");
    if (!fixed && strcmp(kind, "powerlaw")) {
        snprintf(err, errlen, "matrix must be example, fixed, powerlaw or mtx:NAME (got '%s')", kind);
        return -1;
    }
    int rows, cols, per_row, ok = 1;
    if (dim_param(p, "rows", -1, 0, &rows, err, errlen) || dim_param(p, "cols", rows, 0, &cols, err, errlen) ||
        dim_param(p, fixed ? "per_row" : "max_per_row", fixed ? -1 : 1000, 0, &per_row, err, errlen))
        return -1;
    long long nnz = (long long)rows * (per_row < cols ? per_row : cols);
    if (fixed && nnz > LAB08_MAX_NNZ) {
        snprintf(err, errlen, "too many nonzeros (rows * per_row > 2^27)");
        return -1;
    }
    if (fixed)
        return 0;
    double alpha = kit_params_f64(p, "alpha", 3.0, &ok), empty = kit_params_f64(p, "empty", 0.0, &ok);
    if (!ok || !(alpha > 0) || !(empty >= 0 && empty <= 1)) {
        snprintf(err, errlen, "alpha must be > 0 and 0 <= empty <= 1");
        return -1;
    }
    /* the row lengths are drawn: their expected total is bounded here
     * (E[floor(max_per_row u^alpha)] <= max_per_row / (alpha + 1)), the
     * drawn one by make_matrix */
    if (nnz / (alpha + 1) > LAB08_MAX_NNZ) {
        snprintf(err, errlen, "too many nonzeros expected: rows * max_per_row / (alpha + 1) = %.4g, at most 2^27",
                 nnz / (alpha + 1));
        return -1;
    }
    return 0;
}

int lab_params_validate(const kit_params *p, char *err, size_t errlen) { return check_matrix(p, err, errlen); }

static int make_matrix(const kit_params *p, uint64_t seed, kit_csr *A, char *err, size_t errlen)
{
    if (check_matrix(p, err, errlen) != 0)
        return -1;
    const char *kind = kit_params_get(p, "matrix", "fixed");
    if (!strcmp(kind, "example"))
        return example_4x4(A, err, errlen);
    if (!strncmp(kind, "mtx:", 4))
        return lab08_named_matrix(kind + 4, A, NULL, err, errlen);
    int rows = (int)kit_params_ll(p, "rows", -1, NULL), cols = (int)kit_params_ll(p, "cols", rows, NULL);
    kit_rng r;
    kit_rng_seed(&r, seed, 0);
    if (!strcmp(kind, "fixed")) {
        int per_row = (int)kit_params_ll(p, "per_row", -1, NULL);
        if (kit_gen_csr_fixed(&r, A, rows, cols, per_row) != 0) {
            snprintf(err, errlen, "out of memory for %d rows of %d", rows, per_row);
            return -1;
        }
        return 0;
    }
    int max_per_row = (int)kit_params_ll(p, "max_per_row", 1000, NULL);
    double alpha = kit_params_f64(p, "alpha", 3.0, NULL), empty = kit_params_f64(p, "empty", 0.0, NULL);
    if (kit_gen_csr_powerlaw(&r, A, rows, cols, max_per_row, alpha, empty) != 0) {
        snprintf(err, errlen, "out of memory for the power-law matrix");
        return -1;
    }
    if (A->nnz > LAB08_MAX_DRAWN) {
        snprintf(err, errlen, "the power-law matrix drew %lld nonzeros, at most 2^29", (long long)A->nnz);
        kit_csr_free(A);
        return -1;
    }
    return 0;
}

int lab08_generate(const kit_params *p, uint64_t seed, lab08_data *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (make_matrix(p, seed, &d->A, err, errlen) != 0)
        return -1;
    d->x = malloc((size_t)(d->A.cols ? d->A.cols : 1) * sizeof *d->x);
    if (!d->x) {
        lab08_free(d);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    kit_rng r;
    kit_rng_seed(&r, seed, 1);
    kit_gen_uniform_f32(&r, d->x, (size_t)d->A.cols, -1.0f, 1.0f);
    return 0;
}

void lab08_free(lab08_data *d)
{
    kit_csr_free(&d->A);
    free(d->x);
    memset(d, 0, sizeof *d);
}
