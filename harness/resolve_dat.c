/*
 * resolve_dat.c — uDAPL steps -> struct hcall.
 * (Skeleton: the uDAPL backend encodes these.)
 */
#include "harness/resolve_internal.h"

#include <errno.h>

int resolve_dat(struct rctx *r, const struct scn_step *s, struct hcall *c)
{
	(void)r;
	(void)s;
	(void)c;
	return -EOPNOTSUPP;
}
