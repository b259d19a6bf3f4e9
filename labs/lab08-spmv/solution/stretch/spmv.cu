/* lab08 stretch exercise - a hybrid CSR SpMV: the work split evenly by a
 * merge path, each piece done the vector kernel's way (handout, "How far
 * from the library?").
 *
 * Timed apart from the graded call: spmv_vector, what the lab's tests and
 * its performance test call, is the warp-per-row kernel (at the end of this
 * file); spmv_hybrid is the stretch, timed by `make bench LAB=lab08` against
 * cuSPARSE on the four matrices.  Why: the performance test's matrix has
 * 500 nonzeros in every row, where a warp per row is already the right
 * method and an even split of the work buys nothing; on an H100 the hybrid
 * as spmv_vector measured 0.99x the scalar kernel there (full points from
 * 1.40x), the warp per row passes.  What the hybrid is for - rows of very
 * different lengths, the heavy tail - is what the bench measures.
 *
 * Why a hybrid.  A warp per row (the lab's vector kernel) reads long, even
 * rows as fast as the memory allows, but it gives every row the same
 * workers: one row of 10^5 nonzeros keeps one warp busy while the GPU idles,
 * and a row of 2 leaves 30 lanes idle.  A thread-level merge path
 * (Merrill and Garland, SC16) gives every thread the same number of steps
 * whatever the rows, but pays for it on every step: a search per thread,
 * products staged through shared memory, a segmented scan and four
 * barriers per tile - on 500 nonzeros in every row (the performance test)
 * it was slower than the kit's scalar kernel.  Here the merge path only
 * splits the work between warps, and each warp reads its piece with
 * coalesced loads (16-byte where aligned; 4-byte in dense long rows):
 *
 *  1. The path.  Merge the row ends A = row_ptr[1..rows] with the nonzero
 *     indices B = 0 .. nnz-1 (on a tie the row end first: a row that ends at
 *     k ends before nonzero k).  Nonzero k of row r is step k + r, the end
 *     of row r is step row_ptr[r+1] + r: the path has rows + nnz steps
 *     whatever the row lengths.  Warp w of the grid (the blocks that fit on
 *     the GPU at once; in the heavy kernel, 4., more, and w in another
 *     order) takes steps [w * per, (w+1) * per); its first row is the
 *     co-rank of w * per (lab 07's co_rank with b[k - i] = k - i), found by
 *     a 32-way search in which every lane tests one candidate (a ballot
 *     counts the hits): 3 or 4 rounds for a million rows.  The host reads
 *     nothing of the matrix: nnz = row_ptr[rows] is read by every warp.
 *  2. The choice, per batch of 128 rows of a piece, from their row
 *     pointers (each lane loads 4, coalesced: a run of empty rows costs one
 *     round of loads per 128 rows).  The lengths decide how each row is
 *     read: an empty row's y is written by its lane; a row whose part is
 *     longer than LONG_ROW by the whole warp (the vector kernel), in quads,
 *     lane l taking quads l, l + 32, ... (fewest loads: the performance
 *     test's rows of 500, the power law's) - except, in the heavy kernel
 *     (4.), a row of STRIDED_MIN or more: in strides, lane l taking
 *     nonzeros l, l + 32, ..., LONG_UNROLL at a time (walk_long says why:
 *     the heavy tail's x);
 *     the short ones are shared out to sub-warps of v lanes, v from their
 *     mean length (v = 1 is the scalar kernel's lane per row), so rows of 16
 *     keep 16 rows in flight per warp instead of one.
 *  3. Rows cut by a piece's ends (only a piece's first and last row can be,
 *     and a row of 10^5 nonzeros is cut into many pieces: the row split of
 *     the very long rows): each part adds its sum into the slot of the piece
 *     where the row starts, then counts itself in; the part that counts last
 *     - it knows how many parts there are from the row's first and end steps
 *     - writes y and sets the slot back to 0 for the next call (the
 *     threadfence pattern of the CUDA programming guide: add, __threadfence,
 *     count).  One kernel, no second pass, no clearing launch.
 *  4. Two kernels (heavy_next says why and how the host chooses): the
 *     plain one, all of the above with quads for every long row, its grid
 *     the blocks that fit at once, each block's warps on neighbouring
 *     pieces; and the heavy one, for a matrix with rows of STRIDED_MIN or
 *     more (the heavy tail), strides for those rows, SPMV_WAVES times the
 *     grid, the warps of a block on pieces spread over the matrix.
 *
 * Kept between calls: the grids and the slots (one per warp, zero
 * whenever no call runs), which depend on the GPU only, and the mark of the
 * last call that saw a row of STRIDED_MIN or more - the one statistic of a
 * matrix kept, and it only picks the kernel; every other is taken anew in
 * every call.  The sums are grouped differently from the reference's
 * (float atomics even in a different order from run to run), which the
 * checker's bound (any order of summation) allows.  The index arithmetic
 * is __host__ __device__: tests/solutions/test_lab08_stretch.cu runs it on
 * the CPU against the CSR.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kit/cuda_check.cuh"
#include "spmv.h"

#define THREADS 256
#define WARP 32
#define WARPS (THREADS / WARP)
#define GROUPS 4               /* row pointers per lane per batch */
#define BATCH (GROUPS * WARP)  /* rows a warp looks at together */
#define LONG_ROW 128           /* longer rows (their part in the piece) get the whole warp */
/* nonzeros a lane of a long row reads a step in walk_long (the heavy
 * kernel only); on an H100, with walk_long in the one kernel there was
 * then, the heavy tail did 0.89 of cuSPARSE at 4, 0.86 at 8; as the heavy
 * kernel of 4., 0.87 at either.  -D SPMV_LONG_UNROLL=n to time others */
#ifndef SPMV_LONG_UNROLL
#define SPMV_LONG_UNROLL 4
#endif
#define LONG_UNROLL SPMV_LONG_UNROLL
/* Rows of at least this many nonzeros (the whole row's, not the part's in
 * the piece) are read by walk_long, shorter long rows by the whole warp in
 * quads.  The row's length stands for its density: walk_long pays where a
 * gather's 32 columns share lines of x, which in a row of uniformly spread
 * columns needs about cols / len < 32; quads pay where they do not (fewer
 * loads of val and col).  On an H100: walk_long for every row over
 * LONG_ROW lost on the 500-per-row matrix (0.1124 ms, quads 0.0865) and
 * the power law (1.131, quads 1.020), won on the heavy tail (0.343, quads
 * 0.411), whose nonzeros are mostly in rows of 10^4 to 10^5.  The density
 * itself would need two loads of col, a dependent round, per row.  -D
 * SPMV_STRIDED_MIN=n to time others (n <= LONG_ROW + 1: walk_long for all). */
#ifndef SPMV_STRIDED_MIN
#define SPMV_STRIDED_MIN 2048
#endif
#define STRIDED_MIN SPMV_STRIDED_MIN
#define PER_LANE 8             /* nonzeros a short row's lane should get: two quads */
#define MIN_PIECE 64           /* steps: a small matrix goes to fewer warps, in fewer cut rows */
#define CUT_BIT 0x80           /* in a list entry: the row is cut (its offset in the batch is < 128) */
#define STRIDED_BIT 0x100      /* in a list entry: the row is read by walk_long */
#define FULL_MASK 0xffffffffu
#define HD __host__ __device__
/* Blocks of 256 threads per SM to fit registers for: 4, 64 registers a
 * thread (32 warps an SM; the most that fit before compute capability 8.0).
 * At 5 (48 registers) ptxas spilled 48 bytes.  Not yet timed against 5 on
 * an H100.  -D SPMV_MIN_BLOCKS=n to time others. */
#ifndef SPMV_MIN_BLOCKS
#define SPMV_MIN_BLOCKS 4
#endif
#define MIN_BLOCKS SPMV_MIN_BLOCKS
/* The same for the heavy kernel alone (the default: SPMV_MIN_BLOCKS).  Its
 * time on the heavy tail goes mostly to walk_long, whose gathers of x wait
 * on the loads of col: more warps an SM keep more of them in flight, if
 * the registers fit - for sm_90 ptxas gave the heavy kernel with quads, at
 * 5 (48 registers, 40 warps), 16 bytes of spill stores and 56 of loads; at
 * 6 (40 registers, 48 warps) 96 and 200.  -D SPMV_HEAVY_MIN_BLOCKS=n to
 * time others. */
#ifndef SPMV_HEAVY_MIN_BLOCKS
#define SPMV_HEAVY_MIN_BLOCKS SPMV_MIN_BLOCKS
#endif
/* walk_long's steps (the heavy kernel only): 0, each step loads its
 * LONG_UNROLL nonzeros of val and col, then gathers their x - no load of
 * val or col in flight while the gathers wait; 1, software-pipelined: the
 * next step's val and col are loaded before this step's x is gathered, so
 * that the two overlap (twice the registers for them).  -D SPMV_LONG_PIPE=1
 * to time it. */
#ifndef SPMV_LONG_PIPE
#define SPMV_LONG_PIPE 0
#endif
/* Who leaves the mark of a row of STRIDED_MIN or more (heavy_next) in the
 * mapped word, a write across PCIe: 0, every lane whose batch holds such a
 * row (in the heavy tail about 10^4 writes a call: a row of 10^5 is in
 * some 18 pieces); 1, only the piece where the row's first nonzero is
 * (one write per such row, about 2000); 2, of those only the first to
 * claim the call's number in a device word (one write a call, a few where
 * claims race).  -D SPMV_MARK_ONCE=n to time them.  1 is the default: on
 * an H100 the heavy tail took 0.2925 to 0.2975 ms with it and 0.304 to
 * 0.309 with 0, 0.91-0.92 of cuSPARSE where 0 gave 0.87; 2 saved as much but slowed
 * the 500-per-row matrix by a fifth (0.80 of cuSPARSE, 0.92 with 1). */
#ifndef SPMV_MARK_ONCE
#define SPMV_MARK_ONCE 1
#endif
/* Which warps of the heavy kernel take which pieces (the plain kernel
 * keeps neighbours: block b's warps take pieces 8 b .. 8 b + 7).  1: block
 * b's warp i takes piece i * blocks + b, so that an SM's warps hold pieces from all over the
 * matrix; 0: pieces 8 b .. 8 b + 7, neighbours.  Why spread: every warp is
 * resident at once, each with the same number of steps, but a step does not
 * cost the same everywhere (a nonzero of a dense long row shares its line
 * of x with its neighbours, one of a sparse row does not; an empty row costs
 * less than either), and with neighbouring pieces an SM's 32 warps sit in 4
 * places of the matrix - in the heavy tail 4 rows - so some SMs have far
 * more to read than others and the last one keeps the GPU waiting.  Spread,
 * an SM's load is the mean of 32 places.  The pieces and slots are the same
 * either way.  -D SPMV_SPREAD=0 to time neighbours. */
#ifndef SPMV_SPREAD
#define SPMV_SPREAD 1
#endif
/* The heavy kernel's grid: this many times the blocks that fit on the GPU
 * at once (the plain kernel's is once).  More than 1 gives the hardware's
 * block scheduler smaller pieces to even out (a block that finishes early
 * makes room for another), for more cut rows and co-rank searches: on an
 * H100, with one kernel for every matrix, 2 took the heavy tail from 0.86
 * of cuSPARSE to 0.92 and the 500-per-row matrix from 0.81 to 0.59 - which
 * is why only a matrix with rows of STRIDED_MIN gets it (heavy_next).  As
 * the heavy kernel of 4. (with LONG_UNROLL 4) the heavy tail did 0.87 at
 * 2 and at 3 while every piece of a long row wrote its mark; one write a
 * row (SPMV_MARK_ONCE 1) made it 0.91 at 2.  -D SPMV_WAVES=n to time others. */
#ifndef SPMV_WAVES
#define SPMV_WAVES 2
#endif

typedef long long i64;

/* walk()'s loops take two quads (or two nonzeros) a lane per step already,
 * all loads in flight at once: unrolled further by the compiler they would
 * cost registers, so warps */
#ifdef __CUDA_ARCH__
#define NO_UNROLL _Pragma("unroll 1")
#else
#define NO_UNROLL
#endif

/* ---- the path (host and device) ---- */

/* Steps per warp: the rows + nnz steps shared by `warps` warps. */
HD inline i64 piece_steps(i64 total, i64 warps)
{
    i64 per = (total + warps - 1) / warps;
    return per < MIN_PIECE ? MIN_PIECE : per;
}

/* Candidate p ends a row within the first c steps: row p-1 ends at step
 * row_ptr[p] + p - 1 < c.  Monotone in p (row_ptr[p] + p grows by at least 1). */
HD inline bool ends_within(const int *row_ptr, i64 p, i64 c) { return row_ptr[p] + p <= c; }

/* How many of the 32 candidates lo + step, lo + 2 step, ... (not past hi) end
 * a row within the first c steps: on the device lane l tests candidate l and
 * a ballot counts (a prefix of the lanes, by monotony); the host loops. */
HD inline int candidates_within(const int *row_ptr, i64 lo, i64 hi, i64 step, i64 c, int lane)
{
#ifdef __CUDA_ARCH__
    i64 p = lo + (i64)(lane + 1) * step;
    return __popc(__ballot_sync(FULL_MASK, lo < hi && p <= hi && ends_within(row_ptr, p, c)));
#else
    (void)lane;
    int n = 0;
    for (int l = 0; l < WARP; l++) {
        i64 p = lo + (i64)(l + 1) * step;
        n += lo < hi && p <= hi && ends_within(row_ptr, p, c);
    }
    return n;
#endif
}

/* The bracket of the co-rank of step c: it lies in [lo, hi]. */
HD inline void co_rank_bracket(int rows, int nnz, i64 c, i64 *lo, i64 *hi)
{
    *lo = c > nnz ? c - nnz : 0; /* row_ptr[p] <= nnz: p = c - nnz always ends within */
    *hi = c < rows ? c : rows;
}

/* One round: `below` candidates end within c, so the co-rank is at least
 * the last of them and less than the next. */
HD inline void co_rank_narrow(i64 *lo, i64 *hi, i64 step, int below)
{
    i64 top = *lo + (i64)(below + 1) * step - 1;
    *lo += (i64)below * step;
    if (top < *hi)
        *hi = top;
}

/* The co-ranks of steps c0 and c1 (the rows finished before each), both
 * searches in one loop so that their loads overlap.  Every lane of the warp
 * calls it with the same arguments and gets the same answers. */
HD inline void co_rank2(const int *row_ptr, int rows, i64 c0, i64 c1, int lane, i64 *r0, i64 *r1)
{
    int nnz = row_ptr[rows];
    i64 lo0, hi0, lo1, hi1;
    co_rank_bracket(rows, nnz, c0, &lo0, &hi0);
    co_rank_bracket(rows, nnz, c1, &lo1, &hi1);
    while (lo0 < hi0 || lo1 < hi1) { /* the same in every lane: the ballots are uniform */
        i64 st0 = (hi0 - lo0 + WARP - 1) / WARP, st1 = (hi1 - lo1 + WARP - 1) / WARP;
        int b0 = candidates_within(row_ptr, lo0, hi0, st0, c0, lane);
        int b1 = candidates_within(row_ptr, lo1, hi1, st1, c1, lane);
        if (lo0 < hi0)
            co_rank_narrow(&lo0, &hi0, st0, b0);
        if (lo1 < hi1)
            co_rank_narrow(&lo1, &hi1, st1, b1);
    }
    *r0 = lo0;
    *r1 = lo1;
}

/* A warp's piece of the path, steps [d0, d1), as row and nonzero
 * coordinates (ints: a step number needs 33 bits, these do not): the piece
 * starts at nonzero j0 of row `first` (d0 = first + j0) and ends before
 * nonzero j1 of row `end` (d1 = end + j1).  Rows before `first` end before
 * it, rows first .. end-1 end in it, so its rows are first .. end (end only
 * when it starts before d1, and only when end < rows). */
typedef struct {
    int first, j0, end, j1;
} piece;

/* Piece w of `warps` (per: piece_steps); false when it is empty (more warps than steps). */
HD inline bool piece_of(const int *row_ptr, int rows, i64 w, i64 warps, int lane, piece *pc)
{
    i64 total = (i64)rows + row_ptr[rows], per = piece_steps(total, warps), d0 = w * per;
    if (d0 >= total)
        return false;
    i64 d1 = d0 + per < total ? d0 + per : total, i0, i1;
    co_rank2(row_ptr, rows, d0, d1, lane, &i0, &i1);
    pc->first = (int)i0, pc->j0 = (int)(d0 - i0);
    pc->end = (int)i1, pc->j1 = (int)(d1 - i1);
    return true;
}

/* The last row that may have steps in the piece. */
HD inline int piece_last(const piece *pc, int rows) { return pc->end < rows ? pc->end : rows - 1; }

/* Row r (first <= r <= piece_last; nonzeros [a, b)) in the piece: whether it
 * has a step there at all, its nonzeros there [*s, *e), and whether it is
 * cut (other pieces have steps of it). */
HD inline bool row_in_piece(const piece *pc, int r, int a, int b, int *s, int *e, bool *cut)
{
    bool head = r == pc->first && a < pc->j0; /* it started in an earlier piece */
    *s = r == pc->first ? pc->j0 : a;         /* row `first` starts at or before j0 */
    *e = r == pc->end ? pc->j1 : b;           /* row `end` ends at or after j1 */
    *cut = head || r == pc->end;
    return r < pc->end || a < pc->j1; /* row `end`: only when its first step comes before d1 */
}

/* A cut row's slot (the piece where its first step is) and its number of
 * parts (the pieces its steps cover); per: piece_steps. */
HD inline void cut_row_slot(i64 per, int r, int a, int b, i64 *slot, unsigned *parts)
{
    *slot = ((i64)a + r) / per;
    *parts = (unsigned)(((i64)b + r) / per - *slot + 1);
}

/* Warp `wb` of block `block` (of `blocks`): its piece - spread in the
 * heavy kernel (SPMV_SPREAD says why), neighbours in the plain one.  Either
 * way each piece goes to exactly one warp. */
HD inline i64 piece_index(unsigned block, int wb, int blocks, bool heavy)
{
    return heavy && SPMV_SPREAD ? (i64)wb * blocks + block : (i64)block * WARPS + wb;
}

/* How a row's part in a piece is read: its lane's sub-warp (parts up to
 * LONG_ROW), or the whole warp, in quads or - in the heavy kernel only - in
 * strides (walk_long) by the row's length (STRIDED_MIN says why).  len: the
 * part's nonzeros, row_len: the row's. */
enum reader { SUB_WARP, WARP_QUADS, WARP_STRIDED };
HD inline reader reader_for(int len, int row_len, bool heavy)
{
    if (len <= LONG_ROW)
        return SUB_WARP;
    return heavy && row_len >= STRIDED_MIN ? WARP_STRIDED : WARP_QUADS;
}

/* Which kernel a call runs.  The plain one is the hybrid as it was before
 * walk_long (quads for every long row, neighbouring pieces, one wave: on an
 * H100 0.96 of cuSPARSE on 500 and 16 nonzeros a row, 0.94 on the power
 * law); the heavy one reads rows of STRIDED_MIN or more in strides, with
 * SPMV_WAVES waves and spread pieces (the heavy tail: 0.66 plain).  With
 * walk_long in the one kernel, unused (-D SPMV_STRIDED_MIN=10^8), the
 * 500-per-row matrix measured 0.80: so the two are apart, and the host
 * picks one per call.  The host knows nothing of the matrix, and reading it back would stall
 * every call; instead each kernel marks, in a word of host memory the GPU
 * writes (mapped), the number of the call (gen, from 1) in which it saw a
 * row of STRIDED_MIN or more, and a call runs the heavy kernel when the
 * call before it saw one.  So the first call on a new matrix runs the
 * kernel its predecessor chose - either gives the right y, one may be
 * slower - and the next calls the right one.  A call may also look before
 * the previous kernel has finished (calls queued without a wait between
 * them); it may then run the plain kernel, as correct. */
HD inline bool heavy_row(int row_len) { return row_len >= STRIDED_MIN; }
/* The mark a kernel of call gen leaves for a row of its pieces (every one:
 * a row has steps in some piece) - a few lanes, in a matrix with such rows. */
HD inline void mark_row(volatile unsigned *seen, unsigned gen, int row_len)
{
    if (heavy_row(row_len))
        *seen = gen;
}
/* Whether a lane whose row part is [s, e) of nonzeros [a, ...) (mine: the
 * row has steps in the piece) leaves the row's mark (SPMV_MARK_ONCE): 0,
 * every lane; else only in the piece where its first nonzero is - every
 * row has one (the piece holding step a + r lists the row with s == a). */
HD inline bool marks_here(bool mine, int s, int a) { return SPMV_MARK_ONCE == 0 || (mine && s == a); }
/* SPMV_MARK_ONCE 2: the first caller of call gen to claim it in *word
 * (zero at first, never 0 after: gen is never 0) - it alone writes the
 * mark.  A word left at gen by a call 2^32 calls ago takes a mark away:
 * the plain kernel next, as correct. */
HD inline bool claim_mark(unsigned *word, unsigned gen)
{
#ifdef __CUDA_ARCH__
    return atomicExch(word, gen) != gen;
#else
    unsigned old = *word;
    *word = gen;
    return old != gen;
#endif
}
/* The mark as SPMV_MARK_ONCE leaves it, for a lane's row (mine, s, a as
 * marks_here; claim: the device word of claim_mark). */
HD inline void mark_row_once(volatile unsigned *seen, unsigned *claim, unsigned gen, int row_len, bool mine, int s,
                             int a)
{
    if (marks_here(mine, s, a) && heavy_row(row_len) && (SPMV_MARK_ONCE < 2 || claim_mark(claim, gen)))
        mark_row(seen, gen, row_len);
}
HD inline bool heavy_next(unsigned seen, unsigned gen) { return seen != 0 && seen + 1 == gen; }

/* The grid of a kernel of which `fit` blocks fit on each of `sms` SMs:
 * the plain kernel's all resident at once, the heavy one's SPMV_WAVES
 * times that. */
HD inline int grid_for(int sms, int fit, bool heavy) { return sms * (fit > 0 ? fit : 1) * (heavy ? SPMV_WAVES : 1); }

/* Lanes per short row: a power of two, about PER_LANE nonzeros each. */
HD inline int lanes_for(int total_len, int n_rows)
{
    int mean = (total_len + n_rows - 1) / n_rows, v = 1;
    while (v < WARP && v * PER_LANE < mean)
        v *= 2;
    return v;
}

/* Which nonzeros of [s, e) lane vl of v takes.  With quads (16-byte loads
 * of val and col): the quads that [s, e) overlaps, lane vl taking quads vl,
 * vl + v, ..., two at a time (all four loads in flight), the visitor
 * leaving out the nonzeros of the first and last quad that are not in
 * [s, e) - so a row that does not start at a multiple of 4 costs no extra
 * round of loads.  Without quads: the nonzeros singly, two at a time. */
template <bool QUADS, class F> HD inline void walk(int s, int e, int vl, int v, F &f)
{
    if (QUADS) {
        if (s >= e)
            return;
        int q = s / 4 + vl, qe = e / 4 + (e % 4 != 0); /* quads q .. qe-1 overlap [s, e) */
        NO_UNROLL
        for (; q < qe - v; q += 2 * v)
            f.quads(q, q + v);
        if (q < qe)
            f.quad(q);
        return;
    }
    unsigned n = (unsigned)(e - s), t = vl;
    NO_UNROLL
    for (; t + v < n; t += 2 * v)
        f.two(s + (int)t, s + (int)(t + v));
    if (t < n)
        f.one(s + (int)t);
}

/* Which nonzeros of a long row's part [s, e) lane `lane` of the whole warp
 * takes: base + lane, base + lane + 32, ..., LONG_UNROLL of them a step,
 * from base = s rounded down to a multiple of 32, so that every load of
 * val and col is one line of 128 bytes (from s, two lines, 5 sectors for 4);
 * the visitor's strided(k, left) reads the nonzeros k + j * WARP that
 * strided_in says are in the part, all their loads in flight at once.
 * For dense long rows (reader_for).  Not quads: with them lane l reads
 * nonzeros 4l .. 4l + 3, so one gather of x spans 128 nonzeros and, in a
 * long row with nearby columns (the heavy tail's rows of up to 10^5
 * nonzeros in 10^6 columns: up to one column in ten), touches a different
 * line of x in every lane - 32 L1 wavefronts and L2 sectors a gather.
 * Here one gather spans 32 consecutive nonzeros, whose columns share lines
 * and sectors.  On an H100 the hybrid with quads did 1.1e11 nonzeros/s on
 * the heavy tail, the same as on the power law, whose columns are far
 * apart; cuSPARSE did 1.7e11 there, 1.2e11 on the power law.  The loads of
 * val and col stay coalesced (128 bytes a warp). */
template <class F> HD inline void walk_long(int s, int e, int lane, F &f)
{
    int base = s - s % WARP;           /* s >= 0 */
    unsigned n = (unsigned)(e - base); /* offsets from base: t + LONG_UNROLL * WARP cannot overflow */
#if SPMV_LONG_PIPE
    /* the same steps, each one's loads (fetch) issued before the previous
     * one's gathers (use): f.fetch then f.use of a step is f.strided */
    unsigned t = (unsigned)lane;
    if (t >= n)
        return;
    typename F::step cur, next;
    f.fetch(cur, base + (int)t, n - t);
    NO_UNROLL
    for (; t + LONG_UNROLL * WARP < n; t += LONG_UNROLL * WARP) {
        f.fetch(next, base + (int)(t + LONG_UNROLL * WARP), n - t - LONG_UNROLL * WARP);
        f.use(cur);
        cur = next;
    }
    f.use(cur);
#else
    NO_UNROLL
    for (unsigned t = (unsigned)lane; t < n; t += LONG_UNROLL * WARP)
        f.strided(base + (int)t, n - t);
#endif
}

/* Nonzero k + j * WARP of a strided step at k (walk_long) is in the part
 * [s, ...): within the `left` nonzeros from k, and not before s - only j = 0
 * can be, for walk_long starts fewer than WARP nonzeros before s. */
HD inline bool strided_in(int k, int j, unsigned left, int s) { return (unsigned)(j * WARP) < left && (j > 0 || k >= s); }

/* A quad's nonzero k is in the part [s, e). */
HD inline bool in_part(int k, int s, int e) { return k >= s && k < e; }

/* ---- the kernel ---- */

/* Adds val[k] * x[col[k]] for the nonzeros k of [s, e) walk() hands it. */
struct dot {
    const int *__restrict__ col;
    const float *__restrict__ val, *__restrict__ x;
    int s, e, nnz; /* the part; nnz: the arrays' length (no quad load reaches past it) */
    float sum;
    __device__ void one(int k) { sum += val[k] * __ldg(x + col[k]); }
    __device__ void two(int k, int m)
    {
        float va = val[k], vb = val[m];
        int ca = col[k], cb = col[m];
        sum += va * __ldg(x + ca) + vb * __ldg(x + cb);
    }
    /* the quad at nonzero k: x is read only for the nonzeros of the part */
    __device__ float quad_sum(float4 v, int4 c, int k)
    {
        return (in_part(k, s, e) ? v.x * __ldg(x + c.x) : 0.0f) + (in_part(k + 1, s, e) ? v.y * __ldg(x + c.y) : 0.0f) +
               (in_part(k + 2, s, e) ? v.z * __ldg(x + c.z) : 0.0f) + (in_part(k + 3, s, e) ? v.w * __ldg(x + c.w) : 0.0f);
    }
    /* the arrays' last, partial quad: singly */
    __device__ void last_quad(int k)
    {
        for (int j = k; j < e; j++)
            if (j >= s)
                one(j);
    }
    /* a strided step's nonzeros k + j * WARP (walk_long, strided_in):
     * fetch loads their val and col, use gathers their x */
    struct step {
        float v[LONG_UNROLL];
        int c[LONG_UNROLL];
        int k;
        unsigned left;
    };
    __device__ void fetch(step &st, int k, unsigned left)
    {
        st.k = k, st.left = left;
#pragma unroll
        for (int j = 0; j < LONG_UNROLL; j++) {
            bool in = strided_in(k, j, left, s);
            st.v[j] = in ? __ldg(val + k + j * WARP) : 0.0f;
            st.c[j] = in ? __ldg(col + k + j * WARP) : 0;
        }
    }
    __device__ void use(const step &st)
    {
#pragma unroll
        for (int j = 0; j < LONG_UNROLL; j++)
            if (strided_in(st.k, j, st.left, s)) /* no gather outside the part */
                sum += st.v[j] * __ldg(x + st.c[j]);
    }
    __device__ void strided(int k, unsigned left)
    {
        step st;
        fetch(st, k, left);
        use(st);
    }
    __device__ void quad(int q)
    {
        if (4 * q + 4 <= nnz)
            sum += quad_sum(__ldg((const float4 *)val + q), __ldg((const int4 *)col + q), 4 * q);
        else
            last_quad(4 * q);
    }
    __device__ void quads(int q, int r) /* q < r */
    {
        if (4 * r + 4 > nnz) {
            quad(q), quad(r);
            return;
        }
        float4 va = __ldg((const float4 *)val + q), vb = __ldg((const float4 *)val + r);
        int4 ca = __ldg((const int4 *)col + q), cb = __ldg((const int4 *)col + r);
        sum += quad_sum(va, ca, 4 * q) + quad_sum(vb, cb, 4 * r);
    }
};

template <bool QUADS>
__device__ float row_part(int s, int e, int vl, int v, int nnz, const int *col, const float *val, const float *x)
{
    dot d = {col, val, x, s, e, nnz, 0.0f};
    walk<QUADS>(s, e, vl, v, d);
    return d.sum;
}

/* A long row's part, by the whole warp (walk_long). */
__device__ float long_part(int s, int e, int lane, int nnz, const int *col, const float *val, const float *x)
{
    dot d = {col, val, x, s, e, nnz, 0.0f};
    walk_long(s, e, lane, d);
    return d.sum;
}

/* Lane 0 of each group of `width` lanes gets the group's sum; every lane
 * of the warp calls it (width is the same in all). */
__device__ float group_sum(float v, int width)
{
    for (int off = width / 2; off > 0; off /= 2)
        v += __shfl_down_sync(FULL_MASK, v, off, width);
    return v;
}

/* A cut row's part: added into its slot; the part that counts in last
 * writes the total and clears the slot.  Rare (at most two rows a warp):
 * out of line, so that it costs the common path no registers. */
__device__ __noinline__ void finish_cut(int rows, const int *row_ptr, int r, float sum, float *y, float *slot_sum,
                                        unsigned *slot_count)
{
    i64 slot;
    unsigned parts;
    i64 per = piece_steps((i64)rows + row_ptr[rows], (i64)gridDim.x * WARPS);
    cut_row_slot(per, r, row_ptr[r], row_ptr[r + 1], &slot, &parts);
    atomicAdd(&slot_sum[slot], sum);
    __threadfence(); /* the sum is in before the count says so */
    if (atomicAdd(&slot_count[slot], 1u) == parts - 1) {
        __threadfence(); /* every other part's sum is in */
        y[r] = atomicExch(&slot_sum[slot], 0.0f);
        slot_count[slot] = 0; /* no other part comes in this call: ready for the next */
    }
}

/* y[r] = sum, or, for a row cut by the piece's ends, this part's share of it. */
__device__ void finish(int rows, const int *row_ptr, int r, bool cut, float sum, float *y, float *slot_sum,
                       unsigned *slot_count)
{
    if (cut)
        finish_cut(rows, row_ptr, r, sum, y, slot_sum, slot_count);
    else
        y[r] = sum;
}

/* A list entry's row offset and bits: a byte in the plain kernel (as
 * before walk_long), two in the heavy one (STRIDED_BIT). */
template <bool HEAVY> struct list_tag {
    typedef unsigned char type;
};
template <> struct list_tag<true> {
    typedef unsigned short type;
};

/* HEAVY: the heavy kernel (heavy_next); seen, gen: the call's mark (heavy_next). */
#if SPMV_MARK_ONCE >= 2
/* The word of SPMV_MARK_ONCE 2 (claim_mark). */
__device__ unsigned mark_claim;
#define MARK_CLAIM (&mark_claim)
#else
#define MARK_CLAIM ((unsigned *)0) /* not read */
#endif

/* A batch's long rows, list entries [from, BATCH): the whole warp each, one
 * after the other, in strides or quads (the same in every lane). */
template <bool QUADS, bool HEAVY, typename tag_t>
__device__ __forceinline__ void long_rows(const int *ls, const int *le, const tag_t *lr, int from, int rb, int lane,
                                          int rows, const int *__restrict__ row_ptr, int nnz,
                                          const int *__restrict__ col, const float *__restrict__ val,
                                          const float *__restrict__ x, float *__restrict__ y, float *slot_sum,
                                          unsigned *slot_count)
{
    for (int i = from; i < BATCH; i++) {
        unsigned tag = lr[i];
        float part = HEAVY && (tag & STRIDED_BIT) ? long_part(ls[i], le[i], lane, nnz, col, val, x)
                                       : row_part<QUADS>(ls[i], le[i], lane, WARP, nnz, col, val, x);
        float sum = group_sum(part, WARP);
        if (lane == 0)
            finish(rows, row_ptr, (int)(rb + (tag & (CUT_BIT - 1))), tag & CUT_BIT, sum, y, slot_sum, slot_count);
    }
}

/* A batch's n_short short rows, list entries [0, n_short): sub-warps of v
 * lanes, 32 / v rows at a time (v from the lanes' summed my_len). */
template <bool QUADS, typename tag_t>
__device__ __forceinline__ void short_rows(const int *ls, const int *le, const tag_t *lr, int n_short, int my_len,
                                           int rb, int lane, int rows, const int *__restrict__ row_ptr, int nnz,
                                           const int *__restrict__ col, const float *__restrict__ val,
                                           const float *__restrict__ x, float *__restrict__ y, float *slot_sum,
                                           unsigned *slot_count)
{
    for (int off = WARP / 2; off > 0; off /= 2)
        my_len += __shfl_xor_sync(FULL_MASK, my_len, off);
    int v = lanes_for(my_len, n_short), per = WARP / v, sub = lane / v, vl = lane % v;
    for (int t = 0; t < n_short; t += per) {
        int i = t + sub;
        bool has = i < n_short;
        float sum = group_sum(row_part<QUADS>(has ? ls[i] : 0, has ? le[i] : 0, vl, v, nnz, col, val, x), v);
        if (has && vl == 0)
            finish(rows, row_ptr, (int)(rb + (lr[i] & (CUT_BIT - 1))), lr[i] & CUT_BIT, sum, y, slot_sum, slot_count);
    }
}

template <bool QUADS, bool HEAVY>
__global__ void __launch_bounds__(THREADS, HEAVY ? SPMV_HEAVY_MIN_BLOCKS : MIN_BLOCKS) spmv_hybrid_kernel(int rows, const int *__restrict__ row_ptr,
                                                              const int *__restrict__ col,
                                                              const float *__restrict__ val,
                                                              const float *__restrict__ x, float *__restrict__ y,
                                                              float *slot_sum, unsigned *slot_count,
                                                              volatile unsigned *seen, unsigned gen)
{
    typedef typename list_tag<HEAVY>::type tag_t;
    /* each warp's rows of a batch that have nonzeros in its piece: the short
     * ones from the front, the long ones from the back; nonzeros [s, e), the
     * row's offset in the batch | CUT_BIT | STRIDED_BIT */
    __shared__ int list_s[WARPS][BATCH], list_e[WARPS][BATCH];
    __shared__ tag_t list_r[WARPS][BATCH];
    int lane = threadIdx.x % WARP, wb = threadIdx.x / WARP;
    int *ls = list_s[wb], *le = list_e[wb];
    tag_t *lr = list_r[wb];
    piece pc;
    if (!piece_of(row_ptr, rows, piece_index(blockIdx.x, wb, gridDim.x, HEAVY), (i64)gridDim.x * WARPS, lane, &pc))
        return; /* the whole warp: no barrier below involves other warps */
    unsigned below_me = (1u << lane) - 1;
    int nnz = row_ptr[rows];
    unsigned span = (unsigned)(piece_last(&pc, rows) - pc.first); /* rows first .. first + span */

    /* batches of BATCH rows (offsets from `first`, unsigned: o + BATCH cannot overflow) */
    for (unsigned ob = 0; ob <= span; ob += BATCH) { /* the same in every lane */
        int rb = pc.first + (int)ob;
        int a[GROUPS + 1]; /* row_ptr[first + o], o = ob + g * WARP + lane; past the rows, row_ptr[first + span + 1] */
#pragma unroll
        for (int g = 0; g <= GROUPS; g++) {
            unsigned o = ob + g * WARP + lane;
            a[g] = row_ptr[pc.first + (int)(o <= span + 1 ? o : span + 1)];
        }
        int n_short = 0, n_long = 0, my_len = 0;
#pragma unroll
        for (int g = 0; g < GROUPS; g++) {
            int b = __shfl_down_sync(FULL_MASK, a[g], 1), next = __shfl_sync(FULL_MASK, a[g + 1], 0);
            if (lane == WARP - 1)
                b = next; /* row_ptr[r + 1] */
            unsigned o = ob + g * WARP + lane;
            bool in_span = o <= span;
            int r = in_span ? pc.first + (int)o : pc.first, s = 0, e = 0;
            bool cut = false;
            bool mine = in_span && row_in_piece(&pc, r, a[g], b, &s, &e, &cut);
            int len = mine ? e - s : -1;
            if (len == 0) /* an empty row, or a cut row's end alone */
                finish(rows, row_ptr, r, cut, 0.0f, y, slot_sum, slot_count);
#if SPMV_MARK_ONCE
            mark_row_once(seen, MARK_CLAIM, gen, b - a[g], mine, s, a[g]);
#else
            mark_row(seen, gen, b - a[g]);
#endif
            reader rd = reader_for(len, b - a[g], HEAVY);
            bool is_long = len > 0 && rd != SUB_WARP, is_short = len > 0 && rd == SUB_WARP;
            unsigned longs = __ballot_sync(FULL_MASK, is_long), shorts = __ballot_sync(FULL_MASK, is_short);
            if (len > 0) {
                int at = is_long ? BATCH - 1 - n_long - __popc(longs & below_me) : n_short + __popc(shorts & below_me);
                ls[at] = s, le[at] = e;
                lr[at] = (tag_t)((g * WARP + lane) | (cut ? CUT_BIT : 0) | (rd == WARP_STRIDED ? STRIDED_BIT : 0));
                my_len += is_short ? len : 0;
            }
            n_long += __popc(longs);
            n_short += __popc(shorts);
        }
        __syncwarp(); /* the list is written */

        long_rows<QUADS, HEAVY>(ls, le, lr, BATCH - n_long, rb, lane, rows, row_ptr, nnz, col, val, x, y, slot_sum,
                                slot_count);
        if (n_short > 0)
            short_rows<QUADS>(ls, le, lr, n_short, my_len, rb, lane, rows, row_ptr, nnz, col, val, x, y, slot_sum,
                              slot_count);
        __syncwarp(); /* the list is read before the next batch writes it */
    }
}

/* What depends on the GPU only, never on the matrix, set up at the first
 * call and kept: the grids (the blocks that fit on the GPU at once for the
 * plain kernel, SPMV_WAVES times that for the heavy one), the cut rows'
 * slots (one per warp of the larger grid, zero between calls), and the
 * mapped word in which kernels mark the call that saw a row of STRIDED_MIN
 * (heavy_next) with the number of the last call. */
static int plain_blocks, heavy_blocks;
static float *d_slot_sum;
static unsigned *d_slot_count;
static volatile unsigned *h_seen; /* the host's view of the mark */
static unsigned *d_seen;          /* the GPU's */
static unsigned last_gen;

/* Blocks of the kernel k that fit on an SM at once. */
static int fit_of(const void *k)
{
    int fit;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, k, THREADS, 0));
    return fit;
}

static int min_int(int a, int b) { return a < b ? a : b; }

static void setup(void)
{
    int dev, sms;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int fit_plain = min_int(fit_of((const void *)spmv_hybrid_kernel<true, false>),
                            fit_of((const void *)spmv_hybrid_kernel<false, false>));
    int fit_heavy = min_int(fit_of((const void *)spmv_hybrid_kernel<true, true>),
                            fit_of((const void *)spmv_hybrid_kernel<false, true>));
    int heavy = grid_for(sms, fit_heavy, true), plain = grid_for(sms, fit_plain, false);
    size_t slots = (size_t)(heavy > plain ? heavy : plain) * WARPS;
    CUDA_CHECK(cudaMalloc(&d_slot_sum, slots * sizeof *d_slot_sum));
    CUDA_CHECK(cudaMalloc(&d_slot_count, slots * sizeof *d_slot_count));
    CUDA_CHECK(cudaMemset(d_slot_sum, 0, slots * sizeof *d_slot_sum));
    CUDA_CHECK(cudaMemset(d_slot_count, 0, slots * sizeof *d_slot_count));
    unsigned *h;
    CUDA_CHECK(cudaHostAlloc(&h, sizeof *h, cudaHostAllocMapped));
    *h = 0;
    CUDA_CHECK(cudaHostGetDevicePointer(&d_seen, h, 0));
    h_seen = h;
    heavy_blocks = heavy;
    plain_blocks = plain;
}

void spmv_hybrid(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (rows <= 0)
        return;
    if (plain_blocks == 0)
        setup();
    unsigned gen = ++last_gen == 0 ? ++last_gen : last_gen; /* never 0: 0 is "no call saw one" */
    bool heavy = heavy_next(*h_seen, gen);
    int grid = heavy ? heavy_blocks : plain_blocks;
    /* 16-byte loads need 16-byte aligned arrays (cudaMalloc's are) */
    bool quads = (((uintptr_t)d_val | (uintptr_t)d_col) & 15) == 0;
    void (*k)(int, const int *, const int *, const float *, const float *, float *, float *, unsigned *,
              volatile unsigned *, unsigned) =
        quads ? (heavy ? spmv_hybrid_kernel<true, true> : spmv_hybrid_kernel<true, false>)
              : (heavy ? spmv_hybrid_kernel<false, true> : spmv_hybrid_kernel<false, false>);
    k<<<grid, THREADS>>>(rows, d_row_ptr, d_col, d_val, d_x, d_y, d_slot_sum, d_slot_count, d_seen, gen);
    CUDA_CHECK_LAUNCH();
}

/* ---- the graded call: a warp per row (the lab's vector kernel) ---- */

__global__ void warp_per_row(int rows, const int *__restrict__ row_ptr, const int *__restrict__ col,
                             const float *__restrict__ val, const float *__restrict__ x, float *__restrict__ y)
{
    int lane = threadIdx.x % WARP;
    int warps = gridDim.x * blockDim.x / WARP;
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP; row < rows; row += warps) {
        float sum = 0.0f;
        for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += WARP)
            sum += val[k] * x[col[k]];
        for (int offset = WARP / 2; offset > 0; offset /= 2)
            sum += __shfl_down_sync(FULL_MASK, sum, offset);
        if (lane == 0)
            y[row] = sum;
    }
}

void spmv_vector(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x, float *d_y)
{
    if (rows <= 0)
        return;
    long long blocks = ((long long)rows + WARPS - 1) / WARPS;
    warp_per_row<<<(int)(blocks < 65535 ? blocks : 65535), THREADS>>>(rows, d_row_ptr, d_col, d_val, d_x, d_y);
    CUDA_CHECK_LAUNCH();
}
