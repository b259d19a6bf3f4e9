/* expect_get.c - build/tests/expect-get: what a known-bad submission's
 * expect.ini says, for the test scripts (tests/run-gpu, run-cpu-submissions,
 * run-slurm, tests/course/run), read by the parser test_labs uses (expect.h).
 *
 *   expect-get FILE KEY
 *
 * prints the value, one line: gpu, alone, needs_sandbox -> yes|no;
 * profile -> yes|no (phrases for a profile: graded by tests/run-profile);
 * needs_memory_gb -> the number (0 when not set); tests -> the tests named by
 * fails, may_fail and passes, comma-separated ("all" among them for fails =
 * all; empty when none).  Exit 0; 2 with one line on stderr for a file that
 * does not read or an unknown KEY. */
#include <stdio.h>
#include <string.h>

#include "expect.h"

static void add_names(char *out, size_t len, const expect_list *l)
{
    for (int i = 0; i < l->n; i++) {
        size_t used = strlen(out);
        int dup = 0;
        for (const char *p = out; *p;) { /* each name once */
            size_t n = strcspn(p, ",");
            dup |= n == strlen(l->name[i]) && !strncmp(p, l->name[i], n);
            p += n + (p[n] == ',');
        }
        if (!dup)
            snprintf(out + used, len - used, "%s%s", used ? "," : "", l->name[i]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: expect-get FILE gpu|alone|needs_sandbox|needs_memory_gb|tests|profile\n");
        return 2;
    }
    expectation x;
    char err[1024];
    if (expect_load(argv[1], &x, err, sizeof err) != 0) {
        fprintf(stderr, "expect-get: %s\n", err);
        return 2;
    }
    const char *key = argv[2];
    if (!strcmp(key, "gpu"))
        puts(x.needs_gpu ? "yes" : "no");
    else if (!strcmp(key, "alone"))
        puts(x.alone ? "yes" : "no");
    else if (!strcmp(key, "needs_sandbox"))
        puts(x.needs_sandbox ? "yes" : "no");
    else if (!strcmp(key, "needs_memory_gb"))
        printf("%d\n", x.needs_memory_gb);
    else if (!strcmp(key, "profile"))
        puts(x.n_profile || x.n_profile_absent ? "yes" : "no");
    else if (!strcmp(key, "tests")) {
        char out[8192] = "";
        if (x.all_fail)
            snprintf(out, sizeof out, "all");
        add_names(out, sizeof out, &x.must_fail);
        add_names(out, sizeof out, &x.may_fail);
        add_names(out, sizeof out, &x.must_pass);
        puts(out);
    } else {
        fprintf(stderr, "expect-get: unknown key '%s'; the keys are gpu, alone, needs_sandbox, needs_memory_gb, tests, profile\n",
                key);
        return 2;
    }
    return 0;
}
