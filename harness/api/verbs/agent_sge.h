/* agent_sge.h — a send or receive WR's list of SGEs (agent_sge.c), for the verbs post request. Agent side only. */
#ifndef RDMACHECK_API_VERBS_AGENT_SGE_H
#define RDMACHECK_API_VERBS_AGENT_SGE_H

#include "harness/agent/agent_internal.h"

/*
 * The request's SGE list (nsge=N with s1.laddr= s1.lkey= s1.len= up to
 * N-1), after wr's first SGE (whose length, len=, is the WR's: it keeps the
 * rest): *list a new array of N SGEs (the caller frees
 * it once the post returned) that wr now points to; none (no nsge, or 1):
 * *list NULL, wr untouched. Returns 0, -EINVAL for a bad list, -ENOMEM.
 */
int agent_sge_list(struct agent *a, struct ibv_send_wr *wr, struct ibv_sge **list);
/* The same for any WR's sg_list and num_sge (a receive's: ibv_recv_wr). */
int agent_sge_fill(struct agent *a, struct ibv_sge **sg_list, int *num_sge, struct ibv_sge **list);

#endif
