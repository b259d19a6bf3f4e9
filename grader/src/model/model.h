/* model.h - the grader's data: a lab's manifest, its rubric, and results.
 *
 * The engine knows a lab only through labs/<lab>/kit/manifest.ini (what
 * to take from a submission, how to build it) and rubric.ini (what to run
 * and what it is worth).  Both are INI files read with inih.
 */
#ifndef GRADER_MODEL_H
#define GRADER_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include "util/strbuf.h"

#define NAME_LEN 64
#define MAX_LIST 16

/* ---------- manifest.ini ---------- */
typedef struct {
    char id[16];                    /* "lab03" (from the folder name) */
    char name[NAME_LEN];            /* "lab03-dot" (the folder name) */
    char title[128];
    char student_files[MAX_LIST][NAME_LEN]; /* taken from a submission, nothing else */
    int n_student_files;
    char interface[NAME_LEN];       /* header in labs/<name>/student/, copied from the kit */
    char kit_sources[MAX_LIST][NAME_LEN]; /* kit .cu/.c in labs/<name>/kit/ linked in */
    int n_kit_sources;
    int require_kernel;             /* a student call must launch a kernel of its own */
    int forbid_libraries;           /* CUB/Thrust/cuBLAS/... kernels fail the check */
    char evidence[128];             /* evidence rules for the checker ("host-copy kernel-time", "none") */
    double host_copy_share;         /* host-copy: share of a call's device input that may reach the host */
    char nvcc_flags[256];           /* extra flags for the student's file */
    char starter_fails[MAX_LIST][NAME_LEN];    /* tests the starter must fail */
    int n_starter_fails;
    char starter_may_fail[MAX_LIST][NAME_LEN]; /* racy: may fail or pass */
    int n_starter_may_fail;
} manifest;

/* Returns 0, or -1 with "manifest.ini:LINE: reason" in err. */
int manifest_load(const char *path, manifest *m, char *err, size_t errlen);

/* ---------- rubric.ini ---------- */
typedef enum { KIND_CORRECTNESS = 0, KIND_SANITIZER, KIND_PERFORMANCE } test_kind;
typedef enum { VIS_VISIBLE = 0, VIS_HIDDEN, VIS_AFTER_DUE_DATE, VIS_AFTER_PUBLISHED } visibility;

const char *test_kind_name(test_kind k);
const char *visibility_name(visibility v); /* Gradescope spelling: visible, hidden, after_due_date, after_published */

typedef struct {
    char name[NAME_LEN];   /* [test NAME] */
    char group[NAME_LEN];  /* gradebook column; default: the kind's name */
    char title[128];       /* one-line description (optional) */
    test_kind kind;
    double points;
    visibility vis;
    char **cases;          /* case parameter lines, in order */
    int *case_lines;       /* the rubric line of each case, for messages */
    int n_cases;
    char params[256];      /* words put in front of every case */
    int params_line;       /* its rubric line (0: no params) */
    double timeout_s;      /* per run of a case: the kit's work and the host's, beside its
                              student calls' own limits (call_limit) */
    int repeat;            /* runs per case, each with its own seed (races) */
    int partial;           /* 1: points * passed/total cases; 0: all or nothing */
    char tool[16];         /* sanitizer: memcheck, racecheck, synccheck, initcheck */
    double threshold;      /* performance: speedup for full points */
    double min_speedup;    /* performance: speedup where partial credit starts */
    int warmup, reps;      /* performance */
    int show_details;      /* a test not visible: its case details reach the student's feedback file
                              (default no: title and points only) */
    int gpu_alone;         /* gpu = alone: each case runs with the GPU to this grading alone, not in
                              the case server beside other gradings (a check of the GPU's timeline:
                              another process's kernels and copies change it) */
    int host_alone;        /* host = alone (performance): the timing waits until no build or checker
                              of the kit runs and keeps them out (lock.h, cpu_slots_acquire_all) */
    int line;              /* line of the section header, for messages */
} rubric_test;

typedef struct {
    char lab[NAME_LEN];        /* must match the manifest's name */
    int lab_line;              /* its line, for messages (0: not given) */
    double timeout_s;          /* default per-case limit (the backstop of a run; its student
                                  calls have their own, call_limit_s and hang.c) */
    double build_timeout_s;
    double sanitizer_timeout_s;
    double call_limit_s;       /* the least time limit of one student call (a case's own limit
                                  grows with what the kit's baseline needs for it: hang.c) */
    long memory_mb;            /* host memory limit of a submission process */
    long max_processes;
    long output_kb;            /* stdout+stderr kept per run */
    long file_mb;              /* largest file a submission process may write */
    /* Deadline (course.c): due/cutoff as UTC seconds since the epoch, 0 when
     * not set; late_penalty: percent of the score taken per day started
     * after `due`; after `cutoff` a hand-in is refused and not graded. */
    long long due, cutoff;
    double late_penalty;
    rubric_test *tests;
    int n_tests;
} rubric;

/* Loads and validates; on error returns -1 with "FILE:LINE: reason" in err
 * (unknown section or key, bad number, unknown kind/tool/visibility, a test
 * without cases, duplicate test names, points < 0, threshold <= min_speedup...). */
int rubric_load(const char *path, rubric *r, char *err, size_t errlen);
void rubric_free(rubric *r);
const rubric_test *rubric_find(const rubric *r, const char *name);
double rubric_max_points(const rubric *r, int visible_only);

/* ---------- results ---------- */
typedef enum { ST_PASS = 0, ST_FAIL, ST_SKIP, ST_ERROR } test_status;

/* A named number a test measured besides its score (a profile's figures,
 * grader/src/grading/profile.h): kept in results.json for the class
 * report, never part of a score. */
#define MAX_FIGURES 16
typedef struct {
    char name[40];
    double value;
} result_figure;
const char *test_status_name(test_status s);

typedef struct {
    char name[NAME_LEN];
    char group[NAME_LEN];
    char title[128];
    visibility vis;
    test_status status;
    double score, max_score;
    double seconds;
    strbuf output;         /* plain-text details shown under the test line */
    int details_hidden;    /* from the student's feedback: a hidden test without show_details */
    int show_output;       /* shown even when passed (a performance test's timings) */
    char note[160];        /* a few words after the status line ("reused: dot.cu unchanged"); "" none */
    result_figure figures[MAX_FIGURES]; /* a performance test's profile (--profile); never scored */
    int n_figures;
} test_result;

typedef struct {
    char student[256];     /* submission folder name (or "you" for make labNN) */
    char lab[NAME_LEN];
    char source_hash[65];  /* sha-like digest of the files taken, for resume checks */
    uint64_t seed;
    int build_ok;
    int handin_bad;        /* a file the lab takes is missing or unusable: nothing was compiled */
    double build_seconds;
    strbuf build_log;      /* compiler messages (capped, sanitized) */
    strbuf notes;          /* warnings for the whole submission (no sandbox, ...) */
    test_result *tests;
    int n_tests;
    double score, max_score;
    double seconds;        /* whole grading wall time */
    int gpu_ran;           /* 0 when no device was available */
    char graded_at[32];    /* ISO 8601 UTC */
    char gpu[160];         /* the GPU the tests ran on ("" when none) */
    char kit_version[64];  /* build/kit.ini's kit_version (git describe at build time) */
    char grading_key[65];  /* rubric + kit code + conditions (gradekey.h): reuse needs the same key */
    char conditions[256];  /* the conditions in words (GPU, sanitizer, tests) */
    int no_gpu;            /* built without a GPU: no test could run (results.json's graded_without_gpu) */
    /* Hand-ins from the course spool (spool.c): which version was graded,
     * when it was handed in, days started after the due date and the
     * penalty taken (percent; score holds the points after it). */
    char version[64];
    char handed_in_at[32];
    int late_days;
    double late_penalty_pct, score_before_late;
    strbuf answers;        /* the student's answers.md (sanitized, capped), shown to the grader */
} grade_result;

void grade_result_init(grade_result *g);
void grade_result_free(grade_result *g);
test_result *grade_result_add(grade_result *g);
void grade_result_total(grade_result *g); /* recompute score / max_score */
/* A result's status in the gradebook's words: "ok", "build failed",
 * "hand-in problem" (a file the lab takes is missing or unusable), or a
 * result whose points are no grade: "not graded (no GPU)" (built, but no
 * test could run), "not graded" (a spool entry or a dead worker: its notes
 * say why, in a line starting "not graded: "). */
const char *grade_result_status(const grade_result *g);
/* 1 when the result's score is a grade; 0 for the "not graded" ones, whose
 * points reach no grade file (gradebook, final.csv, lms.csv) as a score. */
int grade_result_graded(const grade_result *g);

#endif
