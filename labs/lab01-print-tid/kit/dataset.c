/* dataset.c - lab01 case parameters (see dataset.h). */
#include "dataset.h"

#include <stdio.h>
#include <string.h>

int lab01_generate(const kit_params *p, uint64_t seed, lab01_data *c, char *err, size_t errlen)
{
    (void)seed; /* no input data */
    memset(c, 0, sizeof *c);
    if (kit_params_only(p, "blocks threads part", err, errlen) != 0)
        return -1;
    int ok = 1;
    long long blocks = kit_params_ll(p, "blocks", 2, &ok);
    long long threads = kit_params_ll(p, "threads", 3, &ok);
    const char *part = kit_params_get(p, "part", "all");
    if (!ok || blocks < 1 || threads < 1) {
        snprintf(err, errlen, "blocks and threads must be whole numbers >= 1 (got blocks=%s threads=%s)",
                 kit_params_get(p, "blocks", "2"), kit_params_get(p, "threads", "3"));
        return -1;
    }
    if (threads > LAB01_MAX_THREADS_PER_BLOCK) {
        snprintf(err, errlen, "threads=%lld: a block has at most %d threads", threads, LAB01_MAX_THREADS_PER_BLOCK);
        return -1;
    }
    if (blocks * threads > LAB01_MAX_THREADS) {
        snprintf(err, errlen,
                 "blocks * threads = %lld: this lab prints one line per thread, at most %d lines in all",
                 blocks * threads, LAB01_MAX_THREADS);
        return -1;
    }
    c->blocks = (int)blocks;
    c->threads = (int)threads;
    c->do_tids = !strcmp(part, "tids") || !strcmp(part, "all");
    c->do_query = !strcmp(part, "query") || !strcmp(part, "all");
    if (!c->do_tids && !c->do_query) {
        snprintf(err, errlen, "part must be tids, query or all (got '%s')", part);
        return -1;
    }
    return 0;
}

void lab01_free(lab01_data *c) { (void)c; }

int lab_params_validate(const kit_params *p, char *err, size_t errlen)
{
    lab01_data c;
    return lab01_generate(p, 0, &c, err, errlen);
}
