/* ladder.cu - the four block reductions of a 2010 thesis on CUDA (its Table 5.1),
 * kit-owned, for students to time on today's GPU next to the 2010 figures
 * (Quadro FX 570M: 1.00 / 2.42 / 3.96 / 4.73x).
 *
 * Each block reduces its own LADDER_BLOCK (512) floats, as in the thesis;
 * many blocks run at once so that the time is the kernels', not the launch's.
 * Variant 4 finishes the last warp the way current GPUs require: volatile
 * shared memory and __syncwarp() between steps (the thesis relied on a warp
 * executing in lock-step, which is not guaranteed since Volta).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit/compare.h"
#include "kit/timing.cuh"
#include "ladder.h"

#define B LADDER_BLOCK

/* One block reduces its own B values in shared memory, with variant V's
 * steps (the load and the store are the same for all four):
 * 1: interleaved addressing, divergent: thread t works when t % 2s == 0;
 * 2: interleaved addressing, compact threads: thread t works on i = 2 s t
 *    (no divergence until few threads are left, but strided: bank conflicts);
 * 3: sequential addressing: thread t < s adds s[t + s];
 * 4: sequential addressing, the last warp without block barriers. */
template <int V> __global__ void kit_ladder(const float *in, float *out)
{
    __shared__ float s[B];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * B + t];
    __syncthreads();
    if (V == 1 || V == 2) {
        for (unsigned stride = 1; stride < B; stride *= 2) {
            unsigned i = V == 1 ? t : 2 * stride * t;
            if (V == 1 ? t % (2 * stride) == 0 : i < B)
                s[i] += s[i + stride];
            __syncthreads();
        }
    } else {
        for (unsigned stride = B / 2; stride > (V == 4 ? 32u : 0u); stride /= 2) {
            if (t < stride)
                s[t] += s[t + stride];
            __syncthreads();
        }
        if (V == 4 && t < 32) {
            volatile float *v = s;
            for (unsigned stride = 32; stride > 0; stride /= 2) {
                if (t < stride) /* then no thread writes what another reads in this step */
                    v[t] += v[t + stride];
                __syncwarp();
            }
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

typedef void (*ladder_kernel)(const float *, float *);

static const struct {
    ladder_kernel k;
    const char *name;
    double ratio_2010;
} variants[] = {
    {kit_ladder<1>, "1 interleaved, divergent", 1.00},
    {kit_ladder<2>, "2 interleaved, bank conflicts", 2.42},
    {kit_ladder<3>, "3 sequential addressing", 3.96},
    {kit_ladder<4>, "4 sequential, last warp unrolled", 4.73},
};

typedef struct {
    ladder_kernel k;
    const float *in;
    float *out;
    int blocks;
} launch_arg;

static void launch(void *p)
{
    launch_arg *a = (launch_arg *)p;
    a->k<<<a->blocks, B>>>(a->in, a->out);
}

#define LCHECK(call)                                                                                  \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "ladder.cu:%d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e_));       \
            rc = -1;                                                                                  \
            goto done;                                                                                \
        }                                                                                             \
    } while (0)

int kit_ladder_show(const float *a, int n)
{
    int blocks = n / B, rc = 0;
    float *d_in = NULL, *d_out = NULL, *sums = (float *)malloc((size_t)blocks * sizeof(float));
    double ms[4];
    if (!sums) {
        fprintf(stderr, "ladder: out of host memory\n");
        return -1;
    }
    LCHECK(cudaMalloc(&d_in, (size_t)n * sizeof(float)));
    LCHECK(cudaMalloc(&d_out, (size_t)blocks * sizeof(float)));
    LCHECK(cudaMemcpy(d_in, a, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    for (int v = 0; v < 4; v++) {
        launch_arg arg = {variants[v].k, d_in, d_out, blocks};
        LCHECK(cudaMemset(d_out, 0xFF, (size_t)blocks * sizeof(float)));
        launch(&arg);
        LCHECK(cudaGetLastError());
        LCHECK(cudaMemcpy(sums, d_out, (size_t)blocks * sizeof(float), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++) { /* a wrong variant is not timed */
            double s = 0, sa = 0;
            for (int t = 0; t < B; t++)
                s += a[(size_t)b * B + t], sa += fabs(a[(size_t)b * B + t]);
            if (!(fabs(sums[b] - s) <= kit_sum_bound(B, sa, KIT_U_F32))) {
                fprintf(stderr, "ladder: variant %s: block %d sums to %.9g, expected %.9g\n", variants[v].name, b,
                        sums[b], s);
                rc = -1;
                goto done;
            }
        }
        kit_timing t;
        if (kit_time_median(launch, &arg, 3, 15, &t) != 0) {
            rc = -1;
            goto done;
        }
        ms[v] = t.median_ms;
    }
    printf("reduction ladder (four classic block reductions, 2010): %d blocks of %d threads, each summing its own %d floats\n",
           blocks, B, B);
    printf("  %-34s %11s %13s %13s\n", "variant", "time (ms)", "speed vs 1", "2010 GPU");
    for (int v = 0; v < 4; v++)
        printf("  %-34s %11.4f %12.2fx %12.2fx\n", variants[v].name, ms[v], ms[0] / ms[v], variants[v].ratio_2010);
    printf("  (medians of 15 launches after 3 warm-up launches; all four variants' block sums checked)\n");
done:
    cudaFree(d_in);
    cudaFree(d_out);
    free(sums);
    return rc;
}
