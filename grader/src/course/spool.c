/* spool.c - hand-in into the course spool, and picking what to grade from it
 * (see spool.h for the layout and the trust model). */
#include "course/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <ini.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/deadline.h"
#include "model/labdir.h"
#include "process/proc.h"
#include "output/report.h"
#include "grading/submission.h"
#include "util/fsutil.h"

/* ------------------------------------------------------------ reading */

int spool_is_lab_folder(const char *dir)
{
    char path[4200];
    struct stat d, m;
    snprintf(path, sizeof path, "%s/" SPOOL_MARKER, dir);
    /* the marker is the instructor's, like the folder (a student cannot plant one) */
    return lstat(dir, &d) == 0 && S_ISDIR(d.st_mode) && lstat(path, &m) == 0 && S_ISREG(m.st_mode) &&
           m.st_uid == d.st_uid;
}

/* Latest ctime of a version folder and the entries in it. */
static long long version_time(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return 0;
    long long t = st.st_ctim.tv_sec;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char p[4400];
        fmt_into(p, sizeof p, "%s/%s", dir, de->d_name);
        if (strcmp(de->d_name, "..") && lstat(p, &st) == 0 && st.st_ctim.tv_sec > t)
            t = st.st_ctim.tv_sec;
    }
    if (d)
        closedir(d);
    return t;
}

static int cmp_pick(const void *a, const void *b) { return strcmp(((const spool_pick *)a)->login, ((const spool_pick *)b)->login); }

static void pick_student(const char *sdir, const struct stat *sst, const rubric *r, spool_pick *p)
{
    struct passwd *pw = getpwnam(p->login);
    if (pw && pw->pw_uid != sst->st_uid) {
        struct passwd *other = getpwuid(sst->st_uid);
        fmt_into(p->why, sizeof p->why,
                 "the spool folder '%s' belongs to uid %u (%s), not to the user %s (someone created a folder in "
                 "another student's name; ask them, then move it away)",
                 p->login, (unsigned)sst->st_uid, other ? other->pw_name : "no account", p->login);
        return;
    }
    DIR *d = opendir(sdir);
    if (!d) {
        fmt_into(p->why, sizeof p->why, "cannot open %s: %s", sdir, strerror(errno));
        return;
    }
    struct dirent *de;
    long long best = -1;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') /* ".", "..", unfinished ".tmp-*" hand-ins */
            continue;
        char v[4400];
        struct stat st;
        fmt_into(v, sizeof v, "%s/%s", sdir, de->d_name);
        if (lstat(v, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != sst->st_uid)
            continue;
        long long t = version_time(v);
        p->n_versions++;
        if (deadline_past_cutoff(r, t)) {
            p->n_after_cutoff++;
            continue;
        }
        if (t > best || (t == best && strcmp(de->d_name, p->version) > 0)) {
            best = t;
            p->t = t;
            fmt_into(p->version, sizeof p->version, "%s", de->d_name);
            fmt_into(p->dir, sizeof p->dir, "%s", v);
        }
    }
    closedir(d);
    if (best < 0) {
        char cut[32];
        deadline_format(r->cutoff, cut, sizeof cut);
        if (p->n_versions)
            snprintf(p->why, sizeof p->why, "all %d hand-in%s came after the cut-off (%s): nothing to grade",
                     p->n_versions, p->n_versions == 1 ? "" : "s", cut);
        else
            snprintf(p->why, sizeof p->why, "no hand-in in the spool folder");
    }
}

int spool_pick_versions(const char *lab_dir, const rubric *r, spool_pick **out, char *err, size_t errlen)
{
    DIR *d = opendir(lab_dir);
    if (!d) {
        snprintf(err, errlen, "cannot open the spool folder %s: %s", lab_dir, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0;
    *out = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        char sdir[4400];
        struct stat st;
        snprintf(sdir, sizeof sdir, "%s/%s", lab_dir, de->d_name);
        if (de->d_name[0] == '.' || lstat(sdir, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            spool_pick *np = realloc(*out, (size_t)cap * sizeof *np);
            if (!np)
                break;
            *out = np;
        }
        spool_pick *p = &(*out)[n++];
        memset(p, 0, sizeof *p);
        snprintf(p->login, sizeof p->login, "%s", de->d_name);
        pick_student(sdir, &st, r, p);
    }
    closedir(d);
    if (n)
        qsort(*out, (size_t)n, sizeof **out, cmp_pick);
    return n;
}

void spool_apply_late_policy(const spool_pick *p, const rubric *r, grade_result *g)
{
    snprintf(g->version, sizeof g->version, "%s", p->version);
    deadline_format(p->t, g->handed_in_at, sizeof g->handed_in_at);
    g->late_days = deadline_late_days(r, p->t);
    g->late_penalty_pct = deadline_penalty_pct(r, p->t);
    g->score_before_late = g->score;
    sb_printf(&g->notes, "graded hand-in %s (%d of %d; handed in %s)\n", p->version, p->n_versions - p->n_after_cutoff,
              p->n_versions, g->handed_in_at);
    if (p->n_after_cutoff)
        sb_printf(&g->notes, "%d later hand-in%s came after the cut-off and %s not graded\n", p->n_after_cutoff,
                  p->n_after_cutoff == 1 ? "" : "s", p->n_after_cutoff == 1 ? "was" : "were");
    if (g->late_days) {
        char due[32];
        deadline_format(r->due, due, sizeof due);
        g->score = round(g->score * (1 - g->late_penalty_pct / 100) * 100) / 100;
        sb_printf(&g->notes, "late: %d day%s started after the due date %s: -%g%% (%g -> %g points)\n", g->late_days,
                  g->late_days == 1 ? "" : "s", due, g->late_penalty_pct, g->score_before_late, g->score);
    }
}

void spool_read_answers(const char *dir, grade_result *g)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" ANSWERS_FILE, dir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        char *buf = malloc(ANSWERS_MAX_BYTES + 1);
        ssize_t n = buf ? read(fd, buf, ANSWERS_MAX_BYTES) : -1;
        if (n > 0) {
            sb_add_sanitized(&g->answers, buf, (size_t)n);
            if (st.st_size > (off_t)ANSWERS_MAX_BYTES)
                sb_printf(&g->answers, "\n[... cut: answers.md has %lld bytes, %u shown]\n", (long long)st.st_size,
                          ANSWERS_MAX_BYTES);
        }
        free(buf);
    }
    close(fd);
}

/* ------------------------------------------------------------ the instructor's side */

int spool_init(const char *kit_root, const char *spool, const char *group)
{
    gid_t gid = (gid_t)-1;
    if (group) {
        struct group *gr = getgrnam(group);
        if (!gr) {
            fprintf(stderr, "kitgrade: no group named '%s' (the course staff's group; create it or leave --group out)\n",
                    group);
            return 2;
        }
        gid = gr->gr_gid;
    }
    if (mkdirs(spool, 0755) != 0) {
        fprintf(stderr, "kitgrade: cannot create %s: %s\n", spool, strerror(errno));
        return 1;
    }
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/" LABDIR_MANIFESTS, kit_root);
    glob_t gl;
    if (glob(pattern, 0, NULL, &gl) != 0) {
        fprintf(stderr, "kitgrade: no labs under %s/labs (no %s)\n", kit_root, LABDIR_MANIFESTS);
        return 2;
    }
    int rc = 0;
    mode_t mode = group ? 03753 : 01733;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        char id[64], dir[4400], marker[4500];
        labdir_id_of_manifest(gl.gl_pathv[i], id, sizeof id);
        snprintf(dir, sizeof dir, "%s/%s", spool, id);
        snprintf(marker, sizeof marker, "%s/" SPOOL_MARKER, dir);
        struct stat st;
        int bad = (mkdir(dir, 0700) != 0 && errno != EEXIST) || lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
                  (group && chown(dir, (uid_t)-1, gid) != 0) || chmod(dir, mode) != 0;
        char err[256] = "";
        if (!bad)
            bad = write_file_atomic(marker, id, strlen(id), err, sizeof err) != 0;
        if (bad) {
            fprintf(stderr, "kitgrade: cannot prepare %s: %s\n", dir, err[0] ? err : strerror(errno));
            rc = 1;
        } else
            printf("%s: ready (mode %o%s%s)\n", dir, (unsigned)mode, group ? ", group " : "", group ? group : "");
    }
    globfree(&gl);
    if (!rc)
        printf("students hand in with `make handin LAB=labNN` in a kit made with `make student-kit DEST=dir HANDIN=%s`\n",
               spool);
    return rc;
}

/* ------------------------------------------------------------ the student's side */

static int conf_handler(void *user, const char *section, const char *name, const char *value)
{
    if (!strcmp(section, "course") && !strcmp(name, "spool"))
        snprintf((char *)user, 4096, "%s", value);
    return 1;
}

int spool_configured(const char *kit_root, char *out, size_t len, char *err, size_t errlen)
{
    char path[4200], value[4096] = "";
    snprintf(path, sizeof path, "%s/course.ini", kit_root);
    int rc = ini_parse(path, conf_handler, value);
    if (rc < 0 || !value[0]) { /* course.ini named only where there is one */
        snprintf(err, errlen, "this copy of the kit has no course spool to hand in to%s%s%s: hand in from the copy "
                              "of the kit your instructor gives you (made with make student-kit HANDIN=folder)",
                 rc < 0 ? "" : " (", rc < 0 ? "" : path, rc < 0 ? "" : " has no spool = FOLDER)");
        return -1;
    }
    if (rc > 0) {
        snprintf(err, errlen, "%s:%d: malformed line", path, rc);
        return -1;
    }
    snprintf(out, len, "%s", value);
    (void)len;
    return 0;
}

/* sha256sum of each file in dir (coreutils), one "HASH  NAME" line each. */
static int sha256_lines(const char *dir, char names[][NAME_LEN], int n, strbuf *out)
{
    const char *argv[MAX_LIST + 4];
    int k = 0;
    argv[k++] = "/usr/bin/sha256sum";
    argv[k++] = "--";
    for (int i = 0; i < n; i++)
        argv[k++] = names[i];
    argv[k] = NULL;
    return proc_capture(argv, dir, 60, 0, out);
}

/* The spool's folder for this lab into labdir, if hand-ins are open.  0, or
 * the exit status (2: no spool or no folder; 1: past the cut-off). */
static int handin_lab_folder(const engine *e, char *labdir, size_t len)
{
    char spool[4096], err[512];
    if (spool_configured(e->conf.kit_root, spool, sizeof spool, err, sizeof err) != 0) {
        fprintf(stderr, "handin: %s\n", err);
        return 2;
    }
    long long now = (long long)time(NULL);
    if (deadline_past_cutoff(&e->rub, now)) {
        char cut[32], nows[32];
        deadline_format(e->rub.cutoff, cut, sizeof cut);
        deadline_format(now, nows, sizeof nows);
        fprintf(stderr, "handin: refused: the cut-off for %s was %s (it is now %s); nothing was handed in\n",
                e->man.name, cut, nows);
        return 1;
    }
    snprintf(labdir, len, "%s/%s", spool, e->man.id);
    if (!spool_is_lab_folder(labdir)) {
        fprintf(stderr, "handin: the course spool has no folder for %s (%s): ask your instructor to run "
                        "`kitgrade spool-init %s`\n", e->man.id, labdir, spool);
        return 2;
    }
    return 0;
}

/* The student's login into login.  0, or 2 when the uid has no name. */
static int handin_login(char *login, size_t len)
{
    struct passwd *pw = getpwuid(getuid());
    if (!pw) {
        fprintf(stderr, "handin: your uid %u has no account name; hand-ins are filed by login\n", (unsigned)getuid());
        return 2;
    }
    /* getpwuid's record is overwritten by later look-ups (the sandbox's uid pool) */
    snprintf(login, len, "%s", pw->pw_name);
    return 0;
}

/* 1. it builds (or the student said ANYWAY=1).  0, or 1: refused. */
static int handin_builds(engine *e, const char *dir, const char *work, int anyway)
{
    grade_result g;
    printf("%s: building %s ...\n", e->man.name, dir);
    int built = engine_build_only(e, dir, work, &g);
    if (built) {
        grade_result_free(&g);
        return 0;
    }
    fprintf(stderr, "%s", sb_str(&g.build_log));
    grade_result_free(&g);
    if (!anyway) {
        fprintf(stderr, "handin: refused: your files do not build (above); fix them, or hand in anyway with: "
                        "make handin LAB=%s ANYWAY=1\n", e->man.id);
        return 1;
    }
    fprintf(stderr, "handin: your files do not build; handing them in anyway (ANYWAY=1)\n");
    return 0;
}

/* 2. my folder in the spool, into mine; *grp: the lab folder is a group's
 * (set-gid), so the instructors' group may read.  0, or 1: refused. */
static int handin_my_folder(const char *labdir, const char *login, char *mine, size_t len, int *grp)
{
    struct stat lst, st;
    stat(labdir, &lst);
    *grp = (lst.st_mode & S_ISGID) != 0;
    fmt_into(mine, len, "%s/%s", labdir, login);
    if (mkdir(mine, *grp ? 0750 : 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "handin: cannot create %s: %s\n", mine, strerror(errno));
        return 1;
    }
    if (lstat(mine, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
        fprintf(stderr, "handin: refused: %s is not your folder (it belongs to uid %u): tell your instructor; "
                        "nothing was handed in\n", mine, (unsigned)st.st_uid);
        return 1;
    }
    return 0;
}

/* answers.md, when there is a usable one, into tmp (its name into name).
 * 1: copied; 0: not (a note says so). */
static int handin_answers(const char *dir, const char *tmp, char *name)
{
    char from[4200], to[4700];
    struct stat st;
    snprintf(from, sizeof from, "%s/" ANSWERS_FILE, dir);
    snprintf(to, sizeof to, "%s/" ANSWERS_FILE, tmp);
    int fd = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int copied = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (off_t)ANSWERS_MAX_BYTES &&
                 copy_file(from, to, 0600) == 0;
    if (copied)
        snprintf(name, NAME_LEN, ANSWERS_FILE);
    else
        printf("note: no usable %s in %s (at most %u bytes, not a link): your answers to the handout's questions "
               "are not handed in\n", ANSWERS_FILE, dir, ANSWERS_MAX_BYTES);
    if (fd >= 0)
        close(fd);
    return copied;
}

/* 3. the files, into a hidden folder first (the grader skips dot-folders):
 * tmp, made in mine; their names into names.  Returns how many, or -1 (tmp
 * removed, the reason printed). */
static int handin_stage(const engine *e, const char *dir, const char *mine, int grp, char *tmp, size_t len,
                        char names[][NAME_LEN])
{
    snprintf(tmp, len, "%s/.tmp-XXXXXX", mine);
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "handin: cannot write in %s: %s\n", mine, strerror(errno));
        return -1;
    }
    strbuf problems;
    sb_init(&problems);
    char hash[65];
    int n = submission_take(&e->man, dir, tmp, &problems, hash);
    for (int i = 0; i < e->man.n_student_files; i++)
        snprintf(names[i], NAME_LEN, "%s", e->man.student_files[i]);
    if (n != e->man.n_student_files) {
        fprintf(stderr, "%shandin: refused: nothing was handed in\n", sb_str(&problems));
        sb_free(&problems);
        rm_rf(tmp);
        return -1;
    }
    sb_free(&problems);
    n += handin_answers(dir, tmp, names[n]);
    for (int i = 0; i < n; i++) {
        char to[4700];
        fmt_into(to, sizeof to, "%s/%s", tmp, names[i]);
        chmod(to, grp ? 0640 : 0600);
    }
    return n;
}

/* 4. the receipt's text into rec (initialised here): each file's sha256, the
 * time (into when), late or not, the policy.  0, or -1 when sha256sum failed. */
static int handin_receipt(const engine *e, const char *login, const char *tmp, char names[][NAME_LEN], int n,
                          char *when, size_t whenlen, strbuf *rec)
{
    sb_init(rec);
    strbuf sums;
    sb_init(&sums);
    if (sha256_lines(tmp, names, n, &sums) != 0) {
        fprintf(stderr, "handin: sha256sum failed; nothing was handed in\n");
        sb_free(&sums);
        return -1;
    }
    deadline_format((long long)time(NULL), when, whenlen);
    char describe[300];
    int late = deadline_late_days(&e->rub, (long long)time(NULL));
    deadline_describe(&e->rub, describe, sizeof describe);
    sb_printf(rec, "Hand-in receipt: %s, %s\n", e->man.name, login);
    for (char *line = strtok(sums.s, "\n"); line; line = strtok(NULL, "\n")) {
        char *sp = strstr(line, "  ");
        if (sp)
            sb_printf(rec, "  %-12s sha256 %.*s\n", sp + 2, (int)(sp - line), line);
    }
    sb_free(&sums);
    sb_printf(rec, "  time         %s: %s", when, late ? "LATE" : "on time");
    if (late)
        sb_printf(rec, " (%d day%s started after the due date: -%g%%)", late, late == 1 ? "" : "s",
                  deadline_penalty_pct(&e->rub, (long long)time(NULL)));
    sb_printf(rec, "\n%s%s%s", describe[0] ? "  policy       " : "", describe, describe[0] ? "\n" : "");
    return 0;
}

/* The receipt into tmp, and tmp readable as the files are.  0, or -1. */
static int handin_write_receipt(const char *tmp, const strbuf *rec, int grp)
{
    char to[4700], err[512] = "";
    snprintf(to, sizeof to, "%s/RECEIPT.txt", tmp);
    if (write_file_atomic(to, rec->s, rec->len, err, sizeof err) != 0 || chmod(to, grp ? 0640 : 0600) != 0 ||
        chmod(tmp, grp ? 0750 : 0700) != 0) {
        fprintf(stderr, "handin: %s; nothing was handed in\n", err);
        return -1;
    }
    return 0;
}

/* tmp under its final name in mine, from the hand-in time (never over another:
 * -2, -3... on a clash): vname, vdir.  0, or -1. */
static int handin_file_version(const char *mine, const char *tmp, const char *when, char *vname, size_t vlen,
                               char *vdir, size_t vdlen)
{
    for (int k = 1;; k++) {
        snprintf(vname, vlen, "%.4s%.2s%.2sT%.2s%.2s%.2sZ", when, when + 5, when + 8, when + 11, when + 14,
                 when + 17);
        if (k > 1)
            snprintf(vname + strlen(vname), vlen - strlen(vname), "-%d", k);
        snprintf(vdir, vdlen, "%s/%s", mine, vname);
        if (rename(tmp, vdir) == 0)
            return 0;
        if ((errno != EEXIST && errno != ENOTEMPTY) || k > 100) {
            fprintf(stderr, "handin: cannot file %s: %s; nothing was handed in\n", vdir, strerror(errno));
            return -1;
        }
    }
}

int spool_handin(engine *e, const char *dir, const char *work, int anyway)
{
    char labdir[4200], login[256], mine[4500];
    int grp, rc = handin_lab_folder(e, labdir, sizeof labdir);
    if (rc == 0)
        rc = handin_login(login, sizeof login);
    if (rc == 0)
        rc = handin_builds(e, dir, work, anyway);
    if (rc == 0)
        rc = handin_my_folder(labdir, login, mine, sizeof mine, &grp);
    if (rc != 0)
        return rc;
    char tmp[4600], names[MAX_LIST + 1][NAME_LEN], when[32], vname[64], vdir[4700];
    int n = handin_stage(e, dir, mine, grp, tmp, sizeof tmp, names);
    if (n < 0)
        return 1;
    strbuf rec;
    if (handin_receipt(e, login, tmp, names, n, when, sizeof when, &rec) != 0 ||
        handin_write_receipt(tmp, &rec, grp) != 0 ||
        handin_file_version(mine, tmp, when, vname, sizeof vname, vdir, sizeof vdir) != 0) {
        sb_free(&rec);
        rm_rf(tmp);
        return 1;
    }
    fputs(rec.s, stdout);
    printf("  stored as    %s (version %s; only you and your instructors can read it; every hand-in is kept, "
           "the last one before the cut-off is graded)\n", vdir, vname);
    sb_free(&rec);
    return 0;
}
