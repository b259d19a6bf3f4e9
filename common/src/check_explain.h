/* check_explain.h - the check driver's part that says what a wrong output's
 * elements show (check_explain.c; kit/check_driver.h, kit_check_output's
 * poison, edge_of, mistake and note).  Private to common/src. */
#ifndef KIT_CHECK_EXPLAIN_H
#define KIT_CHECK_EXPLAIN_H
#include "kit/check_driver.h"

/* For g, compared and wrong (not of a wrong length): sets g->unwritten and
 * says, with kit_fail, the patterns its output row declares. */
void kit_check_explain(kit_check_ctx *ctx, const void *data, kit_check_got *g);

/* Element i of an integer array (I32, U32; I64 otherwise) as an int64_t. */
int64_t kit_check_int_at(kit_type type, const void *p, uint64_t i);

#endif
