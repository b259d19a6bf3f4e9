/* lab05 bench (make bench; kit/bench.cuh): the cases, run
 * through the lab's own descriptor.  NVIDIA's libraries have no plain 1D
 * convolution of a float array: no library peer (KIT_BENCH.library NULL),
 * the yardstick is the copy roof, in + out.  The reference's
 * conv1d_halo_global (exercise 16) is one more row (variant=halo). */
#include <stdlib.h>

#include "kit/bench.cuh"
#include "conv1d.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

/* no library peer: the harness names these, nothing calls them */
void conv1d_tiled(const float *, float *, int, const float *, int) { abort(); }
void conv1d_tiled_int(const int *, int *, int, const int *, int) { abort(); }
void conv1d_halo_global(const float *, float *, int, const float *, int) { abort(); }

const kit_bench KIT_BENCH = {"convolution", NULL, "tiled", "(register tiling)", "baseline (kit_conv1d_global)",
                             {"type=float n=2^26 mask=5", "type=float n=2^26 mask=21", "type=float n=2^26 mask=31"},
                             {{BENCH_REFERENCE, "halo from global", "variant=halo"}}};
