/*
 * agent_rpma.c — the agent's uDAPL requests.
 * (Skeleton: no request yet; the uDAPL backend fills this table.)
 */
#include "harness/agent_internal.h"

const struct agent_req agent_dat_reqs[] = {
	{ NULL, NULL },
};

void agent_dat_end(struct agent *a)
{
	(void)a;
}
