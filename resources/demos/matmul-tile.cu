/* matmul-tile - tiled matrix multiply without its second __syncthreads().
 * (The classic tiled kernel of the lecture slides, its second barrier left out.
 * Lab 10's starter, labs/lab10-matmul/student/matmul.cu, has the same hole: TODO 1.)
 *
 * Each block computes one 32x32 tile of C = A * B.  It walks along a strip of
 * A and a strip of B one 32x32 tile at a time: every thread loads one element
 * of each tile into shared memory, the block waits (__syncthreads), every
 * thread multiplies a row of the A tile by a column of the B tile, and the
 * block goes on to the next pair of tiles.
 *
 * The racy kernel drops the barrier at the END of the loop body.  A warp that
 * has finished its 32 multiply-adds goes round the loop and loads the NEXT
 * tiles into As and Bs while slower warps are still reading the CURRENT ones:
 * a write-after-read (WAR) hazard.  It only corrupts a result when one warp
 * gets far enough ahead of another, so how many outputs go wrong - and
 * whether a run is hit at all - changes from run to run: the kind of bug
 * that passes a test once and fails the next time.
 *
 * The fixed kernel has both barriers: one after loading a tile (so nobody
 * reads it early) and one after using it (so nobody overwrites it early).
 *
 * Input: n x n matrices, n = 1024 (--n changes it; a multiple of 32), with
 * small integer values, so the float results are exact and any difference
 * from the CPU's answer is the race, not rounding.
 */
// DEMO: tiled matmul without the second __syncthreads() (lab 10)
// RACE: shared
// WHY: A shared tile that is reused needs a barrier after its last read, not only after its
// WHY: write. Without the second __syncthreads() a fast warp loads the next tile over the one
// WHY: slower warps are still reading (write-after-read).
#include "demo_common.h"

#define TILE 32

__global__ void matmul_racy(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col]; /* RACE: others may still read the previous Bs */
        __syncthreads(); /* the tiles are loaded before anyone uses them */
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        /* MISSING: __syncthreads();  -- everyone is done with the tiles before the next load */
    }
    C[row * n + col] = sum;
}

__global__ void matmul_fixed(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads(); /* the tiles are loaded before anyone uses them */
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads(); /* everyone is done with the tiles before the next load */
    }
    C[row * n + col] = sum;
}

int main(int argc, char **argv)
{
    demo_args a = demo_start(argc, argv, 12);
    int n = a.once ? 128 : a.n ? (int)a.n : 1024;
    if (n % TILE || n > 2048) {
        fprintf(stderr, "%s: --n must be a multiple of %d, at most 2048 (the CPU check is n cubed)\n", a.prog, TILE);
        return 2;
    }
    size_t nn = (size_t)n * n;

    /* values 0..3: every product and sum is a small integer, exact in float */
    float *A = (float *)demo_alloc(nn * sizeof(float)), *B = (float *)demo_alloc(nn * sizeof(float));
    float *C = (float *)demo_alloc(nn * sizeof(float));
    int *ref = (int *)demo_alloc(nn * sizeof(int));
    unsigned long long seed = 404;
    for (size_t i = 0; i < nn; i++) {
        A[i] = (float)(demo_rand(&seed) % 4);
        B[i] = (float)(demo_rand(&seed) % 4);
    }
    memset(ref, 0, nn * sizeof(int));
    for (int i = 0; i < n; i++) /* i-k-j order: the inner loop runs along rows */
        for (int k = 0; k < n; k++) {
            int aik = (int)A[(size_t)i * n + k];
            const float *brow = B + (size_t)k * n;
            int *crow = ref + (size_t)i * n;
            for (int j = 0; j < n; j++)
                crow[j] += aik * (int)brow[j];
        }

    float *d_A, *d_B, *d_C;
    CUDA_CHECK(cudaMalloc(&d_A, nn * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_B, nn * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_C, nn * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_A, A, nn * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_B, B, nn * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
    for (int run = 0; run < a.runs; run++) {
        CUDA_CHECK(cudaMemset(d_C, 0, nn * sizeof(float)));
        if (a.racy)
            matmul_racy<<<grid, block>>>(d_A, d_B, d_C, n);
        else
            matmul_fixed<<<grid, block>>>(d_A, d_B, d_C, n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaMemcpy(C, d_C, nn * sizeof(float), cudaMemcpyDeviceToHost));
        long long wrong = 0;
        for (size_t i = 0; i < nn; i++)
            wrong += C[i] != (float)ref[i];
        if (wrong)
            demo_run(&a, 1, "%9s of %s outputs wrong", demo_num(wrong), demo_num((long long)nn));
        else
            demo_run(&a, 0, "all %s outputs right", demo_num((long long)nn));
    }

    CUDA_CHECK(cudaFree(d_A));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_C));
    free(A);
    free(B);
    free(C);
    free(ref);
    return demo_end(&a);
}
