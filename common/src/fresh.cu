/* fresh.cu - fresh contents for timed calls (see fresh.cuh). */
#include <math.h>

#include "kit/fresh.cuh"

kit_fresh kit_fresh_draw(kit_rng *r, int64_t n)
{
    kit_fresh f;
    f.shift = kit_rng_range(r, 0, n - 1);
    int e = (int)kit_rng_range(r, -8, 8);
    f.scale = ldexp(kit_rng_range(r, 0, 1) ? 1.0 : -1.0, e);
    return f;
}

__global__ void kit_fresh_kernel(const float *src, float *dst, int64_t n, int64_t shift, float scale)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = scale * src[(i + shift) % n];
}

void kit_fresh_apply(const float *src, float *dst, int64_t n, kit_fresh f)
{
    if (n > 0)
        kit_fresh_kernel<<<1024, 256>>>(src, dst, n, f.shift, (float)f.scale);
}
