/*
 * be_rpma.c — librpma calls on the real stack, through the node agents.
 * (Skeleton: the librpma backend encodes these.)
 */
#include "harness/be_verbs.h"

#include <errno.h>

int bv_blob_rpma(struct be_verbs *bv, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	(void)bv;
	(void)obj;
	(void)buf;
	(void)cap;
	(void)len;
	return -EINVAL;
}

int bv_exec_rpma(struct be_verbs *bv, const struct hcall *c, struct hres *r)
{
	(void)bv;
	(void)c;
	(void)r;
	return -EOPNOTSUPP;
}
