/* check_launch_lines.h - the check driver's part that judges the lines a
 * call printed, one per thread of its launch (check_launch_lines.c;
 * kit/check_driver.h, kit_check.lines).  Private to common/src. */
#ifndef KIT_CHECK_LAUNCH_LINES_H
#define KIT_CHECK_LAUNCH_LINES_H
#include "kit/check_driver.h"

/* kit_check.lines on the runner's stdout and trace: each mistake failed. */
void kit_check_launch_lines(kit_check_ctx *ctx, const kit_check *lab, const void *data);

#endif
