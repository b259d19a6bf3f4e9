/* gradekey.h - what made a result, as one digest: a result is reused only
 * when everything that made it is unchanged.
 *
 * The grading key covers the effective rubric (the lab's, or --rubric), the
 * lab's kit code (every file of labs/<lab>/kit/, the interface header,
 * common/, the kitgrade executable, the lab's checker and runner objects,
 * the build settings of build/kit.ini) and the grading conditions (GPU present and which model,
 * compute-sanitizer present, the --test selection, --allow-no-gpu).  The
 * submission's own digest (submission.h) is kept next to it.
 */
#ifndef GRADER_GRADEKEY_H
#define GRADER_GRADEKEY_H
#include <stddef.h>
#include <stdint.h>
#include "grading/engine.h"

/* A 256-bit FNV-1a-based digest (an identity for resume checks, not security). */
typedef struct {
    uint64_t h[4];
} kit_digest;

void digest_init(kit_digest *d);
void digest_bytes(kit_digest *d, const void *p, size_t n);
void digest_str(kit_digest *d, const char *s); /* the string and its terminator */
/* The file's name and content; a missing file counts as "missing" (so its
 * appearance changes the digest).  Returns 0, or -1 when unreadable. */
int digest_file(kit_digest *d, const char *path);
void digest_hex(const kit_digest *d, char out[65]);

/* Fills e->grading_key and e->conditions (readable: "gpu=NVIDIA H200;
 * sanitizer=yes;tests=all;no_gpu_allowed=0").  Call after engine_init and
 * after only_test / allow_no_gpu are set. */
void engine_grading_key(engine *e);

/* May an earlier result be kept instead of grading again?  Only when it is
 * complete (no internal error), for the same files (source_hash), made under
 * the same key, and never a result graded without a GPU when one is here. */
int result_reusable(const grade_result *old, const char *source_hash, const char *grading_key, int gpu_now);

#endif
