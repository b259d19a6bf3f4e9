/* layout.h - what a submissions folder holds, and where the per-student
 * folders to grade are.
 *
 * One table of known layouts (layout.c): each says how it looks (for the
 * message when nothing matches), whether a scanned folder is in it, and how
 * to turn it into one folder per student.  Known now:
 *   spool     a lab folder of the course spool (spool.h; batch.c picks each
 *             student's hand-in)
 *   folders   SUBMISSIONS/alice/dot.cu ...          graded in place
 *   archives  SUBMISSIONS/alice.zip, bob.tar.gz ...  (LMS exports) unpacked
 *             safely into OUT/unpacked/alice/ ... (archive.h), or refused
 * A new layout is one more entry in the table.
 * Anything else - an empty folder, one student's own folder holding dot.cu,
 * loose files, folders mixed with archives - is refused with one line saying
 * what was found and the layouts expected.
 */
#ifndef GRADER_LAYOUT_H
#define GRADER_LAYOUT_H
#include <stddef.h>
#include "grading/engine.h"

/* What is directly inside a submissions folder (dot entries not counted). */
typedef struct {
    int folders;       /* sub-folders (not symbolic links) */
    int archives;      /* regular files archive_stem() knows */
    int student_files; /* files the manifest names (dot.cu): one student's own folder */
    int other_files;   /* any other file */
    int links;         /* symbolic links (never followed) */
    char first_other[256], first_student_file[256];
} layout_scan;

/* Scans subs_dir; -1 with a reason when it cannot be read. */
int layout_scan_dir(const manifest *m, const char *subs_dir, layout_scan *s, char *err, size_t errlen);

/* Decides the layout of subs_dir without touching anything (a batch checks
 * its input before it looks for a GPU): the index of the layout, or -1 with
 * one line in err (what was found, the layouts expected). */
int layout_check(const engine *e, const char *subs_dir, char *err, size_t errlen);

/* Decides the layout of subs_dir and prepares it: grade_dir receives the
 * folder holding one folder per student (subs_dir itself, or stage_dir
 * where archives were unpacked).  0 with *layout_name set, or -1 with one
 * line in err (what was found, the layouts expected; or which archives
 * were refused and why). */
int layout_prepare(engine *e, const char *subs_dir, const char *stage_dir, char *grade_dir, size_t len,
                   const char **layout_name, char *err, size_t errlen);

#endif
