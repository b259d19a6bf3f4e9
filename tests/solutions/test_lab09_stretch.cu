/* test_lab09_stretch.cu - the lab09 stretch solution's schedule, held on the
 * CPU (no GPU, no CUDA call made).  The solution
 * (solutions/lab09-lu/stretch/lu.cu, included below) factors panels of NB
 * columns on a second stream while the default stream updates the rest of
 * the trailing matrix; lu_plan lists the steps (kernels on either stream,
 * event records and waits) that lu_crout_blocked issues.  For many n this
 * program holds:
 *  - no race: any two steps that the streams' order and the events leave
 *    unordered touch disjoint entries (neither writes what the other reads
 *    or writes; the triangles' workspace counts as entries too), every
 *    step on the panel's stream comes after the first record on the default
 *    stream (the caller's matrix and the tolerances), and the default
 *    stream's last step comes after every step (the status is read there);
 *  - every wait waits for an event that was recorded before it;
 *  - the updates: each entry (i, j) gets the product of panel p exactly once
 *    when p's columns end at or before min(i, j), and never otherwise; every
 *    panel's diagonal block is factored once, its solves run once when
 *    columns follow;
 *  - the update kernel's blocks (tile_of_block) cover every tile of each
 *    product exactly once, its threads (tile_row, tile_col) every entry of
 *    a tile, and c_valid lets them touch exactly the entries inside C; the
 *    diagonal block's threads (diag_entry) load every entry once;
 *  - the result: the steps run on the CPU in double, in three orders the
 *    events allow (the plan's, the default stream first, the panel's stream
 *    first), give Crout's factors (L and unit upper U) to rounding.
 *
 * Not a Check program (nvcc builds it, for the solution is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../solutions/lab09-lu/stretch/lu.cu"
#include "plain_check.h"

/* ---- what a step reads and writes: rectangles of the matrix, or the workspace ---- */
typedef struct {
    int r0, r1, c0, c1; /* rows [r0, r1) x columns [c0, c1); the workspace: rows [-1, 0) */
} rect;

#define MAX_RECTS 6
typedef struct {
    rect w[MAX_RECTS], r[MAX_RECTS];
    int nw, nr;
} access;

static rect mk(int r0, int r1, int c0, int c1)
{
    rect x = {r0, r1, c0, c1};
    return x;
}

static const rect WORKSPACE = {-1, 0, 0, 1};

static int overlap(rect a, rect b)
{
    return a.r0 < a.r1 && a.c0 < a.c1 && b.r0 < b.r1 && b.c0 < b.c1 && a.r0 < b.r1 && b.r0 < a.r1 && a.c0 < b.c1 &&
           b.c0 < a.c1;
}

static access access_of(const lu_op &o, int n)
{
    access x;
    x.nw = x.nr = 0;
    int E = o.J + o.b;
    switch (o.kind) {
    case OP_DIAG:
        x.w[x.nw++] = mk(o.J, E, o.J, E);
        x.w[x.nw++] = WORKSPACE;
        x.r[x.nr++] = mk(o.J, E, o.J, E);
        break;
    case OP_TRSM:
        x.w[x.nw++] = mk(E, n, o.J, E);
        x.w[x.nw++] = mk(o.J, E, E, n);
        x.r[x.nr++] = mk(E, n, o.J, E);
        x.r[x.nr++] = mk(o.J, E, E, n);
        x.r[x.nr++] = WORKSPACE;
        break;
    case OP_UPDATE:
        for (int q = 0; q < 2; q++) {
            const prod &p = o.p[q];
            if (!p.m)
                continue;
            x.w[x.nw++] = mk(p.r0, p.r0 + p.m, p.c0, p.c0 + p.n);
            x.r[x.nr++] = mk(p.r0, p.r0 + p.m, p.c0, p.c0 + p.n);
            x.r[x.nr++] = mk(p.r0, p.r0 + p.m, p.p0, p.p0 + p.k);
            x.r[x.nr++] = mk(p.p0, p.p0 + p.k, p.c0, p.c0 + p.n);
        }
        break;
    }
    return x;
}

/* x writes something y reads or writes. */
static int conflict(const access &x, const access &y)
{
    for (int i = 0; i < x.nw; i++) {
        for (int j = 0; j < y.nw; j++)
            if (overlap(x.w[i], y.w[j]))
                return 1;
        for (int j = 0; j < y.nr; j++)
            if (overlap(x.w[i], y.r[j]))
                return 1;
    }
    return 0;
}

/* ---- the order the streams and events give: before[j * count + i] = step i happens before step j ---- */
static char *happens_before(const lu_op *ops, int count)
{
    char *before = (char *)calloc((size_t)count * count + 1, 1);
    int last_on[2] = {-1, -1}, last_record[EVENTS] = {-1, -1};
    for (int j = 0; j < count; j++) {
        char *bj = before + (size_t)j * count;
        int prev = last_on[ops[j].stream];
        if (prev >= 0) {
            memcpy(bj, before + (size_t)prev * count, count);
            bj[prev] = 1;
        }
        if (ops[j].kind == OP_WAIT) {
            int rec = last_record[ops[j].event];
            CHECK(rec >= 0, "step %d waits for event %d, never recorded before it", j, ops[j].event);
            if (rec >= 0) {
                for (int i = 0; i < count; i++)
                    bj[i] |= before[(size_t)rec * count + i];
                bj[rec] = 1;
            }
        }
        if (ops[j].kind == OP_RECORD)
            last_record[ops[j].event] = j;
        last_on[ops[j].stream] = j;
    }
    return before;
}

static void check_races(int n, const lu_op *ops, int count, const char *before)
{
    access *acc = (access *)malloc((size_t)count * sizeof *acc);
    for (int i = 0; i < count; i++)
        acc[i] = access_of(ops[i], n);
    for (int j = 0; j < count; j++)
        for (int i = 0; i < j; i++) {
            if (before[(size_t)j * count + i])
                continue;
            CHECK(!conflict(acc[i], acc[j]) && !conflict(acc[j], acc[i]),
                  "n = %d: steps %d (kind %d, stream %d) and %d (kind %d, stream %d) are unordered and touch the "
                  "same entries",
                  n, i, ops[i].kind, ops[i].stream, j, ops[j].kind, ops[j].stream);
        }
    CHECK(count > 0 && ops[0].kind == OP_RECORD && ops[0].stream == MAIN, "n = %d: the plan does not start with "
                                                                          "the default stream's record", n);
    for (int j = 1; j < count; j++)
        if (ops[j].stream == SIDE)
            CHECK(before[(size_t)j * count + 0], "n = %d: side step %d may start before the caller's work", n, j);
    CHECK(ops[count - 1].stream == MAIN, "n = %d: the last step is not on the default stream", n);
    for (int i = 0; i < count - 1; i++)
        CHECK(before[(size_t)(count - 1) * count + i], "n = %d: step %d may still run after the call returns", n, i);
    free(acc);
}

/* ---- every product once, every panel factored once ---- */
static void check_cover(int n, const lu_op *ops, int count)
{
    int panels = (n + NB - 1) / NB;
    int *diag = (int *)calloc(panels, sizeof(int)), *trsm = (int *)calloc(panels, sizeof(int));
    unsigned char *times = (unsigned char *)calloc((size_t)n * n, 1);
    for (int p = 0; p < panels; p++) {
        memset(times, 0, (size_t)n * n);
        for (int s = 0; s < count; s++) {
            const lu_op &o = ops[s];
            if (o.kind == OP_DIAG && o.J == p * NB) {
                diag[p]++;
                CHECK(o.b == (n - o.J < NB ? n - o.J : NB), "n = %d: panel %d factored %d wide", n, p, o.b);
            }
            if (o.kind == OP_TRSM && o.J == p * NB)
                trsm[p]++;
            if (o.kind != OP_UPDATE)
                continue;
            for (int q = 0; q < 2; q++) {
                const prod &r = o.p[q];
                if (!r.m || r.p0 != p * NB)
                    continue;
                CHECK(r.k == NB, "n = %d: a product of panel %d has inner dimension %d", n, p, r.k);
                for (int i = r.r0; i < r.r0 + r.m; i++)
                    for (int j = r.c0; j < r.c0 + r.n; j++)
                        if (i >= 0 && i < n && j >= 0 && j < n)
                            times[(size_t)i * n + j]++;
                        else
                            CHECK(0, "n = %d: a product writes (%d, %d), outside the matrix", n, i, j);
            }
        }
        int E = (p + 1) * NB, wrong = 0, wi = -1, wj = -1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int want = i >= E && j >= E ? 1 : 0;
                if (times[(size_t)i * n + j] != want && !wrong++)
                    wi = i, wj = j;
            }
        CHECK(!wrong, "n = %d: %d entries get panel %d's product the wrong number of times, first (%d, %d): %d", n,
              wrong, p, wi, wj, wrong ? times[(size_t)wi * n + wj] : 0);
        CHECK(diag[p] == 1, "n = %d: panel %d's diagonal block factored %d times", n, p, diag[p]);
        CHECK(trsm[p] == (E < n ? 1 : 0), "n = %d: panel %d's solves run %d times", n, p, trsm[p]);
    }
    free(diag), free(trsm), free(times);
}

/* ---- the update kernel's blocks ---- */
static void check_tiles(int n, const lu_op *ops, int count)
{
    for (int s = 0; s < count; s++) {
        const lu_op &o = ops[s];
        if (o.kind != OP_UPDATE)
            continue;
        int t0 = prod_tiles(o.p[0]), t1 = prod_tiles(o.p[1]);
        int seen[2][64 * 64];
        memset(seen, 0, sizeof seen);
        for (int bid = 0; bid < t0 + t1; bid++) {
            bool second;
            int row0, col0;
            tile_of_block(bid, t0, o.p[0].n, o.p[1].n, &second, &row0, &col0);
            const prod &p = o.p[second ? 1 : 0];
            int ti = row0 / BM, tj = col0 / BN;
            CHECK(row0 % BM == 0 && col0 % BN == 0 && row0 < p.m && col0 < p.n && ti < 64 && tj < 64,
                  "n = %d: block %d of step %d gets tile (%d, %d) of a %d x %d product", n, bid, s, row0, col0, p.m,
                  p.n);
            if (ti < 64 && tj < 64)
                seen[second][ti * 64 + tj]++;
        }
        for (int q = 0; q < 2; q++) {
            const prod &p = o.p[q];
            if (!p.m)
                continue;
            for (int ti = 0; ti * BM < p.m; ti++)
                for (int tj = 0; tj * BN < p.n; tj++)
                    CHECK(seen[q][ti * 64 + tj] == 1, "n = %d: step %d: tile (%d, %d) of product %d done %d times", n,
                          s, ti, tj, q, seen[q][ti * 64 + tj]);
        }
    }
}

/* ---- which entries each thread loads and stores ---- */
/* diag_kernel's load: every entry of the NB x NB block once.  The update
 * kernel: every entry of a BM x BN tile of C owned by one thread, and
 * c_valid letting load_4 / store_4 touch exactly the tile's entries inside
 * an m x n C, wherever the tile lies. */
static void check_thread_maps(void)
{
    static int seen[NB * NB];
    memset(seen, 0, sizeof seen);
    for (int t = 0; t < DIAG_THREADS; t++)
        for (int k = 0; k < NB * NB / DIAG_THREADS; k++) {
            int r, c;
            diag_entry(t, k, &r, &c);
            CHECK(r >= 0 && r < NB && c >= 0 && c < NB, "diag_entry(%d, %d) = (%d, %d), outside the block", t, k, r, c);
            if (r >= 0 && r < NB && c >= 0 && c < NB)
                seen[r * NB + c]++;
        }
    int wrong = 0;
    for (int x = 0; x < NB * NB; x++)
        wrong += seen[x] != 1;
    CHECK(!wrong, "diag_kernel's load: %d entries of the block not loaded exactly once", wrong);

    const int shapes[][4] = {/* row0, col0, m, n: the tile at (row0, col0) of an m x n C */
                             {0, 0, BM, BN},   {0, 0, 1, 1},     {0, 0, 77, 130},   {128, 256, 200, 300},
                             {0, 128, 3, 131}, {256, 0, 383, 5}, {128, 128, 255, 254}};
    static int own[BM * BN];
    for (const auto &sh : shapes) {
        int row0 = sh[0], col0 = sh[1], m = sh[2], n = sh[3];
        memset(own, 0, sizeof own);
        int bad = 0;
        for (int t = 0; t < THREADS; t++)
            for (int i = 0; i < 8; i++)
                for (int h = 0; h < 2; h++) {
                    int r = tile_row(t, i), c = tile_col(t, h);
                    int valid = c_valid(row0 + r, col0 + c, m, n);
                    for (int q = 0; q < 4; q++) {
                        if (r < 0 || r >= BM || c + q < 0 || c + q >= BN) {
                            bad++;
                            continue;
                        }
                        own[r * BN + c + q]++;
                        int inside = row0 + r < m && col0 + c + q < n;
                        if ((q < valid) != inside)
                            bad++;
                    }
                }
        for (int x = 0; x < BM * BN; x++)
            bad += own[x] != 1;
        CHECK(!bad, "the update tile at (%d, %d) of a %d x %d C: %d entries owned twice, never, or touched wrongly",
              row0, col0, m, n, bad);
    }
}

/* ---- the steps on the CPU, in double ---- */
static void cpu_step(const lu_op &o, double *a, int n)
{
    int J = o.J, E = o.J + o.b;
    switch (o.kind) {
    case OP_DIAG: /* right-looking Crout of the block: L with the pivots, U unit upper */
        for (int j = J; j < E; j++) {
            for (int c = j + 1; c < E; c++)
                a[(size_t)j * n + c] /= a[(size_t)j * n + j];
            for (int r = j + 1; r < E; r++)
                for (int c = j + 1; c < E; c++)
                    a[(size_t)r * n + c] -= a[(size_t)r * n + j] * a[(size_t)j * n + c];
        }
        break;
    case OP_TRSM:
        for (int i = E; i < n; i++) /* L21 = A21 U11^-1 */
            for (int c = J; c < E; c++)
                for (int d = c + 1; d < E; d++)
                    a[(size_t)i * n + d] -= a[(size_t)i * n + c] * a[(size_t)c * n + d];
        for (int k = E; k < n; k++) /* U12 = L11^-1 A12 */
            for (int r = J; r < E; r++) {
                a[(size_t)r * n + k] /= a[(size_t)r * n + r];
                for (int q = r + 1; q < E; q++)
                    a[(size_t)q * n + k] -= a[(size_t)q * n + r] * a[(size_t)r * n + k];
            }
        break;
    case OP_UPDATE:
        for (int q = 0; q < 2; q++) {
            const prod &p = o.p[q];
            for (int i = p.r0; i < p.r0 + p.m; i++)
                for (int j = p.c0; j < p.c0 + p.n; j++) {
                    double s = 0;
                    for (int t = p.p0; t < p.p0 + p.k; t++)
                        s += a[(size_t)i * n + t] * a[(size_t)t * n + j];
                    a[(size_t)i * n + j] -= s;
                }
        }
        break;
    }
}

/* Runs the steps in an order the events allow: prefer = MAIN or SIDE takes
 * the next step of that stream whenever it can; -1: the plan's order. */
static void run_plan(const lu_op *ops, int count, double *a, int n, int prefer)
{
    if (prefer < 0) {
        for (int s = 0; s < count; s++)
            cpu_step(ops[s], a, n);
        return;
    }
    char *done = (char *)calloc(count, 1);
    int next[2] = {0, 0}, finished = 0;
    while (finished < count) {
        int moved = 0;
        for (int k = 0; k < 2 && !moved; k++) {
            int st = k == 0 ? prefer : 1 - prefer;
            while (next[st] < count && ops[next[st]].stream != st)
                next[st]++;
            if (next[st] >= count)
                continue;
            int s = next[st];
            if (ops[s].kind == OP_WAIT) { /* runnable once the last record of its event before it has run */
                int rec = -1;
                for (int i = 0; i < s; i++)
                    if (ops[i].kind == OP_RECORD && ops[i].event == ops[s].event)
                        rec = i;
                if (rec >= 0 && !done[rec])
                    continue;
            }
            cpu_step(ops[s], a, n);
            done[s] = 1, finished++, next[st]++, moved = 1;
        }
        if (!moved) {
            CHECK(0, "n = %d: the plan deadlocks (prefer %d) after %d steps", n, prefer, finished);
            break;
        }
    }
    free(done);
}

static void check_result(int n, const lu_op *ops, int count)
{
    size_t nn = (size_t)n * n;
    double *A = (double *)malloc(nn * sizeof(double)), *want = (double *)malloc(nn * sizeof(double)),
           *got = (double *)malloc(nn * sizeof(double));
    unsigned long long st = 0x9e3779b97f4a7c15ULL * (unsigned)(n + 1);
    for (int i = 0; i < n; i++) { /* diagonally dominant */
        double row = 0;
        for (int j = 0; j < n; j++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            A[(size_t)i * n + j] = (double)(st >> 11) / 9007199254740992.0 - 0.5;
            row += fabs(A[(size_t)i * n + j]);
        }
        A[(size_t)i * n + i] = row + 1.0;
    }
    memcpy(want, A, nn * sizeof(double));
    lu_op whole = {OP_DIAG, MAIN, 0, 0, n, {prod_at(0, 0, 0, 0, 0, 0), prod_at(0, 0, 0, 0, 0, 0)}};
    cpu_step(whole, want, n); /* Crout of the whole matrix in one block */
    const int orders[3] = {-1, MAIN, SIDE};
    for (int k = 0; k < 3; k++) {
        memcpy(got, A, nn * sizeof(double));
        run_plan(ops, count, got, n, orders[k]);
        double worst = 0;
        for (size_t i = 0; i < nn; i++)
            worst = fmax(worst, fabs(got[i] - want[i]));
        CHECK(worst <= 1e-10, "n = %d, order %d: the factors differ from Crout's by %g", n, orders[k], worst);
    }
    free(A), free(want), free(got);
}

int main(void)
{
    check_thread_maps();
    const int sizes[] = {1, 2, 5, 127, 128, 129, 200, 255, 256, 257, 300, 383, 384, 385, 520, 1000, 1025, 2049, 4096};
    for (int n : sizes) {
        int count = lu_plan(n, NULL, 0);
        lu_op *ops = (lu_op *)malloc((size_t)count * sizeof *ops);
        CHECK(lu_plan(n, ops, count) == count, "n = %d: the plan's length changed", n);
        char *before = happens_before(ops, count);
        check_races(n, ops, count, before);
        if (n <= 2049)
            check_cover(n, ops, count);
        check_tiles(n, ops, count);
        if (n <= 520)
            check_result(n, ops, count);
        free(before), free(ops);
    }
    CHECK(lu_plan(0, NULL, 0) == 0, "n = 0: steps planned");
    return plain_check_summary();
}
