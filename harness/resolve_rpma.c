/*
 * resolve_rpma.c — librpma steps -> struct hcall.
 * (Skeleton: the librpma backend encodes these.)
 */
#include "harness/resolve_internal.h"

#include <errno.h>

int resolve_rpma(struct rctx *r, const struct scn_step *s, struct hcall *c)
{
	(void)r;
	(void)s;
	(void)c;
	return -EOPNOTSUPP;
}
