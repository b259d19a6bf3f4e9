/* profile_checks.c - the checks of a profile and their lines (see profile_checks.h).
 *
 * Thresholds: a global access is uncoalesced when it touches more than 1.5
 * times the sectors its width needs (the source page's "ideal": 4 sectors
 * per request for 4-byte words, 16 for 16-byte vectors; a tile loaded one
 * word off alignment takes 5 of 4, still coalesced), or, without the
 * source page, above 6 sectors per request; shared memory has bank
 * conflicts from 1.5-way on (wavefronts per ideal wavefront, or 1 + bank
 * conflicts per request); branch efficiency below 90% is divergence;
 * global loads above 2x the bytes read from DRAM load inputs again; fewer
 * than 2 FMAs per shared load is little reuse.  Several kernels are summed
 * (counts) or averaged weighted by their time (percentages).
 */
#include "grading/profile_checks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kit/util.h"

/* The metrics, as Nsight Compute names them. */
#define M_TIME PROFILE_TIME_METRIC
#define M_LD_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define M_LD_REQUESTS "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
#define M_ST_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define M_ST_REQUESTS "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
#define M_SH_LD_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define M_SH_ST_CONFLICTS "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
#define M_SH_LD "smsp__sass_inst_executed_op_shared_ld.sum"
#define M_SH_ST "smsp__sass_inst_executed_op_shared_st.sum"
#define M_BRANCH_EFF "smsp__sass_average_branch_targets_threads_uniform.pct"
#define M_OCC "sm__warps_active.avg.pct_of_peak_sustained_active"
#define M_OCC_MAX "sm__maximum_warps_per_active_cycle_pct"
#define M_LIM_BLOCKS "launch__occupancy_limit_blocks"
#define M_LIM_REGS "launch__occupancy_limit_registers"
#define M_LIM_SHARED "launch__occupancy_limit_shared_mem"
#define M_LIM_WARPS "launch__occupancy_limit_warps"
#define M_REGS "launch__registers_per_thread"
#define M_BLOCK "launch__block_size"
#define M_WAVES "launch__waves_per_multiprocessor"
#define M_SMEM_STATIC "launch__shared_mem_per_block_static"
#define M_SMEM_DYNAMIC "launch__shared_mem_per_block_dynamic"
#define M_DRAM "dram__bytes.sum"
#define M_DRAM_READ "dram__bytes_read.sum"
#define M_DRAM_PEAK "dram__bytes.sum.peak_sustained"
#define M_DRAM_CLOCK "dram__cycles_elapsed.avg.per_second"
#define M_FFMA "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
#define M_FADD "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"
#define M_FMUL "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"
#define M_FFMA_PEAK "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"
#define M_SM_CLOCK "sm__cycles_elapsed.avg.per_second"
#define M_GLOBAL_ATOM "smsp__sass_inst_executed_op_global_atom.sum"
#define M_GLOBAL_RED "smsp__sass_inst_executed_op_global_red.sum"
#define M_SHARED_ATOM "smsp__sass_inst_executed_op_shared_atom.sum"

#define UNCOALESCED 6.0       /* sectors per request, without the source page's ideal */
#define UNCOALESCED_OVER 1.5  /* sectors over the source page's ideal */
#define IDEAL_SECTORS 4
#define CONFLICTED 1.5        /* n-way */
#define DIVERGENT_PCT 90.0
#define RELOADED 2.0          /* global-load bytes per DRAM byte read */
#define LITTLE_REUSE 2.0      /* FMAs per load */

/* ------------------------------------------------------------- the view */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void profile_view_init(profile_view *v, const ncu_raw *raw, const ncu_source *src, const char *const *files,
                       int n_files)
{
    memset(v, 0, sizeof *v);
    v->raw = raw, v->src = src, v->files = files, v->n_files = n_files;
    for (int i = 0; i < raw->n_rows && v->n_rows < (int)(sizeof v->rows / sizeof v->rows[0]); i++)
        if (strncmp(raw->rows[i].name, "kit_", 4)) /* the kit's own kernels (baselines, fresh inputs) */
            v->rows[v->n_rows++] = i;
}

/* Sum of metric over the student's launches: the number of launches that had it. */
static int view_sum(const profile_view *v, const char *metric, double *out)
{
    int have = 0;
    *out = 0;
    for (int i = 0; i < v->n_rows; i++) {
        double x;
        if (ncu_raw_get(v->raw, v->rows[i], metric, &x))
            *out += x, have++;
    }
    return have;
}

/* The launches' mean of metric, weighted by their time (equal weights without times). */
static int view_weighted(const profile_view *v, const char *metric, double *out)
{
    double sum = 0, weights = 0;
    int have = 0;
    for (int i = 0; i < v->n_rows; i++) {
        double x, t;
        if (!ncu_raw_get(v->raw, v->rows[i], metric, &x))
            continue;
        if (!ncu_raw_get(v->raw, v->rows[i], M_TIME, &t) || !(t > 0))
            t = 1;
        sum += x * t, weights += t, have++;
    }
    *out = weights > 0 ? sum / weights : 0;
    return have;
}

/* The raw row of the student's longest launch (-1: none). */
static int view_longest(const profile_view *v)
{
    int best = -1;
    double tbest = -1;
    for (int i = 0; i < v->n_rows; i++) {
        double t = 0;
        ncu_raw_get(v->raw, v->rows[i], M_TIME, &t);
        if (t > tbest)
            tbest = t, best = v->rows[i];
    }
    return best;
}

static int student_file(const profile_view *v, const char *path)
{
    if (!v->n_files)
        return 1;
    for (int i = 0; i < v->n_files; i++)
        if (!strcmp(base_name(path), base_name(v->files[i])))
            return 1;
    return 0;
}

/* The line of the student's files with the most of col (kind op), *share
 * its part of all lines' total; NULL when none has any. */
static const ncu_line *top_line(const profile_view *v, ncu_op op, ncu_src_col col, double *share)
{
    const ncu_line *best = NULL;
    double total = 0;
    for (int i = 0; v->src && i < v->src->n; i++) {
        const ncu_line *l = &v->src->lines[i];
        double x = l->v[op][col];
        total += x;
        if (x > 0 && student_file(v, l->file) && (!best || x > best->v[op][col]))
            best = l;
    }
    if (share)
        *share = best && total > 0 ? best->v[op][col] / total : 0;
    return best;
}

/* " at conv1d.cu:42" (nothing without a line). */
static void at_line(strbuf *b, const ncu_line *l)
{
    if (!l)
        return;
    sb_add(b, " at ");
    sb_add_sanitized(b, base_name(l->file), strlen(base_name(l->file)));
    sb_printf(b, ":%d", l->line);
}

/* The instructions' line of kind op for col, else the CUDA line's own. */
static const ncu_line *op_line(const profile_view *v, ncu_op op, ncu_src_col col)
{
    const ncu_line *l = top_line(v, op, col, NULL);
    return l ? l : top_line(v, NCU_OP_LINE, col, NULL);
}

static void figure(result_figure *figs, int *n, const char *name, double value)
{
    if (*n >= MAX_FIGURES || !isfinite(value))
        return;
    fmt_into(figs[*n].name, sizeof figs[*n].name, "%s", name);
    figs[*n].value = value;
    (*n)++;
}

void profile_thousands(double v, char *buf, size_t len)
{
    char digits[64];
    snprintf(digits, sizeof digits, "%.0f", fabs(v) < 1e18 ? fabs(v) : 0);
    size_t n = strlen(digits), k = 0;
    char out[96];
    if (v < 0 && strcmp(digits, "0"))
        out[k++] = '-';
    for (size_t i = 0; i < n; i++) {
        out[k++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            out[k++] = ',';
    }
    out[k] = 0;
    fmt_into(buf, len, "%s", out);
}

/* ------------------------------------------------------------- the checks */

/* Over every line's instructions of kind op: actual / ideal of col (the
 * source page's own ideal, which knows each access's width); 0 when the
 * page has none. */
static double over_ideal(const profile_view *v, ncu_op op, ncu_src_col actual, ncu_src_col ideal)
{
    double a = 0, i = 0;
    for (int k = 0; v->src && k < v->src->n; k++)
        a += v->src->lines[k].v[op][actual], i += v->src->lines[k].v[op][ideal];
    return i > 0 ? a / i : 0;
}

/* One direction of global accesses: its sectors per request (spr), its
 * ideal, and whether it is uncoalesced. */
typedef struct {
    int have;
    double spr, ideal;
    int bad;
} access_fig;

static access_fig global_access(const profile_view *v, const char *sectors, const char *requests, ncu_op op)
{
    access_fig a = {0, 0, IDEAL_SECTORS, 0};
    double s, r;
    if (!view_sum(v, sectors, &s) || !view_sum(v, requests, &r) || !(r > 0))
        return a;
    a.have = 1;
    a.spr = s / r;
    double over = over_ideal(v, op, NCU_SRC_SECTORS_GLOBAL, NCU_SRC_SECTORS_GLOBAL_IDEAL);
    if (over > 0) { /* vector loads have an ideal of 8 or 16: the source page knows */
        a.ideal = a.spr / over;
        a.bad = over > UNCOALESCED_OVER;
    } else {
        a.bad = a.spr > UNCOALESCED;
    }
    return a;
}

static void check_coalescing(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    access_fig ld = global_access(v, M_LD_SECTORS, M_LD_REQUESTS, NCU_OP_GLOBAL_LOAD);
    access_fig st = global_access(v, M_ST_SECTORS, M_ST_REQUESTS, NCU_OP_GLOBAL_STORE);
    if (ld.have)
        figure(figs, nf, "global_load_sectors_per_request", ld.spr);
    if (st.have)
        figure(figs, nf, "global_store_sectors_per_request", st.spr);
    if (st.bad && (!ld.bad || st.spr / st.ideal > ld.spr / ld.ideal)) { /* the worse of the two */
        sb_printf(b, "global stores: %.1f sectors per request", st.spr);
        at_line(b, op_line(v, NCU_OP_GLOBAL_STORE, NCU_SRC_SECTORS_GLOBAL_EXCESSIVE));
        sb_printf(b, " (ideal %.0f): neighbouring threads write far-apart addresses (uncoalesced)\n", st.ideal);
    } else if (ld.bad) {
        sb_printf(b, "global loads: %.1f sectors per request", ld.spr);
        at_line(b, op_line(v, NCU_OP_GLOBAL_LOAD, NCU_SRC_SECTORS_GLOBAL_EXCESSIVE));
        sb_printf(b, " (ideal %.0f): neighbouring threads read far-apart addresses (uncoalesced)\n", ld.ideal);
    } else if (ld.have) {
        sb_printf(b, "global loads: %.1f sectors per request", ld.spr);
        if (st.have)
            sb_printf(b, ", stores %.1f", st.spr);
        sb_printf(b, " (ideal %.0f): coalesced\n", ld.ideal);
    } else {
        sb_add(b, "global loads: none measured\n");
    }
}

static void check_load_reuse(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double sectors, dram;
    if (!view_sum(v, M_LD_SECTORS, &sectors) || !view_sum(v, M_DRAM_READ, &dram) || !(dram > 0)) {
        sb_add(b, "global loads: not measured against DRAM reads\n");
        return;
    }
    /* the bytes the loads asked for: their sectors over the source page's ideal (an
     * uncoalesced load fetches more sectors than it uses; that is the coalescing check's) */
    double over = over_ideal(v, NCU_OP_GLOBAL_LOAD, NCU_SRC_SECTORS_GLOBAL, NCU_SRC_SECTORS_GLOBAL_IDEAL);
    double x = (over > 1 ? sectors / over : sectors) * 32 / dram;
    figure(figs, nf, "global_load_bytes_per_dram_byte", x);
    if (x > RELOADED) {
        sb_printf(b, "global loads: %.1fx the bytes read from DRAM", x);
        const ncu_line *l = op_line(v, NCU_OP_GLOBAL_LOAD, NCU_SRC_SECTORS_GLOBAL);
        if (l) {
            sb_add(b, ", most");
            at_line(b, l);
        }
        sb_add(b, ": threads load the same inputs again (the caches serve them); a shared-memory tile with its "
                  "halo loads each once\n");
    } else {
        sb_printf(b, "global loads: %.1fx the bytes read from DRAM: each input is loaded about once (a tile with its "
                     "halo)\n",
                  x);
    }
}

/* n-way of the shared accesses of kind op: the source page's wavefronts
 * over their ideal, else 1 + bank conflicts per request (raw page). */
static double shared_ways(const profile_view *v, ncu_op op, double conflicts, double requests)
{
    double over = over_ideal(v, op, NCU_SRC_WAVEFRONTS_SHARED, NCU_SRC_WAVEFRONTS_SHARED_IDEAL);
    return over > 0 ? over : requests > 0 ? 1 + conflicts / requests : 1;
}

static void check_shared_banks(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double lc = 0, sc = 0, lr = 0, sr = 0;
    view_sum(v, M_SH_LD_CONFLICTS, &lc), view_sum(v, M_SH_ST_CONFLICTS, &sc);
    view_sum(v, M_SH_LD, &lr), view_sum(v, M_SH_ST, &sr);
    if (!(lr > 0) && !(sr > 0)) {
        sb_add(b, "shared memory: not used\n");
        return;
    }
    double lw = lr > 0 ? shared_ways(v, NCU_OP_SHARED_LOAD, lc, lr) : 1;
    double sw = sr > 0 ? shared_ways(v, NCU_OP_SHARED_STORE, sc, sr) : 1;
    if (lr > 0)
        figure(figs, nf, "shared_load_ways", lw);
    if (sr > 0)
        figure(figs, nf, "shared_store_ways", sw);
    if (lw < CONFLICTED && sw < CONFLICTED) {
        sb_printf(b, "shared memory: no bank conflicts (loads %.1f-way, stores %.1f-way)\n", lw, sw);
        return;
    }
    int loads = lw >= sw;
    sb_printf(b, "shared memory: %.1f-way bank conflicts on %s", loads ? lw : sw, loads ? "loads" : "stores");
    at_line(b, op_line(v, loads ? NCU_OP_SHARED_LOAD : NCU_OP_SHARED_STORE, NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE));
    sb_printf(b, " (%s %.1f-way): threads of one warp reach different addresses in one bank; pad the array or "
                 "change the stride\n",
              loads ? "stores" : "loads", loads ? sw : lw);
}

static void check_divergence(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double eff;
    if (!view_weighted(v, M_BRANCH_EFF, &eff)) {
        sb_add(b, "branch efficiency: no branches measured\n");
        return;
    }
    figure(figs, nf, "branch_efficiency_pct", eff);
    if (eff < DIVERGENT_PCT) {
        sb_printf(b, "branch efficiency %.0f%%", eff);
        at_line(b, top_line(v, NCU_OP_LINE, NCU_SRC_DIVERGENT_BRANCHES, NULL));
        sb_add(b, ": threads of one warp take different branches (warp divergence)\n");
    } else {
        sb_printf(b, "branch efficiency %.0f%%: little warp divergence\n", eff);
    }
}

/* What limits the blocks per SM of launch row r (the smallest limit), in words. */
static void occupancy_limiter(const profile_view *v, int r, strbuf *b)
{
    static const char *const limits[] = {M_LIM_REGS, M_LIM_SHARED, M_LIM_BLOCKS, M_LIM_WARPS};
    int which = -1;
    double least = 0;
    for (int i = 0; i < 4; i++) {
        double x;
        if (ncu_raw_get(v->raw, r, limits[i], &x) && (which < 0 || x < least))
            which = i, least = x;
    }
    double x = 0, y = 0;
    switch (which) {
    case 0:
        ncu_raw_get(v->raw, r, M_REGS, &x);
        sb_printf(b, ", limited by registers (%.0f per thread)", x);
        break;
    case 1:
        ncu_raw_get(v->raw, r, M_SMEM_STATIC, &x), ncu_raw_get(v->raw, r, M_SMEM_DYNAMIC, &y);
        sb_printf(b, ", limited by shared memory (%.1f KB per block)", (x + y) / 1024);
        break;
    case 2:
        ncu_raw_get(v->raw, r, M_BLOCK, &x);
        sb_printf(b, ", limited by blocks per SM (at most %.0f; blocks of %.0f threads are small)", least, x);
        break;
    case 3: sb_add(b, ", limited by warps per SM"); break;
    default: break;
    }
}

static void check_occupancy(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    int r = view_longest(v);
    double occ, max = 0, waves = 0;
    if (r < 0 || !ncu_raw_get(v->raw, r, M_OCC, &occ)) {
        sb_add(b, "occupancy: not measured\n");
        return;
    }
    int have_max = ncu_raw_get(v->raw, r, M_OCC_MAX, &max);
    figure(figs, nf, "occupancy_pct", occ);
    if (have_max)
        figure(figs, nf, "theoretical_occupancy_pct", max);
    sb_add(b, "occupancy");
    if (v->n_rows > 1) {
        sb_add(b, " of ");
        sb_add_sanitized(b, v->raw->rows[r].name, strlen(v->raw->rows[r].name));
    }
    sb_printf(b, " %.0f%% achieved", occ);
    if (have_max)
        sb_printf(b, ", %.0f%% possible", max);
    if (have_max && max < 99)
        occupancy_limiter(v, r, b);
    if (ncu_raw_get(v->raw, r, M_WAVES, &waves) && waves > 0 && waves < 1)
        sb_printf(b, "; the grid fills %.2f of one wave: too few blocks for this GPU", waves);
    else if (have_max && max >= 99 && occ >= 80)
        sb_add(b, ": not a limit");
    sb_add(b, "\n");
}

/* An achieved rate against this GPU's peak, one line: "WHAT 1,304 UNIT = 39% of this GPU's peak 3,352 UNIT".
 * The peak: per_cycle (per clock, summed over the units) x clock (per second) x work_per_op, from the
 * longest launch; without them, the rate alone. */
typedef struct {
    const char *what, *unit, *figure, *peak_figure, *per_cycle, *clock;
    double work_per_op;
    const char *pct_format; /* "%.0f" or "%.1f" */
} rate_line;

static void rate_against_peak(const profile_view *v, const rate_line *k, double rate, strbuf *b, result_figure *figs,
                              int *nf)
{
    double per_cycle, clock;
    char a[48], p[48], pct[16];
    profile_thousands(rate, a, sizeof a);
    figure(figs, nf, k->figure, rate);
    int r = view_longest(v);
    if (!ncu_raw_get(v->raw, r, k->per_cycle, &per_cycle) || !ncu_raw_get(v->raw, r, k->clock, &clock) ||
        !(per_cycle * clock > 0)) {
        sb_printf(b, "%s %s %s\n", k->what, a, k->unit);
        return;
    }
    double peak = k->work_per_op * per_cycle * clock / 1e9;
    figure(figs, nf, k->peak_figure, peak);
    profile_thousands(peak, p, sizeof p);
    snprintf(pct, sizeof pct, k->pct_format, 100 * rate / peak);
    sb_printf(b, "%s %s %s = %s%% of this GPU's peak %s %s\n", k->what, a, k->unit, pct, p, k->unit);
}

static void check_dram(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    static const rate_line k = {"DRAM", "GB/s", "dram_gbs", "dram_peak_gbs", M_DRAM_PEAK, M_DRAM_CLOCK, 1, "%.0f"};
    double bytes, t;
    if (!view_sum(v, M_DRAM, &bytes) || !view_sum(v, M_TIME, &t) || !(t > 0))
        sb_add(b, "DRAM: not measured\n");
    else
        rate_against_peak(v, &k, bytes / t / 1e9, b, figs, nf);
}

static void check_flops(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    /* an FMA is two operations, at the FMA pipe's peak */
    static const rate_line k = {"FP32", "GFLOP/s", "gflops", "gflops_peak", M_FFMA_PEAK, M_SM_CLOCK, 2, "%.1f"};
    double fma = 0, add = 0, mul = 0, t;
    if (!view_sum(v, M_FFMA, &fma) || !view_sum(v, M_TIME, &t) || !(t > 0)) {
        sb_add(b, "FP32: not measured\n");
        return;
    }
    view_sum(v, M_FADD, &add), view_sum(v, M_FMUL, &mul);
    rate_against_peak(v, &k, (2 * fma + add + mul) / t / 1e9, b, figs, nf);
}

static void check_reuse(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double fma, gl = 0, sl = 0;
    if (!view_sum(v, M_FFMA, &fma) || !(fma > 0)) {
        sb_add(b, "data reuse: no FMAs measured\n");
        return;
    }
    view_sum(v, M_LD_REQUESTS, &gl), view_sum(v, M_SH_LD, &sl);
    double warp_fma = fma / 32, per_global = gl > 0 ? warp_fma / gl : 0, per_shared = sl > 0 ? warp_fma / sl : 0;
    if (gl > 0)
        figure(figs, nf, "fma_per_global_load", per_global);
    if (sl > 0)
        figure(figs, nf, "fma_per_shared_load", per_shared);
    if (!(sl > 0)) {
        sb_printf(b, "data reuse: %.1f FMAs per global load, no shared memory%s\n", per_global,
                  per_global < LITTLE_REUSE ? ": each value loaded feeds about one FMA; a shared-memory tile reuses "
                                              "it (tiling)"
                                            : "");
    } else if (per_shared < LITTLE_REUSE) {
        sb_printf(b, "shared-memory reuse: %.1f FMAs per global load, %.1f per shared load: each value read from "
                     "shared memory feeds few FMAs; a thread computing several outputs reuses it from registers "
                     "(register tiling)\n",
                  per_global, per_shared);
    } else {
        sb_printf(b, "shared-memory reuse: %.1f FMAs per global load, %.1f per shared load: values are reused from "
                     "registers\n",
                  per_global, per_shared);
    }
}

static void check_atomics(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double atom = 0, red = 0, shared = 0;
    int have = view_sum(v, M_GLOBAL_ATOM, &atom) + view_sum(v, M_GLOBAL_RED, &red) + view_sum(v, M_SHARED_ATOM, &shared);
    double global = atom + red, all = global + shared;
    if (!have || !(all > 0)) {
        sb_add(b, "atomics: none measured\n");
        return;
    }
    figure(figs, nf, "global_atomics", global);
    figure(figs, nf, "shared_atomics", shared);
    if (global > shared) {
        sb_printf(b, "atomics: %.1f M warp instructions to global memory, %.1f M in shared memory", global / 1e6,
                  shared / 1e6);
        at_line(b, top_line(v, NCU_OP_GLOBAL_ATOMIC, NCU_SRC_INST_EXECUTED, NULL));
        sb_add(b, ": the updates of all blocks contend for the same bins (atomic contention); privatise: one "
                  "histogram per block in shared memory, merged once\n");
    } else {
        sb_printf(b, "atomics: %.0f%% in shared memory (privatised), %.2f M warp instructions to global memory\n",
                  100 * shared / all, global / 1e6);
    }
}

static void check_hotspot(const profile_view *v, strbuf *b, result_figure *figs, int *nf)
{
    double share;
    const ncu_line *l = top_line(v, NCU_OP_LINE, NCU_SRC_STALL_SAMPLES, &share);
    if (!l) {
        sb_add(b, "hot spot: no warp stalls sampled\n");
        return;
    }
    figure(figs, nf, "hotspot_pct", 100 * share);
    sb_printf(b, "hot spot: %.0f%% of the sampled warp stalls", 100 * share);
    at_line(b, l);
    sb_add(b, "\n");
}

/* ---------------------------------------------------------- the catalogue */

static const profile_check checks[] = {
    {"atomics", {M_GLOBAL_ATOM, M_GLOBAL_RED, M_SHARED_ATOM}, 1, check_atomics},
    {"coalescing", {M_LD_SECTORS, M_LD_REQUESTS, M_ST_SECTORS, M_ST_REQUESTS}, 1, check_coalescing},
    {"divergence", {M_BRANCH_EFF}, 1, check_divergence},
    {"dram", {M_DRAM, M_DRAM_PEAK, M_DRAM_CLOCK}, 0, check_dram},
    {"flops", {M_FFMA, M_FADD, M_FMUL, M_FFMA_PEAK, M_SM_CLOCK}, 0, check_flops},
    {"hotspot", {NULL}, 1, check_hotspot},
    {"load-reuse", {M_LD_SECTORS, M_DRAM_READ}, 1, check_load_reuse},
    {"occupancy",
     {M_OCC, M_OCC_MAX, M_LIM_BLOCKS, M_LIM_REGS, M_LIM_SHARED, M_LIM_WARPS, M_REGS, M_BLOCK, M_WAVES, M_SMEM_STATIC,
      M_SMEM_DYNAMIC},
     0, check_occupancy},
    {"reuse", {M_FFMA, M_LD_REQUESTS, M_SH_LD}, 0, check_reuse},
    {"shared-banks", {M_SH_LD_CONFLICTS, M_SH_ST_CONFLICTS, M_SH_LD, M_SH_ST}, 1, check_shared_banks},
};

const profile_check *profile_check_find(const char *name)
{
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (!strcmp(checks[i].name, name))
            return &checks[i];
    return NULL;
}

void profile_check_names(char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0] && used < len; i++) {
        int w = snprintf(out + used, len - used, "%s%s", i ? ", " : "", checks[i].name);
        used += w > 0 ? (size_t)w : 0;
    }
}

void profile_check_run(const profile_check *c, const profile_view *v, strbuf *out, result_figure *figs, int *n_figs)
{
    c->report(v, out, figs, n_figs);
}

void profile_kernels_line(const profile_view *v, strbuf *b)
{
    /* each kernel name once, with its launches' time summed */
    const char *names[64];
    double ms[64];
    int n = 0;
    for (int i = 0; i < v->n_rows; i++) {
        const ncu_launch *l = &v->raw->rows[v->rows[i]];
        double t = 0;
        ncu_raw_get(v->raw, v->rows[i], M_TIME, &t);
        int k = 0;
        while (k < n && strcmp(names[k], l->name))
            k++;
        if (k == n)
            names[n] = l->name, ms[n++] = 0;
        ms[k] += t * 1e3;
    }
    for (int k = 0; k < n && k < 3; k++) {
        sb_add(b, k ? ", " : "");
        sb_add_sanitized(b, names[k], strlen(names[k]) < 80 ? strlen(names[k]) : 80);
        sb_printf(b, " %.3f ms", ms[k]);
    }
    if (n > 3)
        sb_printf(b, " and %d more", n - 3);
}
