/* check_map.c - an output that is an exact map of the data's u32 words
 * (kit_check_output.map, kit/check_driver.h): each element checked is
 * recomputed from its own input word alone, so no reference array is made
 * and a case too large to recompute whole is sampled where wrong elements
 * gather - at both ends and around the boundaries of an even split (lab11's
 * chunks: the last one not copied back, an off-by-one at a chunk's edge) -
 * and at random. */
#include <string.h>

#include "check_map.h"
#include "kit/rng.h"

typedef struct {
    const kit_check_output *o;
    const void *data;
    const uint32_t *in, *got;
    long long n;
    kit_check_wrong w;
} map_run;

/* Element i against the image of its word; the first wrong one kept. */
static void judge(map_run *m, long long i)
{
    uint32_t word = m->in[i], want = m->o->map.of ? m->o->map.of(m->data, word) : word;
    if (m->got[i] == want || m->w.bad++)
        return;
    m->w.at = i, m->w.got = m->got[i], m->w.want = want;
    m->w.unwritten = m->o->poison == KIT_POISON_COMPLEMENT && m->got[i] == ~word;
}

/* The sample, in this order (the first wrong element met is the one named),
 * each place counted as checked: the first and last `edge`, the 4 around
 * each boundary of an even split into `parts`, `random` ones drawn from the
 * case's seed (a failure reproduces with it). */
static void sample(map_run *m, int parts, uint64_t seed)
{
    const kit_check_output *o = m->o;
    long long n = m->n;
    for (long long i = 0; i < o->map.edge && i < n; i++, m->w.checked += 2) {
        judge(m, i);
        judge(m, n - 1 - i);
    }
    for (int c = 1; c < parts; c++) {
        long long b = n * c / parts;
        for (long long i = b - 2; i <= b + 1; i++, m->w.checked++)
            if (i >= 0 && i < n)
                judge(m, i);
    }
    kit_rng r;
    kit_rng_seed(&r, seed, (uint64_t)o->map.stream);
    for (int s = 0; s < o->map.random; s++, m->w.checked++)
        judge(m, (long long)(kit_rng_u64(&r) % (uint64_t)n));
}

int kit_check_map(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const kit_check_output *o = g->out;
    map_run m = {o, data, NULL, (const uint32_t *)g->got, (long long)g->count, {o, 0, 0, 0, 0, 0, 0}};
    memcpy(&m.in, (const char *)data + o->map.in - 1, sizeof m.in);
    long long work = m.n * (1 + (long long)kit_field_int(data, o->map.cost_of));
    if (!o->map.full_max || work <= o->map.full_max) {
        for (long long i = 0; i < m.n; i++)
            judge(&m, i);
        m.w.checked = m.n;
    } else { /* work > full_max > 0: n > 0 */
        sample(&m, kit_field_int(data, o->map.parts_of), ctx->seed);
    }
    if (m.w.bad)
        o->map.wrong(ctx, data, &m.w);
    return m.w.bad == 0;
}
