/* apply.c — the uDAPL family's commit (catalog area C; dat/internal.h). */
#include "model/dat/internal.h"

#include <string.h>

_Static_assert(sizeof(((struct m_dat_node *)0)->alone) == M_MAX_CONN, "m_dat_node.alone: one per conn[]");


static int apply_lmr_create(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	struct m_op v = m_dat_lmr_reg_op(m, op);
	int rc;

	if (pred->alt[i].effect != M_EFF_DO)
		return 0;
	/* A provider that accepts REMOTE_WRITE without LOCAL_WRITE adds local write (DAT-LMR-3). */
	if (m_alt_has_rule(&pred->alt[i], M_RULE_DAT_LMR_3))
		v.verbs.access |= M_ACC_LOCAL_WRITE;
	rc = m_verbs_step_apply(m, &v, NULL, NULL, created);
	if (rc || *created < 0)
		return rc;
	struct m_mr *mr = &nd->mr[*created];

	mr->api = M_FAM_DAT;
	mr->usage = op->dat.priv;
	/* The contexts the model hands out: rmr_context is the lmr_context, as
	 * OFA over a verbs stack that keys both alike reports it (any non-zero
	 * rmr_context would do: DAT-LMR-8 judges reality by zero or not). */
	if (op->dat.priv & DAT_REMOTE_PRIV)
		mr->rkey = mr->lkey;
	return 0;
}

static int apply_ep_connect(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node], *pn = &m->node[op->dat.peer_node];
	int qa, qb, dummy, rc;

	if (nd->nconn >= M_MAX_CONN || pn->nconn >= M_MAX_CONN || nd->nqp >= M_MAX_QP || pn->nqp >= M_MAX_QP)
		return -ENOSPC;
	struct m_op v = { .kind = M_OP_CREATE_QP, .node = op->node, .verbs.pd = op->dat.pz, .verbs.access = M_ACC_REMOTE_ANY };

	rc = m_verbs_step_apply(m, &v, NULL, NULL, &qa);
	v.node = (uint8_t)op->dat.peer_node;
	v.verbs.pd = op->dat.peer_pz;
	if (rc == 0)
		rc = m_verbs_step_apply(m, &v, NULL, NULL, &qb);
	if (rc)
		return rc;
	v = (struct m_op){ .kind = M_OP_CONNECT, .node = op->node, .obj = (int16_t)qa, .verbs.peer_node = op->dat.peer_node,
			   .verbs.peer_qp = (int16_t)qb, .verbs.max_rd_atomic = M_RD_ATOMIC_DEFAULT,
			   .verbs.max_dest_rd_atomic = M_RD_ATOMIC_DEFAULT };
	/* (uDAPL connects with the endpoint's READ depths, at least one each: RA-RES-1, RA-RES-2) */
	rc = m_verbs_step_apply(m, &v, NULL, NULL, &dummy);
	if (rc)
		return rc;
	int ca = nd->nconn++, cb = pn->nconn++;

	nd->conn[ca] = (struct m_conn){ .live = 1, .ever = 1, .api = M_FAM_DAT, .qp = (int16_t)qa,
					 .peer_node = op->dat.peer_node, .peer_qp = (int16_t)qb, .peer_conn = (int16_t)cb,
					 .aux_mr = -1 };
	pn->conn[cb] = (struct m_conn){ .live = 1, .ever = 1, .api = M_FAM_DAT, .qp = (int16_t)qb,
					 .peer_node = op->node, .peer_qp = (int16_t)qa, .peer_conn = (int16_t)ca,
					 .aux_mr = -1 };
	nd->dat.alone[ca] = pn->dat.alone[cb] = op->dat.named;
	*created = ca;
	return 0;
}

/*
 * Disconnect (state ERR) or destroy both QPs of EP h on node n and its
 * peer's; an EP freed alone (m_dat_node.alone) destroys its own QP and
 * disconnects the peer's (dat_ep_free(3DAT): a connected EP is disconnected
 * first).
 */
static int apply_ep_act(struct model *m, const struct m_op *op)
{
	struct m_node *nd = &m->node[op->node];
	struct m_conn *c = &nd->conn[op->obj];
	int dummy, rc = 0, alone = op->kind == M_OP_DAT_EP_FREE && nd->dat.alone[op->obj];

	for (int side = 0; side < 2 && rc == 0; side++) {
		int n = side ? c->peer_node : op->node;
		int q = side ? c->peer_qp : c->qp;
		struct m_op v = { .kind = op->kind == M_OP_DAT_EP_FREE && !(alone && side) ? M_OP_DESTROY_QP
											      : M_OP_MODIFY_QP,
				  .verbs.qp_state = M_QPS_ERR };

		if (n < 0 || q < 0 || !m->node[n].qp[q].live)
			continue;
		if (v.kind == M_OP_MODIFY_QP && m->node[n].qp[q].state == M_QPS_ERR)
			continue;
		v.node = (uint8_t)n;
		v.obj = (int16_t)q;
		rc = m_verbs_step_apply(m, &v, NULL, NULL, &dummy);
	}
	if (op->kind == M_OP_DAT_EP_FREE) {
		c->live = 0;
		if (!alone && c->peer_node >= 0 && c->peer_conn >= 0)
			m->node[c->peer_node].conn[c->peer_conn].live = 0;
	}
	return rc;
}

int m_dat_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	const struct m_alt *a = &pred->alt[i];
	struct m_node *nd = &m->node[op->node];

	if (a->effect == M_EFF_CRASH) {
		m->crashed = 1;
		return 0;
	}
	switch ((enum m_op_kind)op->kind) {
	case M_OP_DAT_IA_OPEN:
		if (a->effect == M_EFF_DO)
			nd->dat.ia_open = (uint8_t)(1 + op->dat.ia);
		return 0;
	case M_OP_DAT_PZ_CREATE: {
		struct m_op v = { .kind = M_OP_ALLOC_PD, .node = op->node };
		int rc;

		if (a->effect != M_EFF_DO)
			return 0;
		rc = m_verbs_step_apply(m, &v, NULL, NULL, created);
		if (rc == 0 && *created >= 0)
			nd->pd[*created].api = M_FAM_DAT;
		return rc;
	}
	case M_OP_DAT_PZ_FREE:
	case M_OP_DAT_LMR_FREE:
	case M_OP_DAT_RMR_FREE: {
		static const uint8_t verb[] = { [M_OP_DAT_PZ_FREE] = M_OP_DEALLOC_PD,
						[M_OP_DAT_LMR_FREE] = M_OP_DEREG_MR,
						[M_OP_DAT_RMR_FREE] = M_OP_DEALLOC_MW };
		struct m_op v = { .kind = verb[op->kind], .node = op->node, .obj = op->obj };
		int dummy;

		return a->effect == M_EFF_DO ? m_verbs_step_apply(m, &v, NULL, NULL, &dummy) : 0;
	}
	case M_OP_DAT_LMR_CREATE:
		return apply_lmr_create(m, pred, i, created);
	case M_OP_DAT_RMR_CREATE: {
		struct m_op v = { .kind = M_OP_ALLOC_MW, .node = op->node, .verbs.pd = op->dat.pz, .verbs.mw_type = M_MW_TYPE_1 };

		return a->effect == M_EFF_DO ? m_verbs_step_apply(m, &v, NULL, NULL, created) : 0;
	}
	case M_OP_DAT_EP_CONNECT:
		return a->effect == M_EFF_DO ? apply_ep_connect(m, op, created) : 0;
	case M_OP_DAT_EP_DISCONNECT:
	case M_OP_DAT_EP_FREE:
		return a->effect == M_EFF_DO ? apply_ep_act(m, op) : 0;
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ: {
		struct m_op v = m_dat_dto_op(m, op);
		int rc;

		if (a->effect == M_EFF_NONE)
			return 0;
		rc = m_verbs_step_apply(m, &v, &pred->res, a, created);
		*created = -1;
		return rc;
	}
	case M_OP_DAT_RMR_BIND: {
		struct m_op v = m_dat_bind_op(m, op);
		int rc;

		if (a->effect == M_EFF_NONE)
			return 0;
		rc = m_verbs_step_apply(m, &v, &pred->res, a, created);
		*created = -1;
		return rc;
	}
	case M_OP_DAT_LMR_QUERY:
	default:
		return 0;
	}
}
