/* check_fields.c - a call's answer, field by field, against the reference
 * the lab's checker asks for itself (kit_check.fields, kit/check_driver.h):
 * lab01's query_device against cudaGetDeviceProperties.  Each field is its
 * own record; a wrong one is named with both values, and one the call never
 * set is recognised by the harness's 0xFF poison (-1, or a 0xFF first byte). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_fields.h"
#include "kit/util.h"

/* The records of the fields: 1 when all are there (the missing ones named). */
static int fetch_all(kit_check_ctx *ctx, const kit_check *lab, const void **got, char **text)
{
    int all = 1;
    for (int i = 0; i < KIT_CHECK_MAX_FIELDS && lab->fields.f[i].name; i++) {
        const kit_check_field *f = &lab->fields.f[i];
        if (f->type == KIT_T_TEXT && !(text[i] = kit_blob_text(ctx->out, f->name)))
            kit_fail(ctx, "output '%s' missing", f->name);
        else if (f->type != KIT_T_TEXT)
            got[i] = kit_expect_array(ctx, f->name, f->type, 1, NULL);
        all &= text[i] || got[i];
    }
    return all;
}

/* Text field f: the string got against the reference's. */
static void compare_text(kit_check_ctx *ctx, const kit_check *lab, const kit_check_field *f, const char *got,
                         const char *want)
{
    char shown[72];
    if (!strcmp(got, want))
        return;
    kit_quote(shown, sizeof shown, got, strlen(got));
    if ((unsigned char)got[0] == 0xFF)
        kit_fail(ctx, "%s: %s was never set, %s says '%s'", lab->fields.call, f->what, lab->fields.source, want);
    else
        kit_fail(ctx, "%s: %s is '%s', %s says '%s'", lab->fields.call, f->what, shown, lab->fields.source, want);
}

/* Int field f (I32 or I64): got against the reference's. */
static void compare_int(kit_check_ctx *ctx, const kit_check *lab, const kit_check_field *f, const void *got,
                        const char *ref)
{
    long long g = 0, w = 0;
    if (f->type == KIT_T_I32) {
        int32_t v;
        memcpy(&v, ref + f->offset, sizeof v);
        g = *(const int32_t *)got, w = v;
    } else {
        int64_t v;
        memcpy(&v, ref + f->offset, sizeof v);
        g = *(const int64_t *)got, w = v;
    }
    if (g != w)
        kit_fail(ctx, "%s: %s is %lld, %s says %lld%s", lab->fields.call, f->what, g, lab->fields.source, w,
                 g == -1 ? " (never set: still the kit's fill value)" : "");
}

void kit_check_fields(kit_check_ctx *ctx, const kit_check *lab)
{
    const void *got[KIT_CHECK_MAX_FIELDS] = {0};
    char *text[KIT_CHECK_MAX_FIELDS] = {0}, err[256] = "";
    char *ref = kit_xmalloc(lab->fields.size ? lab->fields.size : 1, "the reference");
    memset(ref, 0, lab->fields.size);
    int ready = fetch_all(ctx, lab, got, text); /* else the missing ones are named, nothing compared */
    int known = ready && lab->fields.truth(ref, err, sizeof err) == 0;
    if (ready && !known)
        kit_fail(ctx, lab->fields.no_truth, err);
    for (int i = 0; known && i < KIT_CHECK_MAX_FIELDS && lab->fields.f[i].name; i++) {
        const kit_check_field *f = &lab->fields.f[i];
        if (f->type == KIT_T_TEXT)
            compare_text(ctx, lab, f, text[i], ref + f->offset);
        else
            compare_int(ctx, lab, f, got[i], ref);
    }
    for (int i = 0; i < KIT_CHECK_MAX_FIELDS; i++)
        free(text[i]);
    free(ref);
}
