/* expect.h - a known-bad submission's expect.ini (labs/<lab>/tests/<name>/),
 * read in one place: tests/gpu/test_labs.c checks the verdicts with it, and
 * the test scripts ask tests/lib/expect_get.c (build/tests/expect-get) for
 * the keys that choose what to grade.  Keys: labs/lab03-dot/tests/README.md. */
#ifndef KIT_TESTS_EXPECT_H
#define KIT_TESTS_EXPECT_H

#define EXPECT_MAX_ITEMS 64
#define EXPECT_NAME_LEN 64

typedef struct {
    char name[EXPECT_MAX_ITEMS][EXPECT_NAME_LEN];
    int n;
} expect_list;

typedef struct {
    expect_list must_fail, may_fail;
    expect_list must_pass; /* "passes": tests that must be graded, and passed */
    int all_fail;          /* "fails = all" */
    int build;             /* 1 must build, 0 must not, -1 either */
    char output[8][256];   /* phrases that must appear in the result's text */
    int n_output;
    char absent[8][256];   /* phrases that must not appear (e.g. "SANDBOX ESCAPE") */
    int n_absent;
    double max_speedup;    /* > 0: every performance test's speedup at most this (a cache must not pay) */
    int needs_gpu;         /* gpu = yes (the default); no: graded in CI without a device too */
    int alone;             /* alone = yes: tests/run-gpu grades it with nothing else on the GPU */
    int needs_sandbox;     /* needs_sandbox = yes: only where bubblewrap works */
    int needs_memory_gb;   /* needs_memory_gb = N: only with N GB of free memory (0: any) */
    /* Graded with --profile (tests/run-profile, tests/gpu/test_profiles.c): phrases the
     * performance test's profile must contain, and must not */
    char profile[8][256];
    int n_profile;
    char profile_absent[8][256];
    int n_profile_absent;
} expectation;

/* What a submission must get when its expect.ini says nothing: it builds, needs a GPU. */
void expect_defaults(expectation *x);
/* Splits "a, b c" into l (names after those already there). */
void expect_split(expect_list *l, const char *text);
/* Reads path into x (expect_defaults first): 0, or -1 with one line in err
 * (unreadable, or the line that is not a known key: inih reads lines of up
 * to 200 characters). */
int expect_load(const char *path, expectation *x, char *err, size_t errlen);

#endif
