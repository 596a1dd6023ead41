/*
 * agent_sge.c — a send or receive WR with several SGEs: the list is an array of the
 * agent's heap that the post request frees as soon as ibv_post_send returns,
 * before the WR completes (the library copies what it needs at the post:
 * rdma-unit-test LoopbackRcQpTest.SgePointerChase).
 */
#include "harness/api/verbs/agent_sge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define AGENT_SGE_MAX 4 /* the model's M_SGE_MAX */

int agent_sge_list(struct agent *a, struct ibv_send_wr *wr, struct ibv_sge **list)
{
	return agent_sge_fill(a, &wr->sg_list, &wr->num_sge, list);
}

int agent_sge_fill(struct agent *a, struct ibv_sge **sg_list, int *num_sge, struct ibv_sge **list)
{
	uint64_t n = agent_num(a, "nsge", 1);

	*list = NULL;
	if (n <= 1)
		return 0;
	if (n > AGENT_SGE_MAX || *num_sge != 1)
		return -EINVAL;
	if (!(*list = calloc(n, sizeof(**list))))
		return -ENOMEM;
	(*list)[0] = (*sg_list)[0];
	for (unsigned i = 1; i < n; i++) {
		char k[16];

		snprintf(k, sizeof(k), "s%u.laddr", i);
		(*list)[i].addr = agent_num(a, k, 0);
		snprintf(k, sizeof(k), "s%u.lkey", i);
		(*list)[i].lkey = (uint32_t)agent_num(a, k, 0);
		snprintf(k, sizeof(k), "s%u.len", i);
		(*list)[i].length = (uint32_t)agent_num(a, k, 0);
		(*list)[0].length -= (*list)[i].length; /* len= is the WR's: the first SGE has the rest */
	}
	*sg_list = *list;
	*num_sge = (int)n;
	return 0;
}
