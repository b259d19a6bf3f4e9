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
#include <unistd.h>

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
/* What a test's code prints on fd (1 or 2) caught in a temporary file:
 * f = plain_catch(fd, &saved) before, plain_caught(f, fd, saved, text, len)
 * after (the stream restored, what was printed in text). */
static inline FILE *plain_catch(int fd, int *saved)
{
    fflush(fd == 1 ? stdout : stderr);
    *saved = dup(fd);
    FILE *f = tmpfile();
    dup2(fileno(f), fd);
    return f;
}

static inline void plain_caught(FILE *f, int fd, int saved, char *text, size_t len)
{
    fflush(fd == 1 ? stdout : stderr);
    dup2(saved, fd), close(saved);
    rewind(f);
    text[fread(text, 1, len - 1, f)] = 0;
    fclose(f);
}

#endif
