/* plausible.c - the plausibility check of a timed result (see plausible.h). */
#include <stdio.h>

#include "kit/plausible.h"

/* "805.3 MB", "16.4 GFLOP" */
static void amount(double v, const char *unit, char *out, size_t len)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P"};
    int p = 0;
    while (v >= 1000 && p < 5)
        v /= 1000, p++;
    snprintf(out, len, "%.1f %s%s", v, prefix[p], unit);
}

int kit_timing_implausible(const kit_plausible_in *in, char *why, size_t len)
{
    why[0] = 0;
    if (!(in->ms > 0))
        return 0; /* no time: the run says why elsewhere */
    double s = in->ms / 1e3;
    double roof = in->copy_gbs > in->dram_gbs ? in->copy_gbs : in->dram_gbs;
    if (in->bytes > 0 && roof > 0 && in->bytes / s / 1e9 > KIT_PLAUSIBLE_MARGIN * roof) {
        char b[32];
        amount(in->bytes, "B", b, sizeof b);
        snprintf(why, len,
                 "timing refused: reading and writing at least %s in %.4f ms is %.0f GB/s, more than %.0fx what this "
                 "GPU can move (%.0f GB/s, %s): the timed calls cannot have done their work in the time measured "
                 "(work that ran outside the timed region?), so they earn no performance credit",
                 b, in->ms, in->bytes / s / 1e9, KIT_PLAUSIBLE_MARGIN, roof,
                 roof == in->copy_gbs ? "a device-to-device copy of as many bytes, measured in this run"
                                      : "its memory's peak bandwidth");
        return 1;
    }
    if (in->flops > 0 && in->peak_gflops > 0 && in->flops / s / 1e9 > KIT_PLAUSIBLE_MARGIN * in->peak_gflops) {
        char f[32];
        amount(in->flops, "FLOP", f, sizeof f);
        snprintf(why, len,
                 "timing refused: %s in %.4f ms is %.1f TFLOP/s, more than %.0fx this GPU's FP32 peak (%.1f TFLOP/s): "
                 "the timed calls cannot have done their work in the time measured (work that ran outside the timed "
                 "region?), so they earn no performance credit",
                 f, in->ms, in->flops / s / 1e12, KIT_PLAUSIBLE_MARGIN, in->peak_gflops / 1e3);
        return 1;
    }
    return 0;
}
