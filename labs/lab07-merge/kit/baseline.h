/* baseline.h - lab07's kit-owned basic merge (the timing baseline). */
#ifndef LAB07_BASELINE_H
#define LAB07_BASELINE_H
/* Stable merge of sorted d_a (m) and d_b (n) into d_c (m + n), device
 * pointers: every thread finds the co-ranks of its output slice by binary
 * search in global memory and merges the slice from global memory. */
void kit_merge_basic(const int *d_a, int m, const int *d_b, int n, int *d_c);
#endif
