/* rerun.c - rerun hints that work when pasted (see rerun.h). */
#include "grading/rerun.h"
#include "model/labdir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rerun_setup(engine *e, const char *dir, int student)
{
    strbuf b;
    sb_init(&b);
    char real[PATH_MAX];
    char own[1200]; /* the folder make labNN grades without DIR (Makefile) */
    labdir_path(own, sizeof own, "", e->man.name, "student");
    int own_dir = !strcmp(dir, own) || !strcmp(dir, e->starter_dir);
    /* make passes DIR to the shell unquoted: a folder that needs quoting
     * gets the kitgrade form, which takes it as one word */
    sb_add_shell_word(&b, dir);
    int plain = !strcmp(sb_str(&b), dir);
    sb_clear(&b);
    e->repro_make = student && (own_dir || plain);
    if (e->repro_make) {
        sb_printf(&b, "make %s", e->man.id);
        if (!own_dir)
            sb_printf(&b, " DIR=%s", dir);
    } else {
        char exe[1200];
        snprintf(exe, sizeof exe, "%s/bin/kitgrade", e->conf.build_dir);
        sb_add_shell_word(&b, exe);
        sb_printf(&b, " %s %s ", student ? "check" : "grade", e->man.id);
        sb_add_shell_word(&b, realpath(dir, real) ? real : dir);
        if (e->rubric_given) {
            sb_add(&b, " --rubric ");
            sb_add_shell_word(&b, realpath(e->rubric_path, real) ? real : e->rubric_path);
        }
    }
    if (fmt_into(e->repro, sizeof e->repro, "%s", sb_str(&b)) != 0)
        e->repro[0] = 0; /* a cut command would not work: none */
    sb_free(&b);
}

void rerun_command(const engine *e, const char *test, strbuf *b)
{
    if (!e->repro[0])
        return;
    if (e->repro_make)
        sb_printf(b, "%s TEST=%s SEED=0x%llx", e->repro, test, (unsigned long long)e->seed);
    else
        sb_printf(b, "%s --test %s --seed 0x%llx", e->repro, test, (unsigned long long)e->seed);
}
