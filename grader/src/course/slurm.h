/* slurm.h - a batch as one Slurm job array (see slurm.c). */
#ifndef GRADER_SLURM_H
#define GRADER_SLURM_H
#include "course/batch.h"

/* kitgrade slurm LAB SUBMISSIONS --out DIR ...: on the login node. */
int slurm_main(int argc, char **argv);
/* kitgrade batch --shard FILE (an array task) / --merge FILE (plan and merge). */
int slurm_batch_opts(const engine *e, const char *shard_file, const char *merge_file, batch_opts *o);
int slurm_batch_close(batch_opts *o);

#endif
