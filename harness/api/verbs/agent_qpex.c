/* agent_qpex.c — ibv_create_qp_ex for create_qp ex=1 (agent_qpex.h). */
#include "harness/api/verbs/agent_qpex.h"

struct ibv_qp *agent_qpex_create(struct ibv_pd *pd, const struct ibv_qp_init_attr *qia, uint64_t send_ops)
{
	struct ibv_qp_init_attr_ex attr = {
		.qp_context = qia->qp_context,
		.send_cq = qia->send_cq,
		.recv_cq = qia->recv_cq,
		.srq = qia->srq,
		.cap = qia->cap,
		.qp_type = qia->qp_type,
		.sq_sig_all = qia->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD | (send_ops ? IBV_QP_INIT_ATTR_SEND_OPS_FLAGS : 0),
		.pd = pd,
		.send_ops_flags = send_ops,
	};

	return ibv_create_qp_ex(pd->context, &attr);
}
