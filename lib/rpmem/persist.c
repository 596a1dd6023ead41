/*
 * persist.c — rpmem_persist, rpmem_deep_persist, rpmem_flush, rpmem_drain,
 * rpmem_read: librpmem's checks in its order (RPMEM-PERSIST-1), then the
 * lane's transfer (lanes.c). A transfer that fails is kept in the handle
 * (RPMEM-ERR-1): every later data call returns it again.
 */
#include "lib/rpmem/client.h"

#include <errno.h>
#include <string.h>

enum call { PERSIST, DEEP, FLUSH };

/* errno e, -1. */
static int fail(int e, const char *what)
{
	rpmem_msg_set("%s", what);
	errno = e;
	return -1;
}

/* Keep a transfer failure (-rc) and return it. */
static int keep(RPMEMpool *rpp, int rc)
{
	rpp->error = -rc;
	return fail(-rc, rc == -ECONNABORTED ? "the connection to the target broke" : "a transfer failed");
}

/* The checks of persist/deep_persist/flush. 0: go on; 1: nothing to do (length 0); -1: failed. */
static int check(RPMEMpool *rpp, enum call c, size_t offset, size_t length, unsigned lane, unsigned flags)
{
	unsigned ok = c == PERSIST ? RPMEM_PERSIST_RELAXED : c == FLUSH ? RPMEM_FLUSH_RELAXED : 0;

	if (rpp->error)
		return fail(rpp->error, "an earlier call failed: only rpmem_close is left");
	if (flags & ~ok)
		return fail(EINVAL, "invalid flags");
	if (rpp->hdr && offset < RPMEM_HDR_SIZE)
		return fail(EINVAL, "offset inside the pool header (below 4096)");
	if (lane >= rpp->nlanes)
		return fail(EINVAL, "lane out of range");
	if (offset >= rpp->size || length > rpp->size - offset)
		return fail(EINVAL, "range outside the pool");
	return length == 0;
}

int rpmem_persist(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane, unsigned flags)
{
	int rc = check(rpp, PERSIST, offset, length, lane, flags);

	if (rc)
		return rc < 0 ? -1 : 0;
	if ((rc = rpmem_lane_write(&rpp->lanes, lane, offset, length)) != 0 ||
	    (rc = rpmem_lane_drain(&rpp->lanes, lane)) != 0)
		return keep(rpp, rc);
	return 0;
}

int rpmem_flush(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane, unsigned flags)
{
	int rc = check(rpp, FLUSH, offset, length, lane, flags);

	if (rc)
		return rc < 0 ? -1 : 0;
	if ((rc = rpmem_lane_write(&rpp->lanes, lane, offset, length)) != 0)
		return keep(rpp, rc);
	return 0;
}

int rpmem_drain(RPMEMpool *rpp, unsigned lane, unsigned flags)
{
	int rc;

	if (rpp->error)
		return fail(rpp->error, "an earlier call failed: only rpmem_close is left");
	if (flags)
		return fail(EINVAL, "invalid flags");
	if (lane >= rpp->nlanes)
		return fail(EINVAL, "lane out of range");
	if ((rc = rpmem_lane_drain(&rpp->lanes, lane)) != 0)
		return keep(rpp, rc);
	return 0;
}

int rpmem_deep_persist(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane)
{
	struct rpmem_msg req = { .type = RPMEM_MSG_DEEP, .offset = offset, .len = length }, resp;
	int rc = rpmem_persist(rpp, offset, length, lane, 0);

	if (rc || length == 0)
		return rc;
	if ((rc = rpmem_ctl(rpp, &req, &resp)) != 0)
		return keep(rpp, -ECONNABORTED);
	if (resp.status != RPMEM_ST_OK)
		return keep(rpp, -rpmem_status_errno(resp.status));
	return 0;
}

int rpmem_read(RPMEMpool *rpp, void *buff, size_t offset, size_t length, unsigned lane)
{
	int rc;

	if (rpp->error)
		return fail(rpp->error, "an earlier call failed: only rpmem_close is left");
	if (lane >= rpp->nlanes)
		return fail(EINVAL, "lane out of range");
	if (length == 0)
		return 0;
	if (offset >= rpp->size || length > rpp->size - offset)
		return fail(EINVAL, "range outside the pool");
	if ((rc = rpmem_lane_read(&rpp->lanes, lane, buff, offset, length)) != 0)
		return keep(rpp, rc);
	return 0;
}
