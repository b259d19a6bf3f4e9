/* baseline.h - lab11's kit-owned serialised version of process_streams (the
 * timing baseline of Part 2, and what `make run-lab11` compares against). */
#ifndef LAB11_BASELINE_H
#define LAB11_BASELINE_H
#include <stdint.h>
/* The same work in a row on the default stream: allocate, copy all of h_in
 * in, one kernel, copy all out, free - no overlap at all. */
void kit_process_serial(const uint32_t *h_in, uint32_t *h_out, int n, int rounds);
#endif
