/* engine.h - grading one submission of one lab.
 *
 * The same engine serves `make labNN` (student mode: visible tests, an
 * estimated score) and the instructor's `kitgrade grade/batch` (all tests).
 * Pipeline: take the manifest's files -> build the runner in the sandbox ->
 * the rubric's tests in its order: correctness cases (in one serving runner,
 * each judged by the kit's checker), the sanitizer tests (started right
 * after the build, running while the correctness cases do), performance
 * against the baseline (its timing loop with the GPU to itself, lock.h;
 * where it may, run before the others, its checker beside them and its
 * result at its turn: engine.c) -> score from the rubric.
 */
#ifndef GRADER_ENGINE_H
#define GRADER_ENGINE_H
#include <stdint.h>
#include <stdio.h>
#include "model/kitconf.h"
#include "process/lock.h"
#include "model/model.h"
#include "output/report.h"
#include "process/sandbox.h"

/* The GPU "name" of a grading run without a device (KIT_RUN_WITHOUT_GPU=1). */
#define KIT_NO_GPU_UUID "no-gpu"

/* One lab's grading engine: its configuration (kit.ini, the lab, its
 * rubric, the sandbox, the GPU) and the session that grades with it (the
 * mode, the seed, where lines go).  What one grading of one submission
 * holds while it runs (its work folder, its GPU hold, its case server and
 * sanitizer sessions, its builds) is a `grading` (engine_int.h), made and
 * ended by engine_grade. */
typedef struct engine_s {
    /* configuration: fixed once engine_init returned */
    kit_conf conf;
    manifest man;
    rubric rub;
    char lab_dir[1024];     /* KIT/labs/<name>/kit: manifest, rubric, kit sources (model/labdir.h) */
    char starter_dir[1024]; /* KIT/labs/<name>/student: the interface header */
    char lab_build[1024];   /* BUILD/labs/<name>: kit objects, checker */
    char rubric_path[1024]; /* the effective rubric (the lab's or --rubric) */
    int rubric_given;       /* --rubric: reruns must name it */
    sandbox sb;             /* the sandbox; its uid is claimed per grading (sandbox_claim_uid) */
    int gpu;                /* a CUDA device is usable */
    char gpu_uuid[96], gpu_name[160], gpu_why[256]; /* gpu_uuid KIT_NO_GPU_UUID: KIT_RUN_WITHOUT_GPU */
    /* the session: what the command asked for */
    int student_mode;       /* visible tests only; "estimated score" */
    const char *only_test;  /* run just this test ("a,b,c": these tests) */
    uint64_t seed;          /* top-level seed; per-case seeds derive from it */
    FILE *log;              /* live test lines and notes; NULL in batch workers */
    report_opts ropts;
    char repro[2048];       /* "make lab03" or "/kit/build/bin/kitgrade grade lab03 DIR" (rerun.h) */
    int repro_make;         /* repro takes make variables (TEST=, SEED=), else options */
    /* Called after a successful build, before the first GPU test (batch:
     * waits for a free GPU and selects it).  May be NULL. */
    void (*before_gpu)(struct engine_s *e, void *arg);
    void *before_gpu_arg;
    int keep_work;          /* keep the work folder (student mode: for inspection) */
    int allow_no_gpu;       /* batch: write build-only results without a GPU (--allow-no-gpu) */
    int build_cache;        /* reuse the student's builds (buildcache.h): student checks */
    char grading_key[65];   /* digest of rubric, kit code and conditions (gradekey.h); "" = not computed */
    char conditions[256];   /* the conditions in words, stored with each result */
    int timings;            /* print where each test's seconds went (--timings, make V=1) */
    /* The sanitizer tests start right after the build and run beside the
     * correctness tests (a student check: the answer sooner); 0: each at
     * its turn (a batch grading several submissions per GPU: a session
     * holds the GPU shared all along, and every timing run of every other
     * grading waits for it).  engine_init sets 1. */
    int sanitizers_beside;
    int profile;            /* profile the kernels after a performance test (--profile; profile.h) */
} engine;

/* Loads build/kit.ini (from $KIT_BUILD, else ../ of the executable), the lab's
 * manifest and rubric (lab = "lab03" or "lab03-dot"; rubric_path, if not
 * NULL, replaces the lab's rubric.ini - an instructor's private rubric with
 * hidden tests, say), detects the sandbox and the GPU.  Returns 0, -2 for a
 * lab that does not exist (the reason lists the labs: bad input), or -1
 * with a reason. */
int engine_init(engine *e, const char *lab, const char *argv0, const char *rubric_path, char *err, size_t errlen);
void engine_free(engine *e);
/* "lab01 lab02 ..." (the labs of the kit, sorted) into out. */
void engine_lab_ids(const char *kit_root, char *out, size_t len);
/* Just build/kit.ini (commands that work on every lab). */
int engine_load_conf(kit_conf *conf, const char *argv0, char *err, size_t errlen);
/* Picks a fresh random seed (from /dev/urandom) unless one was given; a
 * given seed must be hex as reports print it (0x...): otherwise -1 and a
 * one-line reason in err. */
int engine_seed(engine *e, const char *given, char *err, size_t errlen);

/* Grades the submission in sub_dir, working in work_dir (emptied first).
 * Always fills g, whatever the submission does. */
void engine_grade(engine *e, const char *sub_dir, const char *work_dir, const char *student, grade_result *g);
/* Build only (compile check, CI); returns 1 when the runner was built. */
int engine_build_only(engine *e, const char *sub_dir, const char *work_dir, grade_result *g);
/* Builds and runs the student's code once with `params` (the `show` mode).
 * Returns an exit code (exit_codes.h): 0, FAILED (build or run), NO_GPU. */
int engine_show(engine *e, const char *sub_dir, const char *work_dir, const char *params);


/* The seed of one run of one case (documented: students reproduce with it). */
uint64_t engine_case_seed(uint64_t seed, const char *test, int case_index, int rep);

#endif
