/* buildcache.h - a student's built runner, reused while nothing that made it
 * changed: a second `make lab03` on the same file does not compile it again.
 *
 * The key is a digest of everything the compiler was given: every file of
 * the work folder's src/ (the student's files, the interface header, the
 * kit's headers) and lib/ (the lab's runner objects, the common libraries),
 * with their names in it (not the work folder's own path, which differs per
 * process for root: the runner's behaviour does not depend on it, findings
 * name files by their base name, sanitizer.c); nvcc's command line (kit.ini's flags and architectures,
 * the manifest's flags, the barrier build's extra flags); and the toolchain
 * (`nvcc --version`, the identity of nvcc, its compilers and the host
 * compiler, the environment the build gets; with -arch=native, the
 * architectures of this machine's GPUs, as nvcc's own query names them).  An entry holds the runner, the
 * compiler's messages and a copy of the student's files, compared byte for
 * byte before reuse: the digest finds an entry, it never vouches for one.
 *
 * Where: $KIT_BUILD_CACHE, else $XDG_CACHE_HOME/kit/builds, else
 * ~/.cache/kit/builds: the user's own folder, never the checkout or the
 * student's folder (KIT_BUILD_CACHE=off: no cache).  The folder and each
 * entry must belong to the user the grader runs as and be writable by no one
 * else (root never runs what another uid could have written); anything else
 * is not used, and the file is built as if there were no cache.
 * Only successful builds are kept; at most BUILDCACHE_KEEP per lab (the
 * least recently used go first).
 */
#ifndef GRADER_BUILDCACHE_H
#define GRADER_BUILDCACHE_H
#include "grading/engine_int.h"
#include "util/strbuf.h"

#define BUILDCACHE_KEEP 6

typedef struct {
    int fd;        /* the cache folder; -1: no cache */
    char key[65];  /* this build's key */
    char name[160];/* its entry: <lab>.<key> */
} buildcache;

/* Opens the user's cache for the build of `out` (w->runner or the barrier
 * runner) with these extra nvcc flags, and computes its key (the work
 * folder's src/ and lib/ must be complete).  c->fd is -1 when there is no
 * usable cache. */
void buildcache_open(buildcache *c, const engine *e, const workdirs *w, const char *const extra[]);
/* 1 when an entry for this key holds the same student files: its runner is
 * copied to `out` and the compiler's messages (raw, as nvcc printed them)
 * appended to raw.  0 otherwise (nothing changed). */
int buildcache_get(buildcache *c, const engine *e, const workdirs *w, const char *out, strbuf *raw);
/* Keeps the runner `built` and the compiler's messages under this key. */
void buildcache_put(buildcache *c, const engine *e, const workdirs *w, const char *built, const char *raw);
void buildcache_close(buildcache *c);

#endif
