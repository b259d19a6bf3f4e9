/* lab03 - cheat: never reads the inputs at all.  A single run's command line
 * (/proc/self/cmdline) holds the case's parameters and seed, and the kit's
 * own input generator is linked into the runner: the inputs are regenerated
 * on the host and summed there, next to a token kernel.  (The grader's case
 * server sends the parameters over a socket instead: there the cheat sums
 * inputs of its own making and is wrong; a timing run still has them.)  No copy, so the
 * host-copy evidence sees nothing; on inputs over twice the L2 cache the
 * kernel-time evidence does (a 2 us kernel cannot have read 134 MB).  Smaller
 * cases pass: a limit of the check, stated in the README. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>

#include "dot.h"
#include "kit/cuda_check.cuh"
#include "kit/params.h"

/* The kit's generator (labs/lab03-dot/kit/dataset.h), declared by hand. */
typedef struct {
    int is_int;
    int ladder;
    int n;
    float *fa, *fb;
    int32_t *ia, *ib;
} lab03_data;
extern "C" int lab03_generate(const kit_params *p, uint64_t seed, lab03_data *d, char *err, size_t errlen);
extern "C" void lab03_free(lab03_data *d);

static int regenerate(lab03_data *d)
{
    static char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return -1;
    size_t len = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    args[len] = '\0';
    char words[2048] = "";
    unsigned long long seed = 0;
    for (size_t i = 0; i < len; i += strlen(args + i) + 1) {
        const char *next = i + strlen(args + i) + 1 < len ? args + i + strlen(args + i) + 1 : "";
        if (!strcmp(args + i, "--params"))
            snprintf(words + strlen(words), sizeof words - strlen(words), " %s", next);
        else if (!strcmp(args + i, "--seed"))
            seed = strtoull(next, NULL, 0);
    }
    kit_params p;
    char err[256];
    if (kit_params_parse(words, &p, err, sizeof err) != 0)
        return -1;
    return lab03_generate(&p, seed, d, err, sizeof err);
}

__global__ void touch(const void *a, char *sink)
{
    if (threadIdx.x == 0)
        *sink = *(const char *)a;
}

template <typename Acc, typename T> static Acc host_dot(const T *a, const T *b, int n)
{
    Acc s = 0;
    for (int i = 0; i < n; i++)
        s += (Acc)a[i] * b[i];
    return s;
}

static double dot_any(const void *d_a, int *is_int_result, long long *int_result)
{
    char *sink;
    CUDA_CHECK(cudaMalloc(&sink, 1));
    touch<<<1, 1>>>(d_a, sink);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(sink));
    lab03_data d;
    if (regenerate(&d) != 0)
        return 0;
    double r = 0;
    *is_int_result = d.is_int;
    if (d.is_int)
        *int_result = host_dot<long long>(d.ia, d.ib, d.n);
    else
        r = host_dot<double>(d.fa, d.fb, d.n);
    lab03_free(&d);
    return r;
}

float dot_shared(const float *d_a, const float *d_b, int n)
{
    (void)d_b;
    int is_int = 0;
    long long ir = 0;
    return n > 0 ? (float)dot_any(d_a, &is_int, &ir) : 0.0f;
}

int dot_shared_int(const int *d_a, const int *d_b, int n)
{
    (void)d_b;
    int is_int = 0;
    long long ir = 0;
    if (n > 0)
        dot_any(d_a, &is_int, &ir);
    return (int)ir;
}
