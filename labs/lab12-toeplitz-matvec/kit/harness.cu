/* harness.cu - lab12's declaration, as data (kit/lab_decl.cuh): B (padded
 * rows) and p on the GPU, u poisoned with NaN, one call of toeplitz_matvec,
 * "u" recorded (f32, nx*ny); bench mode times it on a fresh p against the
 * kit's global-memory kernel (the thesis's Algorithm 4.2).
 * `make run-lab12 P="... time=1"` prints the speedup.
 */
#include <stdio.h>

#include "baseline.h"
#include "dataset.h"
#include "kit/lab_decl.cuh"
#include "toeplitz_matvec.h"

KIT_LAB_DESCRIPTORS_OMIT_FIELDS

typedef struct {
    lab12_data d;
    float *d_b, *d_p, *d_u;
    float *d_u_kit; /* the baseline's output, when timing */
} inputs;

KIT_LAB_DATASET(inputs, lab12) /* generate and release: dataset.c */

KIT_LAB_INVOKE(inputs, student, toeplitz_matvec(in->d_b, in->d_p, in->d_u, in->d.nx, in->d.ny))
KIT_LAB_BASELINE(inputs, baseline, (kit_toeplitz_matvec_global(in->d_b, in->d_p, in->d_u_kit, in->d.nx, in->d.ny), 0))

/* show mode (make run-lab12), after the summary of u: the first and last
 * points of the first and last grid rows (the handout's "corners of u"). */
static int after(kit_run_ctx *ctx, void *s, int, void *const *host)
{
    const float *u = (const float *)host[0];
    int nx = ((const inputs *)s)->d.nx, ny = ((const inputs *)s)->d.ny;
    for (int iy = 0; ctx->show && iy < ny; iy = iy == 0 && ny > 1 ? ny - 1 : ny) {
        printf("  grid row %d:", iy);
        for (int ix = 0; ix < nx; ix = ix == 2 && nx > 6 ? nx - 3 : ix + 1)
            printf("%s u[%d] = %.7g", ix == nx - 3 && nx > 6 ? " ..." : "", iy * nx + ix, u[(size_t)iy * nx + ix]);
        printf("\n");
    }
    return 0;
}

#define F(member) KIT_AT(inputs, member)
static const kit_lab_decl DECL = {
    .bufs = {{F(d_b), KIT_T_F32, F(d.b_count), F(d.b)},
             {F(d_p), KIT_T_F32, F(d.n), F(d.p)},
             {F(d_u), KIT_T_F32, F(d.n)},
             {F(d_u_kit), KIT_T_F32, F(d.n), .stage = KIT_LAB_TIMING}},
    /* u is NaN (0xFF bytes) where the student writes nothing */
    .calls = {{"toeplitz_matvec", student, .out = {{LAB12_OUT_U, KIT_T_F32, F(d_u), F(d.n), KIT_POISON(0xFF)}}}},
    /* p fresh (rotated, scaled) each call, B read by every call too; 2 (nx ny)^2 flops: the thesis's
     * measure (a multiply and an add per entry of A) */
    .timed = {KIT_FRESH_ROTATE_SCALE, {F(d_p)}, .sample = LAB12_TIMED_SAMPLE, .flops_per = 2,
              .flops_of = {F(d.n), F(d.n)}},
    .metrics = {{"toeplitz_matvec GFLOP/s (2 (nx ny)^2 flops)", F(d.n), 2, 0, F(d.n)},
                {"the global-memory kernel, GFLOP/s", F(d.n), 2, 1, F(d.n)}},
    .show_time = {"the kit's global-memory kernel", 2, 5},
};

const kit_lab KIT_LAB = {.tag = "lab12", .state_size = sizeof(inputs), .generate = generate, .release = release,
                         .after = after, .baseline = baseline, .decl = &DECL};
