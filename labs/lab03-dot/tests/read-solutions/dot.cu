/* lab03 - known-bad test submission: tries to read the solution and the rubric.
 * Every run, before main(): it looks for the kit's labs/lab03-dot/solution/dot.cu,
 * the lab's rubric, manifest and checker under every folder it can guess or
 * learn (as write-outside does), reads /etc/shadow and root's history, and
 * the other students' files next to its own folder.  Any success prints
 * "SANDBOX ESCAPE" and exits 42.  The dot product itself is correct: with
 * the sandbox holding, every test passes on a GPU. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* Reads one byte: success is the escape. */
static void try_read(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    char c;
    ssize_t n = read(fd, &c, 1);
    close(fd);
    if (n >= 0) {
        fprintf(stderr, "SANDBOX ESCAPE: could read %s\n", path);
        escaped = 1;
    }
}

__attribute__((constructor)) static void try_to_read_solutions(void)
{
    gather_dirs();
    static const char *secrets[] = {"labs/lab03-dot/solution/dot.cu", "labs/lab03-dot/kit/rubric.ini",
                                    "labs/lab03-dot/kit/check.c", "labs/lab03-dot/kit/manifest.ini", NULL};
    /* The kit's secrets under every folder it could be in. */
    for (int i = 0; i < n_dirs; i++)
        for (int k = 0; secrets[k]; k++) {
            char path[700];
            snprintf(path, sizeof path, "%.500s/%s", dirs[i], secrets[k]);
            try_read(path);
        }
    try_read("/etc/shadow");
    try_read("/root/.bash_history");
    /* Other students: their folders next to this one. */
    DIR *d = opendir("../..");
    struct dirent *e;
    char own[4096] = "", cwd[4096];
    if (getcwd(cwd, sizeof cwd)) {
        char *run = strrchr(cwd, '/');
        if (run) {
            *run = '\0';
            char *me = strrchr(cwd, '/');
            snprintf(own, sizeof own, "%s", me ? me + 1 : cwd);
        }
    }
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, own))
            continue;
        char path[600];
        snprintf(path, sizeof path, "../../%.255s/src/dot.cu", e->d_name);
        try_read(path);
    }
    if (d)
        closedir(d);
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
