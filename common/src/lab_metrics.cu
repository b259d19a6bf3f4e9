/* lab_metrics.cu - a lab's metrics as one list, its hooks' then its
 * table's (kit/lab.cuh): what the driver records in bench mode, and the
 * one make bench rates a call by.  Labels only: no CUDA, no timing. */
#include <string.h>

#include "kit/lab_decl.cuh"

/* The lab's metrics of its own hooks, before its table's. */
int kit_lab_hook_metrics(const kit_lab *lab)
{
    int n = 0;
    while (n < KIT_LAB_MAX_METRICS && lab->metrics[n].label)
        n++;
    return n;
}

const char *kit_lab_metric(const kit_lab *lab, int i, int *baseline)
{
    int h = kit_lab_hook_metrics(lab);
    if (i < h)
        return *baseline = lab->metrics[i].baseline, lab->metrics[i].label;
    const kit_decl_metric *m = lab->decl && i - h < KIT_LAB_MAX_METRICS ? &lab->decl->metrics[i - h] : NULL;
    return m && m->label ? (*baseline = m->baseline, m->label) : NULL;
}

const char *kit_lab_rate_label(const kit_lab *lab)
{
    const char *label;
    for (int gflops = 0, base; gflops < 2; gflops++)
        for (int i = 0; (label = kit_lab_metric(lab, i, &base)) != NULL; i++)
            if (!base && strstr(label, gflops ? "GFLOP/s" : "GB/s"))
                return label;
    return NULL;
}
