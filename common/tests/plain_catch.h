/* plain_catch.h - what a unit test's code prints, caught (for the tests
 * nvcc builds beside plain_check.h; kept apart from it because <unistd.h>
 * names things, access() among them, that other tests use for their own). */
#ifndef KIT_PLAIN_CATCH_H
#define KIT_PLAIN_CATCH_H
#include <stdio.h>
#include <unistd.h>

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
