/* runner_main.cu - main() of every runner (student code + lab harness).
 *
 *   runner run   --params P --seed S --nonce N --out FILE [--no-trace]
 *   runner bench --params P --seed S --nonce N --out FILE [--warmup W] [--reps K] [--no-trace] [--gate-fd FD]
 *                [--decided MIN,FULL]
 *   runner show  [--params P] [--seed S] [words...]
 *   runner serve --ctl-fd FD --out FILE [--no-trace]   (cases sent by the grader, see serve())
 *   runner baseline --params P --seed S --nonce N --out FILE   (the kit's baseline alone, timed)
 * run, bench and serve also take --call-limit S --call-grace K --skip-calls a,b
 * (a student call's time limit and the calls not to make: kit/watchdog.h).
 * bench's --decided: the performance test's bounds (no points at or below
 * MIN, full points at or above FULL); the timing stops once they decide the
 * score (kit/timing_decided.h).  Without it, bench times in full.
 *
 * The runner only computes and records; the grader's checker judges.  Exit
 * statuses: KIT_EXIT_* (kit/protocol.h).  Output is written only after the
 * student's code returned, so a run that crashes leaves no result file.
 * One case of run, bench, baseline and serve is kit_run_case (run_case.cu).
 */
#include <cuda_runtime.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/lab.cuh"
#include "kit/watchdog.h"
#include "kit_trace.h"

static int usage(void)
{
    fprintf(stderr, "usage: runner run|bench|show|baseline [--params \"k=v ...\"] [--seed S] [--nonce N] [--out FILE]\n"
                    "                             [--warmup W] [--reps K] [--no-trace] [--gate-fd FD] [k=v ...]\n"
                    "                             [--call-limit S] [--call-grace K] [--skip-calls a,b]\n"
                    "                             [--decided MIN,FULL] (bench)\n"
                    "       runner serve --ctl-fd FD --out FILE [--no-trace] [--call-grace K] [--skip-calls a,b]\n");
    return KIT_EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *s == 0 || *end)
        return -1;
    *v = x;
    return 0;
}

/* One line from the grader on the control descriptor; 0 at its end. */
static int read_line(int fd, char *buf, size_t len)
{
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t k = read(fd, &c, 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        if (c == '\n')
            break;
        if (n + 1 < len)
            buf[n++] = c;
    }
    buf[n] = 0;
    return 1;
}

static int write_line(int fd, const char *line)
{
    size_t n = strlen(line), done = 0;
    while (done < n) {
        ssize_t k = write(fd, line + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        done += (size_t)k;
    }
    return 0;
}

/* --gate-fd: the grader's conversation about the GPU lock.  A timing loop
 * asks for the GPU alone ("exclusive", answered "go" once no other run uses
 * it) and gives it back after ("shared", answered "ok"); the rest of the
 * run shares the GPU like a correctness run. */
static int gate_fd = -1;

static void gate(int alone)
{
    char line[64];
    fflush(stdout);
    if (write_line(gate_fd, alone ? KIT_GATE_EXCLUSIVE "\n" : KIT_GATE_SHARED "\n") != 0 || !read_line(gate_fd, line, sizeof line) ||
        strcmp(line, alone ? KIT_GATE_GO : KIT_GATE_OK) != 0) {
        fprintf(stderr, "runner: the grader did not answer about the GPU lock\n");
        _exit(KIT_EXIT_HARNESS);
    }
}

/* `serve`: many cases in one process and one CUDA context, as a program
 * calls a function many times.  The grader sends "run SEED NONCE PARAMS"
 * lines on descriptor fd; each is run like `runner run` into out_path and
 * answered "done" once its result file is complete, after which the grader
 * checks it and sends the next.  A case that does not end well (a CUDA
 * error, a crash, a call over its limit) ends the process with its status
 * instead: the grader decides what the case came to (kit/protocol.h).  A case
 * whose call is one not to make (--skip-calls) is answered "skipped CALL".
 * EOF: exit 0. */
static int serve(int fd, const char *out_path)
{
    if (write_line(fd, KIT_SERVE_READY "\n") != 0)
        return KIT_EXIT_HARNESS;
    char line[4096];
    while (read_line(fd, line, sizeof line)) {
        char words[2048];
        unsigned long long seed, nonce;
        double limit;
        int used = 0;
        if (sscanf(line, KIT_SERVE_RUN " %llx %llu %lf %n", &seed, &nonce, &limit, &used) < 3 || used == 0) {
            fprintf(stderr, "runner: the grader sent '%.80s', not 'run SEED NONCE LIMIT PARAMS'\n", line);
            return KIT_EXIT_USAGE;
        }
        snprintf(words, sizeof words, " %s", line + used);
        kit_watchdog_limit(limit);
        int rc = kit_run_case(&KIT_LAB, KIT_MODE_RUN, words, seed, nonce, out_path, 0, 1, NULL);
        fflush(stdout);
        fflush(stderr);
        char answer[128];
        if (rc == KIT_EXIT_SKIPPED)
            snprintf(answer, sizeof answer, KIT_SERVE_SKIPPED " %s\n", kit_call_skipped_last());
        else if (rc == KIT_EXIT_OK)
            snprintf(answer, sizeof answer, KIT_SERVE_DONE "\n");
        else
            return rc;
        if (write_line(fd, answer) != 0)
            return KIT_EXIT_HARNESS;
    }
    return KIT_EXIT_OK;
}

/* The folder of path ("." for a bare name), for the watchdog's record. */
static void folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash)
        snprintf(dir, len, ".");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path > 0 ? slash - path : 1), path);
}

/* What the command line asks for besides its mode (main). */
typedef struct {
    char words[1024]; /* the parameters, " k=v" each */
    const char *out_path;
    uint64_t seed, nonce, ctl_fd;
    int warmup, reps, trace;
    double call_limit, call_grace;
    kit_decided decided; /* bench: the score's bounds (given = 0: none) */
} runner_args;

/* argv[2..] into r (--gate-fd into gate_fd, --skip-calls to the kit); 0, or
 * usage()'s status. */
static int parse_args(int argc, char **argv, runner_args *r)
{
    *r = {};
    r->seed = 1;
    r->warmup = KIT_RUN_WARMUP, r->reps = KIT_RUN_REPS, r->trace = 1;
    r->call_grace = 1;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--params") && v) {
            snprintf(r->words + strlen(r->words), sizeof r->words - strlen(r->words), " %s", v), i++;
        } else if (!strcmp(arg, "--seed") && v) {
            if (parse_u64(v, &r->seed))
                return usage();
            i++;
        } else if (!strcmp(arg, "--nonce") && v) {
            if (parse_u64(v, &r->nonce))
                return usage();
            i++;
        } else if ((!strcmp(arg, "--ctl-fd") || !strcmp(arg, "--gate-fd")) && v) {
            uint64_t fd;
            if (parse_u64(v, &fd) || fd < 3 || fd > 1023)
                return usage();
            if (!strcmp(arg, "--ctl-fd"))
                r->ctl_fd = fd;
            else
                gate_fd = (int)fd;
            i++;
        } else if (!strcmp(arg, "--out") && v) {
            r->out_path = v, i++;
        } else if (!strcmp(arg, "--warmup") && v) {
            r->warmup = atoi(v), i++;
        } else if (!strcmp(arg, "--reps") && v) {
            r->reps = atoi(v), i++;
        } else if ((!strcmp(arg, "--call-limit") || !strcmp(arg, "--call-grace")) && v) {
            char *end;
            double x = strtod(v, &end);
            if (*end || !(x >= 0 && x < 1e6))
                return usage();
            *(!strcmp(arg, "--call-limit") ? &r->call_limit : &r->call_grace) = x;
            i++;
        } else if (!strcmp(arg, "--decided") && v) {
            char why[200];
            if (kit_decided_parse(v, &r->decided, why, sizeof why) != 0) {
                fprintf(stderr, "runner: %s\n", why);
                return KIT_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(arg, "--skip-calls") && v) {
            kit_calls_skip(v), i++;
        } else if (!strcmp(arg, "--no-trace")) {
            r->trace = 0;
        } else if (strchr(arg, '=') && arg[0] != '-') {
            snprintf(r->words + strlen(r->words), sizeof r->words - strlen(r->words), " %s", arg);
        } else {
            fprintf(stderr, "runner: unknown argument '%s'\n", arg);
            return usage();
        }
    }
    return 0;
}

/* `show`: one case run with its inputs and outputs printed, nothing written. */
static int show_case(const runner_args *r)
{
    kit_params params;
    kit_run_ctx ctx;
    if (kit_run_ctx_init(&ctx, &params, r->words, r->seed, r->warmup, r->reps) != 0)
        return KIT_EXIT_USAGE;
    ctx.show = 1;
    printf("seed 0x%" PRIx64 ", parameters:%s\n", r->seed, r->words[0] ? r->words : " (defaults)");
    int rc = kit_lab_run(&ctx, &KIT_LAB);
    kit_trace_finish(NULL);
    return kit_run_exit_status(rc);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *mode = argv[1];
    int bench = !strcmp(mode, "bench"), show = !strcmp(mode, "show"), served = !strcmp(mode, "serve");
    int base = !strcmp(mode, "baseline");
    if (!bench && !show && !served && !base && strcmp(mode, "run"))
        return usage();

    runner_args r;
    int bad = parse_args(argc, argv, &r);
    if (bad)
        return bad;
    if ((!show && !r.out_path) || (served && !r.ctl_fd))
        return usage();

    /* The trace must be set up before the first CUDA call creates a context;
     * so must following the streams the program creates (what a call left
     * running, pending.cu) - not under compute-sanitizer (--no-trace), which
     * leaves CUPTI to itself and times nothing. */
    kit_trace_init(r.trace && !show && !base);
    if (r.trace && !base) {
        kit_pending_init();
        kit_watchdog_follow_teardown();
    }
    if (!show) {
        char dir[1024];
        folder_of(r.out_path, dir, sizeof dir);
        kit_watchdog_setup(dir, r.call_limit, r.call_grace, KIT_CALL_HOLD_MAX_S);
        kit_watchdog_kernel_source(kit_trace_call_kernels);
    }
    if (served)
        return serve((int)r.ctl_fd, r.out_path);
    if (bench && gate_fd >= 0)
        kit_time_set_gate(gate);
    if (!show)
        return kit_run_case(&KIT_LAB, bench ? KIT_MODE_BENCH : base ? KIT_MODE_BASELINE : KIT_MODE_RUN, r.words,
                            r.seed, r.nonce, r.out_path, r.warmup, r.reps, &r.decided);
    return show_case(&r);
}
