/* lab_rules.c - the rules of a student call (lab_rules.h). */
#include <stdio.h>
#include <string.h>

#include "kit/blob.h"
#include "kit/lab_rules.h"
#include "kit/protocol.h"

#define C_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

int kit_lab_check_call(const kit_lab_call *c, char *err, size_t len)
{
    if (!c->name || !c->invoke) {
        snprintf(err, len, "a student call without %s", c->name ? "a function" : "a name");
        return -1;
    }
    if (c->n_out < 0 || c->n_out > KIT_LAB_MAX_OUTS) {
        snprintf(err, len, "call %s: %d outputs (0..%d)", c->name, c->n_out, KIT_LAB_MAX_OUTS);
        return -1;
    }
    for (int i = 0; i < c->n_out; i++) {
        const kit_lab_out *o = &c->out[i];
        const char *what = o->name ? o->name : "(unnamed)";
        if (o->poison != KIT_POISON_NONE && o->poison != KIT_POISON_COMPLEMENT && (o->poison & ~0xFF) != 0x100) {
            snprintf(err, len, "call %s: output '%s' declares no poison (KIT_POISON(byte) or KIT_POISON_NONE)",
                     c->name, what);
            return -1;
        }
        if (o->poison == KIT_POISON_COMPLEMENT && (!o->complement_of || kit_lab_out_stride(o) != 4)) {
            snprintf(err, len, "call %s: output '%s': a complement poison needs packed 4-byte elements and their "
                               "source", c->name, what);
            return -1;
        }
        if (!o->at || kit_type_size(o->type) == 0) {
            snprintf(err, len, "call %s: output '%s' has %s", c->name, what, o->at ? "no type" : "no buffer");
            return -1;
        }
        if (o->offset + kit_type_size(o->type) > kit_lab_out_stride(o)) {
            snprintf(err, len, "call %s: output '%s': offset %zu past its stride %zu", c->name, what, o->offset,
                     kit_lab_out_stride(o));
            return -1;
        }
        int f = kit_lab_out_first(c, i);
        if (f != i && (c->out[f].on_host != o->on_host || c->out[f].poison != o->poison ||
                       kit_lab_out_span(&c->out[f]) != kit_lab_out_span(o))) {
            snprintf(err, len, "call %s: outputs '%s' and '%s' share a buffer but not its size, side or poison",
                     c->name, c->out[f].name ? c->out[f].name : "(unnamed)", what);
            return -1;
        }
    }
    return 0;
}

int kit_lab_kernel_optional(const kit_lab_call *c)
{
    if (c->kernel_optional)
        return 1;
    for (int i = 0; i < c->n_out; i++)
        if (c->out[i].count > 0)
            return 0;
    return c->n_out > 0;
}

void kit_lab_complement(const kit_lab_out *o, void *dst)
{
    const uint32_t *src = (const uint32_t *)o->complement_of;
    uint32_t *d = (uint32_t *)dst;
    for (uint64_t i = 0; i < o->count; i++)
        d[i] = ~src[i];
}

size_t kit_lab_out_stride(const kit_lab_out *o) { return o->stride ? o->stride : kit_type_size(o->type); }

size_t kit_lab_out_span(const kit_lab_out *o) { return (o->count ? o->count : 1) * kit_lab_out_stride(o); }

size_t kit_lab_out_bytes(const kit_lab_out *o) { return o->count * kit_lab_out_stride(o); }

int kit_lab_out_first(const kit_lab_call *c, int i)
{
    for (int j = 0; j < i; j++)
        if (c->out[j].at == c->out[i].at)
            return j;
    return i;
}

void kit_lab_out_unpack(const kit_lab_out *o, const void *raw, void *packed)
{
    size_t size = kit_type_size(o->type), stride = kit_lab_out_stride(o);
    for (uint64_t k = 0; k < o->count; k++)
        memcpy((char *)packed + k * size, (const char *)raw + k * stride + o->offset, size);
}

void kit_lab_metric_key(const char *label, const char *fn, char *key, size_t len)
{
    const char *s = strstr(label, "%s");
    if (s)
        snprintf(key, len, "%s%.*s%s%s", KIT_KEY_METRIC_PREFIX, (int)(s - label), label, fn ? fn : "", s + 2);
    else
        snprintf(key, len, "%s%s", KIT_KEY_METRIC_PREFIX, label);
}

double kit_lab_metric_find(const kit_blobfile *b, const char *label)
{
    const char *fn = strstr(label, "%s");
    char key[256];
    kit_lab_metric_key(label, "", key, sizeof key); /* "%s" left empty: the key's two ends */
    if (!fn)
        return kit_blob_f64(b, key);
    size_t before = strlen(KIT_KEY_METRIC_PREFIX) + (size_t)(fn - label), name;
    for (int i = 0; i < kit_blob_count(b); i++) {
        const char *n = kit_blob_name(b, i);
        if (!strncmp(n, key, before) && (name = strspn(n + before, C_NAME_CHARS)) > 0 &&
            !strcmp(n + before + name, key + before))
            return kit_blob_f64(b, n);
    }
    return 0;
}
