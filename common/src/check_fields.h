/* check_fields.h - the check driver's part that holds a call's answer, field
 * by field, to the lab's reference (check_fields.c; kit/check_driver.h,
 * kit_check.fields).  Private to common/src. */
#ifndef KIT_CHECK_FIELDS_H
#define KIT_CHECK_FIELDS_H
#include "kit/check_driver.h"

/* kit_check.fields on the runner's outputs: fetched, compared, each wrong one failed. */
void kit_check_fields(kit_check_ctx *ctx, const kit_check *lab);

#endif
