/* kitconf.c - reads build/kit.ini (see kitconf.h). */
#include "model/kitconf.h"

#include <ini.h>
#include <stdio.h>
#include <string.h>

static int handler(void *user, const char *section, const char *name, const char *value)
{
    kit_conf *c = user;
    if (strcmp(section, "build"))
        return 1;
#define FIELD(key, dst)                                                                               \
    if (!strcmp(name, key)) {                                                                         \
        snprintf(dst, sizeof dst, "%s", value);                                                      \
        return 1;                                                                                     \
    }
#define APPEND(key, dst)                                                                              \
    if (!strcmp(name, key)) {                                                                         \
        size_t used = strlen(dst);                                                                    \
        snprintf(dst + used, sizeof dst - used, "%s%s", used ? " " : "", value);                      \
        return 1;                                                                                     \
    }
    FIELD("kit_root", c->kit_root)
    FIELD("build_dir", c->build_dir)
    FIELD("nvcc", c->nvcc)
    FIELD("cuda_home", c->cuda_home)
    FIELD("cuda_arch", c->cuda_arch)
    /* Flags come one per line (inih's line limit); they accumulate. */
    APPEND("arch_flag", c->arch_flags)
    APPEND("nvcc_flag", c->nvcc_flags)
    APPEND("link_flag", c->link_flags)
    FIELD("compute_sanitizer", c->compute_sanitizer)
    FIELD("kit_devices", c->kit_devices)
    FIELD("kit_version", c->kit_version)
    FIELD("ncu", c->ncu)
#undef FIELD
#undef APPEND
    if (!strcmp(name, "cupti"))
        c->cupti = !strcmp(value, "yes");
    return 1; /* unknown keys: written by a newer Makefile; ignore */
}

int kitconf_load(const char *path, kit_conf *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    int rc = ini_parse(path, handler, c);
    if (rc < 0) {
        snprintf(err, errlen, "%s not found: build the kit first (run 'make' in the kit's folder)", path);
        return -1;
    }
    if (rc > 0) {
        snprintf(err, errlen, "%s:%d: malformed line (delete it and run 'make')", path, rc);
        return -1;
    }
    if (!c->nvcc[0] || !c->build_dir[0] || !c->kit_root[0]) {
        snprintf(err, errlen, "%s is incomplete: run 'make' again", path);
        return -1;
    }
    return 0;
}
