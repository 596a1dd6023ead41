/* model_verbs.c — a verbs call's arguments as its model operation (family.h: model_op; struct m_op). */
#include "harness/api/verbs/verbs.h"
#include "harness/run/be_model.h"

#include <errno.h>

int model_op_verbs(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_verbs *v = &c->verbs;

	if (bm_map(bm, v->pd, &op->pd) || bm_map(bm, v->mr, &op->mr) || bm_map(bm, v->qp, &op->qp))
		return -ENOENT;
	if (c->op == M_OP_CONNECT) {
		op->peer_node = v->peer_node;
		if ((op->peer_qp = bm_handle(bm, v->peer)) < 0)
			return -ENOENT;
	}
	op->access = v->access;
	op->flags = c->op == M_OP_BIND_MW ? v->zero_based : v->rereg_flags;
	op->type = c->op == M_OP_ALLOC_MW ? v->mw_type : c->op == M_OP_MODIFY_QP ? v->qp_state : v->bind_call;
	op->len = c->op == M_OP_CREATE_QP ? v->max_recv_wr : v->len;
	op->offset = c->op == M_OP_BIND_MW ? v->start : v->offset;
	op->iova = v->iova;
	op->has_iova = v->has_iova;
	op->prot = v->prot;
	op->lkey = v->lkey;
	op->laddr = v->laddr;
	op->rkey = (c->op == M_OP_LOCAL_INV || v->with_inv) ? v->inv_rkey : v->rkey;
	op->raddr = v->raddr;
	op->compare = v->compare;
	op->swap = v->swap;
	op->with_inv = v->with_inv;
	return 0;
}
