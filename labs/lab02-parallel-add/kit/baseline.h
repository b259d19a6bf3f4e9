/* baseline.h - lab02's kit-owned yardstick: the device's own copy bandwidth. */
#ifndef LAB02_BASELINE_H
#define LAB02_BASELINE_H
#include <cuda_runtime_api.h>
/* Device-to-device cudaMemcpyAsync of as many bytes as c = a + b moves for n
 * floats: a -> c (n floats) then the first half of b -> c (n/2 floats), i.e.
 * 1.5 n floats read and 1.5 n written = 3 n floats of traffic, the same as
 * reading a and b and writing c.  Asynchronous, on the default stream.
 * Returns the first CUDA error (cudaSuccess when none). */
cudaError_t kit_copy_same_bytes(const float *d_a, const float *d_b, float *d_c, int n);
#endif
