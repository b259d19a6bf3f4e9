/* check_map.h - the check driver's exact map of the data's u32 words
 * (check_map.c; kit/check_driver.h, kit_check_output.map).  Private to
 * common/src. */
#ifndef KIT_CHECK_MAP_H
#define KIT_CHECK_MAP_H
#include "kit/check_driver.h"

/* g (fetched, of its row's length) against its row's map: every element or
 * the sample; the row's wrong() says what was wrong.  1 when right. */
int kit_check_map(kit_check_ctx *ctx, const void *data, const kit_check_got *g);

#endif
