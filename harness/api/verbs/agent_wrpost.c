/* agent_wrpost.c — one send WR through the ibv_wr_* API (agent_wrpost.h). */
#include "harness/api/verbs/agent_wrpost.h"

#include <errno.h>

/* Whether qx's provider gave the builder of opcode op (NULL: not in its send_ops_flags). */
static int has_builder(const struct ibv_qp_ex *qx, enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND: return qx->wr_send != NULL;
	case IBV_WR_SEND_WITH_IMM: return qx->wr_send_imm != NULL;
	case IBV_WR_SEND_WITH_INV: return qx->wr_send_inv != NULL;
	case IBV_WR_RDMA_WRITE: return qx->wr_rdma_write != NULL;
	case IBV_WR_RDMA_WRITE_WITH_IMM: return qx->wr_rdma_write_imm != NULL;
	case IBV_WR_RDMA_READ: return qx->wr_rdma_read != NULL;
	case IBV_WR_ATOMIC_CMP_AND_SWP: return qx->wr_atomic_cmp_swp != NULL;
	case IBV_WR_ATOMIC_FETCH_AND_ADD: return qx->wr_atomic_fetch_add != NULL;
	case IBV_WR_BIND_MW: return qx->wr_bind_mw != NULL;
	case IBV_WR_LOCAL_INV: return qx->wr_local_inv != NULL;
	default: return 0;
	}
}

/* The builder of wr->opcode on qx (has_builder said it is there). */
static void build(struct ibv_qp_ex *qx, const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_SEND: ibv_wr_send(qx); break;
	case IBV_WR_SEND_WITH_IMM: ibv_wr_send_imm(qx, wr->imm_data); break;
	case IBV_WR_SEND_WITH_INV: ibv_wr_send_inv(qx, wr->invalidate_rkey); break;
	case IBV_WR_RDMA_WRITE: ibv_wr_rdma_write(qx, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr); break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		ibv_wr_rdma_write_imm(qx, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr, wr->imm_data);
		break;
	case IBV_WR_RDMA_READ: ibv_wr_rdma_read(qx, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr); break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		ibv_wr_atomic_cmp_swp(qx, wr->wr.atomic.rkey, wr->wr.atomic.remote_addr, wr->wr.atomic.compare_add,
				      wr->wr.atomic.swap);
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		ibv_wr_atomic_fetch_add(qx, wr->wr.atomic.rkey, wr->wr.atomic.remote_addr, wr->wr.atomic.compare_add);
		break;
	case IBV_WR_BIND_MW: ibv_wr_bind_mw(qx, wr->bind_mw.mw, wr->bind_mw.rkey, &wr->bind_mw.bind_info); break;
	case IBV_WR_LOCAL_INV: ibv_wr_local_inv(qx, wr->invalidate_rkey); break;
	default: break;
	}
}

/* The setter of wr's SGEs on the WR just built: none without SGEs, nor for a bind or a local invalidation. */
static void payload(struct ibv_qp_ex *qx, const struct ibv_send_wr *wr)
{
	const struct ibv_sge *sg = wr->sg_list;

	if (wr->opcode == IBV_WR_BIND_MW || wr->opcode == IBV_WR_LOCAL_INV || wr->num_sge <= 0 || !sg)
		return;
	if (wr->num_sge == 1)
		ibv_wr_set_sge(qx, sg->lkey, sg->addr, sg->length);
	else
		ibv_wr_set_sge_list(qx, (size_t)wr->num_sge, sg);
}

int agent_wr_post(struct ibv_qp *qp, const struct ibv_send_wr *wr, int abandon)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(qp);

	if (!qx || !qx->wr_start || !qx->wr_complete || !has_builder(qx, wr->opcode) ||
	    (qp->qp_type == IBV_QPT_UD && !qx->wr_set_ud_addr))
		return EOPNOTSUPP;
	ibv_wr_start(qx);
	qx->wr_id = wr->wr_id;
	qx->wr_flags = wr->send_flags;
	build(qx, wr);
	if (qp->qp_type == IBV_QPT_UD)
		ibv_wr_set_ud_addr(qx, wr->wr.ud.ah, wr->wr.ud.remote_qpn, wr->wr.ud.remote_qkey);
	payload(qx, wr);
	if (abandon) {
		ibv_wr_abort(qx);
		return 0;
	}
	return ibv_wr_complete(qx);
}
