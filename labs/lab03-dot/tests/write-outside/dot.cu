/* lab03 - known-bad test submission: tries to write outside its scratch folder.
 * Every run, before main(): it tries to create (and at once remove) a file in
 * every folder it can guess or learn (the kit's folders on the machine it is
 * developed on, the system folders, the folders above its run folder, every
 * folder named on its own and its parent's command lines and in its mount
 * table) and to open the kit's files for appending (writing nothing); it
 * plants stdout.txt -> ../bin/runner for the grader to write through.  Any
 * success prints "SANDBOX ESCAPE" and exits 42.  The dot product itself is
 * correct: with the sandbox holding, every test passes on a GPU. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"

/* Directories a submission could guess or learn: where the kit lives on the
 * machine the kit is developed on, the system folders, and every folder on
 * the way to an absolute path named in its own command line, its parent's
 * (inside the sandbox: bubblewrap's) and its mount table. */
static const char *fixed_dirs[] = {"/work/main", "/work/main/labs/lab03-dot", "/work/main/labs/lab03-dot/solution",
                                   "/work/main/labs/lab03-dot/kit", "/work/main/build", "/", "/etc", "/usr",
                                   "/usr/local", "/opt", "/dev", "/root", "/home", "/var/tmp", "/tmp/..",
                                   "..", "../..", "../../..", "../bin", "../src", NULL};

#define MAX_DIRS 512
static char dirs[MAX_DIRS][512];
static int n_dirs;

static void add_dir(const char *d)
{
    for (int i = 0; i < n_dirs; i++)
        if (!strcmp(dirs[i], d))
            return;
    if (n_dirs < MAX_DIRS && strlen(d) < sizeof dirs[0])
        strcpy(dirs[n_dirs++], d);
}

/* Every ancestor of each absolute path in a NUL- or space-separated file. */
static void add_dirs_from(const char *file)
{
    static char text[65536];
    FILE *f = fopen(file, "rb");
    if (!f)
        return;
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\0' || text[i] == '\n')
            text[i] = ' ';
    for (char *w = strtok(text, " "); w; w = strtok(NULL, " ")) {
        if (w[0] != '/')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s", w);
        for (char *slash; (slash = strrchr(path, '/')) && slash != path;) {
            *slash = '\0';
            add_dir(path);
        }
    }
}

static void gather_dirs(void)
{
    for (int i = 0; fixed_dirs[i]; i++)
        add_dir(fixed_dirs[i]);
    add_dirs_from("/proc/self/cmdline");
    char parent[64];
    snprintf(parent, sizeof parent, "/proc/%d/cmdline", (int)getppid());
    add_dirs_from(parent);
    add_dirs_from("/proc/1/cmdline");
    add_dirs_from("/proc/self/mountinfo");
}

static int escaped;

/* Writing is allowed only in the run folder (the current directory) and in
 * the sandbox's private /tmp and /dev/shm. */
static int allowed(const char *path)
{
    char real[4096], cwd[4096];
    if (!realpath(path, real) || !getcwd(cwd, sizeof cwd))
        return 0;
    size_t n = strlen(cwd);
    return (!strncmp(real, cwd, n) && (real[n] == '/' || real[n] == '\0')) || !strncmp(real, "/tmp/", 5) ||
           !strcmp(real, "/tmp") || !strncmp(real, "/dev/shm", 8);
}

/* Opens for writing without writing anything: a new file is created and
 * removed at once, an existing one is opened for appending.  Success is
 * the escape. */
static void try_write(const char *path)
{
    int created = 0;
    int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
        created = fd >= 0;
    }
    if (fd < 0)
        return;
    close(fd);
    if (created)
        unlink(path);
    fprintf(stderr, "SANDBOX ESCAPE: could write %s\n", path);
    escaped = 1;
}

__attribute__((constructor)) static void try_to_write_outside(void)
{
    gather_dirs();
    static const char *kit_files[] = {"/work/main/labs/lab03-dot/student/dot.h", "/work/main/labs/lab03-dot/kit/rubric.ini",
                                      "/work/main/labs/lab03-dot/solution/dot.cu", "/work/main/Makefile", "../bin/runner",
                                      "/etc/passwd", NULL};
    for (int i = 0; kit_files[i]; i++)
        try_write(kit_files[i]);
    for (int i = 0; i < n_dirs; i++) {
        if (allowed(dirs[i]))
            continue;
        char probe[600];
        snprintf(probe, sizeof probe, "%.500s/kit-escape-probe-%d", dirs[i], (int)getpid());
        try_write(probe);
    }
    /* The grader writes files next to the run as root: a link planted here
     * must not be followed (if it were, every later run would lose its runner). */
    symlink("../bin/runner", "stdout.txt");
    if (escaped)
        _exit(42);
}

#define THREADS 256
#define MAX_BLOCKS 1024

/* Tree reduction of s[0..THREADS) into s[0]; all threads of the block call it. */
template <typename T> __device__ void block_reduce(T *s)
{
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

/* out[blockIdx.x] = sum over this block's share of a[i]*b[i] (b == NULL: sum of a[i]). */
template <typename T> __global__ void dot_partial(const T *a, const T *b, T *out, int n)
{
    __shared__ T partial[THREADS];
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += b ? a[i] * b[i] : a[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    block_reduce(partial);
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

template <typename T> static T dot(const T *d_a, const T *d_b, int n)
{
    if (n <= 0)
        return 0;
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    T *d_part, result;
    CUDA_CHECK(cudaMalloc(&d_part, (blocks + 1) * sizeof(T)));
    dot_partial<T><<<blocks, THREADS>>>(d_a, d_b, d_part, n);
    CUDA_CHECK_LAUNCH();
    dot_partial<T><<<1, THREADS>>>(d_part, (const T *)nullptr, d_part + blocks, blocks);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&result, d_part + blocks, sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_part));
    return result;
}

float dot_shared(const float *d_a, const float *d_b, int n) { return dot(d_a, d_b, n); }

int dot_shared_int(const int *d_a, const int *d_b, int n) { return dot(d_a, d_b, n); }
