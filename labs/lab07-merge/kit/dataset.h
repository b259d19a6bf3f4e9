/* dataset.h - lab07 inputs, generated identically by the runner and the checker.
 *
 * Parameters:  m, n   sizes of A and B (>= 0, m + n <= 2^28)
 *              op     merge (default) | corank: call co_rank_host on the host
 *                     for a list of k (every k in [0, m+n] when m+n < 4096,
 *                     else 0, m, n, m+n and 4092 random k)
 *              impl   basic (default) | tiled   which merge is called
 *              type   int (default) | rec       ints, or records {key, tag}
 *                     with tag = i for A[i] and m + j for B[j]
 *              dist   how A and B are drawn (each sorted ascending):
 *                uniform       both uniform in [-10^9, 10^9]: interleaved (default)
 *                ties          both uniform in [0, R], R = max(3, (m+n)/16):
 *                              runs of equal keys spread over both arrays
 *                equal         every element of both arrays is one random value
 *                disjoint      A in [-10^9, -1], B in [0, 10^9]: all of A first
 *                disjoint-rev  A in [0, 10^9], B in [-10^9, -1]: all of B first
 */
#ifndef LAB07_DATASET_H
#define LAB07_DATASET_H
#include <stddef.h>
#include <stdint.h>
#include "kit/params.h"
#ifdef __cplusplus
extern "C" {
#endif

#define LAB07_MAX_TOTAL (1LL << 28)
#define LAB07_ALL_K_BELOW 4096 /* op=corank: every k when m + n is smaller */
#define LAB07_SAMPLED_K 4096   /* op=corank: how many k otherwise */

typedef enum { LAB07_MERGE, LAB07_CORANK } lab07_op;

/* The outputs, as harness.cu writes them and check.c reads them (i32, m + n
 * each, or one per k): the merge's keys (op=merge), a record merge's tags
 * (op=merge type=rec: keys and tags), the co-ranks (op=corank). */
#define LAB07_OUT_C "c"
#define LAB07_OUT_TAG "tag"
#define LAB07_OUT_CORANK "corank"

/* Outputs of a benchmark run besides c: for a few timed int merges, the
 * offset added to every key of A and B (keys stay within [-2*10^9, 2*10^9])
 * and LAB07_TIMED_SAMPLE sampled output keys (index, value) each, under the KIT_KEY_TIMED_* names
 * (kit/protocol.h, kit/timed.h; see harness.cu). */
#define LAB07_TIMED_SAMPLE 4096

typedef struct {
    lab07_op op;
    int tiled;   /* impl=tiled */
    int is_rec;  /* type=rec */
    int m, n;
    int total;      /* m + n, C's length (int: the descriptors' counts, kit/field.h) */
    int32_t *a, *b; /* the keys (sorted) */
    int nk;         /* op=corank: the k to ask for */
    int32_t *ks;
} lab07_data;

int lab07_generate(const kit_params *p, uint64_t seed, lab07_data *d, char *err, size_t errlen);
void lab07_free(lab07_data *d);

#ifdef __cplusplus
}
#endif
#endif
