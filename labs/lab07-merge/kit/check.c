/* check.c - lab07 checker: merges and co-ranks against the CPU's stable merge.
 *
 * Everything here is exact (integers).  The reference is kit_ref_merge_i32,
 * whose `src` says where each output element came from (i for A[i], m + j
 * for B[j]):
 *  - ints:     C must equal the reference, element by element;
 *  - records:  the keys must equal the reference and every tag must equal
 *              src (the harness tagged A[i] with i and B[j] with m + j), so
 *              a merge that puts B's element first on a tie fails;
 *  - co-rank:  co_rank(k) must be the number of A's elements among the
 *              first k outputs of the stable merge.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "kit/check_driver.h"
#include "kit/ref.h"
#include "kit/util.h"

/* The case's inputs and the stable merge of A and B, made once for every
 * output and the timed calls. */
typedef struct {
    lab07_data d;
    int fn;        /* op=merge: 1 + impl=tiled + 2 type=rec (which function's C); op=corank: 0 */
    int read;      /* evidence (manifest): the 4-byte words the kernels must read */
    int32_t *c;    /* the stable merge */
    uint32_t *src; /* where c[k] came from */
} reference;

static void describe_origin(const lab07_data *d, uint32_t tag, char *buf, size_t len)
{
    if (tag < (uint32_t)d->m)
        snprintf(buf, len, "A[%u]", tag);
    else if (tag < (uint32_t)d->m + (uint32_t)d->n)
        snprintf(buf, len, "B[%u]", tag - (uint32_t)d->m);
    else
        snprintf(buf, len, "nowhere (tag %d)", (int32_t)tag);
}

/* Keys are right (the tags are checked after them); every tag must say the
 * element came from where the stable merge takes it. */
static void check_tags(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const reference *ref = data;
    const int32_t *tag = g->got;
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < (size_t)ref->d.total; k++)
        if ((uint32_t)tag[k] != ref->src[k] && !bad++)
            first = k;
    if (!bad)
        return;
    char got_s[48], exp_s[48];
    describe_origin(&ref->d, (uint32_t)tag[first], got_s, sizeof got_s);
    describe_origin(&ref->d, ref->src[first], exp_s, sizeof exp_s);
    kit_fail(ctx, "the merge is not stable: %zu of %zu outputs hold the right key from the wrong element; first "
                  "C[%zu] (key %d) came from %s, the stable merge takes %s there (on a tie A's element comes first)",
             bad, (size_t)ref->d.total, first, ref->c[first], got_s, exp_s);
}

/* Is i a split of k that is valid but unstable (it cuts a run of equal keys
 * at the wrong place)?  i.e. i + j = k within range, a[i-1] <= b[j] and
 * b[j-1] <= a[i] with at least one tie. */
static int unstable_split(const lab07_data *d, int k, int i)
{
    int j = k - i;
    if (i < 0 || i > d->m || j < 0 || j > d->n)
        return 0;
    int a_ok = i == 0 || j == d->n || d->a[i - 1] <= d->b[j];
    int b_ok = j == 0 || i == d->m || d->b[j - 1] <= d->a[i];
    return a_ok && b_ok;
}

static void check_corank(kit_check_ctx *ctx, const void *data, const kit_check_got *g)
{
    const reference *ref = data;
    const lab07_data *d = &ref->d;
    const int32_t *got = g->got;
    /* from_a[k] = how many of the first k outputs come from A */
    int32_t *from_a = kit_xmalloc(((size_t)ref->d.total + 1) * sizeof *from_a, "co-ranks");
    from_a[0] = 0;
    for (int k = 0; k < ref->d.total; k++)
        from_a[k + 1] = from_a[k] + (ref->src[k] < (uint32_t)d->m);
    int bad = 0, first = 0;
    for (int t = 0; t < d->nk; t++)
        if (got[t] != from_a[d->ks[t]] && !bad++)
            first = t;
    if (bad) {
        int k = d->ks[first], want = from_a[k];
        kit_fail(ctx, "co_rank_host is wrong for %d of %d values of k; first k=%d (m=%d, n=%d): returned i=%d, "
                      "expected i=%d, j=%d",
                 bad, d->nk, k, d->m, d->n, got[first], want, k - want);
        if (unstable_split(d, k, got[first]))
            kit_detail(ctx, "i=%d is a valid split, but not the stable one: it cuts a run of equal keys so that "
                            "B's element would come before an equal element of A",
                       got[first]);
    }
    free(from_a);
}

/* The inputs, then the stable merge every check compares with. */
static int generate(const kit_params *p, uint64_t seed, void *data, char *err, size_t errlen)
{
    reference *ref = data;
    const lab07_data *d = &ref->d;
    if (lab07_generate(p, seed, &ref->d, err, errlen) != 0)
        return -1;
    size_t total = (size_t)d->total;
    ref->fn = d->op == LAB07_MERGE ? 1 + d->tiled + 2 * d->is_rec : 0;
    /* a merge reads A and B (keys, and tags for records); co_rank reads only
     * O(log) elements per k, so there the ks are the input */
    ref->read = d->op == LAB07_CORANK ? d->nk : d->total * (d->is_rec ? 2 : 1);
    ref->c = kit_xmalloc((total ? total : 1) * sizeof *ref->c, "the reference merge");
    ref->src = kit_xmalloc((total ? total : 1) * sizeof *ref->src, "the reference merge");
    kit_ref_merge_i32(d->a, (size_t)d->m, d->b, (size_t)d->n, ref->c, ref->src);
    return 0;
}

static void release(void *data)
{
    reference *ref = data;
    free(ref->c);
    free(ref->src);
    lab07_free(&ref->d);
}

#define F(member) KIT_AT(reference, member)
#define C(fn_, function)                                                                                        \
    {LAB07_OUT_C, KIT_T_I32, .len_fmt = function ": C has %llu elements, expected m + n = %llu", .what = function, \
     .ref_of = F(c), .len_of = F(d.total), .when = KIT_WHEN(reference, fn, fn_), .poison = KIT_POISON(0xFF),     \
     .unwritten_where = 1, .shown_as = "C"}
/* The keys (the harness poisons C with -1: the last ones it still holds
 * where the merge has other keys are named), then a record merge's tags; or
 * the co-ranks.  A benchmark run sampled the output of a few timed int
 * merges (chosen at random as they happened, and the last) whose keys all
 * had an offset added (the shift): each sampled key must be the
 * reference's plus that offset, so an output left from an earlier call
 * fails. */
const kit_check KIT_CHECK = {
    sizeof(reference), generate, release, .input_of = F(read), .input_per = sizeof(int32_t),
    .out = {C(1, "merge_basic"), C(2, "merge_tiled"), C(3, "merge_basic_rec keys"), C(4, "merge_tiled_rec keys"),
            {LAB07_OUT_TAG, KIT_T_I32, .len_fmt = "tags: %llu elements, expected m + n = %llu", .after = check_tags,
             .len_of = F(d.total), .when = KIT_WHEN2(reference, d.op, LAB07_MERGE, d.is_rec, 1)},
            {LAB07_OUT_CORANK, KIT_T_I32, .len_fmt = "corank: %llu results, expected %llu", .after = check_corank,
             .len_of = F(d.nk), .when = KIT_WHEN(reference, d.op, LAB07_CORANK)}},
    .timed_offset = {"keys", "C", LAB07_TIMED_SAMPLE, KIT_WHEN2(reference, d.op, LAB07_MERGE, d.is_rec, 0)}};
