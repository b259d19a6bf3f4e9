/* baseline.cu - lab07 timing baseline: the basic merge kernel.
 *
 * Part 1 of the lab (the classic co-rank merge, made stable): each thread
 * owns KIT_ITEMS consecutive outputs, finds where its slice starts and ends
 * in A and B with two co-rank binary searches over global memory, and merges
 * the slice reading A and B from global memory.  No shared memory: the tiled
 * version should beat it.
 */
#include <cuda_runtime.h>

#include "baseline.h"

#define KIT_THREADS 256
#define KIT_ITEMS 8

/* Largest i in [max(0,k-n), min(k,m)] with a[i-1] <= b[k-i]: the stable co-rank. */
__device__ static int kit_co_rank(int k, const int *a, int m, const int *b, int n)
{
    int lo = k > n ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        int i = lo + (hi - lo + 1) / 2;
        if (a[i - 1] > b[k - i])
            hi = i - 1;
        else
            lo = i;
    }
    return lo;
}

__global__ void kit_merge_basic_kernel(const int *a, int m, const int *b, int n, int *c)
{
    int total = m + n;
    long long k0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * KIT_ITEMS;
    if (k0 >= total)
        return;
    int k = (int)k0;
    int k_next = k + KIT_ITEMS < total ? k + KIT_ITEMS : total;
    int i = kit_co_rank(k, a, m, b, n), i_next = kit_co_rank(k_next, a, m, b, n);
    int j = k - i, j_next = k_next - i_next;
    /* serial merge of a[i..i_next) and b[j..j_next); ties take A first */
    while (i < i_next && j < j_next)
        c[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < i_next)
        c[k++] = a[i++];
    while (j < j_next)
        c[k++] = b[j++];
}

void kit_merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c)
{
    long long total = (long long)m + n;
    if (total <= 0)
        return;
    long long threads = (total + KIT_ITEMS - 1) / KIT_ITEMS;
    int blocks = (int)((threads + KIT_THREADS - 1) / KIT_THREADS);
    kit_merge_basic_kernel<<<blocks, KIT_THREADS>>>(d_a, m, d_b, n, d_c);
}
