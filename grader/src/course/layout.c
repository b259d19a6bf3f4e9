/* layout.c - the layouts a submissions folder may be in (see layout.h). */
#include "course/layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course/archive.h"
#include "course/spool.h"
#include "util/fsutil.h"

int layout_scan_dir(const manifest *m, const char *subs_dir, layout_scan *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    size_t n;
    char **names = dir_names(subs_dir, &n); /* "." files are not submissions */
    if (!names) {
        snprintf(err, errlen, "cannot open the submissions folder %s: %s", subs_dir, strerror(errno));
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        char path[4096];
        struct stat st;
        if (fmt_into(path, sizeof path, "%s/%s", subs_dir, names[k]) || lstat(path, &st) != 0)
            continue;
        int student_file = 0;
        for (int i = 0; i < m->n_student_files; i++)
            student_file |= !strcmp(names[k], m->student_files[i]);
        if (S_ISLNK(st.st_mode))
            s->links++;
        else if (S_ISDIR(st.st_mode))
            s->folders++;
        else if (student_file) {
            if (!s->student_files++)
                snprintf(s->first_student_file, sizeof s->first_student_file, "%s", names[k]);
        } else if (S_ISREG(st.st_mode) && archive_stem(names[k]))
            s->archives++;
        else if (!s->other_files++)
            snprintf(s->first_other, sizeof s->first_other, "%s", names[k]);
    }
    dir_names_free(names);
    return 0;
}

/* ---- folders: SUBMISSIONS/alice/dot.cu --------------------------------------------- */

static int folders_match(const layout_scan *s, const char *dir)
{
    (void)dir;
    return s->folders > 0 && !s->archives && !s->student_files;
}

static int folders_prepare(engine *e, const char *subs, const char *stage, char *grade_dir, size_t len, char *err,
                           size_t errlen)
{
    (void)e, (void)stage, (void)err, (void)errlen;
    return fmt_into(grade_dir, len, "%s", subs);
}

/* ---- archives: SUBMISSIONS/alice.zip (LMS exports) --------------------------------- */

static int archives_match(const layout_scan *s, const char *dir)
{
    (void)dir;
    return s->archives > 0 && !s->folders && !s->student_files;
}

/* ---- spool: a lab folder of the course spool (spool.h); batch.c picks the versions - */

static int spool_match(const layout_scan *s, const char *dir)
{
    (void)s;
    return spool_is_lab_folder(dir);
}

/* The student's files may sit at the top of the archive or in its one
 * folder (alice.zip: lab03-dot/dot.cu): the folder graded is the one that
 * holds them. */
static void lift_single_folder(const manifest *m, const char *dest)
{
    char want[4400], only[4400] = "";
    snprintf(want, sizeof want, "%s/%s", dest, m->student_files[0]);
    struct stat st;
    if (lstat(want, &st) == 0)
        return;
    /* macOS archives carry __MACOSX/ and ._ files next to the real ones */
    size_t names_n, n = 0;
    char **names = dir_names(dest, &names_n);
    for (size_t i = 0; i < names_n; i++)
        if (strcmp(names[i], "__MACOSX")) {
            n++;
            fmt_into(only, sizeof only, "%s/%s", dest, names[i]);
        }
    dir_names_free(names);
    if (n != 1 || lstat(only, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%.4300s.lift", dest);
    if (rename(only, tmp) == 0 && rm_rf(dest) == 0) /* the folder, without the macOS leftovers */
        rename(tmp, dest);
}

static int archives_prepare(engine *e, const char *subs, const char *stage, char *grade_dir, size_t len, char *err,
                            size_t errlen)
{
    size_t n;
    char **names = dir_names(subs, &n);
    if (!names) {
        snprintf(err, errlen, "cannot open %s: %s", subs, strerror(errno));
        return -1;
    }
    /* unpacked afresh each run: the results say whether a submission changed */
    if (rm_rf(stage) != 0 || mkdirs(stage, 0755) != 0) {
        snprintf(err, errlen, "cannot empty %s for the unpacked archives: %s", stage, strerror(errno));
        dir_names_free(names);
        return -1;
    }
    char scratch[4200];
    snprintf(scratch, sizeof scratch, "%s/.archives", stage);
    sandbox_claim_uid(&e->sb, stderr); /* a failure is said there; the archives unpack as nobody */
    strbuf refused;
    sb_init(&refused);
    int bad = 0;
    int total = 0;
    for (size_t i = 0; i < n; i++) {
        char from[4096], dest[4300], why[1024];
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", subs, names[i]);
        if (!archive_stem(names[i]) || lstat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue; /* loose notes next to the archives */
        total++;
        snprintf(dest, sizeof dest, "%s/%.*s", stage, (int)archive_stem(names[i]), names[i]);
        if (lstat(dest, &st) == 0)
            snprintf(why, sizeof why, "another archive of the same student name was unpacked already");
        if (lstat(dest, &st) == 0 || archive_unpack(&e->sb, from, dest, scratch, why, sizeof why) != 0) {
            sb_printf(&refused, "%s%s: %s", bad++ ? "; " : "", names[i], why);
            continue;
        }
        lift_single_folder(&e->man, dest);
    }
    sandbox_release_uid(&e->sb);
    rm_rf(scratch);
    dir_names_free(names);
    if (bad) {
        strbuf clean;
        sb_init(&clean);
        sb_add_sanitized(&clean, sb_str(&refused), refused.len);
        snprintf(err, errlen, "%d of %d archives refused, nothing graded: %s (fix or remove them, or unpack them "
                              "into one folder per student)",
                 bad, total, sb_str(&clean));
        sb_free(&clean);
        sb_free(&refused);
        return -1;
    }
    sb_free(&refused);
    return fmt_into(grade_dir, len, "%s", stage);
}

/* ---- the table ---------------------------------------------------------------------- */

typedef struct {
    const char *name;
    const char *looks_like; /* %s: the submissions folder, %s: the student's file */
    int (*matches)(const layout_scan *s, const char *dir);
    int (*prepare)(engine *e, const char *subs, const char *stage, char *grade_dir, size_t len, char *err,
                   size_t errlen);
} layout_kind;

static const layout_kind layouts[] = {
    {"spool", "a lab folder of the course spool (%s/" SPOOL_MARKER ", see docs/course.md)", spool_match, folders_prepare},
    {"folders", "one folder per student (%s/alice/%s)", folders_match, folders_prepare},
    {"archives", "one .zip/.tar/.tar.gz per student (%s/alice.zip holding %s)", archives_match, archives_prepare},
};
#define N_LAYOUTS (sizeof layouts / sizeof layouts[0])

/* "found ..." for the message when no layout matches. */
static void describe_found(const layout_scan *s, const char *subs, const manifest *m, strbuf *b)
{
    if (s->student_files) {
        sb_printf(b, "%s holds %s itself: it looks like one student's own folder (grade it alone with: ",
                  subs, s->first_student_file);
        return; /* the caller adds the command */
    }
    if (s->folders && s->archives) {
        sb_printf(b, "%s mixes %d folder%s and %d archive%s (grade one kind at a time)", subs, s->folders,
                  s->folders == 1 ? "" : "s", s->archives, s->archives == 1 ? "" : "s");
        return;
    }
    if (!s->other_files && !s->links) {
        sb_printf(b, "%s is empty", subs);
        return;
    }
    sb_printf(b, "%s holds no student folders: found ", subs);
    if (s->other_files)
        sb_printf(b, "%d file%s (e.g. %s)", s->other_files, s->other_files == 1 ? "" : "s", s->first_other);
    if (s->links)
        sb_printf(b, "%s%d symbolic link%s (never followed)", s->other_files ? " and " : "", s->links,
                  s->links == 1 ? "" : "s");
    (void)m;
}

int layout_check(const engine *e, const char *subs_dir, char *err, size_t errlen)
{
    layout_scan s;
    if (layout_scan_dir(&e->man, subs_dir, &s, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < N_LAYOUTS; i++)
        if (layouts[i].matches(&s, subs_dir))
            return (int)i;
    strbuf b;
    sb_init(&b);
    describe_found(&s, subs_dir, &e->man, &b);
    if (s.student_files) {
        char exe[1200];
        fmt_into(exe, sizeof exe, "%s/bin/kitgrade", e->conf.build_dir);
        sb_add_shell_word(&b, exe);
        sb_printf(&b, " grade %s ", e->man.id);
        sb_add_shell_word(&b, subs_dir);
        sb_add(&b, ")");
    }
    sb_add(&b, "; expected ");
    for (size_t i = 0; i < N_LAYOUTS; i++) {
        sb_add(&b, i == 0 ? "" : i + 1 == N_LAYOUTS ? " or " : ", ");
        sb_printf(&b, layouts[i].looks_like, subs_dir, e->man.student_files[0]);
    }
    strbuf clean;
    sb_init(&clean);
    sb_add_sanitized(&clean, sb_str(&b), b.len);
    snprintf(err, errlen, "%s", sb_str(&clean));
    sb_free(&clean);
    sb_free(&b);
    return -1;
}

int layout_prepare(engine *e, const char *subs_dir, const char *stage_dir, char *grade_dir, size_t len,
                   const char **layout_name, char *err, size_t errlen)
{
    int i = layout_check(e, subs_dir, err, errlen);
    if (i < 0)
        return -1;
    *layout_name = layouts[i].name;
    return layouts[i].prepare(e, subs_dir, stage_dir, grade_dir, len, err, errlen);
}
