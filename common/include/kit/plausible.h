/* plausible.h - is a timed result possible on this GPU?
 *
 * Whatever made a time too short - work left running where the timing did not
 * look, a remembered result, a broken clock - the time it implies must be
 * possible: the least work one call must do (bytes it must read and write,
 * floating-point operations it must compute), divided by its time, cannot be
 * far above what the device can do.  The limits: a device-to-device copy of
 * as many bytes, measured in the same run (it sees the same caches: a call
 * whose data fits in L2 is compared with a copy that fits too), or the
 * memory's peak if higher; FP32 peak FLOP/s (SMs x FP32 lanes x 2 x clock).
 * KIT_PLAUSIBLE_MARGIN above them is refused: a kernel can beat
 * cudaMemcpy a little (it reads more than it writes), never by that much,
 * while the cheats seen went 17x and 20x over.
 */
#ifndef KIT_PLAUSIBLE_H
#define KIT_PLAUSIBLE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define KIT_PLAUSIBLE_MARGIN 2.0

typedef struct {
    double ms;          /* the time of one call */
    double bytes;       /* bytes one call must read and write at the least; 0: not declared */
    double flops;       /* floating-point operations one call must do; 0: not declared */
    double copy_gbs;    /* measured device-to-device copy of `bytes` (read + written); 0: unknown */
    double dram_gbs;    /* the memory's peak bandwidth; 0: unknown */
    double peak_gflops; /* FP32 peak; 0: unknown */
} kit_plausible_in;

/* 1 when the time implies more than KIT_PLAUSIBLE_MARGIN times what the
 * device can do (why: one sentence saying the throughput, the limit and that
 * the time is refused), 0 when it is possible or nothing is known to judge it
 * by (why: ""). */
int kit_timing_implausible(const kit_plausible_in *in, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
