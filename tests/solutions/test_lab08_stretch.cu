/* test_lab08_stretch.cu - the lab08 stretch solution's work split, held on
 * the CPU (no GPU, no CUDA call made).  The solution
 * (labs/lab08-spmv/solution/stretch/spmv.cu, included below) splits the merge
 * path of rows + nnz steps into equal pieces, one per warp; each row part
 * a piece holds is read by 1 to 32 lanes, and a row cut by pieces' ends is
 * summed in a slot whose last arriving part writes y.  Its index arithmetic
 * is __host__ __device__; this program runs every piece of many matrices
 * (empty rows, one row, rows of 0 to 600, rows either side of STRIDED_MIN,
 * one huge row among empty ones, the heavy tail's longest row of 99962,
 * power laws) for grids of 1 to 10^4 warps, in a shuffled order (the parts
 * of a cut row arrive in any order on a GPU), and holds:
 *  - the co-rank search finds the rows ended before any step;
 *  - each part goes to the reader reader_for names (sub-warp, the warp in
 *    quads, the warp in strides: each exercised), at both thresholds, and
 *    the plain kernel never reads in strides;
 *  - which kernel a call runs (heavy_next): from its second call on a
 *    matrix, the heavy one exactly when the matrix has a row of STRIDED_MIN
 *    (the mark the pieces leave, modelled as the kernel leaves it), the
 *    plain one otherwise - so of the bench's matrices only the heavy tail
 *    (longest row 99962; the others 500, 16, 1199) - and the first call on
 *    a matrix the kernel its predecessor chose; the plain kernel's grid is
 *    the blocks that fit at once, the heavy one's SPMV_WAVES times that;
 *    every row's mark may be left by some piece, with SPMV_MARK_ONCE by
 *    exactly one (the one where the row starts);
 *  - piece_index gives every warp of a grid its own piece, in the plain
 *    kernel the neighbouring ones (block b: pieces 8 b .. 8 b + 7);
 *  - every nonzero is read exactly once, by exactly one lane, for every lane
 *    count and both load widths (singles; quads, the first and last of a
 *    part partly outside it), and no quad is handed out that the part does
 *    not overlap; the same for a long part read by the whole warp in
 *    strides of 32 (walk_long, its steps fetched ahead with SPMV_LONG_PIPE);
 *  - every y is written exactly once and is the row's exact sum (small
 *    integer values: no rounding), its parts' slot back at 0;
 *  - every piece holds exactly its steps (the balance the split is for);
 *  - lanes_for gives a power of two, about PER_LANE nonzeros a lane.
 *
 * Not a Check program (nvcc builds it, for the solution is CUDA C++):
 * plain_check.h's checks and summary line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../labs/lab08-spmv/solution/stretch/spmv.cu"
#include "plain_check.h"


static unsigned long long rng_state = 0x5eed1234abcdULL;
static unsigned rnd(unsigned n) /* uniform in [0, n) */
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return n ? (unsigned)((rng_state >> 33) % n) : 0;
}

/* A CSR matrix's structure and values: val[k] = k % 7 - 3, x[c] = c % 5 - 2
 * (integers: every sum is exact in double). */
typedef struct {
    int rows, nnz;
    int *row_ptr, *col;
    double *val, *x;
    const char *what;
} csr;

static csr make(const char *what, int rows, const int *len)
{
    csr m = {rows, 0, (int *)malloc(((size_t)rows + 1) * sizeof(int)), NULL, NULL, NULL, what};
    m.row_ptr[0] = 0;
    for (int i = 0; i < rows; i++)
        m.row_ptr[i + 1] = m.row_ptr[i] + len[i];
    m.nnz = m.row_ptr[rows];
    m.col = (int *)malloc(((size_t)m.nnz + 1) * sizeof(int));
    m.val = (double *)malloc(((size_t)m.nnz + 1) * sizeof(double));
    m.x = (double *)malloc(64 * sizeof(double));
    for (int k = 0; k < m.nnz; k++)
        m.col[k] = k % 64, m.val[k] = k % 7 - 3;
    for (int c = 0; c < 64; c++)
        m.x[c] = c % 5 - 2;
    return m;
}

static void drop(csr *m) { free(m->row_ptr), free(m->col), free(m->val), free(m->x); }

/* walk()'s visitor here: adds the products and counts the reads of each
 * nonzero.  A quad stands for its nonzeros in the part [s, e) (the kernel
 * leaves the others out); a quad with none of them is a stray. */
struct tally {
    const csr *m;
    int *reads;
    double sum;
    int s, e;   /* the part the walk was given */
    int strays; /* nonzeros or quads handed out outside [s, e) */
    HD void one(int k)
    {
        if (!in_part(k, s, e)) {
            strays++;
            return;
        }
        reads[k]++;
        sum += m->val[k] * m->x[m->col[k]];
    }
    HD void two(int k, int j) { one(k), one(j); }
    HD void quad(int q)
    {
        int n = 0;
        for (int k = 4 * q; k < 4 * q + 4; k++)
            if (in_part(k, s, e))
                one(k), n++;
        strays += n == 0;
    }
    HD void quads(int q, int r) { quad(q), quad(r); }
    /* walk_long: the nonzeros k + j * WARP that strided_in says are in the
     * part, j < LONG_UNROLL (more would be loads the kernel does not have
     * registers for).  A step with none of them is a stray, but for a lane
     * of the first step before s (from s rounded down to a multiple of 32,
     * in a part of fewer than 32 nonzeros past it): the warp steps together */
    HD void strided(int k, unsigned left)
    {
        int n = 0;
        for (int j = 0; j < LONG_UNROLL; j++)
            if (strided_in(k, j, left, s))
                one(k + j * WARP), n++;
        strays += n == 0 && !(k < s && k >= s - s % WARP);
    }
    /* walk_long's pipelined steps (SPMV_LONG_PIPE): fetch a step, use it
     * later - read as strided when used */
    struct step {
        int k;
        unsigned left;
    };
    HD void fetch(step &st, int k, unsigned left) { st.k = k, st.left = left; }
    HD void use(const step &st) { strided(st.k, st.left); }
};

/* The part [s, e) read by v lanes: what they add, each nonzero read once. */
template <bool QUADS> static double read_part(const csr *m, int *reads, int s, int e, int v, const char *what)
{
    tally t = {m, reads, 0.0, s, e, 0};
    for (int vl = 0; vl < v; vl++)
        walk<QUADS>(s, e, vl, v, t);
    CHECK(t.strays == 0, "%s: part [%d, %d) by %d lanes (quads %d): %d reads outside it", what, s, e, v, QUADS,
          t.strays);
    return t.sum;
}

/* A long part [s, e) read by the whole warp (walk_long): what it adds, each nonzero read once. */
static double read_long_part(const csr *m, int *reads, int s, int e, const char *what)
{
    tally t = {m, reads, 0.0, s, e, 0};
    for (int lane = 0; lane < WARP; lane++)
        walk_long(s, e, lane, t);
    CHECK(t.strays == 0, "%s: long part [%d, %d): %d reads outside it", what, s, e, t.strays);
    return t.sum;
}

/* Parts read by each reader (reader_for) over the whole run: each must be exercised. */
static long long parts_read[3];

/* The co-rank of step c by its definition: the rows whose end step comes before c. */
static int co_rank_by_scan(const csr *m, long long c)
{
    int n = 0;
    while (n < m->rows && (long long)m->row_ptr[n + 1] + n < c)
        n++;
    return n;
}

/* The host's side of heavy_next: the mark's word and the last call's number. */
static volatile unsigned model_seen;
static unsigned model_gen;
#if SPMV_MARK_ONCE
static unsigned model_claim; /* SPMV_MARK_ONCE 2: the device word of claim_mark */
#endif

/* All pieces of m for `warps` warps, in a shuffled order, as the kernel
 * does them: the heavy kernel or the plain one, and call number gen (the
 * mark it leaves in model_seen). */
static void run_pieces(const csr *m, int warps, bool quads, bool heavy, unsigned gen)
{
    long long total = (long long)m->rows + m->nnz, per = piece_steps(total, warps);
    int *reads = (int *)calloc((size_t)m->nnz + 1, sizeof(int)), *writes = (int *)calloc((size_t)m->rows, sizeof(int));
    int *marks = (int *)calloc((size_t)m->rows, sizeof(int)); /* pieces whose lane of the row may leave its mark */
    double *y = (double *)calloc((size_t)m->rows, sizeof(double)), *slot_sum = (double *)calloc(warps, sizeof(double));
    unsigned *slot_count = (unsigned *)calloc(warps, sizeof(unsigned));
    int *order = (int *)malloc(warps * sizeof(int));
    for (int w = 0; w < warps; w++)
        order[w] = w;
    for (int w = warps - 1; w > 0; w--) {
        int j = (int)rnd(w + 1), t = order[w];
        order[w] = order[j], order[j] = t;
    }
    char what[160];
    snprintf(what, sizeof what, "%s (%d rows, %d nonzeros), %d warps", m->what, m->rows, m->nnz, warps);
    int nonempty = 0;
    for (int k = 0; k < warps; k++) {
        int w = order[k];
        piece pc;
        bool has = piece_of(m->row_ptr, m->rows, w, warps, 0, &pc);
        CHECK(has == (w * per < total), "%s: piece %d: has steps %d", what, w, has);
        if (!has)
            continue;
        nonempty++;
        long long d0 = w * per, d1 = d0 + per < total ? d0 + per : total;
        CHECK(pc.first == co_rank_by_scan(m, d0) && pc.end == co_rank_by_scan(m, d1),
              "%s: piece %d: rows %d, %d ended before steps %lld, %lld (by scan %d, %d)", what, w, pc.first, pc.end,
              d0, d1, co_rank_by_scan(m, d0), co_rank_by_scan(m, d1));
        long long steps = 0; /* nonzeros read and row ends passed here */
        int last = piece_last(&pc, m->rows);
        for (int r = pc.first; r <= last; r++) {
            int a = m->row_ptr[r], b = m->row_ptr[r + 1], s, e;
            bool cut;
            bool mine = row_in_piece(&pc, r, a, b, &s, &e, &cut);
            marks[r] += marks_here(mine, s, a);
            /* as the kernel: every row of the piece's batches, or (SPMV_MARK_ONCE) where it starts */
#if SPMV_MARK_ONCE
            mark_row_once(&model_seen, &model_claim, gen, b - a, mine, s, a);
#else
            mark_row(&model_seen, gen, b - a);
#endif
            if (!mine) {
                CHECK(r == pc.end && a + (long long)r >= d1, "%s: piece %d: row %d left out", what, w, r);
                continue;
            }
            CHECK(a <= s && s <= e && e <= b, "%s: piece %d: row %d [%d, %d) has part [%d, %d)", what, w, r, a, b, s,
                  e);
            if (!(a <= s && s <= e && e <= b))
                continue;
            CHECK(cut == (a + (long long)r < d0 || b + (long long)r >= d1), "%s: piece %d: row %d cut %d", what, w, r,
                  cut);
            steps += e - s + (b + (long long)r < d1 ? 1 : 0);
            /* the reader the kernel picks: the whole warp for a long part, in
             * strides (walk_long, the heavy kernel only) or quads; else a lane count from 1 to 16 */
            reader rd = reader_for(e - s, b - a, heavy);
            CHECK(rd == (e - s <= LONG_ROW                    ? SUB_WARP
                         : heavy && b - a >= STRIDED_MIN ? WARP_STRIDED
                                                         : WARP_QUADS),
                  "%s, heavy %d: piece %d: row %d of %d, part of %d: reader %d", what, heavy, w, r, b - a, e - s,
                  (int)rd);
            parts_read[rd]++;
            int v = rd == WARP_QUADS ? WARP : 1 << rnd(5);
            double sum = rd == WARP_STRIDED ? read_long_part(m, reads, s, e, what)
                         : quads            ? read_part<true>(m, reads, s, e, v, what)
                                            : read_part<false>(m, reads, s, e, v, what);
            if (!cut) {
                y[r] = sum, writes[r]++;
                continue;
            }
            long long slot;
            unsigned parts;
            cut_row_slot(per, r, a, b, &slot, &parts);
            CHECK(slot >= 0 && slot <= w && (a + (long long)r) / per == slot && parts >= 2 && slot + parts - 1 < warps,
                  "%s: piece %d: row %d slot %lld of %u parts", what, w, r, slot, parts);
            if (slot < 0 || slot >= warps)
                continue;
            slot_sum[slot] += sum;
            if (++slot_count[slot] == parts) {
                y[r] = slot_sum[slot], writes[r]++;
                slot_sum[slot] = 0, slot_count[slot] = 0;
            }
        }
        CHECK(steps == d1 - d0, "%s: piece %d holds %lld steps, not %lld", what, w, steps, d1 - d0);
    }
    CHECK(nonempty == (total + per - 1) / per, "%s: %d pieces with steps", what, nonempty);
    int bad_rows = 0, bad_reads = 0, bad_slots = 0, first_bad = -1;
    for (int r = 0; r < m->rows; r++) {
        double want = 0;
        for (int k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++)
            want += m->val[k] * m->x[m->col[k]];
        if (writes[r] != 1 || y[r] != want) {
            if (first_bad < 0)
                first_bad = r;
            bad_rows++;
        }
    }
    for (int k = 0; k < m->nnz; k++)
        bad_reads += reads[k] != 1;
    /* SPMV_MARK_ONCE: each row's mark from the one piece where it starts (a
     * row of STRIDED_MIN then marks every call that has one) */
    int bad_marks = 0;
    for (int r = 0; r < m->rows; r++)
        bad_marks += SPMV_MARK_ONCE ? marks[r] != 1 : marks[r] < 1;
    CHECK(bad_marks == 0, "%s: %d rows whose mark is left by other than %s piece", what, bad_marks,
          SPMV_MARK_ONCE ? "exactly one" : "at least one");
    for (int w = 0; w < warps; w++)
        bad_slots += slot_sum[w] != 0 || slot_count[w] != 0;
    CHECK(bad_rows == 0, "%s, quads %d: %d rows wrong or not written once (first: row %d, %d writes)", what, quads,
          bad_rows, first_bad, first_bad >= 0 ? writes[first_bad] : 0);
    CHECK(bad_reads == 0, "%s, quads %d: %d nonzeros not read exactly once", what, quads, bad_reads);
    CHECK(bad_slots == 0, "%s: %d slots not back at 0", what, bad_slots);
    free(reads), free(writes), free(marks), free(y), free(slot_sum), free(slot_count), free(order);
}

static void matrices(void (*test)(const csr *m))
{
    static int len[20000];
    int n;
    struct { const char *what; int rows; } fixed[] = {{"one row", 1}, {"two rows", 2}, {"31 rows", 31},
                                                     {"129 rows", 129}, {"1000 rows", 1000}};
    int per_row[] = {0, 1, 2, 3, 16, 17, 33, 128, 129, 500, 600};
    for (auto &f : fixed)
        for (int p : per_row) {
            char what[64];
            snprintf(what, sizeof what, "%s of %d", f.what, p);
            for (int i = 0; i < f.rows; i++)
                len[i] = p;
            csr m = make(what, f.rows, len);
            test(&m);
            drop(&m);
        }
    /* one huge row among empty ones, first, middle, last */
    for (int at : {0, 1500, 2999}) {
        n = 3000;
        for (int i = 0; i < n; i++)
            len[i] = i == at ? 60000 : 0;
        csr m = make("one row of 60000 among 2999 empty ones", n, len);
        test(&m);
        drop(&m);
    }
    /* rows on either side of STRIDED_MIN (quads or strides), among empty ones and short ones */
    {
        int around[] = {STRIDED_MIN - 1, STRIDED_MIN, STRIDED_MIN + 1, 0, 3, STRIDED_MIN + 37, 0, 0, LONG_ROW + 1};
        n = 0;
        for (int rep = 0; rep < 7; rep++)
            for (int l : around)
                len[n++] = l;
        csr m = make("rows of STRIDED_MIN - 1, STRIDED_MIN, STRIDED_MIN + 1 and others", n, len);
        test(&m);
        drop(&m);
    }
    /* the heavy tail's longest row (99962) among 19999 empty ones, and 20 more of its rows */
    {
        n = 20000;
        for (int i = 0; i < n; i++)
            len[i] = 0;
        len[12345] = 99962;
        for (int i = 0; i < 20; i++)
            len[(int)rnd(n)] = (int)(100000 * pow(rnd(1u << 30) / (double)(1u << 30), 2000));
        csr m = make("a row of 99962 among empty ones and a heavy tail", n, len);
        test(&m);
        drop(&m);
    }
    /* power laws: floor(max * u^alpha), some rows empty; heavy tails */
    struct { int rows, max; double alpha; } pl[] = {{5000, 100, 2}, {10000, 2000, 4}, {20000, 20000, 40}, {257, 3000, 1}};
    for (auto &p : pl) {
        for (int i = 0; i < p.rows; i++) {
            double u = rnd(1u << 30) / (double)(1u << 30);
            len[i] = rnd(10) == 0 ? 0 : (int)(p.max * pow(u, p.alpha));
        }
        char what[64];
        snprintf(what, sizeof what, "power law floor(%d u^%g)", p.max, p.alpha);
        csr m = make(what, p.rows, len);
        test(&m);
        drop(&m);
    }
    /* rows of random lengths 0..300 */
    for (int i = 0; i < 4000; i++)
        len[i] = (int)rnd(301);
    csr m = make("random lengths 0..300", 4000, len);
    test(&m);
    drop(&m);
}

/* Calls on m as the host makes them (spmv_hybrid: gen, heavy_next), one
 * per grid: the first runs the kernel the previous matrix's calls chose,
 * every later one the heavy kernel exactly when m has a row of STRIDED_MIN. */
static void all_grids(const csr *m)
{
    int longest = 0;
    for (int r = 0; r < m->rows; r++)
        longest = m->row_ptr[r + 1] - m->row_ptr[r] > longest ? m->row_ptr[r + 1] - m->row_ptr[r] : longest;
    int n = 0;
    for (int warps : {1, 2, 3, 8, 33, 256, 4224, 10000}) {
        unsigned gen = ++model_gen;
        bool heavy = heavy_next(model_seen, gen);
        CHECK(n++ == 0 || heavy == (longest >= STRIDED_MIN), "%s (longest row %d): call %d ran the %s kernel", m->what,
              longest, n, heavy ? "heavy" : "plain");
        run_pieces(m, warps, warps % 2 == 0, heavy, gen);
    }
}

/* The bench's four matrices by their longest rows (500 and 16 nonzeros in
 * every row; the power law's 1199, the heavy tail's 99962): which kernel
 * their calls after the first run, as all_grids holds it on small ones. */
static void bench_choice(void)
{
    struct { const char *what; int longest; } mats[] = {
        {"500 per row", 500}, {"16 per row", 16}, {"power law", 1199}, {"heavy tail", 99962}};
    for (auto &mt : mats) {
        int len[3] = {mt.longest, 0, 3};
        csr m = make(mt.what, 3, len);
        unsigned gen = ++model_gen;
        run_pieces(&m, 4, true, heavy_next(model_seen, gen), gen);
        gen = ++model_gen;
        bool heavy = heavy_next(model_seen, gen);
        CHECK(heavy == (mt.longest >= STRIDED_MIN), "%s (longest row %d): the %s kernel", mt.what, mt.longest,
              heavy ? "heavy" : "plain");
        drop(&m);
    }
#if SPMV_STRIDED_MIN == 2048 /* the default: only the heavy tail takes the heavy kernel */
    CHECK(!heavy_row(500) && !heavy_row(16) && !heavy_row(1199) && heavy_row(99962),
          "STRIDED_MIN %d: not only the heavy tail heavy", STRIDED_MIN);
#endif
    /* a mark two calls old (calls queued without a wait) or none: the plain kernel */
    CHECK(!heavy_next(0, 1) && heavy_next(6, 7) && !heavy_next(5, 7) && !heavy_next(7, 7),
          "heavy_next: the heavy kernel other than after a call that saw a long row");
    CHECK(grid_for(132, 4, false) == 528 && grid_for(132, 4, true) == 528 * SPMV_WAVES &&
              grid_for(132, 0, false) == 132,
          "grid_for: plain %d, heavy %d blocks for 132 SMs of 4", grid_for(132, 4, false), grid_for(132, 4, true));
}

int main(void)
{
    /* reader_for at its two thresholds: the part's length (LONG_ROW), the row's (STRIDED_MIN) */
    CHECK(reader_for(LONG_ROW, STRIDED_MIN, true) == SUB_WARP && reader_for(1, 1 << 30, true) == SUB_WARP &&
              reader_for(LONG_ROW + 1, STRIDED_MIN - 1, true) == WARP_QUADS &&
              reader_for(LONG_ROW + 1, STRIDED_MIN, true) == WARP_STRIDED &&
              reader_for(1 << 30, 1 << 30, true) == (STRIDED_MIN <= 1 << 30 ? WARP_STRIDED : WARP_QUADS),
          "reader_for: wrong reader at LONG_ROW = %d or STRIDED_MIN = %d", LONG_ROW, STRIDED_MIN);
    /* the plain kernel: quads for every long part, whatever its row */
    CHECK(reader_for(LONG_ROW, STRIDED_MIN, false) == SUB_WARP &&
              reader_for(LONG_ROW + 1, STRIDED_MIN, false) == WARP_QUADS &&
              reader_for(1 << 30, 1 << 30, false) == WARP_QUADS,
          "reader_for: the plain kernel reads in strides");
    /* piece_index: every (block, warp) of a grid its own piece, all pieces taken */
    for (int blocks : {1, 3, 528, 1056})
        for (int heavy = 0; heavy < 2; heavy++) {
            int total = blocks * WARPS, bad = 0;
            int *taken = (int *)calloc(total, sizeof(int));
            for (int b = 0; b < blocks; b++)
                for (int wb = 0; wb < WARPS; wb++) {
                    i64 p = piece_index(b, wb, blocks, heavy);
                    if (p < 0 || p >= total || (!heavy && p != (i64)b * WARPS + wb))
                        bad++;
                    else
                        taken[p]++;
                }
            for (int p = 0; p < total; p++)
                bad += taken[p] != 1;
            CHECK(bad == 0, "piece_index, heavy %d: %d pieces of %d blocks not taken once (plain: neighbours)",
                  heavy, bad, blocks);
            free(taken);
        }
    /* lanes_for: a power of two from 1 to 16 for a short row (<= LONG_ROW), about PER_LANE nonzeros a lane */
    for (int mean = 1; mean <= LONG_ROW; mean++) {
        int v = lanes_for(mean * 3, 3);
        CHECK(v >= 1 && v <= 16 && (v & (v - 1)) == 0 && v * PER_LANE >= mean && (v == 1 || v * PER_LANE < 2 * mean),
              "lanes_for: mean %d gives %d lanes", mean, v);
    }
    /* every lane count, every alignment of a part and both widths: each nonzero of it read exactly once */
    {
        int lens[] = {300};
        csr m = make("walk", 1, lens);
        int *reads = (int *)calloc(301, sizeof(int));
        int bad = 0;
        for (int v = 1; v <= WARP; v *= 2)
            for (int s = 0; s < 12; s++)
                for (int e = s; e <= s + 140 && e <= 300; e++)
                    for (int qd = 0; qd < 2; qd++) {
                        memset(reads, 0, 301 * sizeof(int));
                        if (qd)
                            read_part<true>(&m, reads, s, e, v, "walk");
                        else
                            read_part<false>(&m, reads, s, e, v, "walk");
                        for (int k = 0; k < 300; k++)
                            bad += reads[k] != (k >= s && k < e);
                    }
        CHECK(bad == 0, "walk: %d nonzeros read other than once", bad);
        /* walk_long: parts of 0 to 300 nonzeros (up to one full step of the warp and past it) at every
         * start modulo 32 (its steps start at s rounded down to a multiple of 32) */
        bad = 0;
        for (int s = 0; s < 40; s++)
            for (int e = s; e <= 300; e++) {
                memset(reads, 0, 301 * sizeof(int));
                read_long_part(&m, reads, s, e, "walk_long");
                for (int k = 0; k < 300; k++)
                    bad += reads[k] != (k >= s && k < e);
            }
        CHECK(bad == 0, "walk_long: %d nonzeros read other than once", bad);
        free(reads);
        drop(&m);
    }
    matrices(all_grids);
    bench_choice();
    /* quads only where some long part's row is shorter than STRIDED_MIN (-D SPMV_STRIDED_MIN=129: none) */
    CHECK(parts_read[SUB_WARP] > 0 && (parts_read[WARP_QUADS] > 0 || STRIDED_MIN <= LONG_ROW + 1) &&
              parts_read[WARP_STRIDED] > 0,
          "readers not all exercised: %lld parts by sub-warps, %lld in quads, %lld in strides", parts_read[SUB_WARP],
          parts_read[WARP_QUADS], parts_read[WARP_STRIDED]);
    printf("parts read: %lld by sub-warps, %lld by the warp in quads, %lld in strides\n", parts_read[SUB_WARP],
           parts_read[WARP_QUADS], parts_read[WARP_STRIDED]);
    return plain_check_summary();
}
