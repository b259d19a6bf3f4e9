/* plain_check.h - the checks of the unit tests nvcc builds, which are not
 * Check programs (the code they hold is CUDA C++):
 *
 *   CHECK(cond, "what went wrong: %d", value);
 *   ...
 *   return plain_check_summary();
 *
 * A failed CHECK prints file:line, the condition and the message (the first
 * 50 of them: a broken loop of checks does not flood the log); the summary
 * is Check's own line, which tests/run-unit reads, and the exit status is 1
 * when a check failed.
 */
#ifndef KIT_PLAIN_CHECK_H
#define KIT_PLAIN_CHECK_H
#include <stdio.h>

static int checks, failures;
#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        checks++;                                                                                                    \
        if (!(cond) && ++failures <= 50) {                                                                           \
            printf("%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                                          \
            printf(__VA_ARGS__);                                                                                     \
            printf("\n");                                                                                            \
        }                                                                                                            \
    } while (0)

static inline int plain_check_summary(void)
{
    printf("%d%%: Checks: %d, Failures: %d, Errors: 0\n", checks ? 100 * (checks - failures) / checks : 0, checks,
           failures);
    return failures ? 1 : 0;
}
#endif
