/*
 * agent_rpma.c — the agent's librpma requests.
 * (Skeleton: no request yet; the librpma backend fills this table.)
 */
#include "harness/agent_internal.h"

const struct agent_req agent_rpma_reqs[] = {
	{ NULL, NULL },
};

void agent_rpma_end(struct agent *a)
{
	(void)a;
}
