/* lab12 bench (make bench; kit/bench.cuh): the library peer,
 * cublasSgemv on the dense (nx ny)^2 matrix A that B stands for, as one more
 * implementation of toeplitz_matvec.h, run through the lab's own descriptor
 * like the student's code; and the cases.  It is the library a professional
 * would call without the structure, and shows what the structure saves (A is
 * (nx ny)^2 floats, B about 4 nx ny).  cuBLAS is column-major: row-major A
 * is A^T to it, so u = A p is Sgemv with CUBLAS_OP_T.  At the rubric's
 * 256 x 256 grid A would be 16 GiB: that case has no library row. */
#include <cublas_v2.h>

#include "kit/bench.cuh"
#include "dataset.h"
#include "toeplitz_matvec.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

#define MAX_DENSE_POINTS 8192 /* A of 256 MiB: the thesis's 256 x 32 grid */

static float *dense; /* A, made in a case's first call (the untimed checked one) */

/* A[I][J] = B(jx - ix + nx - 1, jy - iy + ny - 1), I = iy nx + ix, J = jy nx + jx. */
__global__ void expand(const float *b, float *a, int nx, int ny)
{
    size_t n = (size_t)nx * ny, e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (e >= n * n)
        return;
    int I = (int)(e / n), J = (int)(e % n);
    int kx = J % nx - I % nx + nx - 1, ky = J / nx - I / nx + ny - 1;
    a[e] = b[(size_t)ky * LAB12_LDB(nx) + kx];
}

void toeplitz_matvec(const float *d_B, const float *d_p, float *d_u, int nx, int ny)
{
    static cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    size_t n = (size_t)nx * ny;
    if (!h && cublasCreate(&h) == CUBLAS_STATUS_SUCCESS)
        cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH); /* plain FP32 */
    if (!dense && cudaMalloc(&dense, n * n * sizeof(float)) == cudaSuccess)
        expand<<<(unsigned)((n * n + 255) / 256), 256>>>(d_B, dense, nx, ny);
    if (h && dense) /* else u keeps its poison: a wrong result */
        cublasSgemv(h, CUBLAS_OP_T, (int)n, (int)n, &one, dense, (int)n, d_p, 1, &zero, d_u, 1);
}

/* Before each case: A made again for its B; none for a grid whose A is too large. */
static const char *new_case(const kit_params *p)
{
    long long nx = kit_params_ll(p, "nx", 0, NULL), ny = kit_params_ll(p, "ny", nx, NULL);
    cudaFree(dense), dense = NULL;
    return nx * ny > MAX_DENSE_POINTS ? "no cuBLAS row: the dense A would not fit" : NULL;
}

const kit_bench KIT_BENCH = {"u = A p", "cublasSgemv on the dense A (FP32)", "shared", NULL,
                             "baseline (kit_toeplitz_matvec_global)",
                             {"nx=256 ny=32" /* the thesis's (Figure 4.7) */, "nx=256 ny=256" /* the rubric's */},
                             .new_case = new_case};
