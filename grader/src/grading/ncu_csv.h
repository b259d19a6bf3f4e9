/* ncu_csv.h - reading what Nsight Compute prints (ncu --csv), in plain C.
 *
 * The profile step (profile.h) exports one report and prints two of its
 * pages with `ncu --import REPORT --csv`:
 *
 *   --page raw: a header row ("ID","Process ID",...,"Kernel Name",...,
 *     then one column per metric, named as asked: "dram__bytes.sum"), a row
 *     of units ("" under the launch columns, "byte", "Gbyte/second", "%"),
 *     then one row per profiled kernel launch.  Numbers may carry thousands
 *     separators ("10,240,000"); a metric without a value reads "n/a".
 *   --page source --print-source cuda,sass: for each profiled launch and
 *     source file a row "File Path","PATH" (and "Function Name","NAME"),
 *     then a header row "Line No","Source","Address","Source",<metric
 *     columns>, then the rows: a CUDA line (Line No set) with the line's
 *     totals, followed by its SASS instructions (Line No empty; the second
 *     "Source" is the instruction's text, e.g. "@P0 LDG.E R2, [R2.64]").
 *
 * and ncu's own messages ("==ERROR== ...", "==WARNING== ...") anywhere in
 * its output.  Text is untrusted and need not end in a NUL: every parser
 * takes (text, len), keeps what fits, and never fails on garbage (it finds
 * nothing in it).  Values are converted to base units (bytes, seconds,
 * bytes per second) from the units row, whatever --print-units said.
 */
#ifndef GRADER_NCU_CSV_H
#define GRADER_NCU_CSV_H
#include <stddef.h>

#define NCU_NAME_LEN 256

/* ---- the raw page ---- */

typedef struct {
    char name[NCU_NAME_LEN]; /* "Kernel Name", as printed */
    long id;                 /* "ID" */
    double *value;           /* per column, in base units */
    unsigned char *has;      /* 1 where the column had a number */
} ncu_launch;

typedef struct {
    int n_cols;
    char **cols;         /* header names */
    ncu_launch *rows;
    int n_rows;
} ncu_raw;

/* Parses a raw page.  0 when a header was found (rows may be none), -1
 * when the text holds none (r is then empty; free it all the same). */
int ncu_raw_parse(const char *text, size_t len, ncu_raw *r);
void ncu_raw_free(ncu_raw *r);
/* The column of metric `name`, or -1. */
int ncu_raw_col(const ncu_raw *r, const char *name);
/* Row `row`'s value of metric `name` into *v: 1, or 0 when it has none. */
int ncu_raw_get(const ncu_raw *r, int row, const char *name, double *v);

/* ---- the source page ---- */

/* The per-instruction metrics of the Source Counters section the checks
 * read (their column titles: ncu_csv.c). */
typedef enum {
    NCU_SRC_SECTORS_GLOBAL,           /* L2 Theoretical Sectors Global */
    NCU_SRC_SECTORS_GLOBAL_IDEAL,     /* ... Ideal */
    NCU_SRC_SECTORS_GLOBAL_EXCESSIVE, /* ... Excessive: over the ideal, an uncoalesced access */
    NCU_SRC_WAVEFRONTS_SHARED,        /* L1 Wavefronts Shared */
    NCU_SRC_WAVEFRONTS_SHARED_IDEAL,
    NCU_SRC_WAVEFRONTS_SHARED_EXCESSIVE, /* over the ideal: bank conflicts */
    NCU_SRC_DIVERGENT_BRANCHES,
    NCU_SRC_INST_EXECUTED,            /* warp-level instructions executed */
    NCU_SRC_STALL_SAMPLES,            /* Warp Stall Sampling (All Samples) */
    NCU_SRC_NCOLS
} ncu_src_col;

/* What a SASS instruction does, from its mnemonic (LDG, STS, ATOMS, ...). */
typedef enum {
    NCU_OP_LINE = 0,   /* not an instruction: the CUDA line's own totals */
    NCU_OP_GLOBAL_LOAD,
    NCU_OP_GLOBAL_STORE,
    NCU_OP_SHARED_LOAD,
    NCU_OP_SHARED_STORE,
    NCU_OP_GLOBAL_ATOMIC, /* ATOM, ATOMG, RED */
    NCU_OP_SHARED_ATOMIC, /* ATOMS */
    NCU_OP_OTHER,
    NCU_NOPS
} ncu_op;

typedef struct {
    char file[NCU_NAME_LEN]; /* "File Path", as printed */
    int line;
    /* [NCU_OP_LINE]: the CUDA row's values; [op]: the sums over its SASS rows of that kind */
    double v[NCU_NOPS][NCU_SRC_NCOLS];
} ncu_line;

typedef struct {
    ncu_line *lines; /* one per (file, line), summed over launches */
    int n, cap;
    int has_col[NCU_SRC_NCOLS]; /* some header had this column */
} ncu_source;

/* Parses a source page: 0 when a header row was found, -1 when none. */
int ncu_source_parse(const char *text, size_t len, ncu_source *s);
void ncu_source_free(ncu_source *s);
/* The kind of a SASS instruction's text ("@!P0 LDG.E.128 R4, [R2.64]": global load). */
ncu_op ncu_sass_op(const char *sass);

/* ---- ncu's messages ---- */

typedef struct {
    int permission;       /* ERR_NVGPUCTRPERM: counters restricted to administrators */
    int no_kernels;       /* "No kernels were profiled" */
    char error[256];      /* the first "==ERROR==" line's text (prefix removed), "" when none */
} ncu_messages;

void ncu_messages_scan(const char *text, size_t len, ncu_messages *m);

/* One CSV row (comma-separated, "quoted" fields with "" for a quote) of
 * text[0..len) into at most max fields (malloc'd strings; free with
 * ncu_fields_free).  Returns the count. */
int ncu_csv_fields(const char *line, size_t len, char **fields, int max);
void ncu_fields_free(char **fields, int n);

#endif
