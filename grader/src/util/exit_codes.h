/* exit_codes.h - what kitgrade's exit status says (documented in docs/reference.md).
 *
 * In the spirit of xv6's `make grade`: 0 only when everything that ran
 * passed.  Scripts (CI's .ci/run, tests) read these numbers from here.
 * Note: `make lab03` itself exits 2 whenever kitgrade exits non-zero (GNU
 * make's own status for a failed recipe); make prints kitgrade's status in
 * its "*** [Makefile:NN: lab03] Error N" line, and a script that needs the
 * number runs build/bin/kitgrade directly.
 * KITGRADE_EXIT_*, not KIT_EXIT_*: those are the runner's statuses, a
 * different process's vocabulary (kit/protocol.h).
 */
#ifndef GRADER_EXIT_CODES_H
#define GRADER_EXIT_CODES_H

#define KITGRADE_EXIT_OK 0       /* built, and every test that ran passed (check), or the command did its job */
#define KITGRADE_EXIT_FAILED 1   /* the build failed or a test failed (check); validate found a bad lab */
#define KITGRADE_EXIT_USAGE 2    /* bad input: usage, unknown lab or test, bad seed, bad parameters, bad rubric,
                               a submissions folder in a layout the batch does not know; nothing was graded */
#define KITGRADE_EXIT_NO_GPU 3   /* built, but no CUDA device: the tests could not run (check, run); a batch
                               that would write grades without GPU tests (see --allow-no-gpu) */
#define KITGRADE_EXIT_INTERNAL 4 /* the grader could not do its work (kit not built, results not writable) */

#endif
