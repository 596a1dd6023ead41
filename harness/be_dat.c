/*
 * be_rpma.c — uDAPL calls on the real stack, through the node agents.
 * (Skeleton: the uDAPL backend encodes these.)
 */
#include "harness/be_verbs.h"

#include <errno.h>

int bv_exec_dat(struct be_verbs *bv, const struct hcall *c, struct hres *r)
{
	(void)bv;
	(void)c;
	(void)r;
	return -EOPNOTSUPP;
}
