/* labdir.c - where a lab's files are in the kit (see labdir.h). */
#include "model/labdir.h"

#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

int labdir_path(char *out, size_t len, const char *kit_root, const char *name, const char *part)
{
    return fmt_into(out, len, "%s%slabs/%s%s%s", kit_root, kit_root[0] ? "/" : "", name, part[0] ? "/" : "", part);
}

void labdir_name_of_manifest(const char *manifest_path, char *out, size_t len)
{
    /* the folder two above the file: <name>/kit/manifest.ini */
    const char *end = strrchr(manifest_path, '/');
    while (end && end > manifest_path && end[-1] != '/')
        end--; /* the start of "kit/" */
    if (!end || end == manifest_path) {
        snprintf(out, len, "%s", "");
        return;
    }
    end--; /* the '/' before "kit" */
    const char *start = end;
    while (start > manifest_path && start[-1] != '/')
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), start);
}

void labdir_id_of_manifest(const char *manifest_path, char *out, size_t len)
{
    char name[256];
    labdir_name_of_manifest(manifest_path, name, sizeof name);
    snprintf(out, len, "%.*s", (int)strcspn(name, "-"), name);
}
