/* kitconf.h - how this kit was built: build/kit.ini, written by make.
 *
 * The grader compiles submissions with exactly the flags, architecture list
 * and libraries the Makefile used for the kit's own objects, so both halves
 * of a runner agree.
 */
#ifndef GRADER_KITCONF_H
#define GRADER_KITCONF_H
#include <stddef.h>

typedef struct {
    char kit_root[1024];
    char build_dir[1024];
    char nvcc[1024];
    char cuda_home[1024];
    char cuda_arch[256];
    char arch_flags[1024];
    char nvcc_flags[2048];
    char link_flags[2048];
    int cupti;
    char compute_sanitizer[1024];
    char kit_devices[1024];
    char kit_version[64];   /* git describe (or VERSION) when make wrote kit.ini; "" if unknown */
    char ncu[1024];         /* Nsight Compute's command line tool; "" when not found (profiles only) */
} kit_conf;

/* Loads BUILD/kit.ini.  Returns 0, or -1 with a reason ("run make first"). */
int kitconf_load(const char *path, kit_conf *c, char *err, size_t errlen);

#endif
