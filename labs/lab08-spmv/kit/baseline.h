/* baseline.h - lab08's kit-owned scalar SpMV (the timing baseline). */
#ifndef LAB08_BASELINE_H
#define LAB08_BASELINE_H
/* y = A x (CSR, device pointers) with one thread per row. */
void kit_spmv_scalar(int rows, const int *d_row_ptr, const int *d_col, const float *d_val, const float *d_x,
                     float *d_y);
#endif
