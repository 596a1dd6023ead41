/* model_verbs.c — a verbs call's arguments as its model operation (family.h: model_op; struct m_verbs_args). */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/be_model.h"

#include <errno.h>
#include <string.h>

/* A create key's value: M_LIM_MAX or M_LIM_PAST set its bit k in *max or *past and give 0. */
static uint64_t lim_key(uint64_t v, uint8_t k, uint8_t *max, uint8_t *past)
{
	if (v != M_LIM_MAX && v != M_LIM_PAST)
		return v;
	*(v == M_LIM_MAX ? max : past) |= k;
	return 0;
}

int model_op_verbs(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_verbs *v = &c->verbs;
	struct m_verbs_args *a = &op->verbs;

	a->pd = a->mr = a->qp = a->peer_node = a->peer_qp = -1;
	if (bm_map(bm, v->pd, &a->pd) || bm_map(bm, v->mr, &a->mr) || bm_map(bm, v->qp, &a->qp))
		return -ENOENT;
	if (c->op == M_OP_CONNECT) {
		a->no_rd_atomic = (v->conn_set & (1u << HC_MAX_DEST_RD_ATOMIC)) && v->conn[HC_MAX_DEST_RD_ATOMIC] == 0;
		a->max_rd_atomic = (uint8_t)((v->conn_set & (1u << HC_MAX_RD_ATOMIC)) ? v->conn[HC_MAX_RD_ATOMIC] : M_RD_ATOMIC_DEFAULT);
		a->max_dest_rd_atomic =
			(uint8_t)((v->conn_set & (1u << HC_MAX_DEST_RD_ATOMIC)) ? v->conn[HC_MAX_DEST_RD_ATOMIC] : M_RD_ATOMIC_DEFAULT);
		a->path_mtu = (uint16_t)((v->conn_set & (1u << HC_MTU)) ? v->conn[HC_MTU] : M_PATH_MTU_DEFAULT);
		a->peer_node = v->peer_node;
		if ((a->peer_qp = bm_handle(bm, v->peer)) < 0)
			return -ENOENT;
	} else if (v->peer >= 0) { /* modify_qp RTR's peer=, a UD send's dest= */
		a->peer_node = v->peer_node;
		if ((a->peer_qp = bm_handle(bm, v->peer)) < 0)
			return -ENOENT;
	}
	int16_t srq = -1;

	a->ah = -1;
	if (bm_map(bm, v->ah, &a->ah) || bm_map(bm, v->srq, &srq))
		return -ENOENT;
	a->srq1 = (uint8_t)(srq + 1);
	a->qp_omit = v->qp_omit;
	a->qkey = v->qkey;
	a->ah_node = v->ah_node;
	a->dest_qpn = v->dest_qpn;
	a->access = v->access;
	a->rereg_flags = v->rereg_flags;
	a->zero_based = v->zero_based;
	a->bind_call = v->bind_call;
	a->mw_type = v->mw_type;
	a->qp_state = v->qp_state;
	a->max_recv_wr = lim_key(v->max_recv_wr, M_LIMK_RECV_WR, &a->lim_max, &a->lim_past);
	a->srq_mask = v->srq_mask;
	a->srq_limit = v->srq_limit;
	a->fields_of = v->fields_of;
	a->max_inline = v->max_inline;
	a->qp_type = v->qp_type;
	a->qp_ex = v->qp_ex;
	a->send_ops = v->send_ops;
	a->send_inline = v->send_inline;
	a->len = v->len;
	a->offset = c->op == M_OP_BIND_MW ? v->start : v->offset;
	a->iova = v->iova;
	a->has_iova = v->has_iova;
	a->prot = v->prot;
	a->in_buf = v->in_buf;
	a->buf_off = v->buf_off;
	a->lkey = v->lkey;
	a->laddr = v->laddr;
	a->rkey = (c->op == M_OP_LOCAL_INV || v->with_inv) ? v->inv_rkey : v->rkey;
	a->raddr = v->raddr;
	a->compare = v->compare;
	a->swap = v->swap;
	a->with_inv = v->with_inv;
	a->with_imm = v->with_imm;
	a->imm_data = v->imm_data;
	a->sig_all = v->sig_all;
	a->unsignaled = v->unsignaled;
	a->nowait = v->nowait;
	a->wr_api = v->wr_api;
	a->wr_id = v->wr_id;
	a->cq_depth = c->op == M_OP_CREATE_CQ ? (uint32_t)lim_key(v->cq_depth, M_LIMK_CQE, &a->lim_max, &a->lim_past)
					       : v->cq_depth;
	if (c->op == M_OP_CREATE_SRQ)
		(void)lim_key(v->srq_max_sge, M_LIMK_SGE, &a->lim_max, &a->lim_past);
	int16_t chan = -1;

	if (bm_map(bm, v->chan, &chan))
		return -ENOENT;
	a->chan1 = (uint8_t)(chan + 1);
	a->comp_vec = v->comp_vec;
	a->cq_ex = v->cq_ex;
	a->wc_flags = v->wc_flags;
	a->cq_flags = v->cq_flags;
	a->port = v->port;
	a->dev_ex = v->dev_ex;
	a->gid_empty = v->gid_empty;
	a->gid_none = v->gid_none;
	a->solicited = v->solicited;
	a->nack = v->nack;
	a->max_wc = v->max_wc;
	a->no_sge = v->no_sge;
	a->chain_errno = c->refused_errno;
	a->chain_pos = c->chain_pos;
	a->max_send_wr = (uint32_t)lim_key(v->max_send_wr, M_LIMK_SEND_WR, &a->lim_max, &a->lim_past);
	if (c->op == M_OP_CREATE_QP) /* the resolver gives the defaults: a 0 here was asked for */
		a->zero_wr = (uint8_t)((v->max_send_wr ? 0 : M_ZERO_SEND_WR) | (v->max_recv_wr ? 0 : M_ZERO_RECV_WR));
	a->garble = v->garble;
	a->nsge_more = v->nsge_more;
	memcpy(a->sge_more, v->sge_more, sizeof(a->sge_more));
	a->max_send_sge = (uint8_t)lim_key(v->max_send_sge, M_LIMK_SEND_SGE, &a->lim_max, &a->lim_past);
	a->max_recv_sge = (uint8_t)lim_key(v->max_recv_sge, M_LIMK_RECV_SGE, &a->lim_max, &a->lim_past);
	/* create_qp's CQs as handle + 1 (0: the QP's own) */
	if (bm_map(bm, v->scq, &a->scq) || bm_map(bm, v->rcq, &a->rcq))
		return -ENOENT;
	a->scq = v->scq >= 0 ? (int16_t)(a->scq + 1) : 0;
	a->rcq = v->rcq >= 0 ? (int16_t)(a->rcq + 1) : 0;
	return 0;
}
