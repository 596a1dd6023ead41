/*
 * agent_qpstate.h — the agent's QP transitions and UD address handles
 * (agent_qpstate.c), for the verbs requests (agent_verbs.c). Agent side only.
 */
#ifndef RDMACHECK_API_VERBS_AGENT_QPSTATE_H
#define RDMACHECK_API_VERBS_AGENT_QPSTATE_H

#include "harness/agent/agent_internal.h"

/*
 * Move QP o to state to (INIT from RESET, RTR from INIT, RTS from RTR) with
 * the attributes that transition takes for o's type, read from the request
 * (rqpn, rgid: an RC/UC RTR's remote QP; qkey: a UD QP's at INIT; connect's
 * options), minus the IBV_QP_* bits in omit. Returns 0 or a positive errno.
 */
int agent_qp_modify(struct agent *a, struct aobj *o, enum ibv_qp_state to, int omit);
/*
 * A send WR's UD part from the request (ah=ID rqpn=N qkey=K): 0 with
 * wr->wr.ud set, 0 untouched when the request names no AH, -EINVAL for an
 * AH that is not live.
 */
int agent_ud_wr(struct agent *a, struct ibv_send_wr *wr);
/* The requests (protocol: agent_qpstate.c's head): each answers and returns proto_send's. */
int agent_qp_to(struct agent *a);
int agent_create_ah(struct agent *a);
int agent_destroy_ah(struct agent *a);

/* agent_srq.c: the SRQ a create_qp request names (srq=ID; NULL: none), and the requests
 *   create_srq id pd max_wr      destroy_srq id      srq_recv id laddr lkey len
 *   modify_srq id mask max_wr limit (mask: 1 IBV_SRQ_MAX_WR, 2 IBV_SRQ_LIMIT)
 *   query_srq id                 ok max_wr=N max_sge=N srq_limit=N */
struct ibv_srq *agent_srq(struct agent *a);
int agent_create_srq(struct agent *a);
int agent_destroy_srq(struct agent *a);
int agent_srq_recv(struct agent *a);
int agent_modify_srq(struct agent *a);
int agent_query_srq(struct agent *a);

#endif
