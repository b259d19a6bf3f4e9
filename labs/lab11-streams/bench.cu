/* lab11 bench: process_streams against the copy roof of its transfers
 * (no library does this job: the peer is the pinned copies alone, H2D and
 * D2H at once on two streams, no kernel - no overlapped version can beat it). */
#include "baseline.h"
#include "bench.cuh"
#include "transfer.h"
#include "kit/rng.h"
#include <string.h>

typedef void (*streams_fn)(const uint32_t *, uint32_t *, int, int, int, int);

typedef struct {
    streams_fn fn; /* NULL: the baseline */
    const uint32_t *h_in;
    uint32_t *h_out;
    int n, rounds, chunks, streams;
    const uint32_t *want;
    /* the roof's */
    uint32_t *d_in, *d_out;
    cudaStream_t s[2];
    cudaEvent_t joined;
} st_arg;

static void call_fn(void *p)
{
    st_arg *x = (st_arg *)p;
    if (x->fn)
        x->fn(x->h_in, x->h_out, x->n, x->rounds, x->chunks, x->streams);
    else
        kit_process_serial(x->h_in, x->h_out, x->n, x->rounds);
}

static void call_roof(void *p)
{
    st_arg *x = (st_arg *)p;
    size_t bytes = (size_t)x->n * sizeof(uint32_t);
    BENCH_CUDA(cudaMemcpyAsync(x->d_in, x->h_in, bytes, cudaMemcpyHostToDevice, x->s[0]));
    BENCH_CUDA(cudaMemcpyAsync(x->h_out, x->d_out, bytes, cudaMemcpyDeviceToHost, x->s[1]));
    BENCH_CUDA(cudaStreamSynchronize(x->s[0]));
    BENCH_CUDA(cudaStreamSynchronize(x->s[1]));
}

static void poison(void *p)
{
    st_arg *x = (st_arg *)p;
    memset(x->h_out, 0xa5, (size_t)x->n * sizeof(uint32_t));
}

static const char *check(void *p)
{
    st_arg *x = (st_arg *)p;
    for (int i = 0; i < x->n; i++)
        if (x->h_out[i] != x->want[i])
            return bench_cmp_scalar(x->h_out[i], x->want[i], 0);
    return NULL;
}

int main(int argc, char **argv)
{
    bench_start(argc, argv, "lab11-streams");
    streams_fn stu = (streams_fn)bench_fn(BENCH_STUDENT, "_Z15process_streamsPKjPjiiii");
    streams_fn ref = (streams_fn)bench_fn(BENCH_REFERENCE, "_Z15process_streamsPKjPjiiii");
    bench_gpu();
    const int n = 1 << 25, chunks = 16, streams = 4, rounds_list[] = {8, 64};
    size_t bytes = (size_t)n * sizeof(uint32_t);
    uint32_t *h_in, *outs[4];
    BENCH_CUDA(cudaMallocHost(&h_in, bytes));
    for (int i = 0; i < 4; i++)
        BENCH_CUDA(cudaMallocHost(&outs[i], bytes));
    kit_rng r;
    kit_rng_seed(&r, 0xbe9c4ULL, 11);
    for (int i = 0; i < n; i++)
        h_in[i] = (uint32_t)kit_rng_u64(&r);
    uint32_t *want = (uint32_t *)bench_host(bytes);
    for (int rounds : rounds_list) {
        for (int i = 0; i < n; i++)
            want[i] = lab11_mix(h_in[i], rounds);
        st_arg args[4];
        streams_fn fns[4] = {NULL, stu, ref, NULL};
        for (int i = 0; i < 4; i++)
            args[i] = (st_arg){fns[i], h_in, outs[i], n, rounds, chunks, streams, want, NULL, NULL, {0, 0}, NULL};
        st_arg *roof = &args[0];
        roof->d_in = (uint32_t *)bench_malloc(bytes);
        roof->d_out = (uint32_t *)bench_malloc(bytes);
        BENCH_CUDA(cudaStreamCreateWithFlags(&roof->s[0], cudaStreamNonBlocking));
        BENCH_CUDA(cudaStreamCreateWithFlags(&roof->s[1], cudaStreamNonBlocking));
        bench_row rows[4] = {bench_make("copy roof (pinned H2D || D2H, no kernel)", call_roof, &args[0], NULL, 1)};
        int k = 1;
        k += bench_add_both(&rows[k], "", (void *)stu, (void *)ref, call_fn, &args[1], &args[2], check, poison);
        rows[k++] = bench_make("baseline (kit_process_serial)", call_fn, &args[3], check, 0, poison);
        bench_case c = {"", 0, 0};
        snprintf(c.title, sizeof c.title,
                 "n = %s words, %d mix rounds, %d chunks on %d streams (x library: fraction of the copy roof)",
                 bench_size(n), rounds, chunks, streams);
        bench_case_run(&c, rows, k);
        bench_free(roof->d_in);
        bench_free(roof->d_out);
        cudaStreamDestroy(roof->s[0]);
        cudaStreamDestroy(roof->s[1]);
    }
    cudaFreeHost(h_in);
    for (int i = 0; i < 4; i++)
        cudaFreeHost(outs[i]);
    free(want);
    return bench_finish();
}
