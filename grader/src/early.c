/* early.c - a grading's performance test, started right after the build.
 *
 * A timing run spends most of its seconds before its timing loop: a CUDA
 * context, inputs of 2^26 elements, the untimed call whose result is checked.
 * A forked copy of the engine runs the performance test in a folder of its
 * own from the start, sharing the GPU like the correctness runs; its timing
 * loop asks for the GPU alone (serve.c run_gated), which it gets once this
 * grading's correctness and sanitizer runs are over (the grading gives up its
 * shared hold before it waits for the result) and no other grading's run
 * uses the GPU.  The result comes back through a pipe.  KIT_SERVE=0: the
 * test runs in its turn, as before.
 */
#include "engine_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "submission.h"

struct early_run {
    const rubric_test *t;
    pid_t pid;
    int fd;
};

void early_start(engine *e, const workdirs *w, const rubric_test *t,
                 void (*run)(engine *e, const workdirs *w, const rubric_test *t, test_result *tr))
{
    if (!serve_enabled() || e->early)
        return;
    struct early_run *er = calloc(1, sizeof *er);
    int p[2];
    if (!er || pipe2(p, O_CLOEXEC) != 0) {
        free(er);
        return;
    }
    if (e->log)
        fflush(e->log);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]), close(p[1]), free(er);
        return;
    }
    if (pid == 0) {
        close(p[0]);
        /* The parent's GPU hold, case server and sanitizer processes stay
         * the parent's: forget them without touching them (an unlock here
         * would release the parent's hold, which shares the descriptor). */
        if (e->shared_held == 1)
            close(e->shared.fd);
        e->shared_held = 0;
        e->server = NULL;
        e->n_sanitizers = 0;
        e->log = NULL;
        e->early_child = 1;
        workdirs w2 = *w;
        snprintf(w2.run, sizeof w2.run, "%s/perf", w->root);
        test_result tr;
        memset(&tr, 0, sizeof tr);
        sb_init(&tr.output);
        if (mkdirs(w2.run, 0755) == 0 && (!e->sb.drop_uid || chown(w2.run, e->sb.uid, e->sb.gid) == 0))
            run(e, &w2, t, &tr);
        else {
            tr.status = ST_ERROR;
            sb_printf(&tr.output, "internal error: cannot prepare %s: %s\n", w2.run, strerror(errno));
        }
        char head[128];
        int n = snprintf(head, sizeof head, "%d %.17g %d %zu\n", (int)tr.status, tr.score, tr.show_output, tr.output.len);
        int ok = write(p[1], head, (size_t)n) == n;
        for (size_t done = 0; ok && done < tr.output.len;) {
            ssize_t k = write(p[1], tr.output.s + done, tr.output.len - done);
            ok = k > 0;
            done += ok ? (size_t)k : 0;
        }
        _exit(ok ? 0 : 1);
    }
    close(p[1]);
    proc_keep(pid, 1); /* not an orphan for the clean-up after each program */
    er->t = t, er->pid = pid, er->fd = p[0];
    e->early = er;
}

int early_collect(engine *e, const rubric_test *t, test_result *tr)
{
    struct early_run *er = e->early;
    if (!er || er->t != t)
        return 0;
    e->early = NULL;
    strbuf all;
    sb_init(&all);
    char buf[65536];
    for (ssize_t k; (k = read(er->fd, buf, sizeof buf)) != 0;) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            break;
        sb_addn(&all, buf, (size_t)k);
    }
    close(er->fd);
    int st;
    while (waitpid(er->pid, &st, 0) < 0 && errno == EINTR)
        ;
    proc_keep(er->pid, 0);
    free(er);
    int status, show, used = 0;
    double score;
    size_t len;
    int got = all.len && sscanf(sb_str(&all), "%d %lf %d %zu\n%n", &status, &score, &show, &len, &used) == 4 &&
              used > 0 && all.len - (size_t)used == len;
    if (got) {
        tr->status = (test_status)status;
        tr->score = score;
        tr->show_output = show;
        sb_addn(&tr->output, sb_str(&all) + used, len);
    }
    sb_free(&all);
    return got;
}

void early_stop(engine *e)
{
    struct early_run *er = e->early;
    if (!er)
        return;
    e->early = NULL;
    kill(er->pid, SIGKILL);
    close(er->fd);
    while (waitpid(er->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    proc_keep(er->pid, 0);
    free(er);
}
