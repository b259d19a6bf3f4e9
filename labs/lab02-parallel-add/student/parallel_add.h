/* parallel_add.h - lab02: the functions the kit's harness calls.  Do not
 * change this file: the grader uses its own copy.
 *
 * Both compute c[i] = a[i] + b[i] for 0 <= i < n, n >= 0, with your own kernel.
 */
#ifndef LAB02_PARALLEL_ADD_H
#define LAB02_PARALLEL_ADD_H

/* Part 1 - the whole round trip.  h_a, h_b and h_c are HOST pointers (plain
 * malloc'd memory) to n floats each.  Allocate device memory, copy a and b
 * to the GPU, launch your kernel, copy c back into h_c, free the device
 * memory.  Check every CUDA call.  n may be larger than any one block. */
void vector_add(const float *h_a, const float *h_b, float *h_c, int n);

/* Part 2 - the kernel alone (it is what the performance test times).  d_a,
 * d_b and d_c are DEVICE pointers to n floats each, already allocated and
 * filled by the harness.  Launch your kernel and return; no copies, no
 * allocation.  Exercise 2: each thread adds several elements, and no two
 * threads add the same one. */
void vector_add_device(const float *d_a, const float *d_b, float *d_c, int n);

#endif
