/* check_main.h - one main() for every Check test program of the kit.
 *
 *   static Suite *rng_suite(void) { ... }
 *   KIT_CHECK_MAIN(rng_suite)
 *
 * Runs the suites (forking per test, so a crash fails one test, not the
 * program), prints Check's summary and exits 1 when anything failed.
 * Tests that need the kit's files read KIT_ROOT (set by make test-unit).
 */
#ifndef KIT_CHECK_MAIN_H
#define KIT_CHECK_MAIN_H
#include <check.h>
#include <stdlib.h>
#include <string.h>

static inline const char *kit_test_root(void)
{
    const char *r = getenv("KIT_ROOT");
    return r && *r ? r : ".";
}

/* How many times `needle` occurs in `hay` (messages shown exactly once). */
static inline int kit_test_count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

#define KIT_CHECK_MAIN(...)                                                                           \
    int main(void)                                                                                    \
    {                                                                                                 \
        Suite *(*kit_suites_[])(void) = {__VA_ARGS__};                                                \
        SRunner *sr = srunner_create(NULL);                                                           \
        for (size_t i = 0; i < sizeof kit_suites_ / sizeof kit_suites_[0]; i++)                       \
            srunner_add_suite(sr, kit_suites_[i]());                                                  \
        srunner_run_all(sr, CK_NORMAL);                                                               \
        int failed = srunner_ntests_failed(sr);                                                       \
        srunner_free(sr);                                                                             \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;                                                  \
    }

#endif
